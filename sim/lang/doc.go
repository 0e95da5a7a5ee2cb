// Package lang is simctl's expression language: the conditions designers
// write in a scenario's tactics (`self.hp_pct < $low and
// enemies.in_reach >= 2`), in `simctl find --where` and in `simctl trace
// --pick --metric`. It knows no ruleset and no caller: an Env declares the
// facts on offer, their types and argument kinds, the parameters in scope,
// and resolves each argument (a combatant, a side, a spell) to an integer.
// The rulesets' facts and decisions live in package agents; the tactics:
// block (moments, rules) in agents/tactics, on top of this package.
//
// Pipeline, in the mould of expr-lang/expr: lex (lex.go) → parse into nodes
// with positions (parse.go) → type-check every name against the Env and
// compile to a flat instruction slice over dense fact slots, and/or as
// short-circuit jumps, a fact compared with a constant fused into one
// instruction (compile.go); a condition of and/or/not over such leaves also
// as a decision tree (tree.go) → evaluate (eval.go). Program.EvalFunc evaluates
// in one pass on the caller's stack, calling the caller's closure for each
// fact the short-circuit needs: one closure call per fact, never per die. A
// Machine evaluates the same code but stops when it needs a fact and is
// resumed with it, so a trace can show which facts were read. No maps, no
// reflection, no allocation.
//
// Concurrency: a Program is immutable after Compile and may be evaluated
// from any number of goroutines, each with its own slot array or Machine.
package lang
