package lotm

import (
	"math/bits"

	"simctl/sim"
)

// Ambush: a battle suddenly started by a side that has not been
// discovered. Four kinds:
//
// Pre-combat ambush. When combatants of one side are unaware (aware: false)
// and the other side is not, the aware side gets 1 Ambush Round before the
// regular rounds: its combatants act in initiative order; until the round
// ends they have Advantage and the ambushed (the unaware) Disadvantage. If
// the ambushers are not detected (option ambush_detection: Stealth against
// Investigation, rolled as the round starts, with the round's own
// Advantage/Disadvantage) the ambushed are also Caught Off Guard until it
// ends. Aware combatants of the ambushed side are not ambushed and do not
// act in the Ambush Round.
//
// Inserted ambush. Combatants with joins_round: N are not in the battle
// before round N (not targetable, not counted for flanking; their side is
// not beaten while they are still to come). At the start of round N they
// join; with joins_ambush (default) that is an Ambush Round of their own,
// with the same checks and benefits as a pre-combat ambush, against the
// enemies then in the battle. Then round N is played with them in it.
//
// Mid-combat ambush (movement: field teleport, N flame-jumps per
// encounter). The ambusher's turn is brought forward: its turn is inserted
// before the current actor's (Policy.Insert), no Ambush Round; the teleport
// (a Move action) puts it next to its target and only the one immediate
// attack after it has the ambush's Advantage. When the actor had already
// started an Attack or Casting action, that action completes first. The
// inserted turn is the ambusher's turn of this round (it must not have acted
// yet); inserted during an Ambush Round, by one of the ambushed, it is its
// turn of the regular round that follows. Option insert_order says whether
// its place in the initiative order moves for later rounds. No insertion is
// made into an inserted turn or into a delayed action.
//
// Invisibility ambush (field invisibility: the action that hides it). A
// hidden combatant cannot be chosen as a target by enemies. Attacking from
// hiding is a mid-combat ambush on its own turn, or with its turn brought
// forward as above: the target first makes an Investigation check against
// its Stealth; if the target finds it the ambush fails and it is a normal
// attack, else the attack has the ambush's Advantage. Either way attacking
// gives its position away, and it may hide again later (repeatable). Option
// search: enemies also look for it at the start of each of their turns.
//
// Stacking: an in-combat ambush's Advantage lasts for that one check and
// does not stack with an Ambush Round's; made by the ambushed side during an
// Ambush Round it cancels that round's Disadvantage for that check
// (checks.go).

// preCombat finds a pre-combat ambush: the side of the unaware combatants
// in the battle is ambushed, the other side ambushes. It returns -1 when no
// one is unaware (Compile rejects unaware combatants on both sides).
func (t *Table) preCombat() (side int, ambushers, ambushed uint64) {
	side = -1
	for i := range t.f {
		if t.present(i) && !t.g.C[i].Aware {
			ambushed |= 1 << uint(i)
			side = 1 - t.side(i)
		}
	}
	if side < 0 {
		return -1, 0, 0
	}
	for i := range t.f {
		if t.present(i) && t.side(i) == side {
			ambushers |= 1 << uint(i)
		}
	}
	if ambushers == 0 {
		return -1, 0, 0
	}
	return side, ambushers, ambushed
}

// join brings in the combatants whose round has come: those joining by
// ambush get an Ambush Round, one per side, the side of the earliest in
// initiative order first.
func (t *Table) join(round int) {
	if !t.lateJoin { // everyone joined at the start
		return
	}
	var amb [2]uint64
	firstSide := -1
	for _, i := range t.order {
		c := &t.g.C[i]
		if c.JoinsRound != round || round == 1 || t.f[i].joined || t.f[i].out {
			continue
		}
		t.f[i].joined = true
		t.in |= 1 << uint(i)
		t.presence++
		if t.log != nil {
			t.logf("%s joins the battle", c.Name)
			t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: sim.NoOne, Rule: "join"})
		}
		if c.JoinAmbush {
			amb[c.Side] |= 1 << uint(i)
			if firstSide < 0 {
				firstSide = c.Side
			}
		}
	}
	for k := 0; k < 2 && firstSide >= 0; k++ {
		s := firstSide ^ k
		if amb[s] == 0 || t.over() {
			continue
		}
		var ambushed uint64
		for i := range t.f {
			if t.present(i) && t.side(i) != s {
				ambushed |= 1 << uint(i)
			}
		}
		if ambushed == 0 {
			continue
		}
		if t.log != nil {
			t.logf("-- inserted ambush: an Ambush Round for side %d's newcomers", s)
			t.ev(sim.Event{Kind: sim.EvAction, Actor: sim.NoOne, Target: sim.NoOne, Amount: s, Rule: "inserted ambush round"})
		}
		t.ambushRound(s, amb[s], ambushed)
	}
}

// ambushRound plays one Ambush Round for side s: ambushers act in
// initiative order with Advantage, the ambushed have Disadvantage and may be
// Caught Off Guard, until it ends.
func (t *Table) ambushRound(s int, ambushers, ambushed uint64) {
	t.newRound()
	for i := range t.f {
		f := &t.f[i]
		f.ambusher = ambushers&(1<<uint(i)) != 0
		f.ambushed = ambushed&(1<<uint(i)) != 0
		f.cog, f.spotted = false, 0
	}
	t.amb = true
	t.c.Inc(s, AmbushRounds)
	t.c.Add(s, Ambushes, int64(bits.OnesCount64(ambushers)))
	t.detect(ambushers, ambushed)
	if t.g.Opt.Intuition {
		t.spiritualIntuition()
	}
	if !t.walk(true) {
		t.endRound()
	}
	t.amb = false
	for i := range t.f {
		f := &t.f[i]
		f.ambusher, f.ambushed, f.cog, f.spotted = false, false, false, 0
	}
	if t.log != nil {
		t.logf("-- the Ambush Round ends")
		t.ev(sim.Event{Kind: sim.EvAction, Actor: sim.NoOne, Target: sim.NoOne, Rule: "ambush round ends"})
	}
}

// detect is the Ambush Round's Stealth against Investigation (option
// ambush_detection). The ambusher's check is the one rolled against the
// investigator's, and the Investigation resists (checks.go): a tie goes to
// the investigator under contest_ties defender.
func (t *Table) detect(ambushers, ambushed uint64) {
	switch t.g.Opt.Detection {
	case "none":
		for i := range t.f {
			t.f[i].cog = t.f[i].ambushed
		}
		if t.log != nil {
			t.logf("  no detection check: the ambushed are Caught Off Guard")
			t.ev(sim.Event{Kind: sim.EvCheck, Actor: sim.NoOne, Target: sim.NoOne, Rule: "detection: none"})
		}
	case "side":
		// One contest: the stealthiest link against the sharpest eye.
		a, d := -1, -1
		for _, i := range t.order {
			if ambushers&(1<<uint(i)) != 0 && (a < 0 || t.g.C[i].Stealth < t.g.C[a].Stealth) {
				a = i
			}
			if ambushed&(1<<uint(i)) != 0 && (d < 0 || t.g.C[i].Investig > t.g.C[d].Investig) {
				d = i
			}
		}
		if t.contest(a, t.g.C[a].Stealth, d, t.g.C[d].Investig, contestPerception, false, "ambush: stealth vs investigation") {
			for i := range t.f {
				t.f[i].cog = t.f[i].ambushed
			}
			if t.log != nil {
				t.logf("  the ambushers stay undetected: the ambushed are Caught Off Guard until the Ambush Round ends")
				t.ev(sim.Event{Kind: sim.EvCheck, Actor: sim.NoOne, Target: sim.NoOne, Rule: "detection"})
			}
		} else {
			t.c.Inc(t.side(a), AmbushesFoiled)
			if t.log != nil {
				t.logf("  the ambushers are noticed: no one is Caught Off Guard")
				t.ev(sim.Event{Kind: sim.EvCheck, Actor: sim.NoOne, Target: sim.NoOne, OK: true, Rule: "detection"})
			}
		}
	case "each":
		var spottedAny uint64
		for _, d := range t.order {
			if ambushed&(1<<uint(d)) == 0 {
				continue
			}
			t.f[d].cog = true
			for _, a := range t.order {
				if ambushers&(1<<uint(a)) == 0 {
					continue
				}
				if !t.contest(a, t.g.C[a].Stealth, d, t.g.C[d].Investig, contestPerception, false, "ambush: stealth vs investigation") {
					t.f[d].spotted |= 1 << uint(a)
					spottedAny |= 1 << uint(a)
				}
			}
		}
		if spottedAny != 0 {
			t.c.Add(t.side(bits.TrailingZeros64(spottedAny)), AmbushesFoiled, int64(bits.OnesCount64(spottedAny)))
		}
	}
}

// insertCandidates asks each enemy of actor that could make a mid-combat
// ambush now whether it does, and returns those that do.
func (t *Table) insertCandidates(actor int, attacking bool) uint64 {
	if t.inner || t.insNow[1-t.sd[actor]] == 0 { // inlined: most turns stop here
		return 0
	}
	return t.askInserts(actor, attacking)
}

// askInserts is insertCandidates once some enemy might.
func (t *Table) askInserts(actor int, attacking bool) (mask uint64) {
	cand := t.insNow[1-t.sd[actor]]
	if cand&(cand-1) == 0 {
		// One enemy could: ask it alone (the order matters only among several).
		e := bits.TrailingZeros64(cand)
		if t.canInsert(e) && t.g.C[e].Policy.Insert(t, e, actor, attacking) {
			mask = cand
		}
		return mask
	}
	for _, e := range t.order {
		if cand&(1<<(uint(e)&63)) != 0 && t.canInsert(e) && t.g.C[e].Policy.Insert(t, e, actor, attacking) {
			mask |= 1 << uint(e)
		}
	}
	return mask
}

// canInsert: e is in the battle, has its turn still to come (this round's,
// or during an Ambush Round the next round's), can act, and has a means of
// ambush: it is hidden, or it has a teleport left and the Move action to
// make it (the movement is the ambush: a combatant whose Move this round is
// already spent, e.g. moving away from an Intimidate, has no ambush to make
// and its turn stays where it is).
func (t *Table) canInsert(e int) bool {
	f := &t.f[e]
	return t.present(e) && !f.turnDone && !f.skipNext && !f.stunned && !t.restrained(e) &&
		(f.hidden || (f.teleports > 0 && t.canUse(e, KindMove)))
}

// runInserts plays the inserted turns of mask ahead of actor, in initiative
// order.
func (t *Table) runInserts(actor int, mask uint64) {
	for _, e := range t.order {
		if mask&(1<<(uint(e)&63)) == 0 || !t.canInsert(e) || !t.present(actor) {
			continue
		}
		t.insertTurn(e, actor)
		if t.over() {
			return
		}
	}
}

// insertTurn plays e's turn brought forward ahead of actor. The mid-combat
// ambush is what brings the turn forward, so the plan is asked first (as
// the ambush is decided, before the turn's start-of-turn steps) and an
// insertion whose plan has no enemy it can target is refused: no
// insertion, no interrupt, and the turn stays in its place.
func (t *Table) insertTurn(e, actor int) {
	f := &t.f[e]
	saved, sa := t.insrt, t.actor
	t.inner, t.insrt, t.actor = true, e, e
	p := t.g.C[e].Policy.Turn(t, e)
	t.actor = sa
	if tg := p.Target; tg < 0 || t.side(tg) == t.side(e) || !t.Targetable(e, tg) {
		t.inner, t.insrt = false, saved
		if t.log != nil {
			t.logf("%s has no enemy to ambush: its turn stays in its place", t.name(e))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: e, Target: actor, Rule: "insert: no enemy"})
		}
		return
	}
	t.c.Inc(t.side(e), Insertions)
	t.c.Inc(t.side(e), sim.Interrupts)
	if t.log != nil {
		t.logf("%s brings its turn forward, ahead of %s (mid-combat ambush)", t.name(e), t.name(actor))
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: e, Target: actor, Rule: "mid-combat ambush"})
	}
	if t.amb {
		f.skipNext = true
	}
	if t.g.Opt.InsertOrder == "move" {
		t.moveBefore(e, actor)
	}
	t.turnWith(e, &p)
	t.inner, t.insrt = false, saved
}

// teleport is the movement ambush: a Move action (one of its teleports)
// that lands next to tg; the one immediate attack after it has Advantage.
// It is not an approach that sets off enemy_in_reach: the point of it is
// that no one saw it coming.
func (t *Table) teleport(i, tg int) {
	f := &t.f[i]
	if f.teleports == 0 || !t.canUse(i, KindMove) {
		return
	}
	t.use(i, KindMove)
	t.leaveCover(i)
	f.teleports--
	if f.teleports == 0 && t.g.C[i].Invisible == KindNone {
		t.insNow[t.sd[i]] &^= 1 << uint(i) // no means of ambush left
	}
	t.x[i] = t.x[tg]
	f.ambushOne = true
	t.c.Inc(t.side(i), Ambushes)
	if t.log != nil {
		t.logf("  %s teleports to %s's face (movement ambush: advantage on the next attack)", t.name(i), t.name(tg))
		t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: tg, Rule: "teleport"})
	}
}

// hide uses the invisibility ability (its action) to become hidden from
// every enemy; hidden already, it does so only when some enemy has found it
// (hiding anew shakes it off).
func (t *Table) hide(i int) {
	k := t.g.C[i].Invisible
	f := &t.f[i]
	if k == KindNone || (f.hidden && f.seenBy == 0) || t.restrained(i) || !t.canUse(i, k) {
		return
	}
	t.use(i, k)
	f.hidden, f.seenBy, t.unusual = true, 0, true
	t.c.Inc(t.side(i), Hides)
	if t.log != nil {
		t.logf("  %s turns invisible (%s action)", t.name(i), KindNames[k])
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "hide: " + KindNames[k]})
	}
}

// search (option search: turn): at the start of its turn i makes one
// Investigation check against the Stealth of each enemy hidden from it;
// finding one lets i (and only i: "the target who discovers it") target it.
// No action.
func (t *Table) search(i int) {
	if t.hideBy[1-t.sd[i]] == 0 {
		return // no enemy can ever be hidden
	}
	for _, h := range t.order {
		if !t.hiddenFrom(h, i) || !t.present(h) {
			continue
		}
		if t.contest(i, t.g.C[i].Investig, h, t.g.C[h].Stealth, contestFind, false, "search: investigation vs stealth") {
			t.f[h].seenBy |= 1 << uint(i)
			t.c.Inc(t.side(i), HiddenFound)
			if t.log != nil {
				t.logf("  %s finds %s", t.name(i), t.name(h))
				t.ev(sim.Event{Kind: sim.EvCheck, Actor: i, Target: h, OK: true, Rule: "search"})
			}
		}
	}
}

// invisibilityAmbush: a attacks d from hiding. d's Investigation against
// a's Stealth: found, it is a normal attack; not found, the attack has the
// ambush's Advantage. A d that had already found a (search) makes no check:
// a normal attack. Either way a's position is given away, to everyone.
func (t *Table) invisibilityAmbush(a, d int) {
	if !t.hiddenFrom(a, d) {
		t.f[a].hidden, t.f[a].seenBy = false, 0
		if t.log != nil {
			t.logf("  %s had found %s: no ambush, a normal attack", t.name(d), t.name(a))
			t.ev(sim.Event{Kind: sim.EvCheck, Actor: d, Target: a, OK: true, Rule: "ambush: already found"})
		}
		return
	}
	found := t.contest(d, t.g.C[d].Investig, a, t.g.C[a].Stealth, contestFind, false, "invisibility ambush: investigation vs stealth")
	t.f[a].hidden, t.f[a].seenBy = false, 0
	if found {
		t.c.Inc(t.side(a), AmbushesFoiled)
		t.c.Inc(t.side(d), HiddenFound)
		if t.log != nil {
			t.logf("  %s finds %s: the ambush fails, a normal attack", t.name(d), t.name(a))
			t.ev(sim.Event{Kind: sim.EvCheck, Actor: d, Target: a, OK: true, Rule: "ambush: found"})
		}
		return
	}
	t.f[a].ambushOne = true
	t.c.Inc(t.side(a), Ambushes)
	if t.log != nil {
		t.logf("  %s ambushes from invisibility", t.name(a))
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: a, Target: d, Rule: "invisibility ambush"})
	}
}
