package reports

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"simctl/sim"
	"simctl/sim/rng"
	"simctl/stats"
)

// PairedTally is what RunPaired accumulates: each option's own tally, and
// for every option k and side s the paired outcomes (a = side s won under
// option k, b = side s won under option 0, the baseline) on the same
// encounters.
type PairedTally struct {
	Tallies []*sim.Tally
	Paired  [][2]stats.Paired // Paired[0] pairs the baseline with itself
}

// RunPaired plays encounters cfg.Start..cfg.Start+cfg.N-1 of every game on
// common random numbers: for each encounter index i, every option's table
// plays from a stream seeded (cfg.Seed, i), the same stream sim.Run would
// use. So each option's tally is exactly the tally `simctl run` makes of it
// with that seed, and the paired difference to the baseline (games[0])
// cancels the luck the options share.
//
// It follows sim.Run's pattern: workers claim chunks of consecutive indices
// from an atomic counter, each owns its tables and accumulators, and they
// merge after Wait, so the result does not depend on cfg.Workers. On
// cancellation the finished chunks are returned with ctx's error.
//
// (This runner belongs beside sim.Run; it lives here because package sim is
// owned elsewhere.)
func RunPaired(ctx context.Context, games []sim.Game, cfg sim.RunConfig) (*PairedTally, error) {
	if len(games) == 0 {
		panic("reports: RunPaired with no games")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if n := (cfg.N + pairedChunk - 1) / pairedChunk; int64(workers) > n && n > 0 {
		workers = int(n)
	}
	var next atomic.Int64
	// Checked between encounter indices (each plays every option), so a
	// cancelled comparison stops within one index's time and every option
	// holds the same finished indices.
	parts := make([]*PairedTally, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			parts[w] = newPairedTally(games)
			errs[w] = pairedWork(ctx.Done(), games, cfg, &next, parts[w])
		}(w)
	}
	wg.Wait()
	total := newPairedTally(games)
	var err error
	for w, p := range parts {
		for k := range games {
			total.Tallies[k].Merge(p.Tallies[k])
			for s := 0; s < 2; s++ {
				total.Paired[k][s].Merge(p.Paired[k][s])
			}
		}
		if err == nil && errs[w] != nil {
			err = errs[w]
		}
	}
	if err == nil && total.Tallies[0].Encounters < max(cfg.N, 0) {
		err = ctx.Err()
	}
	return total, err
}

const pairedChunk = 1024

func newPairedTally(games []sim.Game) *PairedTally {
	p := &PairedTally{Tallies: make([]*sim.Tally, len(games)), Paired: make([][2]stats.Paired, len(games))}
	for k, g := range games {
		p.Tallies[k] = sim.NewTally(g)
	}
	return p
}

func pairedWork(done <-chan struct{}, games []sim.Game, cfg sim.RunConfig, next *atomic.Int64, acc *PairedTally) (err error) {
	tables := make([]sim.Table, len(games))
	for k, g := range games {
		tables[k] = g.NewTable()
	}
	won := make([][2]int64, len(games))
	var r rng.Stream
	var cur int64 = -1
	opt := 0
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in option %d, encounter %d (seed %d): %v; replay it with simctl trace --seed %d --encounter %d and that option's --set",
				opt, cur, cfg.Seed, p, cfg.Seed, cur)
		}
	}()
	for {
		lo := next.Add(pairedChunk) - pairedChunk
		if lo >= cfg.N || stopped(done) {
			return nil
		}
		hi := min(lo+pairedChunk, cfg.N)
		for i := lo; i < hi; i++ {
			if stopped(done) {
				hi = i
				break
			}
			cur = cfg.Start + i
			for k := range tables {
				opt = k
				r.Seed(cfg.Seed, uint64(cur))
				t := acc.Tallies[k]
				out := tables[k].Play(&r, &t.Counts, nil)
				t.Record(out)
				won[k] = [2]int64{}
				if out.Winner >= 0 {
					won[k][out.Winner] = 1
				}
			}
			for k := range tables {
				for s := 0; s < 2; s++ {
					acc.Paired[k][s].Add(won[k][s], won[0][s])
				}
			}
		}
		if cfg.Done != nil {
			cfg.Done.Add(hi - lo)
		}
	}
}

// stopped is a non-blocking check of a Done channel: cheap enough to make
// between encounters.
func stopped(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}
