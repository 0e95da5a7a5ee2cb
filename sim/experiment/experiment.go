// Package experiment is how simctl runs an experiment: the designs that
// play a scenario's encounters under several settings and say what
// changed. A plain run is sim.Run; here are the designs over it that share
// the dice: common random numbers (RunCRN, every option plays encounter i
// from the same stream), exchange rates (Value: each parameter stepped up
// and down, its marginal effect on the win rate, and the rates between
// parameters with Fieller intervals) and one-at-a-time sensitivity.
// Statistics come from package stats; rendering is package reports'.
//
// Concurrency: each runner follows sim.Run's rule. Games are compiled once
// and shared read-only; every worker owns its tables, random stream and
// accumulators, claims chunks of encounter indices from one atomic counter,
// and the accumulators merge after the workers finish, so results do not
// depend on the number of workers and shards merge exactly (every figure
// is an integer sum).
package experiment
