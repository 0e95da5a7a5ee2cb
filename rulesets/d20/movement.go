package d20

// Positions are feet on a line: side 0 starts at 0, side 1 at the
// scenario's distance. A mover walks toward its target and stops where the
// target is within its reach. Moving out of a position an enemy threatens
// (within that enemy's reach) provokes an attack of opportunity from it,
// unless the enemy is flat-footed or has used its one attack of opportunity
// this round; a 5-foot step never provokes.

// move walks a up to feet toward d.
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
	t.provoke(a, from, from+dir*feet)
	if f.out {
		return
	}
	f.x = from + dir*feet
	f.moved += feet
	if t.log != nil {
		t.logf("%s moves %d ft (now %d ft from %s)", t.name(a), feet, t.Dist(a, d), t.name(d))
	}
	t.enemyMoved(a, from)
}

// step is the 5-foot step: it provokes nothing.
func (t *Table) step(a, d int) {
	f := &t.f[a]
	dir := 1
	if t.f[d].x < f.x {
		dir = -1
	}
	f.x += dir * 5
	f.moved += 5
	if t.log != nil {
		t.logf("%s takes a 5-foot step", t.name(a))
	}
}

// provoke gives each enemy threatening a square that a leaves on its way
// from "from" to "to" its attack of opportunity.
func (t *Table) provoke(a, from, to int) {
	for e := range t.f {
		if t.f[e].out || t.side(e) == t.side(a) || t.f[a].out {
			continue
		}
		reach := t.g.C[e].Reach
		ex := t.f[e].x
		// The squares left are from, then every 5 feet short of to. (The
		// bound is "short of to", not "!= to": positions need not lie on
		// the 5-foot grid when distance is not a multiple of 5, and x != to
		// would walk past the destination, forever for an enemy behind.)
		threatened := false
		step := 5
		if to < from {
			step = -5
		}
		for x := from; (to-x)*step > 0; x += step {
			if abs(x-ex) <= reach {
				threatened = true
				break
			}
		}
		if threatened {
			t.opportunity(e, a)
		}
	}
}

// opportunity is one attack of opportunity by e against a, if e may make it.
func (t *Table) opportunity(e, a int) int {
	f := &t.f[e]
	if f.out || f.aooUsed || f.flatFooted {
		return 0
	}
	f.aooUsed = true
	t.c.Inc(t.side(e), AttacksOfOpportunity)
	if t.log != nil {
		t.logf("%s makes an attack of opportunity", t.name(e))
	}
	return t.attack(e, a, t.g.C[e].Attacks[0], 0)
}

// threatens reports whether e threatens a where a stands.
func (t *Table) threatens(e, a int) bool {
	return !t.f[e].out && t.side(e) != t.side(a) && t.InReach(e, a)
}
