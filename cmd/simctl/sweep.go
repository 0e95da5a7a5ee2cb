package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"simctl/sim/experiment"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"simctl/reports"
	"simctl/reports/safeio"
	"simctl/sim"
	"simctl/sim/scenario"
)

// varyFlags collects repeated --vary PATH=RANGE.
type varyFlags []reports.Axis

func (v *varyFlags) String() string { return "" }

func (v *varyFlags) Set(s string) error {
	a, err := reports.ParseVary(s)
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
	// Their targets, checked before any work (nil: stdout or not asked).
	outT, resultsT, plotT *safeio.Target
}

func (o *outputFlags) register(fs *flag.FlagSet, plotWhat string) {
	fs.StringVar(&o.results, "results", "", "`FILE` also write the JSON results (for simctl report) to FILE")
	fs.StringVar(&o.plot, "plot", "", "`FILE` draw "+plotWhat+" to FILE (.png or .svg)")
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
		fmt.Fprintf(stderr, "simctl %s: %v\n", cmd, err)
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
		fmt.Fprintf(stderr, "simctl %s: %v\n", cmd, err)
		ok = false
	}
	if o.results != "" {
		if err := writeOut(o.resultsT, stdout, func(w io.Writer) error { return doc(w, reports.JSON) }); err != nil {
			fmt.Fprintf(stderr, "simctl %s: %v\n", cmd, err)
			ok = false
		}
	}
	if o.plotT != nil {
		f, err := fig()
		if err := figureOut(o.plotT, f, err); err != nil {
			fmt.Fprintf(stderr, "simctl %s: --plot: %v\n", cmd, err)
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
		return 0, fmt.Errorf("--precision %q: give the widest 95%% interval to accept, as a proportion (0.02) or in percentage points (2pp), between 0 and 1", s)
	}
	return w, nil
}

func cmdSweep(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	var axes varyFlags
	fs.Var(&axes, "vary", "`PATH=RANGE` vary a scenario or tactics path, PATH=a:b:step or PATH=v1,v2,... (once or twice)")
	shard := fs.String("shard", "", "`k/K` play shard k of K of every point's encounters (or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); simctl merge combines the shards' JSON")
	resume := fs.String("resume", "", "`FILE` continue the interrupted sweep whose JSON (--results or --format json -o) is FILE: its finished points are kept, the others played")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gPrecision|gFormat|gQuiet|gProgress, "encounters per point; with --precision, the most a point may use")
	batch := batchFlag(fs, "with --precision: encounters per batch between checks")
	o.register(fs, "the sweep (one path: win rate against the value; two: a heat map)")
	pos, stop, code := parseArgs("sweep", fs, args, stdout, stderr)
	if stop {
		return code
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
	w, err := parsePrecision(*precision)
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "simctl sweep:", err)
		return exitUsage
	case len(axes) > 2:
		fmt.Fprintf(stderr, "simctl sweep: %d --vary paths; a sweep varies one path (a curve) or two (a heat map)\n", len(axes))
		return exitUsage
	case len(axes) == 2 && axes[0].Path == axes[1].Path:
		fmt.Fprintf(stderr, "simctl sweep: --vary %s is given twice\n", axes[0].Path)
		return exitUsage
	case *batch < 1:
		fmt.Fprintf(stderr, "simctl sweep: --batch %d: must be at least 1\n", *batch)
		return exitUsage
	}
	k, of, err := parseShard(*shard)
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "simctl sweep:", err)
		return exitUsage
	case *shard != "" && w > 0:
		fmt.Fprintln(stderr, "simctl sweep: --shard with --precision: sequential stopping needs the whole point in one process; shard a sweep of fixed -n")
		return exitUsage
	case *shard != "" && *resume != "":
		fmt.Fprintln(stderr, "simctl sweep: --shard with --resume: run the interrupted shard again instead (a shard is deterministic)")
		return exitUsage
	}
	for _, s := range sets {
		for _, a := range axes {
			if s.Path == a.Path {
				fmt.Fprintf(stderr, "simctl sweep: %s is both --set and --vary; the sweep would overwrite the --set\n", a.Path)
				return exitUsage
			}
		}
	}
	name := pos[0]
	src, err := readSource(ctx, name)
	if err != nil {
		return scenarioError(stderr, err)
	}
	sc, g0, err := src.compile(sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	for i := range axes {
		if msg := checkWholeSteps(src, sets, &axes[i]); msg != "" {
			return usageError(stderr, "sweep", "%s", msg)
		}
	}
	grid := reports.Grid(axes)
	if len(grid) > reports.MaxSweepPoints {
		fmt.Fprintf(stderr, "simctl sweep: %d points; at most %d\n", len(grid), reports.MaxSweepPoints)
		return exitUsage
	}
	// Compile every point first: nothing runs unless all are valid, and
	// every invalid point is reported at once.
	games := make([]sim.Game, len(grid))
	pointSets := make([][]string, len(grid))
	bad := 0
	for k, vals := range grid {
		ss := append([]scenario.Set(nil), sets...)
		for i, a := range axes {
			ss = append(ss, scenario.Set{Path: a.Path, Value: vals[i]})
		}
		for _, s := range ss {
			pointSets[k] = append(pointSets[k], s.String())
		}
		_, g, err := src.compile(ss)
		if err != nil {
			if bad < 5 {
				fmt.Fprintf(stderr, "at %s:\n%v\n", pointName(axes, vals), err)
			}
			bad++
			continue
		}
		games[k] = g
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "%d of %d sweep points are invalid scenarios; nothing was run\n", bad, len(grid))
		return exitScenario
	}

	sides := [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	sw := &reports.Sweep{
		Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Seed: *seed, Version: fullVersion(),
		Command: reports.ShellJoin(append([]string{"simctl", "sweep"}, args...)),
		Sets:    sets.strings(), Axes: axes, MaxN: *n, Sides: sides,
		Context: scenarioContext(src, sc, g0),
	}
	if w > 0 {
		sw.Precision, sw.Batch = w, *batch
	}
	var part *reports.Shard
	perPoint := *n
	if *shard != "" {
		start := shardStart(*n, k, of)
		perPoint = shardStart(*n, k+1, of) - start
		part = &reports.Shard{K: k, Of: of, Start: start, N: perPoint, Total: *n}
		sw.Shard, sw.MaxN = part, perPoint
		if perPoint < 1 {
			fmt.Fprintf(stderr, "simctl sweep: --shard %s: -n %d leaves this shard no encounters; use fewer shards or a larger -n\n", *shard, *n)
			return exitUsage
		}
	}
	point := func(k int, run experiment.PointRun) reports.SweepPoint {
		m := reports.Meta{Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Version: sw.Version, Seed: *seed,
			Sides: sides, Sets: pointSets[k], ScenarioSHA256: src.sum(), Shard: part}
		p := reports.SweepPoint{Values: grid[k], Reached: run.Reached, Unfinished: !run.Finished}
		if run.Finished && part == nil {
			m.Command = runCommand(name, run.Tally.Encounters, *seed, pointSets[k])
		} else {
			m.Interrupted = true
		}
		p.Result = reports.New(m, games[k], run.Tally)
		return p
	}
	cfg := experiment.SweepConfig{Seed: *seed, N: perPoint, Precision: w, Batch: *batch, Workers: *workers}
	if part != nil {
		cfg.Start = part.Start
	}
	sw.Points = make([]reports.SweepPoint, len(grid))
	for k := range grid {
		sw.Points[k] = point(k, experiment.PointRun{Tally: sim.NewTally(games[k])})
	}
	if *resume != "" {
		have, err := resumeSweep(ctx, *resume, sw, games)
		if err != nil {
			fmt.Fprintln(stderr, "simctl sweep:", err)
			return exitUsage
		}
		cfg.Have = have
		kept := 0
		for k, h := range have {
			if h != nil {
				h.Finished = true
				sw.Points[k] = point(k, *h)
				kept++
			}
		}
		if !o.quiet {
			fmt.Fprintf(stderr, "simctl sweep: resuming %s: %d of %d points finished, playing the other %d\n", *resume, kept, len(grid), len(grid)-kept)
		}
	}
	// Finished points are saved as a compare saves its encounters: the
	// JSON output is rewritten (atomically) with the points finished so
	// far, the others marked unfinished, so a sweep killed at any moment
	// can be resumed. Saved after the first point, then at most every
	// checkpointEvery: rewriting the whole document after every point
	// made a sweep of thousands of quick points hundreds of times slower.
	// A kill loses at most the points of the last checkpointEvery.
	checkpoint := o.resultsT
	if checkpoint == nil && format == reports.JSON {
		checkpoint = o.outT
	}
	var mu sync.Mutex
	start := time.Now()
	finishInterim := func() {
		sw.Interrupted = true // until the sweep ends: a killed sweep says so
		sw.Elapsed = time.Since(start).Seconds()
		sw.Finish()
	}
	hooks := hooksOf(ctx)
	var lastSave, lastInterim time.Time
	if checkpoint != nil || hooks.interims() {
		cfg.OnPoint = func(k int, run experiment.PointRun) {
			mu.Lock()
			defer mu.Unlock()
			sw.Points[k] = point(k, run)
			now := time.Now()
			save := checkpoint != nil && (lastSave.IsZero() || now.Sub(lastSave) >= checkpointEvery)
			// simctl serve: the points so far, no faster than it takes them.
			send := hooks.interims() && (lastInterim.IsZero() || now.Sub(lastInterim) >= interimEvery/2)
			if !save && !send {
				return
			}
			finishInterim()
			if save {
				saveCheckpoint(checkpoint, "sweep", stderr, func(wr io.Writer) error { return sw.Write(wr, reports.JSON) })
				lastSave = time.Now()
			}
			if send {
				hooks.sendInterim(sw)
				lastInterim = now
			}
		}
	}
	var done atomic.Int64
	cfg.Done = &done
	stopBar := startProgress(ctx, o.showProgress(), int64(len(games))*perPoint, &done, stderr)
	runs, runErr := experiment.RunSweep(ctx, games, cfg)
	stopBar()
	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		fmt.Fprintln(stderr, "simctl sweep:", runErr)
		return exitFailure
	}
	mu.Lock()
	defer mu.Unlock()
	cfg.OnPoint = nil
	for k, run := range runs {
		sw.Points[k] = point(k, run)
	}
	sw.Elapsed = time.Since(start).Seconds()
	sw.Interrupted = interrupted
	sw.Finish()
	for _, warn := range sw.Warnings {
		if !o.quiet {
			fmt.Fprintln(stderr, "simctl sweep: warning:", warn)
		}
	}
	if !o.write("sweep", stdout, stderr, format, sw.Write, func() (*reports.Figure, error) { return reports.SweepFigure(sw) }) {
		return exitFailure
	}
	if interrupted {
		unfinished := 0
		for _, p := range sw.Points {
			if p.Unfinished {
				unfinished++
			}
		}
		fmt.Fprintf(stderr, "simctl sweep: interrupted: %d of %d points unfinished; %s", unfinished, len(sw.Points), whereWritten(o.out, stdout))
		if checkpoint != nil {
			fmt.Fprintf(stderr, "; add --resume %s to play the rest", checkpoint.Path())
		}
		fmt.Fprintln(stderr)
		return exitInterrupted
	}
	return exitOK
}

// checkWholeSteps reads a numeric range's whole values as integers (a
// range with a fractional step writes 10.0, which a whole-number field
// refuses) and, when fractional values remain, checks up front that the
// field accepts them: otherwise every point would fail, whole ones
// included. It returns the error message, or "".
func checkWholeSteps(src *source, sets []scenario.Set, a *reports.Axis) string {
	if !strings.Contains(a.Spec, ":") {
		return ""
	}
	frac := ""
	for i, v := range a.Values {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return ""
		}
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			a.Values[i] = strconv.FormatInt(int64(f), 10)
		} else if frac == "" {
			frac = v
		}
	}
	if frac == "" {
		return ""
	}
	with := func(v string) error {
		_, _, err := src.compile(append(append([]scenario.Set(nil), sets...), scenario.Set{Path: a.Path, Value: v}))
		return err
	}
	f, _ := strconv.ParseFloat(frac, 64)
	// Refused as a fraction but accepted rounded: the field is whole-numbered.
	if with(frac) != nil && with(strconv.FormatFloat(math.Round(f), 'f', 0, 64)) == nil {
		return fmt.Sprintf("--vary %s=%s: %s takes whole numbers, and this range gives fractional values such as %s; use a whole step, e.g. %s",
			a.Path, a.Spec, a.Path, frac, wholeRange(a.Spec))
	}
	return ""
}

// wholeRange suggests a:b:step with the step rounded up to a whole number.
func wholeRange(spec string) string {
	parts := strings.Split(spec, ":")
	if len(parts) == 3 {
		if f, err := strconv.ParseFloat(strings.TrimSpace(parts[2]), 64); err == nil {
			st := math.Max(1, math.Ceil(math.Abs(f)))
			if f < 0 {
				st = -st
			}
			parts[2] = strconv.FormatFloat(st, 'f', -1, 64)
		}
	}
	return strings.Join(parts, ":")
}

func pointName(axes []reports.Axis, vals []string) string {
	var parts []string
	for i, a := range axes {
		parts = append(parts, a.Path+"="+vals[i])
	}
	return strings.Join(parts, ", ")
}

// runCommand is the `simctl run` command line that reproduces a result
// exactly: encounters 0..n-1 with the seed and overrides.
func runCommand(name string, n int64, seed uint64, sets []string) string {
	args := []string{"simctl", "run", name, "-n", strconv.FormatInt(n, 10), "--seed", strconv.FormatUint(seed, 10)}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	return reports.ShellJoin(args)
}

// resumeSweep reads an earlier run of the same sweep and returns its
// finished points, refusing a file of another sweep: other scenario text,
// seed, encounters, precision, batch, axes or overrides would make its
// points not those this sweep would play.
func resumeSweep(ctx context.Context, path string, sw *reports.Sweep, games []sim.Game) ([]*experiment.PointRun, error) {
	old, err := readResume(ctx, path, "a sweep's JSON", func(in *reports.Input) *reports.Sweep { return in.Sweep })
	if err != nil {
		return nil, err
	}
	differ := func(what string, a, b any) error {
		return fmt.Errorf("--resume %s: that sweep has %s %v, this one %v; resume with the same command line", path, what, a, b)
	}
	oldSum := ""
	if old.Context != nil {
		oldSum = old.Context.ScenarioSHA256
	}
	switch {
	case oldSum != sw.Context.ScenarioSHA256:
		return nil, fmt.Errorf("--resume %s: that sweep ran another scenario text (SHA-256 %.12s, this one %.12s); was the file edited?", path, oldSum, sw.Context.ScenarioSHA256)
	case old.Version != sw.Version:
		return nil, differ("simctl version", old.Version, sw.Version)
	case old.Seed != sw.Seed:
		return nil, differ("seed", old.Seed, sw.Seed)
	case old.MaxN != sw.MaxN:
		return nil, differ("-n", old.MaxN, sw.MaxN)
	case old.Precision != sw.Precision || old.Batch != sw.Batch:
		return nil, differ("--precision/--batch", fmt.Sprint(old.Precision, "/", old.Batch), fmt.Sprint(sw.Precision, "/", sw.Batch))
	case !slices.Equal(old.Sets, sw.Sets):
		return nil, differ("--set", old.Sets, sw.Sets)
	case len(old.Axes) != len(sw.Axes) || len(old.Points) != len(sw.Points):
		return nil, differ("--vary", axesString(old.Axes), axesString(sw.Axes))
	}
	for i := range old.Axes {
		if old.Axes[i].Path != sw.Axes[i].Path || !slices.Equal(old.Axes[i].Values, sw.Axes[i].Values) {
			return nil, differ("--vary", axesString(old.Axes), axesString(sw.Axes))
		}
	}
	have := make([]*experiment.PointRun, len(sw.Points))
	for k, p := range old.Points {
		if p.Unfinished || p.Result.Interrupted {
			continue
		}
		if !slices.Equal(p.Values, sw.Points[k].Values) || !slices.Equal(p.Result.Raw.Roster, sw.Points[k].Result.Raw.Roster) ||
			!slices.Equal(p.Result.Raw.Counters, sw.Points[k].Result.Raw.Counters) || len(p.Result.Raw.Rounds) != len(sw.Points[k].Result.Raw.Rounds) {
			return nil, fmt.Errorf("--resume %s: point %d (%s) does not match this sweep's; the file is damaged", path, k, strings.Join(p.Values, ", "))
		}
		have[k] = &experiment.PointRun{Tally: p.Result.Tally(games[k]), Reached: p.Reached}
	}
	return have, nil
}

func axesString(axes []reports.Axis) string {
	var parts []string
	for _, a := range axes {
		parts = append(parts, a.Path+"="+strings.Join(a.Values, ","))
	}
	return strings.Join(parts, " ")
}
