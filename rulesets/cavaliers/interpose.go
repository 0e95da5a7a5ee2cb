package cavaliers

import "simctl/sim"

// Interpose (source): "For one attack, you make yourself the target of
// someone else's attack, instead of the attacker's intended target. This
// can be used to protect any target in the same Area, or as a combined
// action with a Move to protect a target in an adjacent Area. Alternately,
// an Interpose can be used to prevent an opponent in the same Area from
// leaving that Area; this blocks the opponent's movement but does not
// redirect the attack. You can Interpose only once per round."
//
// Readings taken here:
//   - Only the intended target's allies interpose for it (an enemy of the
//     target has no reason to take the blow); the attacker and the target
//     themselves cannot.
//   - The redirect is decided when the attack is declared, before any
//     roll: the attack is rolled against the interposer's defence and its
//     damage is the interposer's. A Reprise of that attack (attack.go)
//     repeats it against the same interposer and is not open to a second
//     redirect: it is still the one attack.
//   - From an adjacent Area the interposer Moves into the target's Area.
//     That Move leaves an Area, so an opponent there may block it with its
//     own Interpose; then the redirect fails, the attack goes to the
//     intended target, and the interposer's Interpose is still spent (and
//     paid) for the round.
//   - "A combined action with a Move" spends the interposer's Move for the
//     round: one that has already Moved this round (on its turn, or a
//     blocked Move) cannot interpose from an adjacent Area, and one that
//     interposes with a Move before its turn takes that turn without a
//     Move. A blocked interposing Move is spent too, like a turn's blocked
//     Move.
//   - The once-per-round limit is shared by both uses: an Interpose spent
//     blocking cannot also redirect that round, and vice versa.
//   - Candidates are asked in this round's order (the initiative ranking,
//     seizers ahead); the first that wants to and may, does.

// redirect offers the attack of a on tg to tg's allies and returns the
// combatant who will take it.
func (t *Table) redirect(a, tg int) int {
	if t.able[Interpose] == 0 {
		return tg
	}
	at := t.f[tg].area
	for _, s := range t.order {
		if t.able[Interpose]&(1<<(uint(s)&63)) == 0 || s == tg || s == a || t.side(s) != t.side(tg) || !t.can(s, Interpose) {
			continue
		}
		d := abs(t.f[s].area - at)
		if d > 1 || d == 1 && t.Moved(s) || !t.g.C[s].Policy.Interpose(t, s, a, tg) {
			continue
		}
		t.pay(s, Interpose)
		if d == 1 {
			t.moved |= 1 << (uint(s) & 63)
			if t.log != nil {
				t.logf("%s interposes from Area %d with a Move to protect %s", t.name(s), t.f[s].area, t.name(tg))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: s, Target: a, Amount: tg, Rule: "interpose with a Move"})
			}
			if !t.move(s, at) {
				if t.log != nil {
					t.logf("  the Move is blocked: %s still takes the attack", t.name(tg))
					t.ev(sim.Event{Kind: sim.EvLost, Actor: s, Target: tg, Rule: "interpose Move blocked"})
				}
				return tg
			}
			t.c.Inc(t.side(s), InterposeMoves)
		} else if t.log != nil {
			t.logf("%s interposes: takes %s's attack instead of %s", t.name(s), t.name(a), t.name(tg))
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: s, Target: a, Amount: tg, Rule: "interpose"})
		}
		return s
	}
	return tg
}

// block offers m's Move out of its Area (to Area to) to the opponents in
// that Area; it returns the combatant who blocks it, or -1.
func (t *Table) block(m, to int) int {
	if t.able[Interpose] == 0 {
		return -1
	}
	from := t.f[m].area
	for _, s := range t.order {
		if t.able[Interpose]&(1<<(uint(s)&63)) == 0 || t.side(s) == t.side(m) || t.f[s].area != from || !t.can(s, Interpose) {
			continue
		}
		if !t.g.C[s].Policy.Block(t, s, m, to) {
			continue
		}
		t.pay(s, Interpose)
		t.c.Inc(t.side(s), Blocks)
		return s
	}
	return -1
}
