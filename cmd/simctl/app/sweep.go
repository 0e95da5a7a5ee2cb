package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"simctl/sim/msg"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// SweepRequest is a sweep: the scenario played at every point of one or
// two axes, each point from encounter 0 on the same seed.
type SweepRequest struct {
	Source  *Source
	Sets    []scenario.Set // overrides for every point
	Axes    []results.Axis // one (a curve) or two (a heat map); a whole-numbered range is rewritten in place
	Seed    uint64
	N       int64 // encounters per point; with Precision, the most a point may use
	Workers int
	// Precision, if positive, stops a point once its widest 95%
	// interval is at most this wide, checked every Batch encounters.
	Precision float64
	Batch     int64
	// Shard, if set, plays this shard's part of every point's N.
	Shard *results.Shard
	// Resume is an earlier, interrupted run of the same sweep (ResumePath
	// names it in messages): its finished points are kept.
	Resume     *results.Sweep
	ResumePath string
	// Command is the command line the document records.
	Command string
}

// Check refuses a request no front end should pass on: no axis or more
// than two, one path varied twice or both set and varied, a batch below 1.
func (req *SweepRequest) Check() error {
	axes := req.Axes
	switch {
	case len(axes) == 0:
		return usage(true, "give at least one axis (--vary PATH=RANGE)")
	case len(axes) > 2:
		return usage(false, "%d --vary paths; a sweep varies one path (a curve) or two (a heat map)", len(axes))
	case len(axes) == 2 && axes[0].Path == axes[1].Path:
		return usage(false, "--vary %s is given twice", axes[0].Path)
	case req.Batch < 1:
		return usage(false, "--batch %d: must be at least 1", req.Batch)
	}
	for _, s := range req.Sets {
		for _, a := range axes {
			if s.Path == a.Path {
				return usage(false, "%s is both --set and --vary; the sweep would overwrite the --set", a.Path)
			}
		}
	}
	return nil
}

// Sweep plays req and returns its document; an interrupted sweep (ctx
// done) returns the document marked interrupted, its unplayed points
// marked unfinished, and no error.
func Sweep(ctx context.Context, req *SweepRequest, obs *Observer) (*results.Sweep, error) {
	if obs == nil {
		obs = &Observer{}
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	src, sets, axes, seed := req.Source, req.Sets, req.Axes, req.Seed
	sc, g0, err := src.Compile(sets, obs.Warn)
	if err != nil {
		return nil, &Error{Kind: Invalid, Err: err}
	}
	for i := range axes {
		if err := CheckWholeSteps(src, sets, &axes[i], obs.Warn); err != nil {
			return nil, usage(true, "%v", err)
		}
	}
	grid := results.Grid(axes)
	if len(grid) > results.MaxSweepPoints {
		return nil, usage(false, "%d points; at most %d", len(grid), results.MaxSweepPoints)
	}
	// Compile every point first: nothing runs unless all are valid, and
	// every invalid point is reported at once.
	pointSets := make([][]string, len(grid))
	extra := make([][]scenario.Set, len(grid))
	for k, vals := range grid {
		for i, a := range axes {
			extra[k] = append(extra[k], scenario.Set{Path: a.Path, Value: vals[i]})
		}
		pointSets[k] = setStrings(append(append([]scenario.Set(nil), sets...), extra[k]...))
	}
	games, err := compileAll(src, sets, extra, func(k int) msg.Text { return msg.New("at %s", pointName(axes, grid[k])) }, msg.New("sweep points"), 5, obs.Warn)
	if err != nil {
		return nil, err
	}

	sides := [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	sw := &results.Sweep{
		Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Seed: seed, Version: Version(),
		Command: req.Command, Sets: setStrings(sets), Axes: axes, MaxN: req.N, Sides: sides,
		Context: ScenarioContext(src, sc, g0),
	}
	if req.Precision > 0 {
		sw.Precision, sw.Batch = req.Precision, req.Batch
	}
	part := req.Shard
	perPoint := req.N
	if part != nil {
		perPoint = part.N
		sw.Shard, sw.MaxN = part, perPoint
	}
	point := func(k int, run experiment.PointRun) results.SweepPoint {
		m := results.Meta{Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Version: sw.Version, Seed: seed,
			Sides: sides, Sets: pointSets[k], ScenarioSHA256: src.Sum(), Shard: part}
		p := results.SweepPoint{Values: grid[k], Reached: run.Reached, Unfinished: !run.Finished}
		if run.Finished && part == nil {
			m.Command = RunCommand(src.Name, run.Tally.Encounters, seed, pointSets[k])
		} else {
			m.Interrupted = true
		}
		p.Result = results.New(m, games[k], run.Tally)
		return p
	}
	cfg := experiment.SweepConfig{Seed: seed, N: perPoint, Precision: req.Precision, Batch: req.Batch, Workers: req.Workers}
	if part != nil {
		cfg.Start = part.Start
	}
	sw.Points = make([]results.SweepPoint, len(grid))
	for k := range grid {
		sw.Points[k] = point(k, experiment.PointRun{Tally: sim.NewTally(games[k])})
	}
	if req.Resume != nil {
		have, err := resumeSweep(req.Resume, req.ResumePath, sw, games)
		if err != nil {
			return nil, &Error{Kind: Usage, Err: err}
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
		obs.note("resuming %s: %d of %d points finished, playing the other %d", req.ResumePath, kept, len(grid), len(grid)-kept)
	}
	// Finished points are saved as a compare saves its encounters: the
	// document is handed to Checkpoint with the points finished so far,
	// the others marked unfinished, so a sweep killed at any moment can
	// be resumed. Saved after the first point, then at most every
	// CheckpointEvery: rewriting the whole document after every point
	// made a sweep of thousands of quick points hundreds of times slower.
	// A kill loses at most the points of the last CheckpointEvery.
	var mu sync.Mutex
	start := time.Now()
	finishInterim := func() {
		sw.Interrupted = true // until the sweep ends: a killed sweep says so
		sw.Elapsed = time.Since(start).Seconds()
		sw.Finish()
		sw.ResumeDigest = sw.TrustedDigest()
	}
	var lastSave, lastInterim time.Time
	if obs.Checkpoint != nil || obs.Interim != nil {
		cfg.OnPoint = func(k int, run experiment.PointRun) {
			mu.Lock()
			defer mu.Unlock()
			sw.Points[k] = point(k, run)
			now := time.Now()
			save := obs.Checkpoint != nil && (lastSave.IsZero() || now.Sub(lastSave) >= obs.CheckpointEvery)
			// The points so far, no faster than a display takes them.
			send := obs.Interim != nil && (lastInterim.IsZero() || now.Sub(lastInterim) >= obs.InterimEvery/2)
			if !save && !send {
				return
			}
			finishInterim()
			if save {
				obs.Checkpoint(sw)
				lastSave = time.Now()
			}
			if send {
				obs.Interim(sw)
				lastInterim = now
			}
		}
	}
	var done atomic.Int64
	cfg.Done = &done
	stop := obs.progress(int64(len(games))*perPoint, &done)
	runs, runErr := experiment.RunSweep(ctx, games, cfg)
	stop()
	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		return nil, &Error{Kind: Failed, Err: runErr}
	}
	mu.Lock()
	defer mu.Unlock()
	for k, run := range runs {
		sw.Points[k] = point(k, run)
	}
	sw.Elapsed = time.Since(start).Seconds()
	sw.Interrupted = interrupted
	sw.Finish()
	sw.ResumeDigest = ""
	if interrupted {
		sw.ResumeDigest = sw.TrustedDigest()
	}
	return sw, nil
}

// CheckWholeSteps reads a numeric range's whole values as integers (a
// range with a fractional step writes 10.0, which a whole-number field
// refuses) and, when fractional values remain, checks up front that the
// field accepts them: otherwise every point would fail, whole ones
// included. It returns the error, or nil.
func CheckWholeSteps(src *Source, sets []scenario.Set, a *results.Axis, warn io.Writer) error {
	if !strings.Contains(a.Spec, ":") {
		return nil
	}
	frac := ""
	for i, v := range a.Values {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil
		}
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			a.Values[i] = strconv.FormatInt(int64(f), 10)
		} else if frac == "" {
			frac = v
		}
	}
	if frac == "" {
		return nil
	}
	with := func(v string) error {
		_, _, err := src.Compile(append(append([]scenario.Set(nil), sets...), scenario.Set{Path: a.Path, Value: v}), warn)
		return err
	}
	f, _ := strconv.ParseFloat(frac, 64)
	// Refused as a fraction but accepted rounded: the field is whole-numbered.
	if with(frac) != nil && with(strconv.FormatFloat(math.Round(f), 'f', 0, 64)) == nil {
		return msg.Errorf("--vary %s=%s: %s takes whole numbers, and this range gives fractional values such as %s; use a whole step, e.g. %s",
			a.Path, a.Spec, a.Path, frac, wholeRange(a.Spec))
	}
	return nil
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

func pointName(axes []results.Axis, vals []string) string {
	var parts []string
	for i, a := range axes {
		parts = append(parts, a.Path+"="+vals[i])
	}
	return strings.Join(parts, ", ")
}

// setStrings is how documents record overrides (nil for none).
func setStrings(sets []scenario.Set) []string {
	var out []string
	for _, s := range sets {
		out = append(out, s.String())
	}
	return out
}

// resumeSweep takes an earlier run of the same sweep and returns its
// finished points, refusing one of another sweep: other scenario text,
// seed, encounters, precision, batch, axes or overrides would make its
// points not those this sweep would play.
func resumeSweep(old *results.Sweep, path string, sw *results.Sweep, games []sim.Game) ([]*experiment.PointRun, error) {
	differ := func(what msg.Text, a, b any) error {
		return msg.Errorf("--resume %s: that sweep has %s %v, this one %v; resume with the same command line", path, what, a, b)
	}
	oldSum := old.Context.SHA256()
	switch {
	case oldSum != sw.Context.ScenarioSHA256:
		return nil, msg.Errorf("--resume %s: that sweep ran another scenario text (SHA-256 %.12s, this one %.12s); was the file edited?", path, oldSum, sw.Context.ScenarioSHA256)
	case old.Version != sw.Version:
		return nil, differ(msg.New("simctl version"), old.Version, sw.Version)
	case old.Seed != sw.Seed:
		return nil, differ(msg.New("seed"), old.Seed, sw.Seed)
	case old.MaxN != sw.MaxN:
		return nil, differ(msg.New("%s", "-n"), old.MaxN, sw.MaxN)
	case old.Precision != sw.Precision || old.Batch != sw.Batch:
		return nil, differ(msg.New("%s", "--precision/--batch"), fmt.Sprint(old.Precision, "/", old.Batch), fmt.Sprint(sw.Precision, "/", sw.Batch))
	case !slices.Equal(old.Sets, sw.Sets):
		return nil, differ(msg.New("%s", "--set"), old.Sets, sw.Sets)
	case len(old.Axes) != len(sw.Axes) || len(old.Points) != len(sw.Points):
		return nil, differ(msg.New("%s", "--vary"), axesString(old.Axes), axesString(sw.Axes))
	}
	for i := range old.Axes {
		if old.Axes[i].Path != sw.Axes[i].Path || !slices.Equal(old.Axes[i].Values, sw.Axes[i].Values) {
			return nil, differ(msg.New("%s", "--vary"), axesString(old.Axes), axesString(sw.Axes))
		}
	}
	have := make([]*experiment.PointRun, len(sw.Points))
	for k, p := range old.Points {
		if p.Unfinished || p.Result.Interrupted {
			continue
		}
		if !slices.Equal(p.Values, sw.Points[k].Values) || !slices.Equal(p.Result.Raw.Roster, sw.Points[k].Result.Raw.Roster) ||
			!slices.Equal(p.Result.Raw.Counters, sw.Points[k].Result.Raw.Counters) || len(p.Result.Raw.Rounds) != len(sw.Points[k].Result.Raw.Rounds) {
			return nil, msg.Errorf("--resume %s: point %d (%s) does not match this sweep's; the file is damaged", path, k, strings.Join(p.Values, ", "))
		}
		have[k] = &experiment.PointRun{Tally: p.Result.Tally(games[k]), Reached: p.Reached}
	}
	if !old.Interrupted {
		return nil, msg.Errorf("--resume %s: that sweep was not interrupted; nothing to resume", path)
	}
	// A finished point's counts are kept as they are: an edited count,
	// or an unfinished point marked finished, would be wrong silently.
	if err := results.CheckDigest(path, old.ResumeDigest, old.TrustedDigest()); err != nil {
		return nil, err
	}
	return have, nil
}

func axesString(axes []results.Axis) string {
	var parts []string
	for _, a := range axes {
		parts = append(parts, a.Path+"="+strings.Join(a.Values, ","))
	}
	return strings.Join(parts, " ")
}
