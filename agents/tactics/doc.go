// Package tactics is the tactics language: the conditions designers write
// in a scenario's `tactics:` block (`self.hp_pct < $low and
// enemies.in_reach >= 2`) and the block's structure (params, moments of
// decision, ordered first-match rules). It knows no ruleset: a ruleset's
// binding (package agents, tactics_*.go) declares the facts each moment
// offers in an Env, compiles each rule's `do:` and `target:` itself, and
// computes fact values during play.
//
// Pipeline: lex (lex.go) → parse into nodes with positions (parse.go,
// node_*.go) → type-check every name against the Env and compile to a flat
// instruction slice over dense fact slots (compile.go) → evaluate (eval.go).
// A compiled Program lists the distinct facts it reads (Refs); the binding
// computes exactly those into a caller-owned array and Eval runs the
// instructions over it: no maps, no reflection, no interface or closure
// call per fact, no allocation.
//
// Concurrency: a Program is immutable after Compile and may be evaluated
// from any number of goroutines, each with its own slot array.
package tactics
