// Package stats holds the accumulators and confidence intervals the
// simulator uses to report Monte Carlo results: win rates with intervals for
// a single proportion ([Wilson], [ClopperPearson]), for the difference of two
// independent proportions ([NewcombeDiff]), and for the difference of two
// options run on the same encounter seeds ([Paired], common random numbers),
// plus exact fixed-memory histograms ([Hist]) and means ([Mean]) of
// integer-valued quantities such as rounds per fight or damage dealt.
//
// # Accumulators
//
// [Hist], [Mean] and [Paired] hold nothing but integer counts and integer
// sums, so their memory never grows with the number of observations and
// merging two of them is exact: merging shards in any order and any grouping
// gives bit-for-bit the same accumulator as adding every observation to one,
// and so the same reported numbers whatever the number of workers. Floating
// point appears only when a result is read out (Value, Var, Quantile, ...).
//
// # Concurrency
//
// Accumulators are plain values and are not safe for concurrent use. Each
// worker owns its own accumulators, adds to them without locks, and the
// shards are merged (Merge) after the workers have finished, by one
// goroutine. A [Hist] holds a slice, so copying a Hist value shares its
// counts: give each worker its own [NewHist] (or [Hist.Clone]).
//
// # Conventions
//
// Confidence levels are two-sided and lie strictly between 0 and 1 (0.95 for
// a 95% interval); functions taking one panic otherwise. Counts k, n must
// satisfy 0 <= k <= n. Panics raised by this package start with "stats: ".
// Where a result is undefined for lack of data, the doc comment of each
// function says what it returns: means of no observations are 0, standard
// errors with fewer than two observations are +Inf (no information), and
// intervals over no observations cover every possible value.
package stats
