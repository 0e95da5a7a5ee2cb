package d20

import "simctl/sim"

// Tactics hooks: package agents compiles `tactics:` blocks (the tactics
// language's d20 binding) into Policies; the referee only offers the
// accessors a condition reads and the rule counters it adds to.

// RegisterTactics registers the compiler of tactics: blocks (package
// agents' binding), called with a spec whose Node is the block and Path its
// path. Call it from an init function only, once.
func RegisterTactics(compile PolicyMaker) { policies.RegisterTactics(compile) }

// CountRule adds one to tactics counter k.
func (t *Table) CountRule(k int) { t.c.Rule(k) }

// Tracing reports whether the encounter is being logged (simctl trace).
func (t *Table) Tracing() bool { return t.log != nil }

// Logf writes a line to the trace; call it only when Tracing.
func (t *Table) Logf(format string, args ...any) { t.logf(format, args...) }

// Event records a structured trace event beside the narration; call it
// only when Tracing.
func (t *Table) Event(e sim.Event) { t.ev(e) }

// MaxHP is combatant i's hit points at the start of the encounter.
func (t *Table) MaxHP(i int) int { return t.f[i].maxHP }

// Position is i's place in the current initiative order among the
// combatants still in the fight (0: first).
func (t *Table) Position(i int) int {
	n := 0
	for _, j := range t.order {
		if j == i {
			return n
		}
		if !t.f[j].out {
			n++
		}
	}
	panic("d20: combatant missing from the initiative order")
}

// NextActor is the combatant whose entry follows the turn in progress in
// the order and who will have a turn there: still in the fight and, in the
// surprise round, aware. -1 at the end of the round.
func (t *Table) NextActor() int {
	for k := t.cur + 1; k < len(t.order); k++ {
		if j := t.order[k]; !t.f[j].out && !(t.stdOne && !t.g.C[j].Aware) {
			return j
		}
	}
	return -1
}

// AC is i's armour class right now: without its dex_ac while flat-footed
// (unless it has uncanny dodge), -2 after its own charge until its next
// turn.
func (t *Table) AC(i int) int { return t.ac(i) }

// AttackRange is the distance in feet within which i can attack an enemy
// this turn: within reach, a 5-foot step or a charge (twice speed) away,
// in the surprise round's single standard action only a charge up to speed.
func (t *Table) AttackRange(i int) int {
	c := &t.g.C[i]
	if t.stdOne {
		return max(c.Speed, 5) + c.Reach
	}
	return max(2*c.Speed, 5) + c.Reach
}

// FlatFooted reports whether i is flat-footed now.
func (t *Table) FlatFooted(i int) bool { return t.f[i].flatFooted }

// Readied reports whether i holds a readied action now.
func (t *Table) Readied(i int) bool { return t.f[i].readied }

// Delaying reports whether i is delaying now.
func (t *Table) Delaying(i int) bool { return t.f[i].delayed }

// Charged reports whether i charged on its last turn (-2 AC until its next).
func (t *Table) Charged(i int) bool { return t.f[i].chargeAC }
