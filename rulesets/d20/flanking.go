package d20

// Flanking (SRD 3.5 Combat, "Flanking"): "When making a melee attack, you
// get a +2 flanking bonus if your opponent is threatened by a character or
// creature friendly to you on the opponent's opposite border or opposite
// corner." The rule is geometric; on simctl's line "opposite" is read as
// the other side of the defender along the line (option flanking: line,
// the default): the attacker threatens the defender, and an ally of the
// attacker still in the fight threatens it from the far side. No one
// passes an enemy on the line (movement.go), so a defender stands between
// two enemies only where the positions put it there. Option flanking: two
// is the common table reading "threatened by two or more": the attacker
// and at least one ally threaten the defender, wherever they stand (as if
// the second had stepped round to the far side on a grid).
//
// Not modelled: improved uncanny dodge (cannot be flanked), creatures that
// cannot be flanked, reach 0.

// Flanks reports whether a's melee attack on d, from where a stands, gets
// the flanking bonus (and is a flanking attack for sneak attack).
func (t *Table) Flanks(a, d int) bool {
	if !t.crossed && !t.g.Opt.FlankTwo {
		return false // flanksFrom's first test, inlined where every strike asks
	}
	return t.flanksFrom(a, t.f[a].x, d)
}

// flanksFrom is Flanks with a standing at x.
func (t *Table) flanksFrom(a, x, d int) bool {
	if !t.crossed && !t.g.Opt.FlankTwo {
		// On the line, the attacker and its ally stand on opposite sides
		// of the defender, so one of them stands beyond an enemy: with
		// nobody beyond an enemy (every fight but one whose sides passed
		// each other) nobody is flanked.
		return false
	}
	if abs(x-t.f[d].x) > t.g.C[a].Reach || t.f[d].out {
		return false
	}
	s := t.side(a)
	dx := t.f[d].x
	if !t.g.Opt.FlankTwo {
		// Quick no: the attacker's side does not stand on both sides of d.
		lo, hi := t.span(s)
		if min(lo, x) >= dx || max(hi, x) <= dx {
			return false
		}
	}
	for _, j := range t.up[s] {
		if j == a || abs(t.f[j].x-dx) > t.g.C[j].Reach {
			continue
		}
		if t.g.Opt.FlankTwo || (t.f[j].x-dx)*(x-dx) < 0 {
			return true
		}
	}
	return false
}

// WouldFlank reports whether a's melee attack on d would be a flanking one
// from where a would attack it: where a stands when d is in its reach,
// else the square a would stop on (d's reach of it, on a's side of d).
func (t *Table) WouldFlank(a, d int) bool {
	if t.InReach(a, d) {
		return t.Flanks(a, d)
	}
	dir := 1
	if t.f[d].x < t.f[a].x {
		dir = -1
	}
	return t.flanksFrom(a, t.f[d].x-dir*t.g.C[a].Reach, d)
}

// Flanked reports whether some enemy in the fight threatening i would
// flank it with a melee attack from where it stands.
func (t *Table) Flanked(i int) bool {
	for _, e := range t.up[1-t.side(i)] {
		if t.Flanks(e, i) {
			return true
		}
	}
	return false
}

// crossed (Table) is set once some combatant of side 0 may stand to the
// right of one of side 1 (beyond an enemy: side 0 starts at or left of 0,
// side 1 at or right of distance). Line flanking needs that of two
// standing combatants (flanksFrom), so until crossed nobody is flanked on
// the line. It is kept in O(1) a move, never missing a crossing and at
// worst seeing one that is not (then flanksFrom just asks in full):
// far[0] is the rightmost position any combatant of side 0 has held this
// encounter, far[1] the leftmost of side 1, and a move of j crosses when it
// takes j beyond the other side's far. (A crossing pair's later move, or
// setup if neither moved, sees it: positions change only by moves, which
// call moved, and the standing only shrink.)

// setCrossed starts the encounter's far and crossed from the positions at
// setup.
func (t *Table) setCrossed() {
	t.far = [2]int{-1 << 62, 1 << 62}
	for i := range t.f {
		if x := t.f[i].x; t.side(i) == 0 {
			t.far[0] = max(t.far[0], x)
		} else {
			t.far[1] = min(t.far[1], x)
		}
	}
	t.crossed = t.far[0] > t.far[1]
}

// noteCrossed updates far and crossed after j moved.
func (t *Table) noteCrossed(j int) {
	x := t.f[j].x
	if t.side(j) == 0 {
		t.far[0] = max(t.far[0], x)
		t.crossed = t.crossed || x > t.far[1]
	} else {
		t.far[1] = min(t.far[1], x)
		t.crossed = t.crossed || x < t.far[0]
	}
}
