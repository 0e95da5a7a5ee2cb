package app

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"simctl/sim/msg"
	"sync/atomic"
	"time"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// RunRequest is a run: encounters 0..N-1 (or a shard of them) of one
// scenario, each on its own stream (seed, index).
type RunRequest struct {
	Source  *Source
	Sets    []scenario.Set
	Seed    uint64
	N       int64
	Workers int
	// Precision, if positive, stops once both 95% intervals are at most
	// this wide, checked every Batch encounters (not with Shard or
	// Resume).
	Precision float64
	Batch     int64
	Shard     *results.Shard
	// Resume is an earlier, interrupted run of the same run (ResumePath
	// names it in messages): only what it left is played.
	Resume     *results.Result
	ResumePath string
	// Abandon, when closed, makes the workers give up the encounters in
	// play (sim.RunConfig.Abandon): the result then does not know which
	// it left.
	Abandon <-chan struct{}
	Command string
}

// Ran is a run's result with what a front end needs beyond the document.
type Ran struct {
	*results.Result
	Game    sim.Game // the compiled scenario (a run's figures need it)
	Reached bool     // with Precision: the intervals reached it within N
	Planned int64    // the encounters the run (or shard) was to play
}

// Run plays req and returns its result (marked interrupted if ctx ended
// it, with the ranges it left unless Abandon was closed).
//
// With obs.Interim set (and no Precision) the encounters are played in
// batches of about InterimEvery each, the tally so far handed to Interim
// after each: encounter i draws from the stream (seed, i) whatever batch
// it is in, so the counts are exactly those of one sim.Run.
func Run(ctx context.Context, req *RunRequest, obs *Observer) (*Ran, error) {
	if obs == nil {
		obs = &Observer{}
	}
	src := req.Source
	sc, g, err := src.Compile(req.Sets, obs.Warn)
	if err != nil {
		return nil, &Error{Kind: Invalid, Err: err}
	}
	rg := req.Shard.Range(req.N)
	planned := rg.Hi - rg.Lo
	meta := results.Meta{Shard: req.Shard}
	meta.Scenario, meta.File, meta.Ruleset = sc.Name, sc.File, sc.Ruleset
	meta.Version, meta.Seed = Version(), req.Seed
	meta.Sides = [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	meta.Sets = setStrings(req.Sets)
	meta.Command = req.Command
	meta.ScenarioSHA256, meta.ScenarioText = src.Sum(), src.Text()

	// What to play: the whole run (or shard), or what an interrupted
	// result left out, added to its tally.
	todo := []sim.Range{rg}
	tally := sim.NewTally(g)
	var before float64
	if old := req.Resume; old != nil {
		if err := checkRunResume(old, req.ResumePath, meta.ScenarioSHA256, meta.Version, req.Seed, meta.Sets, req.Shard, req.N); err != nil {
			return nil, &Error{Kind: Usage, Err: err}
		}
		todo, before = results.Todo(old.Unplayed), old.Elapsed
		tally = old.Tally(g)
		obs.note("resuming %s: %d encounters played, %d to play", req.ResumePath, tally.Encounters, planned-tally.Encounters)
	}
	// result is the document of what tally holds (for a checkpoint, an
	// interrupted run with the ranges unplayed).
	result := func(interrupted bool, unplayed []sim.Range, elapsed float64) *results.Result {
		m := meta
		m.Elapsed, m.Interrupted, m.Unplayed = elapsed, interrupted, results.Unplayed(unplayed)
		r := results.New(m, g, tally)
		if interrupted && len(r.Unplayed) > 0 {
			r.ResumeDigest = r.TrustedDigest()
		}
		return r
	}
	var left []sim.Range
	known := true // the unplayed ranges are known (not after Abandon)
	var doneN atomic.Int64
	stop := obs.progress(planned-tally.Encounters, &doneN)
	t0 := time.Now()
	var runErr error
	reached := false
	if req.Precision > 0 {
		// The sweep's sequential stopping rule, on one point: batches of
		// encounters 0, 1, 2, ... until both intervals are narrower than
		// the precision. An interrupted precision run is not resumable:
		// where it would have stopped depends on the batches to come.
		runs, err := experiment.RunSweep(ctx, []sim.Game{g}, experiment.SweepConfig{Seed: req.Seed, N: req.N, Precision: req.Precision, Batch: req.Batch, Workers: req.Workers, Done: &doneN})
		tally, reached, runErr, known = runs[0].Tally, runs[0].Reached, err, false
	} else {
		// With a checkpoint to save, play in segments and, at most every
		// CheckpointEvery, hand over what finished. With an interim to
		// show, play in batches of about InterimEvery.
		seg := int64(math.MaxInt64)
		if obs.Checkpoint != nil {
			seg = cmp.Or(obs.CheckpointSegment, 64<<10) * int64(workersOf(req.Workers))
		}
		batched := obs.Interim != nil
		size := int64(1000)
		var played int64
		last := time.Now()
		for len(todo) > 0 {
			hi := todo[0].Hi
			if hi-todo[0].Lo > seg {
				hi = todo[0].Lo + seg
			}
			if batched {
				hi = min(hi, todo[0].Lo+size)
			}
			var u []sim.Range
			rc := sim.RunConfig{Seed: req.Seed, Start: todo[0].Lo, N: hi - todo[0].Lo, Workers: req.Workers, Done: &doneN, Abandon: req.Abandon, Unplayed: &u}
			tb := time.Now()
			var t *sim.Tally
			t, runErr = sim.Run(ctx, g, rc)
			tally.Merge(t)
			if todo[0].Lo = hi; todo[0].Lo == todo[0].Hi {
				todo = todo[1:]
			}
			if runErr != nil {
				if t.Encounters < rc.N && u == nil {
					known = false
				}
				left = append(u, todo...)
				break
			}
			if obs.Checkpoint != nil && len(todo) > 0 && time.Since(last) >= obs.CheckpointEvery {
				obs.Checkpoint(result(true, todo, before+time.Since(t0).Seconds()))
				last = time.Now()
			}
			if batched {
				played += rc.N
				meta.Elapsed = before + time.Since(t0).Seconds()
				obs.Interim(results.New(meta, g, tally))
				// Aim the next batch at InterimEvery from this batch's
				// pace, but grow at most fivefold, so the interval is
				// seen narrowing.
				rate := float64(rc.N) / max(time.Since(tb).Seconds(), 1e-6)
				next := int64(rate * obs.InterimEvery.Seconds())
				size = min(max(next, 1000, played/8), 4*played)
			}
		}
	}
	elapsed := before + time.Since(t0).Seconds()
	stop()
	interrupted := isInterrupt(runErr)
	if runErr != nil && !interrupted {
		return nil, &Error{Kind: Failed, Err: runErr}
	}
	if !interrupted || !known {
		left = nil
	}
	return &Ran{Result: result(interrupted, left, elapsed), Game: g, Reached: reached, Planned: planned}, nil
}

// checkRunResume checks an interrupted run's result is this run's: the
// same simctl, scenario text, seed, overrides, -n and shard (the checks
// every experiment's resume makes), and that its unplayed ranges are the
// ones simctl wrote (its digest).
func checkRunResume(r *results.Result, path, sum, version string, seed uint64, sets []string, shard *results.Shard, n int64) error {
	if r.Interrupted && len(r.Unplayed) == 0 {
		// A run records its unplayed ranges unless a second interrupt
		// stopped it at once: say so rather than the experiments' reasons.
		return msg.Errorf("--resume %s: that run was stopped at once (a second interrupt) and does not know which encounters it left; run it again", path)
	}
	old := results.DocFacts{Interrupted: r.Interrupted, Unplayed: r.Unplayed, Played: r.Encounters, SHA256: r.ScenarioSHA256,
		Version: r.Version, Seed: r.Seed, Sets: r.Sets, Shard: r.Shard}
	now := results.DocFacts{SHA256: sum, Version: version, Seed: seed, Sets: sets, Shard: shard}
	if err := results.CheckResume(path, old, now, n); err != nil {
		return err
	}
	// The checks above hold for a range shifted by hand (its length
	// kept): only the digest tells it from the ranges simctl wrote.
	return results.CheckDigest(path, r.ResumeDigest, r.TrustedDigest())
}

// workersOf is the number of workers Workers w means.
func workersOf(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}
