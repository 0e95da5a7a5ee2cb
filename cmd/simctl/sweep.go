package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"simctl/reports"
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
	return f, true
}

// write sends the document to stdout or -o, the JSON to --results, and the
// figure to --plot.
func (o *outputFlags) write(cmd string, stdout, stderr io.Writer, f reports.Format,
	doc func(io.Writer, reports.Format) error, fig func() (*reports.Figure, error)) bool {
	ok := true
	if err := writeOut(o.out, stdout, func(w io.Writer) error { return doc(w, f) }); err != nil {
		fmt.Fprintf(stderr, "simctl %s: %v\n", cmd, err)
		ok = false
	}
	if o.results != "" {
		if err := writeOut(o.results, stdout, func(w io.Writer) error { return doc(w, reports.JSON) }); err != nil {
			fmt.Fprintf(stderr, "simctl %s: %v\n", cmd, err)
			ok = false
		}
	}
	if o.plot != "" {
		f, err := fig()
		if err := figureOut(o.plot, f, err); err != nil {
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
	for _, s := range sets {
		for _, a := range axes {
			if s.Path == a.Path {
				fmt.Fprintf(stderr, "simctl sweep: %s is both --set and --vary; the sweep would overwrite the --set\n", a.Path)
				return exitUsage
			}
		}
	}
	name := pos[0]
	sc, g0, err := load(name, sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	for i := range axes {
		if msg := checkWholeSteps(name, sets, &axes[i]); msg != "" {
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
		_, g, err := load(name, ss)
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

	cfg := reports.SweepConfig{Seed: *seed, N: *n, Precision: w, Batch: *batch, Workers: *workers}
	var done atomic.Int64
	cfg.Done = &done
	stopBar := startProgress(o.showProgress(), int64(len(games))*(*n), &done, stderr)
	t0 := time.Now()
	runs, runErr := reports.RunSweep(ctx, games, cfg)
	elapsed := time.Since(t0).Seconds()
	stopBar()
	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		fmt.Fprintln(stderr, "simctl sweep:", runErr)
		return exitFailure
	}

	sides := [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	sw := &reports.Sweep{
		Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Seed: *seed, Version: fullVersion(),
		Command: reports.ShellJoin(append([]string{"simctl", "sweep"}, args...)),
		Sets:    sets.strings(), Axes: axes, MaxN: *n, Elapsed: elapsed, Sides: sides,
		Context: scenarioContext(name, sc, g0), Interrupted: interrupted,
	}
	if w > 0 {
		sw.Precision, sw.Batch = w, *batch
	}
	for k, run := range runs {
		m := reports.Meta{Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Version: sw.Version, Seed: *seed,
			Sides: sides, Sets: pointSets[k], Interrupted: interrupted}
		m.Command = runCommand(name, run.Tally.Encounters, *seed, pointSets[k])
		sw.Points = append(sw.Points, reports.SweepPoint{Values: grid[k], Reached: run.Reached, Result: reports.New(m, games[k], run.Tally)})
	}
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
		fmt.Fprintf(stderr, "simctl sweep: interrupted after %s encounters; %s\n", thousandsInt(sw.Encounters), whereWritten(o.out, stdout))
		return exitInterrupted
	}
	return exitOK
}

// checkWholeSteps reads a numeric range's whole values as integers (a
// range with a fractional step writes 10.0, which a whole-number field
// refuses) and, when fractional values remain, checks up front that the
// field accepts them: otherwise every point would fail, whole ones
// included. It returns the error message, or "".
func checkWholeSteps(name string, sets []scenario.Set, a *reports.Axis) string {
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
		_, _, err := load(name, append(append([]scenario.Set(nil), sets...), scenario.Set{Path: a.Path, Value: v}))
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
