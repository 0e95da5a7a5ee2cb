package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"simctl/cmd/simctl/app"
	"simctl/sim/msg"
	"strconv"
	"strings"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/reports/safeio"
	"simctl/sim/scenario"
)

// varyFlags collects repeated --vary PATH=RANGE.
type varyFlags []results.Axis

func (v *varyFlags) String() string { return "" }

func (v *varyFlags) Set(s string) error {
	a, err := results.ParseVary(s)
	if err != nil {
		return err
	}
	*v = append(*v, a)
	return nil
}

// outputFlags are the flags sweep and compare add to the global ones for
// their output.
type outputFlags struct {
	common
	results, plot string
	font          string // --font: the figure's font (commands with a figure)
	force         bool   // --force: checked by parseArgs (completeResult)
	// Their targets, checked before any work (nil: stdout or not asked).
	outT, resultsT, plotT *safeio.Target
}

func (o *outputFlags) register(fs *flag.FlagSet, plotWhat string) {
	fs.StringVar(&o.results, "results", "", "`FILE` also write the JSON results (for simctl report) to FILE")
	fs.StringVar(&o.plot, "plot", "", "`FILE` draw "+plotWhat+" to FILE (.png or .svg)")
	if plotWhat != "" {
		fs.StringVar(&o.font, "font", "", fontUsage)
	}
	fs.BoolVar(&o.force, "force", false, forceUsage)
}

// forceUsage is --force of the commands that save partial documents.
const forceUsage = "replace a complete result in the JSON output (-o, --results): refused without it, since what is saved as the command goes is partial"

// checkFont loads the --plot figure's font for l before any work: a
// Korean figure without a Hangul font fails at once, naming the package
// to install.
func (o *outputFlags) checkFont(cmd string, l i18n.Lang, stderr io.Writer) bool {
	if o.plot == "" {
		return true
	}
	if err := reports.UseFigureFont(l, o.font); err != nil {
		fmt.Fprintf(stderr, "simctl %s: %v\n", cmd, err)
		return false
	}
	return true
}

func (o *outputFlags) check(cmd string, stderr io.Writer) (reports.Format, bool) {
	f, err := o.resolveFormat()
	if err != nil {
		usageError(stderr, cmd, "%v", err)
		return "", false
	}
	if o.plot != "" && !strings.HasSuffix(strings.ToLower(o.plot), ".png") && !strings.HasSuffix(strings.ToLower(o.plot), ".svg") {
		usageError(stderr, cmd, "--plot %s: a plot is written as .png or .svg", o.plot)
		return "", false
	}
	if o.results != "" && !strings.HasSuffix(strings.ToLower(o.results), ".json") {
		usageError(stderr, cmd, "--results %s: the results are JSON; give a .json file", o.results)
		return "", false
	}
	var err1, err2, err3 error
	o.outT, err1 = checkOut(o.out, "-o")
	if o.results != "" {
		o.resultsT, err2 = checkOut(o.results, "--results")
	}
	if o.plot != "" {
		o.plotT, err3 = safeio.Check(o.plot, "--plot")
	}
	if err := errors.Join(err1, err2, err3); err != nil {
		// errors.Join's lines, each in stderr's language.
		var lines []string
		for _, e := range []error{err1, err2, err3} {
			if e != nil {
				lines = append(lines, langOf(stderr).Err(e))
			}
		}
		fmt.Fprintf(stderr, "%s%s\n", prefix(cmd), strings.Join(lines, "\n"))
		return "", false
	}
	return f, true
}

// write sends the document to stdout or -o, the JSON to --results, and the
// figure to --plot.
func (o *outputFlags) write(cmd string, stdout, stderr io.Writer, f reports.Format,
	doc func(io.Writer, reports.Format) error, fig func() (*reports.Figure, error)) bool {
	ok := true
	if err := writeOut(o.outT, stdout, func(w io.Writer) error { return doc(w, f) }); err != nil {
		sayErr(stderr, cmd, err)
		ok = false
	}
	if o.results != "" {
		if err := writeOut(o.resultsT, stdout, func(w io.Writer) error { return doc(w, reports.JSON) }); err != nil {
			sayErr(stderr, cmd, err)
			ok = false
		}
	}
	if o.plotT != nil {
		f, err := fig()
		if err := figureOut(o.plotT, f, err); err != nil {
			say(stderr, cmd, "%s: %v", "--plot", err)
			ok = false
		}
	}
	return ok
}

// parsePrecision reads --precision as a proportion (0.02) or percentage
// points (2pp, 2%).
func parsePrecision(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.TrimSpace(s)
	scale := 1.0
	for _, suf := range []string{"pp", "%"} {
		if strings.HasSuffix(t, suf) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, suf)), 0.01
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	w := f * scale
	if err != nil || !(w > 0 && w < 1) {
		return 0, msg.Errorf("--precision %q: give the widest 95%% interval to accept, as a proportion (0.02) or in percentage points (2pp), between 0 and 1", s)
	}
	return w, nil
}

func cmdSweep(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	var axes varyFlags
	fs.Var(&axes, "vary", kindUsage("sweep", "vary"))
	shard := fs.String("shard", "", "`k/K` play shard k of K of every point's encounters (or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); simctl merge combines the shards' JSON")
	resume := fs.String("resume", "", "`FILE` continue the interrupted sweep whose JSON (--results or --format json -o) is FILE: its finished points are kept, the others played")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gPrecision|gFormat|gQuiet|gProgress, "encounters per point; with --precision, the most a point may use")
	batch := batchFlag(fs, "with --precision: encounters per batch between checks")
	o.register(fs, "the sweep (one path: win rate against the value; two: a heat map)")
	langF := langFlag(fs, "the text table's own words (JSON, CSV and Markdown stay English)")
	pos, stop, code := parseArgs("sweep", fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "sweep", "%v", err)
	}
	n, seed, workers, sets := &o.n.n, &o.seed.v, &o.workers.v, o.sets
	precision := &o.precision
	if len(pos) != 1 || len(axes) == 0 {
		return usageError(stderr, "sweep", "give one SCENARIO and at least one --vary PATH=RANGE")
	}
	format, ok := o.check("sweep", stderr)
	if !ok {
		return exitUsage
	}
	if !o.checkFont("sweep", lang, stderr) {
		return exitUsage
	}
	w, err := parsePrecision(*precision)
	if err != nil {
		sayErr(stderr, "sweep", err)
		return exitUsage
	}
	req := &app.SweepRequest{Sets: sets, Axes: axes, Seed: *seed, N: *n, Workers: *workers, Precision: w, Batch: *batch,
		Command: results.ShellJoin(append([]string{"simctl", "sweep"}, args...))}
	if err := req.Check(); err != nil {
		return appError(stderr, "sweep", err)
	}
	k, of, err := parseShard(*shard)
	switch {
	case err != nil:
		sayErr(stderr, "sweep", err)
		return exitUsage
	case *shard != "" && w > 0:
		say(stderr, "sweep", "--shard with --precision: sequential stopping needs the whole point in one process; shard a sweep of fixed -n")
		return exitUsage
	case *shard != "" && *resume != "":
		say(stderr, "sweep", "--shard with --resume: run the interrupted shard again instead (a shard is deterministic)")
		return exitUsage
	}
	var part *results.Shard
	if *shard != "" {
		start := shardStart(*n, k, of)
		part = &results.Shard{K: k, Of: of, Start: start, N: shardStart(*n, k+1, of) - start, Total: *n}
		if part.N < 1 {
			say(stderr, "sweep", "--shard %s: -n %d leaves this shard no encounters; use fewer shards or a larger -n", *shard, *n)
			return exitUsage
		}
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	req.Source, req.Shard = src.app(), part
	if *resume != "" {
		old, err := readResume(ctx, *resume, msg.New("a sweep's JSON"), func(in *results.Input) *results.Sweep { return in.Sweep })
		if err != nil {
			sayErr(stderr, "sweep", err)
			return exitUsage
		}
		req.Resume, req.ResumePath = old, *resume
	}
	obs := o.observer(ctx, "sweep", format, stderr)
	obs.Warn = src.warnTo()
	sw, err := app.Sweep(ctx, req, obs)
	if err != nil {
		return appError(stderr, "sweep", err)
	}
	for _, warn := range results.WarningTexts(sw.Warnings, sw.WarningsMsg) {
		if !o.quiet {
			sayWarning(stderr, "sweep", warn)
		}
	}
	if !o.write("sweep", stdout, stderr, format, func(w io.Writer, f reports.Format) error { return reports.WriteSweep(sw, w, f, lang) }, func() (*reports.Figure, error) { return reports.SweepFigure(lang, sw) }) {
		return exitFailure
	}
	if sw.Interrupted {
		unfinished := 0
		for _, p := range sw.Points {
			if p.Unfinished {
				unfinished++
			}
		}
		say(stderr, "sweep", "interrupted: %d of %d points unfinished; %s", unfinished, len(sw.Points), o.interruptedWhere(format, stdout, true))
		return exitInterrupted
	}
	return exitOK
}

// runCommand is the `simctl run` command line that reproduces a result
// exactly: encounters 0..n-1 with the seed and overrides.
func runCommand(name string, n int64, seed uint64, sets []string) string {
	return app.RunCommand(name, n, seed, sets)
}

// checkWholeSteps is app.CheckWholeSteps for the CLI's source.
func checkWholeSteps(src *source, sets []scenario.Set, a *results.Axis) error {
	return app.CheckWholeSteps(src.app(), sets, a, src.warnTo())
}
