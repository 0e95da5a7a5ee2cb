package reports

import (
	"context"
	"io"

	"simctl/reports/narrate"
	"simctl/sim"
	"simctl/sim/scenario"
)

// The narration of one encounter lives in package narrate
// (reports/narrate), which draws nothing, so that the application layer
// replays a report's fights without the plotting stack; these are its
// names here, for the callers that render anyway.

// MaxTraceLines is how many lines of narration the lab and a report
// bundle show of one encounter (narrate.MaxTraceLines).
const MaxTraceLines = narrate.MaxTraceLines

// TraceLimit bounds what TraceContext narrates (narrate.TraceLimit).
type TraceLimit = narrate.TraceLimit

// Trace replays encounter enc of a run with seed and narrates it: the
// text of `simctl trace` (narrate.Trace).
func Trace(w io.Writer, sc *scenario.Scenario, g sim.Game, seed uint64, enc int64) error {
	return narrate.Trace(w, sc, g, seed, enc)
}

// TraceContext is Trace with a bound and a stop (narrate.TraceContext).
func TraceContext(ctx context.Context, w io.Writer, sc *scenario.Scenario, g sim.Game, seed uint64, enc int64, lim TraceLimit) error {
	return narrate.TraceContext(ctx, w, sc, g, seed, enc, lim)
}

// SideNames puts the side names into a narration in place of side
// numbers (narrate.SideNames).
func SideNames(text, side0, side1 string) string { return narrate.SideNames(text, side0, side1) }
