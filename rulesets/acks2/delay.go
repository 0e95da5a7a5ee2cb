package acks2

import "simctl/sim"

// Delay (Delaying Actions): "In its initiative segment a combatant may
// choose to delay to a lower initiative number, down to the negative of its
// initiative number. For example, a character with initiative 5 may delay
// until the count reaches -5. If the character does not take its segment by
// then, it loses the opportunity to act this round. A combatant may begin
// its actions when the count reaches a lower number of its choosing, or may
// wait until another combatant acts; then its actions happen immediately
// after that character, on the same initiative number."
//
// Readings: a count below the limit is taken as the limit; a number of 0 or
// less has no lower count to delay to, but may wait for a named combatant
// acting later on the same number; a wait for a named combatant is bounded
// by the same limit (expireDelays). A combatant delaying to a count acts on
// it under the same-number rule with those whose number it is. Waiting for a
// combatant that will not act this round (out, already acted, gave its
// number) is no delay: it acts at once; if the named one goes out or loses
// its action while it waits, it acts right after that happens.
//
// startDelay reports whether i is now delaying; false means it acts now.
func (t *Table) startDelay(i int, p Plan) bool {
	f := &t.f[i]
	if p.DelayAfter >= 0 {
		x := p.DelayAfter
		if x == i || x >= len(t.f) {
			return false
		}
		xf := &t.f[x]
		if xf.out || (xf.segDone && !xf.delaying) {
			if t.log != nil {
				t.logf("%s would wait for %s, who will not act again this round: it acts now", t.name(i), t.name(x))
				t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: x, Rule: "delay: waits for no one"})
			}
			return false
		}
		f.delaying, f.delayAfter = true, x
		t.delayers++
		t.c.Inc(t.side(i), sim.Delays)
		if t.log != nil {
			t.logf("%s delays until %s has acted (limit: count %d)", t.name(i), t.name(x), f.floor)
			t.ev(sim.Event{Kind: sim.EvDelay, Actor: i, Target: x, Need: f.floor, Rule: "after"})
		}
		return true
	}
	to := p.DelayTo
	if to < f.floor {
		to = f.floor
	}
	if to >= t.now {
		if t.log != nil && p.DelayTo < t.now {
			t.logf("%s cannot delay below count %d: it acts now", t.name(i), f.floor)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Need: f.floor, Rule: "delay: below the limit"})
		}
		return false
	}
	f.delaying, f.delayAfter, f.delayTo = true, -1, to
	t.delayers++
	t.c.Inc(t.side(i), sim.Delays)
	if t.log != nil {
		if to != p.DelayTo {
			t.logf("%s delays to count %d (asked %d; the limit is the negative of its number)", t.name(i), to, p.DelayTo)
			t.ev(sim.Event{Kind: sim.EvDelay, Actor: i, Target: sim.NoOne, Need: to, Amount: p.DelayTo, Rule: "count, limited"})
		} else {
			t.logf("%s delays to count %d", t.name(i), to)
			t.ev(sim.Event{Kind: sim.EvDelay, Actor: i, Target: sim.NoOne, Need: to, Amount: p.DelayTo, Rule: "count"})
		}
	}
	return true
}
