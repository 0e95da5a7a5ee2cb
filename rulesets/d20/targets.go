package d20

import "math/bits"

// Target selection without scanning the roster every turn.
//
// A policy's usual question is "the weakest enemy I can attack this turn":
// the lowest current hit points among the standing enemies within a
// distance, ties to the earlier in roster order. Asked naively it costs a
// pass over every enemy on every turn, which made the cost of a turn grow
// with the party. The table keeps, per side and incrementally:
//
//   - up[s] and upMask[s]: the roster indices of side s still in the
//     fight, in roster order, as a list and as a bit mask (an entry leaves
//     when its combatant goes out: at most once per combatant per
//     encounter);
//   - weak[s]: the weakest of them by (hit points, roster index). Hit
//     points only fall, so a blow can only make its victim the new weakest
//     (one comparison); the side's mask is walked again only when the
//     weakest goes out (the heap this replaced paid a sift on every blow
//     and a rebuild every encounter);
//   - lo[s], hi[s]: the span of their positions, recomputed lazily after one
//     of them moves or goes out.
//
// When the whole span of the enemy side lies within the distance asked
// (every melee once it is joined), the answer is weak[s] at once; otherwise
// the pick falls back to a pass over up[s], the standing enemies only. Both
// give exactly the decision the full scan gave.

// TargetRule is a policy's way of choosing among the enemies it can
// attack.
type TargetRule uint8

// Target rules.
const (
	TargetWeakest   TargetRule = iota // lowest current hit points
	TargetStrongest                   // highest current hit points
	TargetNearest                     // shortest distance
	TargetFirst                       // earliest in roster order
)

// resetTargets rebuilds the per-side target state at the start of an
// encounter, once hit points and positions are set.
func (t *Table) resetTargets() {
	for s := 0; s < 2; s++ {
		t.up[s] = append(t.up[s][:0], t.g.enemies[1-s]...) // side s in roster order
		t.upMask[s] = t.sideMask[s]
		t.weak[s] = t.weakestOf(t.sideMask[s])
		t.spanDirty[s] = true
	}
}

// weakestOf is the weakest of the combatants in m by (hit points, roster
// index), or -1 when m is empty.
func (t *Table) weakestOf(m uint64) int {
	best, bhp := -1, 0
	for ; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		if h := t.f[j].hp; best < 0 || h < bhp {
			best, bhp = j, h
		}
	}
	return best
}

// weakest is the weakest standing combatant of side s, or -1.
func (t *Table) weakest(s int) int { return t.weak[s] }

// hpFell notes that standing combatant j's hit points fell: j is now the
// weakest of its side, or the weakest stays.
func (t *Table) hpFell(j int) {
	s := t.g.sideOf[j]
	if w := t.weak[s]; j != w {
		if h, hw := t.f[j].hp, t.f[w].hp; h < hw || h == hw && j < w {
			t.weak[s] = j
		}
	}
}

// wentOut removes j from its side's standing list and mask.
func (t *Table) wentOut(j int) {
	s := t.g.sideOf[j]
	up := t.up[s]
	k := 0
	for k < len(up) && up[k] != j {
		k++
	}
	if k == len(up) {
		panic("d20: a combatant out of the fight went out again")
	}
	for ; k+1 < len(up); k++ {
		up[k] = up[k+1]
	}
	t.up[s] = up[:len(up)-1]
	t.upMask[s] &^= 1 << uint(j)
	if t.weak[s] == j {
		t.weak[s] = t.weakestOf(t.upMask[s])
	}
	// The span of the others can only be narrower: it needs recomputing
	// only if j stood at an end of it, and not at all when everyone stood
	// in one place (a melee). A stale, wider span is safe anyway: within
	// then says no and the pick scans.
	if x := t.f[j].x; !t.spanDirty[s] && t.lo[s] != t.hi[s] && (x == t.lo[s] || x == t.hi[s]) {
		t.spanDirty[s] = true
	}
}

// moved notes that j's position changed (and that j has moved this
// round).
func (t *Table) moved(j int) {
	t.movedMask |= 1 << uint(j)
	t.spanDirty[t.g.sideOf[j]] = true
	t.noteCrossed(j)
}

// within reports whether every standing combatant of side s is within
// limit feet of position x.
func (t *Table) within(s, x, limit int) bool {
	if t.spanDirty[s] {
		t.respan(s)
	}
	return x-t.lo[s] <= limit && t.hi[s]-x <= limit
}

// respan recomputes the span of side s's standing combatants.
func (t *Table) respan(s int) {
	lo, hi := 0, 0
	for k, j := range t.up[s] {
		p := t.f[j].x
		if k == 0 || p < lo {
			lo = p
		}
		if k == 0 || p > hi {
			hi = p
		}
	}
	t.lo[s], t.hi[s], t.spanDirty[s] = lo, hi, false
}

// span is the lowest and highest position of side s's standing
// combatants (0, 0 when none stands).
func (t *Table) span(s int) (lo, hi int) {
	t.within(s, 0, 0) // recomputes a stale span
	return t.lo[s], t.hi[s]
}

// Standing lists the roster indices of side s still in the fight, in
// roster order. The slice is the table's: do not modify or keep it.
func (t *Table) Standing(s int) []int { return t.up[s] }

// CountWithin is the number of standing combatants of side s within limit
// feet of self: all of them at once when the span of their positions is
// (every melee once joined), else a pass over the standing only.
func (t *Table) CountWithin(self, s, limit int) int {
	x := t.f[self].x
	up := t.up[s]
	if t.within(s, x, limit) {
		return len(up)
	}
	n := 0
	for _, j := range up {
		if abs(x-t.f[j].x) <= limit {
			n++
		}
	}
	return n
}

// PickTarget chooses the enemy self attacks under rule among the standing
// enemies within limit feet, ties to the earlier in roster order. With
// fallback, when none is within limit it takes the nearest standing enemy
// (ties: the fewer hit points, then roster order); without, it returns -1
// then. It returns -1 when no enemy stands.
func (t *Table) PickTarget(self int, rule TargetRule, limit int, fallback bool) int {
	es := 1 - t.g.sideOf[self]
	x := t.f[self].x
	if t.spanDirty[es] { // within, by hand: too big to inline, asked every turn
		t.respan(es)
	}
	if x-t.lo[es] <= limit && t.hi[es]-x <= limit {
		switch rule {
		case TargetWeakest:
			return t.weakest(es)
		case TargetFirst:
			if up := t.up[es]; len(up) > 0 {
				return up[0]
			}
			return -1
		}
	}
	best := -1
	bv := 0
	for _, j := range t.up[es] {
		f := &t.f[j]
		d := abs(x - f.x)
		if d > limit {
			continue
		}
		var v int // smaller is better
		switch rule {
		case TargetWeakest:
			v = f.hp
		case TargetStrongest:
			v = -f.hp
		case TargetNearest:
			v = d
		}
		if best < 0 || v < bv {
			best, bv = j, v
		}
	}
	if best >= 0 || !fallback {
		return best
	}
	bd, bhp := 0, 0
	for _, j := range t.up[es] {
		f := &t.f[j]
		d := abs(x - f.x)
		if best < 0 || d < bd || d == bd && f.hp < bhp {
			best, bd, bhp = j, d, f.hp
		}
	}
	return best
}
