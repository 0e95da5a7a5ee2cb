package app

import (
	"context"
	"sync/atomic"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// FindRequest is a search of encounters 0..N-1 for those whose outcome
// meets a condition in the tactics language.
type FindRequest struct {
	Source  *Source
	Sets    []scenario.Set
	Where   string // the condition
	Limit   int    // how many matching indices to list (the lowest)
	Seed    uint64
	N       int64
	Workers int
	Command string
}

// Found is find's document.
type Found struct {
	results.Header
	Where string `json:"where"`
	experiment.FindResult
}

// Check refuses a limit out of range.
func (req *FindRequest) Check() error {
	if req.Limit < 1 || req.Limit > 100000 {
		return usage(true, "--limit %d: from 1 to 100000", req.Limit)
	}
	return nil
}

// Find plays req and returns its document (marked interrupted if ctx
// ended it: the counts are then of the encounters searched).
func Find(ctx context.Context, req *FindRequest, obs *Observer) (*Found, error) {
	if obs == nil {
		obs = &Observer{}
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	sc, g, err := req.Source.Compile(req.Sets, obs.Warn)
	if err != nil {
		return nil, &Error{Kind: Invalid, Err: err}
	}
	probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
	cond, err := probe.Condition(req.Where)
	if err != nil {
		return nil, usage(true, "%s: %v", "--where", err)
	}
	var done atomic.Int64
	stop := obs.progress(req.N, &done)
	res, runErr := experiment.Find(ctx, probe, cond, sim.RunConfig{Seed: req.Seed, N: req.N, Workers: req.Workers, Done: &done}, req.Limit)
	stop()
	interrupted := isInterrupt(runErr)
	if runErr != nil && !interrupted {
		return nil, &Error{Kind: Failed, Err: runErr}
	}
	doc := &Found{Header: results.Header{Kind: "find", Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Seed: req.Seed, Version: Version(),
		Command: req.Command, Sets: setStrings(req.Sets)}, Where: req.Where, FindResult: *res}
	doc.Interrupted = interrupted
	return doc, nil
}
