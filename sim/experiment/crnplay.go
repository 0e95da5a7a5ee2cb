package experiment

import (
	"context"
	"math"
	"runtime"
	"slices"
	"time"

	"simctl/sim"
	"simctl/stats"
)

// The designs on common random numbers as a command plays them: over the
// index ranges left to play (a resumed run's), in segments between which
// the caller saves what it has, and, for a comparison with --precision,
// batch after batch until every interval is narrow enough.

// PlayCRN plays the index ranges todo of games on common random numbers
// (with the counters' cross sums when cross is set), handing each
// segment's sums to add. On interruption it returns the ranges still
// unplayed (in order) with the context's error. With save non-nil, the
// ranges are played in segments and, at most every every, save is called
// with what is left: the caller writes its document (marked interrupted,
// the rest unplayed) so that a process killed at any moment loses at most
// the last segments.
//
// every and perWorker are the period of the saves and the segment's
// encounter indices per worker.
func PlayCRN(ctx context.Context, games []sim.Game, cfg sim.RunConfig, cross bool, todo []sim.Range, add func(*CRN), save func(left []sim.Range), every time.Duration, perWorker int64) ([]sim.Range, error) {
	seg := int64(math.MaxInt64)
	if save != nil {
		// Many chunks per worker: the wait for the slowest at a segment's
		// end is a small part of it.
		workers := cfg.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		seg = perWorker * int64(workers)
	}
	todo = slices.Clone(todo)
	last := time.Now()
	for len(todo) > 0 {
		rg := todo[0]
		hi := rg.Hi
		if hi-rg.Lo > seg {
			hi = rg.Lo + seg
		}
		var u []sim.Range
		rc := cfg
		rc.Start, rc.N, rc.Unplayed = rg.Lo, hi-rg.Lo, &u
		run := RunCRN
		if cross {
			run = RunCRNCross
		}
		c, err := run(ctx, games, rc)
		add(c)
		if todo[0].Lo = hi; todo[0].Lo == todo[0].Hi {
			todo = todo[1:]
		}
		if err != nil {
			return append(u, todo...), err
		}
		if save != nil && len(todo) > 0 && time.Since(last) >= every {
			save(todo)
			last = time.Now()
		}
	}
	return nil, nil
}

// PlayJoint is PlayCRN adding side si's joint wins over the games (a
// value run's or a matrix's sums) to joint.
func PlayJoint(ctx context.Context, games []sim.Game, cfg sim.RunConfig, si int, joint *stats.Joint, todo []sim.Range, save func(left []sim.Range), every time.Duration, perWorker int64) ([]sim.Range, error) {
	return PlayCRN(ctx, games, cfg, false, todo, func(c *CRN) { joint.Merge(&c.Wins[si]) }, save, every, perWorker)
}

// RunPairedUntil plays the options on common random numbers; with
// precision w > 0 it applies the sweep's sequential stopping rule
// (PrecisionRule) to every option at once: batches of encounter indices
// 0, 1, 2, ... until each option's two 95% intervals are predicted
// narrower than w by the auxiliary sample, or cfg.N; reached says whether
// they are. The tallies depend only on the seed, N, w and batch.
func RunPairedUntil(ctx context.Context, games []sim.Game, cfg sim.RunConfig, w float64, batch int64) (pt *PairedTally, reached bool, err error) {
	if w <= 0 {
		pt, err := RunPaired(ctx, games, cfg)
		return pt, false, err
	}
	total := cfg.N
	var acc *PairedTally
	// The decision reads an auxiliary sample only, so the intervals keep
	// their fixed-N coverage (PrecisionRule).
	rule := NewPrecisionRule(games, w, cfg.Seed, cfg.Workers)
	for start := int64(0); start < total; {
		cfg.Start, cfg.N = start, min(batch, total-start)
		pt, err := RunPaired(ctx, games, cfg)
		if acc == nil {
			acc = pt
		} else {
			acc.Merge(pt)
		}
		if err != nil {
			return acc, false, err
		}
		start += cfg.N
		stop, err := rule.Stop(ctx, start)
		if err != nil {
			return acc, false, err
		}
		if stop {
			if cfg.Done != nil {
				cfg.Done.Add(total - start)
			}
			break
		}
	}
	reached = true
	for _, t := range acc.Tallies {
		reached = reached && PrecisionReached(t, w)
	}
	return acc, reached, nil
}

// RangesLen is the encounter indices in rs.
func RangesLen(rs []sim.Range) int64 {
	var n int64
	for _, r := range rs {
		n += r.Hi - r.Lo
	}
	return n
}
