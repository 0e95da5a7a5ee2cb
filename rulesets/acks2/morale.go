package acks2

import (
	"math/bits"

	"simctl/rulesets/internal/plain"
	"simctl/sim"
	"simctl/sim/msg"
)

// morale: "When the count is over, the referee checks the morale of every
// combatant that has taken enough damage and/or lost enough allies that it
// might retreat or flee." The excerpt gives neither the trigger nor the
// check; the digest's defaults are options:
//
//   - morale_trigger: every remaining member of a side that has lost half
//     its starting number (killed or fled) checks, and each combatant at or
//     below half its starting HP checks (half_side_or_half_hp, the
//     default; or only one of them, or none);
//   - morale_repeat: once (a trigger makes a combatant check only the first
//     round it holds) or every_round;
//   - the check: 2d6 + morale; at or below morale_flee_at (6) it flees: out
//     of the fight, counted as fled (flights), not killed. The book's
//     morale results short of flight (a retreat) are not modelled.
//
// A combatant caught by both triggers in one round checks once. The side
// trigger is judged before this round's checks, so losses to flight in
// one morale step count from the next round on.
func (t *Table) morale() {
	trig := t.g.Opt.MoraleTrigger
	if trig == MoraleNone {
		return
	}
	var sideHit [2]bool
	if trig == MoraleHalfSideOrHalfHP || trig == MoraleHalfSide {
		for s := 0; s < 2; s++ {
			lost := t.g.sideCount[s] - t.alive(s)
			if lost > 0 && 2*lost >= t.g.sideCount[s] && (t.g.Opt.MoraleEveryRound || !t.sideChecked[s]) {
				sideHit[s] = true
				t.sideChecked[s] = true
				if t.log != nil {
					t.logf("morale: %s have lost %d of %d", t.g.SideNames[s], lost, t.g.sideCount[s])
					t.ev(sim.Event{Kind: sim.EvMorale, Actor: sim.NoOne, Target: sim.NoOne, Amount: lost, Need: t.g.sideCount[s], Rule: "side losses"})
				}
			}
		}
	}
	for i := range t.f {
		f := &t.f[i]
		if f.out {
			continue
		}
		check := sideHit[t.side(i)]
		if (trig == MoraleHalfSideOrHalfHP || trig == MoraleHalfHP) && 2*f.hp <= f.maxHP &&
			(t.g.Opt.MoraleEveryRound || !f.hpChecked) {
			f.hpChecked = true
			check = true
		}
		if !check {
			continue
		}
		c := &t.g.C[i]
		var a, b int
		if t.wd { // shortcuts.go: two t.r.Die(6) written out
			hi, lo := bits.Mul64(t.r.Uint64(), 6)
			a = int(hi) + 1
			if lo < 6 {
				a = plain.Reroll(t.r, 6, hi, lo)
			}
			hi, lo = bits.Mul64(t.r.Uint64(), 6)
			b = int(hi) + 1
			if lo < 6 {
				b = plain.Reroll(t.r, 6, hi, lo)
			}
		} else {
			a, b = t.r.Die(6), t.r.Die(6)
		}
		mod := c.Morale
		if t.tr != nil {
			mod = t.traitMorale(i, mod)
		}
		total := a + b + mod
		t.c.Inc(c.Side, MoraleChecks)
		flees := total <= t.g.Opt.MoraleFleeAt
		if t.log != nil {
			res := "stands"
			if flees {
				res = "flees"
			}
			t.logf("morale: %s (hp %d of %d) rolls 2d6 %d+%d%s = %d: %s", c.Name, f.hp, f.maxHP, a, b, signedOrEmpty(mod), total, msg.New(res))
			t.ev(sim.Event{Kind: sim.EvMorale, Actor: i, Target: sim.NoOne, Die: a + b, Roll: total, Need: t.g.Opt.MoraleFleeAt, OK: !flees, Amount: f.hp})
		}
		if flees {
			t.takeOut(i)
			f.fled = true
			t.c.Inc(c.Side, Flights)
		}
	}
}

func signedOrEmpty(v int) string {
	if v == 0 {
		return ""
	}
	return " " + signed(v)
}
