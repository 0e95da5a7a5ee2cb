package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"simctl/reports"
	"simctl/sim"
)

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int64("n", 100000, "number of encounters")
	seed := fs.Uint64("seed", 1, "run seed; encounter i draws from the stream (seed, i)")
	workers := fs.Int("workers", 0, "worker goroutines (0: one per core)")
	asJSON := fs.Bool("json", false, "print the JSON result instead of the table")
	out := fs.String("o", "", "write the result to FILE instead of stdout")
	shard := fs.String("shard", "", "run shard k of K (k/K, from 0); K alone takes k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
	resume := fs.String("resume", "", "continue the interrupted run whose JSON result is FILE: play only the encounters it did not, and write the whole result")
	progress := fs.String("progress", "auto", "progress bar on stderr: auto (a terminal and a long run), always, never")
	var sets setFlags
	fs.Var(&sets, "set", "override a scenario field, PATH=VALUE (repeatable), e.g. heroes.Fighter.init=4")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: simctl run SCENARIO [flags]; see simctl run -h")
		return exitUsage
	}
	if *n < 1 {
		fmt.Fprintf(stderr, "simctl run: -n %d: the number of encounters must be at least 1\n", *n)
		return exitUsage
	}
	if *workers < 0 {
		fmt.Fprintf(stderr, "simctl run: --workers %d: must be 0 (one per core) or more\n", *workers)
		return exitUsage
	}
	switch *progress {
	case "auto", "always", "never":
	default:
		fmt.Fprintf(stderr, "simctl run: --progress %q: expected auto, always or never\n", *progress)
		return exitUsage
	}
	k, of, err := parseShard(*shard)
	if err != nil {
		fmt.Fprintln(stderr, "simctl run:", err)
		return exitUsage
	}
	target, err := checkOut(*out, "-o")
	if err != nil {
		fmt.Fprintln(stderr, "simctl run:", err)
		return exitUsage
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	sc, g, err := src.compile(sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	cfg := sim.RunConfig{Seed: *seed, Start: shardStart(*n, k, of), Workers: *workers}
	cfg.N = shardStart(*n, k+1, of) - cfg.Start
	var meta reports.Meta
	if *shard != "" {
		meta.Shard = &reports.Shard{K: k, Of: of, Start: cfg.Start, N: cfg.N, Total: *n}
	}

	// What to play: the whole run (or shard), or what an interrupted
	// result left out, added to its tally.
	todo := []sim.Range{{Lo: cfg.Start, Hi: cfg.Start + cfg.N}}
	tally := sim.NewTally(g)
	var before float64
	if *resume != "" {
		old, err := resumeRun(ctx, *resume, src.sum(), fullVersion(), *seed, sets.strings(), meta.Shard, *n)
		if err != nil {
			fmt.Fprintln(stderr, "simctl run:", err)
			return exitUsage
		}
		todo, before = nil, old.Elapsed
		for _, u := range old.Unplayed {
			todo = append(todo, sim.Range{Lo: u[0], Hi: u[1]})
		}
		tally = old.Tally()
		fmt.Fprintf(stderr, "simctl run: resuming %s: %d encounters played, %d to play\n", *resume, tally.Encounters, cfg.N-tally.Encounters)
	}
	var left []sim.Range
	known := true // the unplayed ranges are known (not after a second Ctrl-C)
	var done atomic.Int64
	stopBar := startProgress(*progress, cfg.N-tally.Encounters, &done, stderr)
	abandonable.Store(true)
	defer abandonable.Store(false)
	t0 := time.Now()
	var runErr error
	for i, rg := range todo {
		var u []sim.Range
		c := sim.RunConfig{Seed: *seed, Start: rg.Lo, N: rg.Hi - rg.Lo, Workers: *workers, Done: &done, Abandon: abandon, Unplayed: &u}
		var t *sim.Tally
		t, runErr = sim.Run(ctx, g, c)
		tally.Merge(t)
		if runErr != nil {
			if t.Encounters < c.N && u == nil {
				known = false
			}
			left = append(append(left, u...), todo[i+1:]...)
			break
		}
	}
	elapsed := before + time.Since(t0).Seconds()
	stopBar()

	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		fmt.Fprintln(stderr, "simctl run:", runErr)
		return exitFailure
	}
	meta.Scenario, meta.File, meta.Ruleset = sc.Name, sc.File, sc.Ruleset
	meta.Version, meta.Seed, meta.Elapsed = fullVersion(), *seed, elapsed
	meta.Sides = [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	meta.Sets = sets.strings()
	meta.Command = "simctl run " + strings.Join(args, " ")
	meta.Interrupted = interrupted
	meta.ScenarioSHA256, meta.ScenarioText = src.sum(), src.text()
	if interrupted && known {
		for _, u := range left {
			meta.Unplayed = append(meta.Unplayed, [2]int64{u.Lo, u.Hi})
		}
	}
	res := reports.New(meta, g, tally)
	write := res.WriteText
	if *asJSON {
		write = res.WriteJSON
	}
	if err := writeOut(target, stdout, write); err != nil {
		fmt.Fprintln(stderr, "simctl run:", err)
		return exitFailure
	}
	if interrupted {
		fmt.Fprintf(stderr, "simctl run: interrupted after %d of %d encounters; the result above covers those", tally.Encounters, cfg.N)
		if known && target != nil && *asJSON {
			fmt.Fprintf(stderr, "; add --resume %s to play the rest", target.Path())
		}
		fmt.Fprintln(stderr)
		return exitInterrupted
	}
	return exitOK
}

// resumeRun reads an interrupted run's JSON result and checks it is this
// run's: the same simctl, scenario text, seed, overrides, -n and shard.
func resumeRun(ctx context.Context, path, sum, version string, seed uint64, sets []string, shard *reports.Shard, n int64) (*reports.Result, error) {
	r, err := reports.ReadFileContext(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("--resume: %v", err)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("--resume %s: %s; resume with the same command line", path, fmt.Sprintf(format, a...))
	}
	var played, left int64 = r.Encounters, 0
	for _, u := range r.Unplayed {
		left += u[1] - u[0]
	}
	whole := played + left
	if r.Shard != nil {
		whole = r.Shard.Total
	}
	switch {
	case !r.Interrupted:
		return nil, fmt.Errorf("--resume %s: that run was not interrupted; nothing to resume", path)
	case len(r.Unplayed) == 0:
		return nil, fmt.Errorf("--resume %s: that run was stopped at once (a second interrupt) and does not know which encounters it left; run it again", path)
	case r.ScenarioSHA256 != sum:
		return nil, bad("that run's scenario text differs (SHA-256 %.12s, this one %.12s)", r.ScenarioSHA256, sum)
	case r.Version != version:
		return nil, bad("that run was made by simctl %s, this is %s", r.Version, version)
	case r.Seed != seed:
		return nil, bad("that run has seed %d, this one %d", r.Seed, seed)
	case !slices.Equal(r.Sets, sets):
		return nil, bad("that run has --set %v, this one %v", r.Sets, sets)
	case whole != n:
		return nil, bad("that run has -n %d, this one %d", whole, n)
	case (r.Shard == nil) != (shard == nil) || (shard != nil && (r.Shard.K != shard.K || r.Shard.Of != shard.Of)):
		return nil, bad("that run's --shard differs")
	}
	lo, hi := int64(0), n
	if shard != nil {
		lo, hi = shard.Start, shard.Start+shard.N
		whole = shard.N
	}
	prev := lo
	for _, u := range r.Unplayed {
		if u[0] < prev || u[1] <= u[0] || u[1] > hi {
			return nil, fmt.Errorf("--resume %s: its unplayed ranges are out of order or out of range; the file is damaged", path)
		}
		prev = u[1]
	}
	if played+left != whole {
		return nil, fmt.Errorf("--resume %s: %d encounters played and %d unplayed do not make its %d; the file is damaged", path, played, left, whole)
	}
	return r, nil
}

// shardStart is the first encounter of shard k of K over n encounters,
// floor(k·n/K), computed without overflowing for any n.
func shardStart(n int64, k, of int) int64 {
	return int64(k)*(n/int64(of)) + int64(k)*(n%int64(of))/int64(of)
}

// startProgress draws a bar on stderr while the run goes, when stderr is a
// terminal and the run is long (or when asked). Workers only bump an atomic
// counter; this goroutine is the only one touching the bar.
func startProgress(mode string, total int64, done *atomic.Int64, stderr io.Writer) (stop func()) {
	show := mode == "always"
	if mode == "auto" {
		f, ok := stderr.(*os.File)
		show = ok && term.IsTerminal(int(f.Fd())) && total >= 2_000_000
	}
	if !show {
		return func() {}
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("encounters"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("enc"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				bar.Set64(done.Load())
				bar.Finish()
				return
			case <-tick.C:
				bar.Set64(done.Load())
			}
		}
	}()
	return func() { close(quit); <-finished }
}
