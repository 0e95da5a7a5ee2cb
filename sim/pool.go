package sim

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Pool is how every experiment plays encounters in parallel (Run here;
// experiment's RunCRN, Find and Pick): workers claim chunks of consecutive
// encounter indices from a shared counter, play each index into their own
// state, and stop between encounters when the context is cancelled. It
// keeps the guarantees in one place:
//
//   - determinism: Play gets absolute indices and must draw encounter i from
//     the stream seeded (cfg.Seed, i), and each worker writes only its own
//     state, so what the caller merges after Run does not depend on the
//     worker count;
//   - resume: a stopped run knows exactly which indices it did not play
//     (cfg.Unplayed), every claimed chunk either played or recorded as a gap;
//   - a panic while playing an encounter stops the pool and comes back as
//     the error Crash makes of it, naming the encounter;
//   - progress (cfg.Done) advances by each finished chunk.
//
// W is a worker's state (its tables, stream and accumulator), typically a
// pointer. Concurrency: New runs on the caller's goroutine before any
// worker starts; Play and Crash run on the worker's goroutine and touch
// only their W; Commit and Abandoned are serialised per worker by the pool.
type Pool[W any] struct {
	Chunk int64              // indices claimed at once; must be positive
	New   func() W           // one worker's state
	Play  func(w W, i int64) // play encounter i (absolute index) into w
	// Crash is the error for a panic p raised while w played encounter i.
	Crash func(w W, i int64, p any) error
	// Commit, with cfg.Abandon set, publishes w's work so far (at each
	// CommitEvery tick and at the end of each chunk); Abandoned reads what
	// w published when the run is abandoned. Both are called under w's
	// lock. A pool without them cannot be abandoned (cfg.Abandon ignored).
	Commit    func(w W)
	Abandoned func(w W)
	// Cut, if set, reports that the encounter w just played was abandoned
	// mid-play (the run is stopping: sim.Counts.Stopped); w must then have
	// dropped everything it played since its last Commit or Fold, which the
	// pool records as unplayed. Fold, with Cut and without Commit, makes w's
	// work so far safe from such a drop (at each chunk's end): dropping a
	// whole chunk's work costs no copy per encounter, and a resume plays it
	// again.
	Cut  func(w W) bool
	Fold func(w W)
}

// ErrAbandoned is what Pool.Run returns when cfg.Abandon was closed: only
// what each worker committed (Abandoned) counts; workers may still be
// running and their states must not be read.
var ErrAbandoned = context.Canceled

// Run plays encounters cfg.Start..cfg.Start+cfg.N-1 and returns the
// workers' states, in worker order, for the caller to merge. err is the
// first worker's Crash error, or ctx's error when the run stopped short
// (cancelled after the last index was claimed and played, it is whole and
// err is nil), or ErrAbandoned.
func (p *Pool[W]) Run(ctx context.Context, cfg RunConfig) ([]W, error) {
	if p.Chunk <= 0 {
		panic("sim: Pool with a non-positive Chunk")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if n := (cfg.N + p.Chunk - 1) / p.Chunk; int64(workers) > n && n > 0 {
		workers = int(n)
	}
	abandonable := cfg.Abandon != nil && p.Commit != nil && p.Abandoned != nil
	// A worker that fails stops the others: the run is lost anyway, and the
	// error should come back now, not after the remaining encounters.
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	slots := make([]*poolSlot[W], workers)
	for k := range slots {
		slots[k] = &poolSlot[W]{w: p.New(), done: wctx.Done(), commit: abandonable}
	}
	var wg sync.WaitGroup
	for _, s := range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.err = s.work(p, cfg, &next); s.err != nil {
				cancel()
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	if abandonable {
		tick := time.NewTicker(CommitEvery)
		defer tick.Stop()
	wait:
		for {
			select {
			case <-finished:
				break wait
			case <-tick.C:
				for _, s := range slots {
					s.flush.Store(true)
				}
			case <-cfg.Abandon:
				cancel()
				for _, s := range slots {
					s.mu.Lock()
					p.Abandoned(s.w)
					s.mu.Unlock()
				}
				return nil, ErrAbandoned
			}
		}
	}
	<-finished
	ws := make([]W, workers)
	gaps := make([]Range, workers)
	var err error
	var played int64
	for k, s := range slots {
		ws[k], gaps[k] = s.w, s.gap
		played += s.played
		if err == nil && s.err != nil {
			err = s.err
		}
	}
	if err == nil && played < max(cfg.N, 0) {
		err = ctx.Err()
	}
	if cfg.Unplayed != nil {
		*cfg.Unplayed = UnplayedRanges(gaps, next.Load(), cfg)
	}
	return ws, err
}

// poolSlot is the pool's bookkeeping of one worker.
type poolSlot[W any] struct {
	w      W
	done   <-chan struct{} // closed on cancellation
	gap    Range           // the part of its last chunk it did not play
	played int64
	err    error
	commit bool // publish for an abandoning Run
	flush  atomic.Bool
	mu     sync.Mutex
}

func (s *poolSlot[W]) stopped() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

func (s *poolSlot[W]) publish(p *Pool[W]) {
	s.mu.Lock()
	p.Commit(s.w)
	s.mu.Unlock()
}

func (s *poolSlot[W]) work(p *Pool[W], cfg RunConfig, next *atomic.Int64) (err error) {
	var cur int64 = -1
	defer func() {
		if r := recover(); r != nil {
			err = p.Crash(s.w, cur, r)
		}
	}()
	for {
		lo := next.Add(p.Chunk) - p.Chunk
		if lo >= cfg.N {
			return nil
		}
		hi := min(lo+p.Chunk, cfg.N)
		if s.stopped() {
			s.gap = Range{lo, hi} // claimed, never started
			return nil
		}
		safe := lo // the first index not yet committed or folded
		for i := lo; i < hi; i++ {
			// A non-blocking receive per encounter (a few ns, no lock):
			// a cancelled run stops after the encounter in play, or within
			// a round of it where the referee asks (Cut).
			if s.stopped() {
				s.gap = Range{i, hi}
				hi = i
				break
			}
			if s.commit && s.flush.Load() {
				s.flush.Store(false)
				s.publish(p)
				safe = i
			}
			cur = cfg.Start + i
			p.Play(s.w, cur)
			if p.Cut != nil && p.Cut(s.w) {
				s.played -= i - safe
				s.gap = Range{safe, hi}
				hi = safe
				break
			}
			s.played++
		}
		if s.commit {
			s.publish(p)
		} else if p.Fold != nil {
			p.Fold(s.w)
		}
		if cfg.Done != nil {
			cfg.Done.Add((hi - lo) * max(cfg.DonePer, 1))
		}
		if s.gap.Hi > s.gap.Lo {
			return nil // stopped inside this chunk: claim no other
		}
	}
}
