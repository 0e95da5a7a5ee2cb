package d20

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

// MaxHP is combatant i's hit points at the start of the encounter.
func (t *Table) MaxHP(i int) int { return t.f[i].maxHP }

// Position is i's place in the current initiative order (0: first).
func (t *Table) Position(i int) int { return t.index(i) }

// NextActor is the combatant whose entry follows the turn in progress in
// the order and who is still in the fight, or -1 at the end of the round.
func (t *Table) NextActor() int {
	for k := t.cur + 1; k < len(t.order); k++ {
		if j := t.order[k]; !t.f[j].out {
			return j
		}
	}
	return -1
}
