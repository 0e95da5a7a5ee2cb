package d20

import (
	"math/bits"

	"simctl/sim"
)

// Delay (SRD "Delay"): on its turn a combatant takes no action and acts
// later in the same round, at a count it names or right after a combatant
// it names. It never interrupts anyone: a delayed combatant steps in only
// between turns. Its initiative becomes the count at which it acts, for the
// rest of the fight. If its next turn comes and it still has not acted, the
// delayed action is lost (turn does that). If it acts in the next round
// before its old turn comes up, its entry moves there and it gets no regular
// action that round (moving the entry removes the old turn).
//
// "Right after a combatant it names" means after that combatant's next
// action: its regular action, its delayed action or its readied action
// (readying counts; delaying does not, as no action is taken). The waiter
// steps in when the turn in which that action happened is over, so a
// readied action taken in the middle of someone else's turn lets the waiter
// act only after that turn. A waiter whose named combatant cannot act
// before the waiter's next turn acts at the end of the round instead (see
// resumeDelayedAtEnd): the source lets a delayer "wait until some time
// later in the round and act then".

func (t *Table) startDelay(i int, p *Plan) {
	t.tactics = true
	f := &t.f[i]
	if f.delayed { // not reached (a turn ends a delay), but keeps the masks exact
		t.undelay(i)
	}
	f.delayed = true
	f.delayAfter = p.DelayAfter
	if p.DelayAfter >= 0 {
		t.delayWait |= 1 << uint(i)
	} else {
		t.delayCount |= 1 << uint(i)
	}
	// Delaying only ever lowers initiative ("you voluntarily reduce your
	// own initiative result"): a count above its own is its own count.
	f.delayTo = min(p.DelayTo, f.count)
	f.delayMark = t.seq
	t.c.Inc(t.side(i), sim.Delays)
	if p.DelayAfter >= 0 {
		if t.log != nil {
			t.logf("%s delays until %s has acted", t.name(i), t.name(p.DelayAfter))
			t.ev(sim.Event{Kind: sim.EvDelay, Actor: i, Target: p.DelayAfter, Rule: "after"})
		}
	} else {
		if t.log != nil {
			t.logf("%s delays to count %d", t.name(i), f.delayTo)
			t.ev(sim.Event{Kind: sim.EvDelay, Actor: i, Target: sim.NoOne, Need: f.delayTo, Rule: "count"})
		}
	}
}

// resumeDelayedAtCount lets combatants delaying to a count higher than
// next's act before next, the highest count first. It reports whether any
// did.
func (t *Table) resumeDelayedAtCount(next int) bool {
	if !t.tactics || !t.countDue(next) {
		return false // the scan below would find no one
	}
	did := false
	for {
		d := -1
		for _, k := range t.order {
			f := &t.f[k]
			if f.delayed && f.delayAfter < 0 && !f.out && k != next && f.delayTo > t.f[next].count &&
				(d < 0 || f.delayTo > t.f[d].delayTo) {
				d = k
			}
		}
		if d < 0 {
			break
		}
		t.place(d, next, false)
		t.resumeAt(d, t.f[d].delayTo)
		did = true
		if t.over() {
			break
		}
		t.resumeWaiters(d)
		if t.over() {
			break
		}
	}
	if did {
		t.cur = t.index(next)
	}
	return did
}

// countDue reports whether some combatant delaying to a count would act
// before next: the test of resumeDelayedAtCount's scan, asked only of
// those delaying to a count (delayCount), in any order.
func (t *Table) countDue(next int) bool {
	c := t.f[next].count
	for m := t.delayCount &^ (1 << uint(next)); m != 0; m &= m - 1 {
		f := &t.f[bits.TrailingZeros64(m)]
		if f.delayed && f.delayAfter < 0 && !f.out && f.delayTo > c {
			return true
		}
	}
	return false
}

// waiterDue reports whether some combatant waiting for a named combatant
// may act now: the test of resumeWaiters' scan, asked only of those
// waiting (delayWait), in any order.
func (t *Table) waiterDue() bool {
	for m := t.delayWait; m != 0; m &= m - 1 {
		f := &t.f[bits.TrailingZeros64(m)]
		if !f.delayed || f.delayAfter < 0 || f.out {
			continue
		}
		if x := &t.f[f.delayAfter]; x.lastAct <= f.delayMark && !(x.out && x.outAt > f.delayMark) {
			continue
		}
		return true
	}
	return false
}

// undelay ends i's delay (taken, lost or out of the fight).
func (t *Table) undelay(i int) {
	t.f[i].delayed = false
	t.delayCount &^= 1 << uint(i)
	t.delayWait &^= 1 << uint(i)
}

// resumeWaiters runs between turns, when the turn (or delayed action) of
// anchor is over: combatants waiting for a named combatant that has acted
// since they began to wait act now, right after anchor, at anchor's count.
// It leaves t.cur on the last of them (or anchor).
func (t *Table) resumeWaiters(anchor int) {
	if !t.tactics {
		return // nothing moved: t.cur is still on anchor
	}
	if !t.waiterDue() {
		// The scan would resume no one and end on anchor's entry.
		if t.cur >= len(t.order) || t.order[t.cur] != anchor {
			t.cur = t.index(anchor)
		}
		return
	}
	for k := 0; k < len(t.order); k++ {
		d := t.order[k]
		f := &t.f[d]
		// Waiting for X ends when X acts, or when X drops while it waits: a
		// delayer may act whenever it likes, and waiting for someone who
		// can no longer act is nobody's tactic. (X already down when the
		// wait began: the waiter acts at the end of the round, see
		// resumeDelayedAtEnd.)
		if !f.delayed || f.delayAfter < 0 || f.out {
			continue
		}
		if x := &t.f[f.delayAfter]; x.lastAct <= f.delayMark && !(x.out && x.outAt > f.delayMark) {
			continue
		}
		t.place(d, anchor, true)
		t.resumeAt(d, t.f[anchor].count)
		anchor = d // several waiting for the same combatant keep their order
		k = -1     // the order changed (and d acted: its own waiters come next)
		if t.over() {
			return
		}
	}
	t.cur = t.index(anchor)
}

// resumeDelayedAtEnd: a count below everyone else's comes at the end of the
// round, the highest such count first. Then a combatant still waiting for a
// named combatant whose action cannot come before its own next turn acts
// here, at the latest point of the round the SRD allows ("you can act at any
// later point in the round"): the named combatant is out of the fight, or
// is itself delaying for someone (two waiting for each other), or comes
// after the waiter in the order (the waiter's next turn, which would forfeit
// the delayed action, comes first). A waiter whose named combatant still
// has its turn before the waiter's next one keeps waiting into the next
// round.
func (t *Table) resumeDelayedAtEnd() {
	if !t.tactics {
		return
	}
	for {
		d := -1
		for _, k := range t.order {
			if t.delayCount == 0 {
				break // no one delays to a count: the scan would find no one
			}
			f := &t.f[k]
			if f.delayed && f.delayAfter < 0 && !f.out && (d < 0 || f.delayTo > t.f[d].delayTo) {
				d = k
			}
		}
		count := 0
		if d >= 0 {
			count = t.f[d].delayTo
		} else if d = t.stranded(); d >= 0 {
			count = min(t.f[d].count, t.f[t.order[len(t.order)-1]].count)
		} else {
			return
		}
		// d may already be last (everyone else acted before its count):
		// then it stays where it is.
		if last := t.order[len(t.order)-1]; last != d {
			t.place(d, last, true)
		}
		t.resumeAt(d, count)
		if t.over() {
			return
		}
		t.resumeWaiters(d)
		if t.over() {
			return
		}
	}
}

// stranded returns the first combatant in the order that waits for a named
// combatant who cannot act before the waiter's next turn, or -1.
func (t *Table) stranded() int {
	if t.delayWait == 0 {
		return -1 // no one waits for a named combatant
	}
	for k, d := range t.order {
		f := &t.f[d]
		if !f.delayed || f.delayAfter < 0 || f.out {
			continue
		}
		x := f.delayAfter
		if t.f[x].out || t.f[x].delayed || t.index(x) > k {
			return d
		}
	}
	return -1
}

// resumeAt takes d's delayed action; its initiative becomes count.
func (t *Table) resumeAt(d, count int) {
	f := &t.f[d]
	t.undelay(d)
	f.count = count
	if t.log != nil {
		t.logf("%s takes its delayed action at count %d", t.name(d), count)
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: d, Target: sim.NoOne, Roll: count, Amount: t.f[d].hp, Rule: "delayed"})
	}
	if t.g.traits != nil {
		t.traitCount(mDelayTaken, d, -1)
	}
	t.actor, t.cur = d, t.index(d)
	t.resume = true
	p := &t.plan
	t.decide(d, p)
	t.resume = false
	if p.Do == Ready {
		if p.Advance {
			t.advance(d, p.Target)
			if t.f[d].out {
				t.actor = -1
				return
			}
		}
		t.startReady(d, p)
	} else {
		// Delaying again is for the next turn, not within a delayed action.
		if p.Special > 0 {
			t.special(d, p.Special-1)
		} else {
			t.act(d, p)
		}
	}
	t.actor = -1
}
