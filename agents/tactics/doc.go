// Package tactics reads a scenario's `tactics:` block: its parameters, its
// moments of decision and, per moment, the ordered first-match rules
// (block.go), with positions for every error. The conditions are written
// in the expression language of package simctl/sim/lang, which knows no
// ruleset; lang.go names its types here so the bindings read one package,
// and declares the argument kinds the bindings' facts take (an ally, an
// enemy, one of self's spells). A ruleset's binding (package agents,
// tactics_*.go) declares the facts each moment offers in an Env, compiles
// each rule's `do:` and `target:` itself, and computes fact values during
// play.
//
// Concurrency: a Block is read once per scenario load by one goroutine;
// compiled Programs are immutable and shared.
package tactics
