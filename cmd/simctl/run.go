package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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

	var done atomic.Int64
	cfg.Done = &done
	cfg.Abandon = abandon
	abandonable.Store(true)
	defer abandonable.Store(false)
	stopBar := startProgress(*progress, cfg.N, &done, stderr)
	t0 := time.Now()
	tally, runErr := sim.Run(ctx, g, cfg)
	elapsed := time.Since(t0).Seconds()
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
		fmt.Fprintf(stderr, "simctl run: interrupted after %d of %d encounters; the result above covers those\n", tally.Encounters, cfg.N)
		return exitInterrupted
	}
	return exitOK
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
