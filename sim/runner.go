package sim

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"simctl/sim/rng"
)

// RunConfig says which encounters to play.
type RunConfig struct {
	Seed    uint64
	Start   int64 // index of the first encounter (a shard's offset)
	N       int64 // how many encounters, indices Start..Start+N-1
	Workers int   // 0: runtime.GOMAXPROCS(0)
	// Done, if non-nil, is advanced as chunks finish (for a progress bar).
	Done *atomic.Int64
}

// chunk is how many consecutive encounters a worker claims at once: large
// enough that the shared counter is touched rarely, small enough that
// workers finish together and cancellation is prompt.
const chunk = 2048

// Run plays encounters Start..Start+N-1 of game on a pool of workers and
// returns their merged tally. Encounter i always draws from the stream
// seeded (Seed, i), so the tally does not depend on Workers.
//
// When ctx is cancelled the workers finish their current chunk and stop; the
// tally of what finished is returned with ctx's error, so an interrupted
// run keeps its work. A panic inside a ruleset is returned as an error that
// names the encounter, for `simctl trace` to replay.
func Run(ctx context.Context, g Game, cfg RunConfig) (*Tally, error) {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if n := (cfg.N + chunk - 1) / chunk; int64(workers) > n && n > 0 {
		workers = int(n)
	}
	// A worker that fails stops the others: the run is lost anyway, and the
	// error should come back now, not after the remaining encounters.
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	tallies := make([]*Tally, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			t := NewTally(g)
			tallies[w] = t
			errs[w] = work(wctx, g, cfg, &next, t)
			if errs[w] != nil {
				cancel()
			}
		}(w)
	}
	wg.Wait()
	total := NewTally(g)
	var err error
	for w, t := range tallies {
		total.Merge(t)
		if err == nil && errs[w] != nil {
			err = errs[w]
		}
	}
	// Cancelled after the last chunk was claimed, the run is still whole:
	// only a run that stopped short reports the context's error.
	if err == nil && total.Encounters < max(cfg.N, 0) {
		err = ctx.Err()
	}
	return total, err
}

func work(ctx context.Context, g Game, cfg RunConfig, next *atomic.Int64, t *Tally) (err error) {
	table := g.NewTable()
	var r rng.Stream
	var cur int64 = -1
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in encounter %d (seed %d): %v; replay it with simctl trace --seed %d --encounter %d",
				cur, cfg.Seed, p, cfg.Seed, cur)
		}
	}()
	for {
		if ctx.Err() != nil {
			return nil
		}
		lo := next.Add(chunk) - chunk
		if lo >= cfg.N {
			return nil
		}
		hi := min(lo+chunk, cfg.N)
		for i := lo; i < hi; i++ {
			cur = cfg.Start + i
			r.Seed(cfg.Seed, uint64(cur))
			t.Record(table.Play(&r, &t.Counts, nil))
		}
		if cfg.Done != nil {
			cfg.Done.Add(hi - lo)
		}
	}
}

// Replay plays encounter index of a run with seed alone, narrating to log.
// Its outcome and counters are exactly those the run recorded for it.
func Replay(g Game, seed uint64, index int64, log *Log) (Outcome, *Tally) {
	t := NewTally(g)
	var r rng.Stream
	r.Seed(seed, uint64(index))
	o := g.NewTable().Play(&r, &t.Counts, log)
	t.Record(o)
	return o, t
}
