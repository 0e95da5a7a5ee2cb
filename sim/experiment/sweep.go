package experiment

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"simctl/sim"
	"simctl/stats"
)

// A sweep plays one game per point of a parameter grid, every point on the
// same encounter seeds, each point optionally with sequential stopping
// (--precision): the design behind simctl sweep, and behind run and
// compare with --precision.

// SweepConfig says how RunSweep plays each point.
type SweepConfig struct {
	Seed uint64
	// N is the number of encounters per point; with Precision it is the
	// most a point may use (the cap).
	N int64
	// Precision > 0 turns on sequential stopping: a point plays Batch
	// encounters at a time (indices continuing 0, 1, 2, ...) and stops once
	// both sides' 95% Wilson intervals are predicted narrower than
	// Precision (a proportion: 0.02 is 2 percentage points) by an
	// auxiliary sample (PrecisionRule: the point's own encounters never
	// decide when it stops, so its intervals keep their fixed-N coverage),
	// or at N.
	Precision float64
	Batch     int64 // 0: DefaultBatch
	Workers   int   // 0: runtime.GOMAXPROCS(0)
	// Done, if non-nil, advances as encounters finish; a point that stops
	// early adds the encounters it skipped, so Done ends at len(games)*N.
	Done *atomic.Int64
	// Start is the first encounter index of every point (a shard's
	// offset; 0 for a whole sweep): a point plays Start..Start+N-1.
	// Sharding needs Precision 0 (stopping depends on the whole point).
	Start int64
	// Have, if non-nil, holds points already finished (a resumed sweep):
	// a non-nil Have[k] is returned as point k's run without playing it.
	Have []*PointRun
	// OnPoint, if non-nil, is called as each point finishes (not for Have
	// points nor interrupted ones), from the goroutine that ran it: it
	// must be safe for concurrent use.
	OnPoint func(k int, run PointRun)
}

// DefaultBatch is the batch size of sequential stopping.
const DefaultBatch = 10000

// PointRun is what one sweep point played.
type PointRun struct {
	Tally *sim.Tally
	// Reached is true when the point's own 95% intervals are narrower
	// than the precision where it stopped (at the latest at the cap);
	// always false without Precision.
	Reached bool
	// Finished is false for a point cancellation stopped short.
	Finished bool
}

// RunSweep plays every game (one per sweep point) with the same seed, so
// the points share their encounter streams (common random numbers: the
// curve is smoother than with independent seeds), and returns their tallies
// in order. Points run in parallel, each on its own share of the workers;
// every tally depends only on the seed, N, Precision and Batch, never on
// Workers. On cancellation the finished part of every point is returned with
// ctx's error.
func RunSweep(ctx context.Context, games []sim.Game, cfg SweepConfig) ([]PointRun, error) {
	if cfg.N < 1 {
		panic("experiment: RunSweep with N < 1")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batch := cfg.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	if cfg.Precision <= 0 {
		batch = cfg.N
	}
	runs := make([]PointRun, len(games))
	errs := make([]error, len(games))
	todo := make([]int, 0, len(games))
	for k := range games {
		if k < len(cfg.Have) && cfg.Have[k] != nil {
			runs[k] = *cfg.Have[k]
			runs[k].Finished = true
			if cfg.Done != nil {
				cfg.Done.Add(cfg.N)
			}
			continue
		}
		todo = append(todo, k)
	}
	conc := min(workers, max(len(todo), 1))
	per := max(1, workers/conc)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(todo) || ctx.Err() != nil {
					return
				}
				k := todo[i]
				runs[k], errs[k] = runPoint(ctx, games[k], cfg, batch, per)
				if errs[k] == nil && runs[k].Finished && cfg.OnPoint != nil {
					cfg.OnPoint(k, runs[k])
				}
			}
		}()
	}
	wg.Wait()
	for k := range runs {
		if runs[k].Tally == nil { // never started: cancelled
			runs[k].Tally = sim.NewTally(games[k])
		}
	}
	for _, err := range errs {
		if err != nil {
			return runs, err
		}
	}
	for _, r := range runs {
		if !r.Finished {
			return runs, ctx.Err()
		}
	}
	return runs, nil
}

func runPoint(ctx context.Context, g sim.Game, cfg SweepConfig, batch int64, workers int) (PointRun, error) {
	total := sim.NewTally(g)
	var rule *PrecisionRule
	if cfg.Precision > 0 {
		rule = NewPrecisionRule([]sim.Game{g}, cfg.Precision, cfg.Seed, workers)
	}
	for total.Encounters < cfg.N {
		n := min(batch, cfg.N-total.Encounters)
		t, err := sim.Run(ctx, g, sim.RunConfig{Seed: cfg.Seed, Start: cfg.Start + total.Encounters, N: n, Workers: workers, Done: cfg.Done})
		total.Merge(t)
		if err != nil {
			return PointRun{Tally: total}, err
		}
		if rule == nil {
			continue
		}
		// The decision reads the auxiliary sample only (precision.go).
		stop, err := rule.Stop(ctx, total.Encounters)
		if err != nil {
			return PointRun{Tally: total}, err
		}
		if stop {
			if cfg.Done != nil {
				cfg.Done.Add(cfg.N - total.Encounters)
			}
			return PointRun{Tally: total, Reached: PrecisionReached(total, cfg.Precision), Finished: true}, nil
		}
	}
	return PointRun{Tally: total, Reached: rule != nil && PrecisionReached(total, cfg.Precision), Finished: true}, nil
}

// PrecisionReached reports whether both sides' 95% Wilson intervals are
// narrower than w.
func PrecisionReached(t *sim.Tally, w float64) bool {
	for s := 0; s < 2; s++ {
		ci := stats.Wilson95(t.Wins[s], t.Encounters)
		if ci.Hi-ci.Lo >= w {
			return false
		}
	}
	return true
}
