package acks2

import (
	"math/bits"

	"simctl/sim"
)

// Engagement and movement. Positions are feet on a line: side 0 stands at
// 0 and behind it (field behind), side 1 at the scenario's distance and
// behind that; everyone faces the enemy (facing is not modelled, so the
// free turn toward a new opponent never matters).
//
// "A combatant who comes within 5 feet of an opponent is engaged with it
// ... Combatants who become engaged on their initiative must immediately
// stop all movement. Once engaged, they cannot use a full-round action to
// charge, run or sneak; they cannot use a move action to march, sneak,
// stand up or take cover; they cannot use a combat action to march. Flying
// creatures cannot be engaged by non-flying creatures." So an engaged
// combatant here only attacks (or withdraws or retreats, when declared).
//
// Optional rule (option size_engagement): "the number of opponents of a
// given size that must be within 5 feet of a creature of a given size to
// engage it. If there are fewer, the combatant may simply pass through the
// opponents as if they were allies. It cannot, however, end its move
// overlapping opponents." The book's table is not in the excerpt, so each
// combatant says how many opponents of each size engage it (engaged_by);
// with mixed sizes each opponent counts 1/need of an engagement.

// engageUnit is lcm(1..16): with EngagedBy in 1..16, opponent j adds
// engageUnit/EngagedBy[size j] and engagement is a sum of engageUnit.
const engageUnit = 720720

// engaged reports whether i is engaged: engagedExcept with no opponent
// left out, written out without the mask (it is asked on every segment).
func (t *Table) engaged(i int) bool {
	x := t.f[i].x
	sum := 0
	for _, e := range t.eng[i] {
		f := &t.f[e.j]
		if uint(f.x-x+5) > 10 || f.out {
			continue
		}
		sum += int(e.w)
		if sum >= engageUnit {
			return true
		}
	}
	return false
}

// engagedExcept is engaged counting only the opponents not in mask (bit j
// for roster index j).
func (t *Table) engagedExcept(i int, mask uint64) bool {
	// The weights are the engages rule precomputed (t.eng: the enemies
	// that can engage i, with how much each counts; a non-flyer never
	// engages a flyer and is not listed). Summing in any order gives the
	// same answer.
	x := t.f[i].x
	sum := 0
	for _, e := range t.eng[i] {
		// Within 5 feet either way is one unsigned comparison, and it
		// rules out most enemies first.
		f := &t.f[e.j]
		if uint(f.x-x+5) > 10 || f.out || mask&(1<<(uint(e.j)&63)) != 0 {
			continue
		}
		sum += int(e.w)
		if sum >= engageUnit {
			return true
		}
	}
	return false
}

// engages reports whether j, an enemy in the fight within 5 feet of i,
// counts toward engaging i (a non-flyer never engages a flyer).
func (t *Table) engages(j, i int) bool {
	if t.f[j].out || t.side(j) == t.side(i) || t.Dist(i, j) > 5 {
		return false
	}
	return !t.g.C[i].Flies || t.g.C[j].Flies
}

// canAttack reports whether i can attack enemy j where both stand.
// (Small enough to inline: the reach is precomputed, see Table.reach.)
func (t *Table) canAttack(i, j int) bool {
	return j >= 0 && !t.f[j].out && t.sd[j] != t.sd[i] && t.Dist(i, j) <= t.reach[i]
}

// approach moves m up to feet toward tg: until it can attack tg (within
// 5 feet, or in missile range), or until it becomes engaged. It may not
// end its move sharing an enemy's space (it stops short instead). Then the
// triggers at the end of its movement run.
func (t *Table) approach(m, tg, feet int) {
	f := &t.f[m]
	c := &t.g.C[m]
	dir := 1
	if t.f[tg].x < f.x {
		dir = -1
	}
	stopAt := 5
	if c.Weapon == Missile && c.Range > 0 {
		stopAt = c.Range
	}
	moved := 0
	stopped := false
	safe := t.safeGap(m)
	if need := abs(t.f[tg].x-f.x) - stopAt; safe > 5 && need > 0 && feet > 0 {
		// The steps below move 5 feet at a time up to min(feet, need)
		// and check engagement only from safe on: skip straight to the
		// last step short of safe.
		moved = min((safe-1)/5*5, feet, need)
		f.x += dir * moved
	}
	for moved < feet {
		need := abs(t.f[tg].x-f.x) - stopAt
		if need <= 0 {
			break
		}
		step := min(5, feet-moved, need)
		f.x += dir * step
		moved += step
		if moved >= safe && t.engaged(m) {
			stopped = true
			break
		}
	}
	for moved > 0 && t.sharesSpace(m) {
		back := min(5, moved)
		f.x -= dir * back
		moved -= back
	}
	if moved == 0 {
		if t.log != nil {
			t.logf("%s cannot move closer to %s", c.Name, t.name(tg))
			t.ev(sim.Event{Kind: sim.EvMove, Actor: m, Target: tg, Rule: "cannot close"})
		}
		return
	}
	if t.log != nil {
		if stopped && !t.canAttack(m, tg) {
			t.logf("%s moves %d ft and is stopped: engaged %d ft short of %s", c.Name, moved, t.Dist(m, tg), t.name(tg))
			t.ev(sim.Event{Kind: sim.EvMove, Actor: m, Target: tg, Amount: moved, Rule: "stopped by engagement"})
		} else {
			t.logf("%s moves %d ft (now %d ft from %s)", c.Name, moved, t.Dist(m, tg), t.name(tg))
			t.ev(sim.Event{Kind: sim.EvMove, Actor: m, Target: tg, Amount: moved})
		}
	}
	t.movementEnded(m)
}

// moveAway moves i up to feet away from the enemy, toward its own side's
// rear. Enemies already within 5 feet do not stop it (it is withdrawing
// from them); a new engagement does.
func (t *Table) moveAway(i, feet int) {
	f := &t.f[i]
	dir := -1
	if t.side(i) == 1 {
		dir = 1
	}
	var mask uint64
	for j := range t.f {
		if t.engages(j, i) {
			mask |= 1 << uint(j)
		}
	}
	moved := 0
	for moved < feet {
		step := min(5, feet-moved)
		f.x += dir * step
		moved += step
		if t.engagedExcept(i, mask) {
			break
		}
	}
	for moved > 0 && t.sharesSpace(i) {
		back := min(5, moved)
		f.x -= dir * back
		moved -= back
	}
	if moved == 0 {
		return
	}
	if t.log != nil {
		t.logf("%s moves back %d ft (now at %d ft)", t.name(i), moved, f.x)
		t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: sim.NoOne, Amount: moved, Rule: "back"})
	}
	t.movementEnded(i)
}

// push moves tg feet directly away from src: a forced move, which costs a
// ready combatant its ready action. It does not trigger readied attacks
// (it is not tg's own movement).
func (t *Table) push(src, tg, feet int) {
	f := &t.f[tg]
	dir := 1
	switch {
	case f.x < t.f[src].x:
		dir = -1
	case f.x == t.f[src].x && t.side(tg) == 0:
		dir = -1
	}
	f.x += dir * feet
	if t.log != nil {
		t.logf("%s is pushed %d ft (now at %d ft)", t.name(tg), feet, f.x)
		t.ev(sim.Event{Kind: sim.EvMove, Actor: tg, Target: src, Amount: feet, Rule: "pushed"})
	}
	t.loseReadiness(tg, "is moved against its will")
}

// safeGap is how far i can move before any enemy could come within 5
// feet of it: no engagement check is needed before that.
func (t *Table) safeGap(i int) int {
	gap := 1 << 30
	x := t.f[i].x
	for m := t.standing[1-t.sd[i]]; m != 0; m &= m - 1 {
		gap = min(gap, abs(t.f[bits.TrailingZeros64(m)].x-x)-5)
	}
	return gap
}

// sharesSpace reports whether an enemy in the fight stands exactly where
// i does.
func (t *Table) sharesSpace(i int) bool {
	x := t.f[i].x
	for m := t.standing[1-t.sd[i]]; m != 0; m &= m - 1 {
		if t.f[bits.TrailingZeros64(m)].x == x {
			return true
		}
	}
	return false
}
