package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
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
	var c common
	c.register(fs, gN|gSeed|gWorkers|gSet|gPrecision|gFormat|gQuiet|gProgress, "encounters; with --precision, the most to play")
	batch := batchFlag(fs, "with --precision: encounters between checks")
	shard := fs.String("shard", "", "`k/K` run shard k of K (from 0) of the -n encounters; K alone takes k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
	pos, done, code := parseArgs("run", fs, args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "run", "give one SCENARIO (a .yaml file or a built-in such as d20/duel), got %d", len(pos))
	}
	format, err := c.resolveFormat()
	if err != nil {
		return usageError(stderr, "run", "%v", err)
	}
	w, err := parsePrecision(c.precision)
	switch {
	case err != nil:
		return usageError(stderr, "run", "%v", err)
	case *batch < 1:
		return usageError(stderr, "run", "--batch %d: must be at least 1", *batch)
	case w > 0 && *shard != "":
		return usageError(stderr, "run", "--precision and --shard do not mix: a shard cannot know when the whole run is precise enough")
	}
	k, of, err := parseShard(*shard)
	if err != nil {
		return usageError(stderr, "run", "%v", err)
	}
	sc, g, err := load(pos[0], c.sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	n := c.n.n
	cfg := sim.RunConfig{Seed: c.seed.v, Start: shardStart(n, k, of), Workers: c.workers.v}
	cfg.N = shardStart(n, k+1, of) - cfg.Start
	var meta reports.Meta
	if *shard != "" {
		meta.Shard = &reports.Shard{K: k, Of: of, Start: cfg.Start, N: cfg.N, Total: n}
	}

	var doneN atomic.Int64
	cfg.Done = &doneN
	stopBar := startProgress(c.showProgress(), cfg.N, &doneN, stderr)
	t0 := time.Now()
	var tally *sim.Tally
	var runErr error
	reached := false
	if w > 0 {
		// The sweep's sequential stopping rule, on one point: batches of
		// encounters 0, 1, 2, ... until both intervals are narrower than w.
		runs, err := reports.RunSweep(ctx, []sim.Game{g}, reports.SweepConfig{Seed: c.seed.v, N: n, Precision: w, Batch: *batch, Workers: c.workers.v, Done: &doneN})
		tally, reached, runErr = runs[0].Tally, runs[0].Reached, err
	} else {
		tally, runErr = sim.Run(ctx, g, cfg)
	}
	elapsed := time.Since(t0).Seconds()
	stopBar()

	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		fmt.Fprintln(stderr, "simctl run:", runErr)
		return exitFailure
	}
	meta.Scenario, meta.File, meta.Ruleset = sc.Name, sc.File, sc.Ruleset
	meta.Version, meta.Seed, meta.Elapsed = fullVersion(), c.seed.v, elapsed
	meta.Sides = [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	meta.Sets = c.sets.strings()
	meta.Command = "simctl run " + strings.Join(args, " ")
	meta.Interrupted = interrupted
	res := reports.New(meta, g, tally)
	if err := writeOut(c.out, stdout, func(out io.Writer) error {
		if sh := meta.Shard; sh != nil && (format == reports.Text || format == reports.Markdown) {
			// A shard's table alone reads like a whole run: say which part it is.
			fmt.Fprintf(out, "shard %d of %d (k=%d/%d): encounters %s to %s of a %s-encounter run; simctl merge adds the shards' JSON results\n\n",
				sh.K+1, sh.Of, sh.K, sh.Of, thousandsInt(sh.Start), thousandsInt(sh.Start+sh.N-1), thousandsInt(sh.Total))
		}
		return res.WriteFormat(out, format)
	}); err != nil {
		fmt.Fprintln(stderr, "simctl run:", err)
		return exitFailure
	}
	if w > 0 && !c.quiet && !interrupted {
		if reached {
			fmt.Fprintf(stderr, "simctl run: --precision %s reached after %s encounters\n", c.precision, thousandsInt(tally.Encounters))
		} else {
			fmt.Fprintf(stderr, "simctl run: warning: --precision %s not reached within -n %s encounters; the intervals are wider\n", c.precision, thousandsInt(n))
		}
	}
	if interrupted {
		fmt.Fprintf(stderr, "simctl run: interrupted after %s of %s encounters; %s\n", thousandsInt(tally.Encounters), thousandsInt(cfg.N), whereWritten(c.out, stdout))
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
		show = isTerminal(stderr) && total >= 2_000_000
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
		// Drawing the empty bar now starts its clock with the run; else
		// it starts at the first update, 100 ms in, and the first frame
		// divides those encounters by microseconds ("2568025078 enc/s").
		progressbar.OptionSetRenderBlankState(true),
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

// thousandsInt formats n with comma separators, as the tables do.
func thousandsInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// whereWritten says where an interrupted command's partial output went,
// for the closing message: stdout may be a file the user cannot see.
func whereWritten(out string, stdout io.Writer) string {
	switch {
	case out != "" && out != "-":
		return "the partial result (marked interrupted) is in " + out
	case isTerminal(stdout):
		return "the result above covers those"
	}
	return "the partial result (marked interrupted) was written to stdout"
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
