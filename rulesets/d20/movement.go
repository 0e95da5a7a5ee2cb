package d20

import (
	"math/bits"

	"simctl/sim"
)

// Positions are feet on a line: side 0 starts at 0, side 1 at the
// scenario's distance. A mover walks toward its target and stops where the
// target is within its reach. Moving out of a position an enemy threatens
// (within that enemy's reach) provokes an attack of opportunity from it,
// unless the enemy is flat-footed or has used its attacks of opportunity
// this round; a 5-foot step never provokes.
//
// No one moves through an enemy's square (SRD: an opponent's square can be
// passed only if it is helpless; those out of the fight are): a mover's path
// ends at the first enemy in the fight ahead of it, in the square before
// that enemy. A mover whose target stands beyond such an enemy engages the
// enemy in its way instead (blocker), and a 5-foot step, readied or not,
// never ends on or past an enemy's square (stepBlocked).

// move walks a up to feet toward d, one square (5 feet) at a time, so
// that what happens on the way happens where it does: leaving a threatened
// square provokes before the mover goes on, and entering an enemy's reach
// sets off its readied action there (interrupting the move), before the
// attack of opportunity the mover provokes by moving on out of that square.
// An attack that drops the mover stops it where it stands.
func (t *Table) move(a, d, feet int) {
	f := &t.f[a]
	if feet <= 0 {
		return
	}
	from := f.x
	dir := 1
	if t.f[d].x < f.x {
		dir = -1
	}
	goal := t.f[d].x - dir*t.g.C[a].Reach
	feet = min(feet, abs(goal-from))
	if feet <= 0 {
		return
	}
	to := from + dir*feet
	t.mv, t.mvFrom, t.mvTo = a, from, d
	// The bound is "short of to", not "!= to": positions need not lie on
	// the 5-foot grid when distance is not a multiple of 5, and the last
	// square is then shorter.
	es := 1 - t.side(a)
	for (to-f.x)*dir > 0 {
		// The squares on which nothing can happen, walked at once: nobody
		// holds an action readied against movement (no approach or entered
		// to ask) and the square left lies beyond every enemy's reach from
		// the span they stand in (provoke would return at once). Nothing
		// else reads the mover's position on the way: moved notes the
		// farthest point of a straight walk at its end as well as square
		// by square, and the enemies' span, recomputed here if stale, is
		// what provoke's next question would recompute.
		if t.readyShot == 0 && t.readyOn[OnEnemyInReach]|t.readyOn[OnCharge] == 0 && !noMoveSkip {
			if t.spanDirty[es] {
				t.respan(es)
			}
			zlo, zhi := t.lo[es]-t.reachMax[es], t.hi[es]+t.reachMax[es]
			if x := f.x; x < zlo || x > zhi {
				for (to-x)*dir > 0 && (x < zlo || x > zhi) {
					x += dir * min(5, abs(to-x))
				}
				t.firstAction(a)
				f.x = x
				t.moved(a)
				continue
			}
		}
		// A readied shot goes just before the step that sets it off, from
		// where the shooter stands (ready.go: approach).
		t.approach(a, f.x+dir*min(5, abs(to-f.x)))
		if f.out {
			break
		}
		t.provoke(a, f.x)
		if f.out {
			break
		}
		// An attack of opportunity for leaving the first square comes
		// before the mover has moved at all.
		t.firstAction(a)
		prev := f.x
		f.x = prev + dir*min(5, abs(to-prev))
		t.moved(a)
		t.entered(a, prev)
		if f.out {
			break
		}
	}
	t.logMove()
	t.mv = -1
	if !f.out && f.x != from {
		t.stopped(a, from)
	}
}

// noMoveSkip makes move walk every square one by one: for the test that
// compares the two.
var noMoveSkip = false

// logMove narrates the part of the move in progress walked since the last
// narration: before an interruption, and at the end.
func (t *Table) logMove() {
	if t.log == nil || t.mv < 0 {
		return
	}
	a := t.mv
	if x := t.f[a].x; x != t.mvFrom && !t.f[a].out {
		t.logf("%s moves %d ft (now %d ft from %s)", t.name(a), abs(x-t.mvFrom), t.Dist(a, t.mvTo), t.name(t.mvTo))
		t.ev(sim.Event{Kind: sim.EvMove, Actor: a, Target: t.mvTo, Amount: abs(x - t.mvFrom)})
		t.mvFrom = x
	}
}

// step is the 5-foot step: it provokes nothing, but it is movement, so it
// can bring the stepper into a readied enemy's reach.
func (t *Table) step(a, d int) {
	f := &t.f[a]
	dir := 1
	if t.f[d].x < f.x {
		dir = -1
	}
	t.approach(a, f.x+dir*5)
	if f.out {
		return
	}
	t.firstAction(a)
	prev := f.x
	f.x += dir * 5
	t.moved(a)
	if t.log != nil {
		t.logf("%s takes a 5-foot step", t.name(a))
		t.ev(sim.Event{Kind: sim.EvMove, Actor: a, Target: d, Amount: 5, Rule: "5-foot step"})
	}
	t.entered(a, prev)
}

// provoke gives each enemy threatening the square x that a is leaving its
// attack of opportunity (one per enemy for this opportunity, as many a
// round as it has: opportunity checks).
//
// It asks the enemies standing when it starts (upMask), in roster order:
// no one comes back into the fight, and one put out on the way (by a
// readied action its attack set off) is skipped as before.
func (t *Table) provoke(a, x int) {
	es := 1 - t.side(a)
	if !t.spanDirty[es] && (x < t.lo[es]-t.reachMax[es] || x > t.hi[es]+t.reachMax[es]) {
		return // beyond every enemy's reach from the span they stand in (most squares of a move)
	}
	for m := t.upMask[es]; m != 0; m &= m - 1 {
		e := bits.TrailingZeros64(m)
		if abs(x-t.f[e].x) <= t.g.C[e].Reach && !t.f[e].out {
			if t.f[a].out {
				return
			}
			t.opportunity(e, a)
		}
	}
}

// opportunity is one attack of opportunity by e against a, if e may make it.
func (t *Table) opportunity(e, a int) int {
	f := &t.f[e]
	if f.out || f.aooLeft <= 0 || f.flatFooted {
		return 0
	}
	f.aooLeft--
	t.logMove()
	t.c.Inc(t.side(e), AttacksOfOpportunity)
	if t.log != nil {
		t.logf("%s makes an attack of opportunity", t.name(e))
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: e, Target: a, Rule: "attack of opportunity"})
	}
	return t.attack(e, a, t.g.C[e].Attacks[0], 0)
}

// threatens reports whether e threatens a where a stands.
func (t *Table) threatens(e, a int) bool {
	return !t.f[e].out && t.side(e) != t.side(a) && t.InReach(e, a)
}

// blocker returns the first enemy of a still in the fight that stands in
// a's path to d, short of where a would stop to have d in reach (so that
// a would have to enter or pass its square), or -1 when the way is clear.
func (t *Table) blocker(a, d int) int {
	x := t.f[a].x
	dir := 1
	if t.f[d].x < x {
		dir = -1
	}
	goal := t.f[d].x - dir*t.g.C[a].Reach
	es := 1 - t.side(a)
	// A blocker stands strictly ahead of x and short of goal+5 (in dir):
	// none when the enemies' span lies outside that (the usual charge at
	// a line of enemies standing together).
	if !t.spanDirty[es] && !noMoveSkip {
		if dir > 0 && (t.hi[es] <= x || t.lo[es] >= goal+5) || dir < 0 && (t.lo[es] >= x || t.hi[es] <= goal-5) {
			return -1
		}
	}
	b, bd := -1, 0
	for _, e := range t.up[es] {
		ahead := (t.f[e].x - x) * dir
		// Ahead of a, and a would have to come within 5 ft of it (enter its
		// square, or go past it) to reach goal.
		if e == d || ahead <= 0 || (t.f[e].x-goal)*dir >= 5 {
			continue
		}
		if b < 0 || ahead < bd || ahead == bd && e < b {
			b, bd = e, ahead
		}
	}
	return b
}

// stepBlocked reports whether a 5-foot step of a toward d would end on or
// past the square of an enemy in the fight.
func (t *Table) stepBlocked(a, d int) bool {
	x := t.f[a].x
	dir := 1
	if t.f[d].x < x {
		dir = -1
	}
	for _, e := range t.up[1-t.side(a)] {
		if ahead := (t.f[e].x - x) * dir; ahead > 0 && ahead <= 5 {
			return true
		}
	}
	return false
}
