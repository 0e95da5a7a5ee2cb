package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"simctl/sim/experiment"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/safeio"
	"simctl/sim"
)

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var c common
	c.register(fs, gN|gSeed|gWorkers|gSet|gPrecision|gFormat|gQuiet|gProgress, "encounters; with --precision, the most to play")
	batch := batchFlag(fs, "with --precision: encounters between checks")
	shard := fs.String("shard", "", "`k/K` run shard k of K (from 0) of the -n encounters; K alone takes k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
	resume := fs.String("resume", "", "`FILE` continue the interrupted run whose JSON result is FILE: play only the encounters it did not, and write the whole result")
	plot := fs.String("plot", "", "`FILE` also draw a figure of the run to FILE (.png or .svg); --figure picks which")
	fs.Bool("force", false, forceUsage) // checked by parseArgs (completeResult)
	figure := fs.String("figure", "rounds", "`KIND` the figure --plot draws: "+strings.Join(runFigureKinds, ", "))
	langFlag := langFlag(fs, "the text table's own words (JSON, CSV and Markdown stay English)")
	pos, done, code := parseArgs("run", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langFlag)
	if err != nil {
		return usageError(stderr, "run", "%v", err)
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
	case w > 0 && *resume != "":
		return usageError(stderr, "run", "--precision and --resume do not mix: an interrupted precision run is played again")
	}
	k, of, err := parseShard(*shard)
	if err != nil {
		return usageError(stderr, "run", "%v", err)
	}
	target, err := checkOut(c.out, "-o")
	if err != nil {
		fmt.Fprintln(stderr, "simctl run:", err)
		return exitUsage
	}
	if !slices.Contains(runFigureKinds, *figure) {
		return usageError(stderr, "run", "--figure %q: valid: %s", *figure, strings.Join(runFigureKinds, ", "))
	}
	var plotT *safeio.Target
	if *plot != "" {
		if ext := strings.ToLower(filepath.Ext(*plot)); ext != ".png" && ext != ".svg" {
			return usageError(stderr, "run", "--plot %s: a plot is written as .png or .svg", *plot)
		}
		if plotT, err = safeio.Check(*plot, "--plot"); err != nil {
			fmt.Fprintln(stderr, "simctl run:", err)
			return exitUsage
		}
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	sc, g, err := src.compile(c.sets)
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

	// What to play: the whole run (or shard), or what an interrupted
	// result left out, added to its tally.
	todo := []sim.Range{{Lo: cfg.Start, Hi: cfg.Start + cfg.N}}
	tally := sim.NewTally(g)
	var before float64
	if *resume != "" {
		old, err := resumeRun(ctx, *resume, src.sum(), fullVersion(), c.seed.v, c.sets.strings(), meta.Shard, n)
		if err != nil {
			fmt.Fprintln(stderr, "simctl run:", err)
			return exitUsage
		}
		todo, before = nil, old.Elapsed
		for _, u := range old.Unplayed {
			todo = append(todo, sim.Range{Lo: u[0], Hi: u[1]})
		}
		tally = old.Tally(g)
		if !c.quiet {
			fmt.Fprintf(stderr, "simctl run: resuming %s: %d encounters played, %d to play\n", *resume, tally.Encounters, cfg.N-tally.Encounters)
		}
	}
	// result is the document of what tally holds (for a checkpoint, an
	// interrupted run with the ranges unplayed).
	result := func(interrupted bool, unplayed []sim.Range, elapsed float64) *reports.Result {
		meta := meta
		meta.Scenario, meta.File, meta.Ruleset = sc.Name, sc.File, sc.Ruleset
		meta.Version, meta.Seed, meta.Elapsed = fullVersion(), c.seed.v, elapsed
		meta.Sides = [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
		meta.Sets = c.sets.strings()
		meta.Command = "simctl run " + strings.Join(args, " ")
		meta.Interrupted = interrupted
		meta.ScenarioSHA256, meta.ScenarioText = src.sum(), src.text()
		meta.Unplayed = unplayedOf(unplayed)
		return reports.New(meta, g, tally)
	}
	var left []sim.Range
	known := true // the unplayed ranges are known (not after a second Ctrl-C)
	var doneN atomic.Int64
	stopBar := startProgress(ctx, c.showProgress(), cfg.N-tally.Encounters, &doneN, stderr)
	abandonable.Store(true)
	defer abandonable.Store(false)
	t0 := time.Now()
	var runErr error
	reached := false
	if w > 0 {
		// The sweep's sequential stopping rule, on one point: batches of
		// encounters 0, 1, 2, ... until both intervals are narrower than w.
		// An interrupted precision run is not resumable: where it would
		// have stopped depends on the batches still to come.
		runs, err := experiment.RunSweep(ctx, []sim.Game{g}, experiment.SweepConfig{Seed: c.seed.v, N: n, Precision: w, Batch: *batch, Workers: c.workers.v, Done: &doneN})
		tally, reached, runErr, known = runs[0].Tally, runs[0].Reached, err, false
	} else {
		// With a JSON file to save to, play in segments and, at most every
		// checkpointEvery, write what finished (marked interrupted, the
		// rest unplayed): a run killed outright (SIGKILL, a node lost)
		// keeps all but its last seconds, for --resume.
		save := target != nil && format == reports.JSON
		seg := int64(math.MaxInt64)
		if save {
			seg = checkpointSegment * int64(workersOf(c.workers.v))
		}
		pending := slices.Clone(todo)
		last := time.Now()
		for len(pending) > 0 {
			rg := pending[0]
			hi := rg.Hi
			if hi-rg.Lo > seg {
				hi = rg.Lo + seg
			}
			var u []sim.Range
			rc := sim.RunConfig{Seed: c.seed.v, Start: rg.Lo, N: hi - rg.Lo, Workers: c.workers.v, Done: &doneN, Abandon: abandon, Unplayed: &u}
			var t *sim.Tally
			t, runErr = sim.Run(ctx, g, rc)
			tally.Merge(t)
			if pending[0].Lo = hi; pending[0].Lo == pending[0].Hi {
				pending = pending[1:]
			}
			if runErr != nil {
				if t.Encounters < rc.N && u == nil {
					known = false
				}
				left = append(u, pending...)
				break
			}
			if save && len(pending) > 0 && time.Since(last) >= checkpointEvery {
				cp := result(true, pending, before+time.Since(t0).Seconds())
				saveCheckpoint(target, "run", stderr, func(w io.Writer) error { return cp.WriteFormat(w, reports.JSON) })
				last = time.Now()
			}
		}
	}
	elapsed := before + time.Since(t0).Seconds()
	stopBar()

	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		fmt.Fprintln(stderr, "simctl run:", runErr)
		return exitFailure
	}
	var unplayed []sim.Range
	if interrupted && known {
		unplayed = left
	}
	res := result(interrupted, unplayed, elapsed)
	if err := writeOut(target, stdout, func(out io.Writer) error {
		if sh := meta.Shard; sh != nil && (format == reports.Text || format == reports.Markdown) {
			// A shard's table alone reads like a whole run: say which part it is.
			l := lang
			if format == reports.Markdown {
				l = i18n.En // Markdown output is not translated yet
			}
			fmt.Fprintf(out, "%s\n\n", l.T("text.shard", sh.K+1, sh.Of, sh.K, sh.Of, thousandsInt(sh.Start), thousandsInt(sh.Start+sh.N-1), thousandsInt(sh.Total)))
		}
		if format == reports.Text {
			return res.WriteTextLang(out, lang)
		}
		return res.WriteFormat(out, format)
	}); err != nil {
		fmt.Fprintln(stderr, "simctl run:", err)
		return exitFailure
	}
	if plotT != nil {
		f, err := runFigure(res, *figure, g)
		if err := figureOut(plotT, f, err); err != nil {
			fmt.Fprintln(stderr, "simctl run: --plot:", err)
			return exitFailure
		}
	}
	if w > 0 && !c.quiet && !interrupted {
		if reached {
			fmt.Fprintf(stderr, "simctl run: --precision %s reached after %s encounters\n", c.precision, thousandsInt(tally.Encounters))
		} else {
			fmt.Fprintf(stderr, "simctl run: warning: --precision %s not reached within -n %s encounters; the intervals are wider\n", c.precision, thousandsInt(n))
		}
	}
	if interrupted {
		fmt.Fprintf(stderr, "simctl run: interrupted after %s of %s encounters; %s", thousandsInt(tally.Encounters), thousandsInt(cfg.N), whereWritten(c.out, stdout))
		if known && target != nil && format == reports.JSON {
			fmt.Fprintf(stderr, "; add --resume %s to play the rest", target.Path())
		}
		fmt.Fprintln(stderr)
		return exitInterrupted
	}
	return exitOK
}

// runFigureKinds are the figures run --plot draws (those of a run in a
// report).
var runFigureKinds = []string{"rounds", "economy", "first", "combatants", "damage", "hpleft"}

// runFigure draws figure kind of a run's result.
func runFigure(r *reports.Result, kind string, g sim.Game) (*reports.Figure, error) {
	switch kind {
	case "economy":
		return reports.EconomyFigure(r)
	case "first":
		sides := make([]int, 0, len(g.Roster()))
		for _, e := range g.Roster() {
			sides = append(sides, e.Side)
		}
		return reports.FirstActorFigure(r, sides)
	case "combatants":
		return reports.CombatantsFigure(r)
	case "damage":
		return reports.DamageFigure(r)
	case "hpleft":
		return reports.HPLeftFigure(r)
	}
	return reports.RoundsFigure(r)
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

// startProgress draws a bar on stderr (or tells simctl serve's hook) while
// the command works. total is the whole command's work (every option,
// setting, point, pairing or round), done its count so far. With
// --progress auto the bar appears when stderr is a terminal and the work
// is still going after progressDelay, however it is split: a guess from
// -n alone left a 27-second compare of three options silent. Workers only
// bump an atomic counter; this goroutine is the only one touching the bar.
func startProgress(ctx context.Context, mode string, total int64, done *atomic.Int64, stderr io.Writer) (stop func()) {
	if h := hooksOf(ctx); h != nil && h.progress != nil {
		return h.watch(total, done) // simctl serve: the page's progress
	}
	if mode == "never" || (mode == "auto" && !isTerminal(stderr)) || total <= 0 {
		return func() {}
	}
	// The bar starts with the work, so its clock and rate are right,
	// but with --progress auto its frames are dropped until it has run
	// for progressDelay.
	out := &gatedWriter{w: stderr}
	out.open.Store(mode != "auto")
	start := time.Now()
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(out),
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
				if time.Since(start) >= progressDelay {
					out.open.Store(true)
				}
				bar.Set64(done.Load())
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// gatedWriter drops what is written to it until open is set.
type gatedWriter struct {
	w    io.Writer
	open atomic.Bool
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	if !g.open.Load() {
		return len(p), nil
	}
	return g.w.Write(p)
}

// progressDelay is how long a command works before --progress auto draws
// its bar: long enough that quick commands print nothing, short enough
// that nobody wonders whether a long one is running.
const progressDelay = time.Second

// thousandsInt formats n with comma separators, as the tables do.
func thousandsInt(n int64) string { return reports.Thousands(n) }

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
