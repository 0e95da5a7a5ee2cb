package app

import (
	"context"
	"sync/atomic"

	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// TraceRequest names one encounter to replay: Encounter, or with Metric
// the encounter at quantile Pick of Metric over encounters 0..N-1.
type TraceRequest struct {
	Source    *Source
	Sets      []scenario.Set
	Seed      uint64
	Encounter int64
	Metric    string  // an expression over an encounter's outcome; "": replay Encounter
	Pick      float64 // with Metric: 0 the least, 0.5 the median, 1 the most
	N         int64
	Workers   int
}

// Traced is the encounter to replay, with what replays it: a trace is
// narration written as the encounter plays (narrate.Trace), not a
// document.
type Traced struct {
	Scenario  *scenario.Scenario
	Game      sim.Game
	Encounter int64
	Value     float64 // with Metric: its value at Encounter
}

// Trace compiles the scenario and finds the encounter req names.
func Trace(ctx context.Context, req *TraceRequest, obs *Observer) (*Traced, error) {
	if obs == nil {
		obs = &Observer{}
	}
	sc, g, err := req.Source.Compile(req.Sets, obs.Warn)
	if err != nil {
		return nil, &Error{Kind: Invalid, Err: err}
	}
	t := &Traced{Scenario: sc, Game: g, Encounter: req.Encounter}
	if req.Metric == "" {
		return t, nil
	}
	probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
	m, err := probe.Metric(req.Metric)
	if err != nil {
		return nil, usage(true, "%s: %v", "--metric", err)
	}
	var done atomic.Int64
	stop := obs.progress(req.N, &done)
	i, v, err := experiment.Pick(ctx, probe, m, sim.RunConfig{Seed: req.Seed, N: req.N, Workers: req.Workers, Done: &done}, req.Pick)
	stop()
	if isInterrupt(err) {
		return nil, &Error{Kind: Interrupted, Err: err}
	}
	if err != nil {
		return nil, &Error{Kind: Failed, Err: err}
	}
	t.Encounter, t.Value = i, v
	return t, nil
}
