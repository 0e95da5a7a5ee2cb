package d20

// Target selection without scanning the roster every turn.
//
// A policy's usual question is "the weakest enemy I can attack this turn":
// the lowest current hit points among the standing enemies within a
// distance, ties to the earlier in roster order. Asked naively it costs a
// pass over every enemy on every turn, which made the cost of a turn grow
// with the party. The table keeps, per side and incrementally:
//
//   - up[s]: the roster indices of side s still in the fight, in roster
//     order (an entry leaves when its combatant goes out: at most once per
//     combatant per encounter);
//   - weak[s]: the weakest of them, updated in O(1) when one takes damage
//     (hit points only ever fall), rescanned only when it goes out;
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
		t.up[s] = t.up[s][:0]
	}
	for i := range t.f {
		s := t.g.sideOf[i]
		t.up[s] = append(t.up[s], i)
	}
	for s := 0; s < 2; s++ {
		t.rescanWeak(s)
		t.spanDirty[s] = true
	}
}

// rescanWeak recomputes weak[s] from up[s] (-1 when nobody stands).
func (t *Table) rescanWeak(s int) {
	best := -1
	bhp := 0
	for _, j := range t.up[s] {
		if hp := t.f[j].hp; best < 0 || hp < bhp {
			best, bhp = j, hp
		}
	}
	t.weak[s] = best
}

// hpFell notes that standing combatant j's hit points fell.
func (t *Table) hpFell(j int) {
	s := t.g.sideOf[j]
	w := t.weak[s]
	if w == j {
		return // it only got weaker
	}
	if hp, whp := t.f[j].hp, t.f[w].hp; hp < whp || hp == whp && j < w {
		t.weak[s] = j
	}
}

// wentOut removes j from its side's standing list.
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
	if t.weak[s] == j {
		t.rescanWeak(s)
	}
	// The span of the others can only be narrower: it needs recomputing
	// only if j stood at an end of it, and not at all when everyone stood
	// in one place (a melee). A stale, wider span is safe anyway: within
	// then says no and the pick scans.
	if x := t.f[j].x; !t.spanDirty[s] && t.lo[s] != t.hi[s] && (x == t.lo[s] || x == t.hi[s]) {
		t.spanDirty[s] = true
	}
}

// moved notes that j's position changed.
func (t *Table) moved(j int) { t.spanDirty[t.g.sideOf[j]] = true }

// within reports whether every standing combatant of side s is within
// limit feet of position x.
func (t *Table) within(s, x, limit int) bool {
	if t.spanDirty[s] {
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
	return x-t.lo[s] <= limit && t.hi[s]-x <= limit
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
	if t.within(es, x, limit) {
		switch rule {
		case TargetWeakest:
			return t.weak[es]
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
