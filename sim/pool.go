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
// worker starts; Play, Crash and Cut run on the worker's goroutine and
// touch only their W; Save and Abandoned are serialised per worker by the
// pool.
//
// Play, New and Crash are all a pool needs. A pool whose workers can drop
// work (Cut) or whose run can be abandoned (cfg.Abandon) adds Save, the
// one point where a worker's work becomes safe, and Abandoned or Cut.
type Pool[W any] struct {
	Chunk int64              // indices claimed at once; must be positive
	New   func() W           // one worker's state
	Play  func(w W, i int64) // play encounter i (absolute index) into w
	// Crash is the error for a panic p raised while w played encounter i.
	Crash func(w W, i int64, p any) error
	// Save makes w's work so far safe: from a Cut, and, when the run can
	// be abandoned, for Abandoned to read. It is called at the end of each
	// chunk (dropping a whole chunk costs no copy per encounter, and a
	// resume plays it again) and, when the run can be abandoned, at each
	// CommitEvery tick, then under w's lock.
	Save func(w W)
	// Abandoned reads what w saved when the run is abandoned, under w's
	// lock. A pool without Save and Abandoned cannot be abandoned
	// (cfg.Abandon ignored).
	Abandoned func(w W)
	// Cut, if set, reports that the encounter w just played was abandoned
	// mid-play (the run is stopping: sim.Counts.Stopped); w must then have
	// dropped everything it played since its last Save (which Cut needs),
	// and the pool records it as unplayed.
	Cut func(w W) bool
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
	abandonable := cfg.Abandon != nil && p.Save != nil && p.Abandoned != nil
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
	commit bool // the run can be abandoned: save under mu
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

// save is Pool.Save, under the slot's lock when the run can be
// abandoned (Abandoned reads what it saved from another goroutine).
func (s *poolSlot[W]) save(p *Pool[W]) {
	if !s.commit {
		p.Save(s.w)
		return
	}
	s.mu.Lock()
	p.Save(s.w)
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
		safe := lo // the first index not yet saved
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
				s.save(p)
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
		if p.Save != nil {
			s.save(p)
		}
		if cfg.Done != nil {
			cfg.Done.Add((hi - lo) * max(cfg.DonePer, 1))
		}
		if s.gap.Hi > s.gap.Lo {
			return nil // stopped inside this chunk: claim no other
		}
	}
}
