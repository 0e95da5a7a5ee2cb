package lotm

import (
	"go.yaml.in/yaml/v3"

	"simctl/sim/scenario"
)

// Tactics hooks: package agents compiles `tactics:` blocks (the tactics
// language's LotM binding) into Policies; the referee offers the
// accessors a condition reads and the rule counters it adds to.

// TacticsCompiler compiles the tactics block n (at path) of combatant self
// into a Policy. Package agents sets it in init.
var TacticsCompiler func(d *scenario.Decoder, g *Game, self int, n *yaml.Node, path string) Policy

// CountRule adds one to tactics counter k.
func (t *Table) CountRule(k int) { t.c.Rule(k) }

// Tracing reports whether the encounter is being logged (simctl trace).
func (t *Table) Tracing() bool { return t.log != nil }

// Logf writes a line to the trace; call it only when Tracing.
func (t *Table) Logf(format string, args ...any) { t.logf(format, args...) }
