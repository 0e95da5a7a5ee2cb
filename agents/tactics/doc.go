// Package tactics is the tactics language: the conditions designers write
// in a scenario's `tactics:` block (`self.hp_pct < $low and
// enemies.in_reach >= 2`) and the block's structure (params, moments of
// decision, ordered first-match rules). It knows no ruleset: a ruleset's
// binding (package agents, tactics_*.go) declares the facts each moment
// offers in an Env, compiles each rule's `do:` and `target:` itself, and
// computes fact values during play.
//
// Pipeline: lex (lex.go) → parse into nodes with positions (parse.go) →
// type-check every name against the Env and compile to a flat instruction
// slice over dense fact slots, and/or as short-circuit jumps, a fact
// compared with a constant fused into one instruction (compile.go) →
// evaluate. Program.EvalFunc evaluates in one pass on the caller's stack,
// calling the binding's closure for each fact the short-circuit needs (the
// binding computes it with a switch over integer ids): one closure call per
// fact, never per die. A Machine evaluates the same code but stops when it
// needs a fact and is resumed with it, so a trace can show which facts were
// read. No maps, no reflection, no allocation. block.go reads the tactics:
// block (params, moments, rules, library references) with positions for
// every error.
//
// Concurrency: a Program is immutable after Compile and may be evaluated
// from any number of goroutines, each with its own slot array.
package tactics
