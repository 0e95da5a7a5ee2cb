package sim

import (
	"cmp"
	"context"
	"slices"
	"sync/atomic"
	"time"

	"simctl/sim/msg"
	"simctl/sim/rng"
)

// RunConfig says which encounters to play.
type RunConfig struct {
	Seed    uint64
	Start   int64 // index of the first encounter (a shard's offset)
	N       int64 // how many encounters, indices Start..Start+N-1
	Workers int   // 0: runtime.GOMAXPROCS(0)
	// Done, if non-nil, is advanced as chunks finish (for a progress bar),
	// by DonePer per encounter index (0 counts as 1): an experiment that
	// plays several games on every index and counts each game's
	// encounters sets it to their number.
	Done    *atomic.Int64
	DonePer int64
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
// When ctx is cancelled every worker stops within a round: the referees
// ask Counts.Stopped every round, and an encounter so abandoned is dropped
// with what its worker played since the end of its last chunk (Pool.Cut),
// all listed in cfg.Unplayed; the tally of exactly the encounters that
// finished and were kept is returned with ctx's error, so an interrupted
// run keeps its work. Every goroutine Run started has ended when it
// returns, except after Abandon (see RunConfig). A panic inside a ruleset
// is returned as an error that names the encounter, for `simctl trace` to
// replay.
func Run(ctx context.Context, g Game, cfg RunConfig) (*Tally, error) {
	total := NewTally(g)
	// The referees ask stop once per round: an encounter of thousands of
	// rounds is abandoned within one, not played to its end.
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	pool := Pool[*runWorker]{
		Chunk: chunk,
		New: func() *runWorker {
			// t is the work since the last Save, all a Cut drops.
			w := &runWorker{table: g.NewTable(), t: NewTally(g), committed: NewTally(g)}
			w.t.Counts.Watch(&stop)
			return w
		},
		Play: func(w *runWorker, i int64) {
			w.r.Seed(cfg.Seed, uint64(i))
			w.t.Record(w.table.Play(&w.r, &w.t.Counts, nil))
		},
		Crash: func(_ *runWorker, i int64, p any) error {
			return msg.Errorf("internal error in encounter %d (seed %d): %v; replay it with simctl trace --seed %d --encounter %d",
				i, cfg.Seed, p, cfg.Seed, i)
		},
		Save: func(w *runWorker) {
			w.committed.Merge(w.t)
			w.t.Reset()
		},
		Abandoned: func(w *runWorker) { total.Merge(w.committed) },
		Cut: func(w *runWorker) bool {
			if !w.t.Counts.Cut() {
				return false
			}
			w.t.Reset()
			return true
		},
	}
	ws, err := pool.Run(ctx, cfg)
	if ws == nil { // abandoned: total holds what the workers committed
		return total, err
	}
	for _, w := range ws {
		total.Merge(w.t)
		total.Merge(w.committed)
	}
	return total, err
}

// runWorker is one worker of Run: its table, stream, the tally committed
// (or folded) so far, and t, what it played since.
type runWorker struct {
	table     Table
	r         rng.Stream
	t         *Tally
	committed *Tally
}

// UnplayedRanges is what a stopped run of cfg left out, given the unplayed
// tail of each worker's last chunk (gaps, relative to cfg.Start; empty ones
// ignored) and claimed, the first index of the first chunk no worker
// claimed: absolute ranges, sorted, adjacent ones joined. Pool.Run
// reports its gaps with it; a caller that shards work itself may too.
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
