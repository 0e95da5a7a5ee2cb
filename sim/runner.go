package sim

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

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
	// Abandon, if non-nil, makes Run return at once when closed (a second
	// Ctrl-C) with the encounters the workers have committed, without
	// waiting for the encounters in play: their goroutines are left to
	// the exiting process. Workers commit every CommitEvery (and at the
	// end of each chunk), so what is lost is at most that much work.
	Abandon <-chan struct{}
	// Unplayed, if non-nil, receives the encounter index ranges (absolute,
	// half-open, in order) that a cancelled Run did not play, so that a
	// later run can play exactly those (simctl run --resume). Empty when
	// the run is whole; left nil after Abandon, whose gaps are not known.
	Unplayed *[]Range
}

// Range is the encounter indices Lo..Hi-1.
type Range struct{ Lo, Hi int64 }

// CommitEvery is how often, with RunConfig.Abandon set, each worker
// publishes its tally for an abandoning Run to return.
const CommitEvery = 200 * time.Millisecond

// chunk is how many consecutive encounters a worker claims at once: large
// enough that the shared counter is touched rarely, small enough that
// workers finish together and cancellation is prompt.
const chunk = 2048

// Run plays encounters Start..Start+N-1 of game on a pool of workers and
// returns their merged tally. Encounter i always draws from the stream
// seeded (Seed, i), so the tally does not depend on Workers.
//
// When ctx is cancelled every worker stops after the encounter it is
// playing (an atomic flag checked between encounters, so a run of slow
// encounters stops within one encounter's time); the tally of exactly the
// encounters that finished is returned with ctx's error, so an interrupted
// run keeps its work. Every goroutine Run started has ended when it
// returns, except after Abandon (see RunConfig). A panic inside a ruleset
// is returned as an error that names the encounter, for `simctl trace` to
// replay.
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
	ws := make([]*worker, workers)
	var wg sync.WaitGroup
	for w := range ws {
		ws[w] = &worker{t: NewTally(g), done: wctx.Done()}
		if cfg.Abandon != nil {
			ws[w].committed = NewTally(g)
		}
	}
	for _, wk := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk.err = wk.work(g, cfg, &next)
			if wk.err != nil {
				cancel()
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	if cfg.Abandon != nil {
		tick := time.NewTicker(CommitEvery)
		defer tick.Stop()
	wait:
		for {
			select {
			case <-finished:
				break wait
			case <-tick.C:
				for _, wk := range ws {
					wk.flush.Store(true)
				}
			case <-cfg.Abandon:
				cancel()
				total := NewTally(g)
				for _, wk := range ws {
					wk.mu.Lock()
					total.Merge(wk.committed)
					wk.mu.Unlock()
				}
				return total, context.Canceled
			}
		}
	}
	<-finished
	total := NewTally(g)
	var err error
	for _, wk := range ws {
		total.Merge(wk.t)
		if wk.committed != nil {
			total.Merge(wk.committed)
		}
		if err == nil && wk.err != nil {
			err = wk.err
		}
	}
	// Cancelled after the last encounter was claimed, the run is still
	// whole: only a run that stopped short reports the context's error.
	if err == nil && total.Encounters < max(cfg.N, 0) {
		err = ctx.Err()
	}
	if cfg.Unplayed != nil {
		*cfg.Unplayed = unplayed(ws, next.Load(), cfg)
	}
	return total, err
}

// unplayed is what a stopped run left out: every index from the last
// claimed chunk on, and the unplayed tail of each worker's last chunk
// (every chunk below claimed was played, but for those tails).
func unplayed(ws []*worker, claimed int64, cfg RunConfig) []Range {
	gaps := make([]Range, len(ws))
	for k, wk := range ws {
		gaps[k] = wk.gap
	}
	return UnplayedRanges(gaps, claimed, cfg)
}

// UnplayedRanges is what a stopped run of cfg left out, given the unplayed
// tail of each worker's last chunk (gaps, relative to cfg.Start; empty ones
// ignored) and claimed, the first index of the first chunk no worker
// claimed: absolute ranges, sorted, adjacent ones joined. Run and
// experiment.RunCRN share it so both report their gaps alike.
func UnplayedRanges(gaps []Range, claimed int64, cfg RunConfig) []Range {
	var all []Range
	for _, g := range gaps {
		if g.Hi > g.Lo {
			all = append(all, g)
		}
	}
	if claimed < cfg.N {
		all = append(all, Range{claimed, cfg.N})
	}
	slices.SortFunc(all, func(a, b Range) int { return cmp.Compare(a.Lo, b.Lo) })
	var out []Range
	for _, g := range all {
		g.Lo, g.Hi = g.Lo+cfg.Start, g.Hi+cfg.Start
		if n := len(out); n > 0 && out[n-1].Hi == g.Lo {
			out[n-1].Hi = g.Hi
			continue
		}
		out = append(out, g)
	}
	return out
}

// worker is one goroutine's state: its table's tally t, and with Abandon
// the tally committed so far (t is then what is not yet committed).
type worker struct {
	t         *Tally
	done      <-chan struct{} // closed on cancellation
	gap       Range           // the part of its last chunk it did not play
	flush     atomic.Bool
	mu        sync.Mutex
	committed *Tally
	err       error
}

func (wk *worker) stopped() bool {
	select {
	case <-wk.done:
		return true
	default:
		return false
	}
}

// commit moves t into committed, for an abandoning Run to read.
func (wk *worker) commit() {
	wk.mu.Lock()
	wk.committed.Merge(wk.t)
	wk.mu.Unlock()
	wk.t.Reset()
}

func (wk *worker) work(g Game, cfg RunConfig, next *atomic.Int64) (err error) {
	table := g.NewTable()
	t := wk.t
	var r rng.Stream
	var cur int64 = -1
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in encounter %d (seed %d): %v; replay it with simctl trace --seed %d --encounter %d",
				cur, cfg.Seed, p, cfg.Seed, cur)
		}
	}()
	for {
		lo := next.Add(chunk) - chunk
		if lo >= cfg.N {
			return nil
		}
		hi := min(lo+chunk, cfg.N)
		if wk.stopped() {
			wk.gap = Range{lo, hi} // claimed, never started
			return nil
		}
		for i := lo; i < hi; i++ {
			// A non-blocking receive per encounter (a few ns, no lock):
			// a cancelled run stops after the encounter in play, however
			// long encounters are.
			if wk.stopped() {
				wk.gap = Range{i, hi}
				hi = i
				break
			}
			if wk.committed != nil && wk.flush.Load() {
				wk.flush.Store(false)
				wk.commit()
			}
			cur = cfg.Start + i
			r.Seed(cfg.Seed, uint64(cur))
			t.Record(table.Play(&r, &t.Counts, nil))
		}
		if wk.committed != nil {
			wk.commit()
		}
		if cfg.Done != nil {
			cfg.Done.Add(hi - lo)
		}
		if wk.gap.Hi > wk.gap.Lo {
			return nil // stopped inside this chunk: claim no other
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
