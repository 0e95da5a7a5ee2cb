package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"simctl/cmd/simctl/app"
	"simctl/sim/msg"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
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
	fontFile := fontFlag(fs)
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
		sayErr(stderr, "run", err)
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
		// A Korean figure without a Hangul font fails before the run,
		// naming the package to install.
		if err := reports.UseFigureFont(lang, *fontFile); err != nil {
			fmt.Fprintln(stderr, "simctl run:", err)
			return exitUsage
		}
		if plotT, err = safeio.Check(*plot, "--plot"); err != nil {
			sayErr(stderr, "run", err)
			return exitUsage
		}
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	n := c.n.n
	req := &app.RunRequest{Source: src.app(), Sets: c.sets, Seed: c.seed.v, N: n, Workers: c.workers.v, Precision: w, Batch: *batch,
		Abandon: abandon, Command: "simctl run " + strings.Join(args, " ")}
	if *shard != "" {
		start := shardStart(n, k, of)
		req.Shard = &results.Shard{K: k, Of: of, Start: start, N: shardStart(n, k+1, of) - start, Total: n}
	}
	if *resume != "" {
		if req.Resume, err = results.ReadFileContext(ctx, *resume); err != nil {
			sayErr(stderr, "run", msg.Errorf("%s: %v", "--resume", err))
			return exitUsage
		}
		req.ResumePath = *resume
	}
	obs := &app.Observer{Warn: src.warnTo(), Progress: func(total int64, done *atomic.Int64) func() {
		stop := startProgress(ctx, c.showProgress(), total, done, stderr)
		testHook(done)
		return stop
	}, CheckpointEvery: checkpointEvery, CheckpointSegment: checkpointSegment}
	// With a JSON file to save to, what finished is written at most every
	// checkpointEvery (marked interrupted, the rest unplayed): a run
	// killed outright (SIGKILL, a node lost) keeps all but its last
	// seconds, for --resume.
	if target != nil && format == reports.JSON {
		obs.Checkpoint = func(doc any) {
			saveCheckpoint(target, "run", stderr, func(w io.Writer) error { return reports.WriteResult(doc.(*results.Result), w, reports.JSON) })
		}
	}
	if !c.quiet {
		obs.Note = func(m msg.Text) { say(stderr, "run", "%v", m) }
	}
	// Until the result is written, a second Ctrl-C abandons the work in
	// play and leaves the write its grace.
	abandonable.Store(true)
	defer abandonable.Store(false)
	ran, err := app.Run(ctx, req, obs)
	if err != nil {
		return appError(stderr, "run", err)
	}
	res, g, interrupted := ran.Result, ran.Game, ran.Interrupted
	if err := writeOut(target, stdout, func(out io.Writer) error {
		if sh := res.Shard; sh != nil && (format == reports.Text || format == reports.Markdown) {
			// A shard's table alone reads like a whole run: say which part it is.
			l := lang
			if format == reports.Markdown {
				l = i18n.En // Markdown output is not translated yet
			}
			fmt.Fprintf(out, "%s\n\n", l.T("text.shard", sh.K+1, sh.Of, sh.K, sh.Of, thousandsInt(sh.Start), thousandsInt(sh.Start+sh.N-1), thousandsInt(sh.Total)))
		}
		if format == reports.Text {
			return reports.WriteResultText(res, out, lang)
		}
		return reports.WriteResult(res, out, format)
	}); err != nil {
		sayErr(stderr, "run", err)
		return exitFailure
	}
	if plotT != nil {
		f, err := runFigure(lang, res, *figure, g)
		if err := figureOut(plotT, f, err); err != nil {
			say(stderr, "run", "%s: %v", "--plot", err)
			return exitFailure
		}
	}
	if w > 0 && !c.quiet && !interrupted {
		if ran.Reached {
			say(stderr, "run", "--precision %s reached after %s encounters", c.precision, thousandsInt(res.Encounters))
		} else {
			say(stderr, "run", "warning: --precision %s not reached within -n %s encounters; the intervals are wider", c.precision, thousandsInt(n))
		}
	}
	if interrupted {
		where := whereWritten(c.out, stdout)
		if len(res.Unplayed) > 0 && target != nil && format == reports.JSON {
			where = msg.New("%s; add --resume %s to play the rest", where, target.Path())
		}
		say(stderr, "run", "interrupted after %s of %s encounters; %s", thousandsInt(res.Encounters), thousandsInt(ran.Planned), where)
		return exitInterrupted
	}
	return exitOK
}

// runFigureKinds are the figures run --plot draws (those of a run in a
// report).
var runFigureKinds = []string{"rounds", "economy", "first", "combatants", "damage", "hpleft"}

// runFigure draws figure kind of a run's result.
func runFigure(l i18n.Lang, r *results.Result, kind string, g sim.Game) (*reports.Figure, error) {
	switch kind {
	case "economy":
		return reports.EconomyFigure(l, r)
	case "first":
		sides := make([]int, 0, len(g.Roster()))
		for _, e := range g.Roster() {
			sides = append(sides, e.Side)
		}
		return reports.FirstActorFigure(l, r, sides)
	case "combatants":
		return reports.CombatantsFigure(l, r)
	case "damage":
		return reports.DamageFigure(l, r)
	case "hpleft":
		return reports.HPLeftFigure(l, r)
	}
	return reports.RoundsFigure(l, r)
}

// shardStart is the first encounter of shard k of K over n encounters,
// floor(k·n/K), computed without overflowing for any n.
func shardStart(n int64, k, of int) int64 {
	return int64(k)*(n/int64(of)) + int64(k)*(n%int64(of))/int64(of)
}

// startProgress draws a bar on stderr while
// the command works. total is the whole command's work (every option,
// setting, point, pairing or round), done its count so far. With
// --progress auto the bar appears when stderr is a terminal and the work
// is still going after progressDelay, however it is split: a guess from
// -n alone left a 27-second compare of three options silent. Workers only
// bump an atomic counter; this goroutine is the only one touching the bar.
func startProgress(ctx context.Context, mode string, total int64, done *atomic.Int64, stderr io.Writer) (stop func()) {
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
		progressbar.OptionSetDescription(tr(stderr, "encounters")), // in stderr's language,
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(tr(stderr, "enc")),
		progressbar.OptionThrottle(100*time.Millisecond),
		// Drawing the empty bar now starts its clock with the run; else
		// it starts at the first update, 100 ms in, and the first frame
		// divides those encounters by microseconds ("2568025078 enc/s").
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionClearOnFinish(),
	)
	quit := make(chan struct{})
	finished := make(chan struct{})
	live := app.LiveTotal(done) // a total that falls as the job learns it (optimize)
	set := func() {
		if live != nil {
			if m := live.Load(); m > 0 && m != bar.GetMax64() {
				bar.ChangeMax64(m)
			}
		}
		bar.Set64(done.Load())
	}
	go func() {
		defer close(finished)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				set()
				bar.Finish()
				return
			case <-tick.C:
				if time.Since(start) >= progressDelay {
					out.open.Store(true)
				}
				set()
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
func thousandsInt(n int64) string { return results.Thousands(n) }

// whereWritten says where an interrupted command's partial output went,
// for the closing message: stdout may be a file the user cannot see.
func whereWritten(out string, stdout io.Writer) msg.Text {
	switch {
	case out != "" && out != "-":
		return msg.New("the partial result (marked interrupted) is in %s", out)
	case isTerminal(stdout):
		return msg.New("the result above covers those")
	}
	return msg.New("the partial result (marked interrupted) was written to stdout")
}

func isTerminal(w io.Writer) bool {
	if lw, ok := w.(*app.LangWriter); ok {
		w = lw.Writer // stderr with its language (say.go)
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
