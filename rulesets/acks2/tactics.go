package acks2

import "simctl/sim"

// Tactics hooks: package agents compiles `tactics:` blocks (the tactics
// language's ACKS II binding) into Policies; the referee offers the
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
