// Package reports renders what people and tools read, and runs nothing:
// the documents of package results (reports/results: the JSON result of a
// run, the sweep, compare, value, matrix, tournament and optimize
// documents, reading them back and merging shards) as aligned text tables,
// CSV and Markdown (table.go, runformats.go, sweeptable.go, compare.go,
// value.go, analysis.go, optimize.go; Write takes any of them), plots with
// gonum/plot (plot.go; per-combatant and distribution figures in
// plot_outcomes.go) and the Markdown/HTML report bundle (bundle.go,
// render.go). It imports results, never the other way: code that needs
// only the data (simctl merge, cmd/simctl/app) imports results and not
// the plotting stack. The narration of one encounter (simctl trace's
// text) is package narrate's (reports/narrate), which draws nothing
// either; trace.go forwards its names. Package safeio beside it reads
// inputs and writes outputs safely.
//
// Concurrency: everything here runs after the workers have finished; a
// document is not safe for concurrent mutation, and rendering only reads
// it.
package reports
