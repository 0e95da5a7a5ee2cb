package cavaliers

import "simctl/sim"

// Positions are Areas (zones) in a row, numbered 0..MaxArea: Areas n and
// n+1 are adjacent. Combatants in the same Area can attack each other; a
// Move takes a combatant to an adjacent Area. A combatant starts in (or
// enters in) the Area of its field area. Areas hold any number of
// combatants.
//
// Leaving an Area can be stopped by an opponent's Interpose (interpose.go:
// "prevent an opponent in the same Area from leaving that Area"). That
// holds for every Move out of an Area: the one of a turn, and the Move a
// combatant combines with an Interpose to reach an adjacent Area.

// move takes combatant i to the adjacent Area to unless an opponent in its
// Area blocks it; it reports whether i moved.
func (t *Table) move(i, to int) bool {
	from := t.f[i].area
	if b := t.block(i, to); b >= 0 {
		t.c.Inc(t.side(i), MovesBlocked)
		if t.log != nil {
			t.logf("%s interposes: %s cannot leave Area %d for Area %d", t.name(b), t.name(i), from, to)
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: b, Target: i, Roll: from, Need: to, Rule: "block"})
		}
		return false
	}
	t.at[t.f[i].area] &^= 1 << (uint(i) & 63)
	t.at[to] |= 1 << (uint(i) & 63)
	t.f[i].area = to
	t.c.Inc(t.side(i), Moves)
	if t.log != nil {
		t.logf("%s moves from Area %d to Area %d", t.name(i), from, to)
		t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: sim.NoOne, Roll: from, Need: to})
	}
	return true
}
