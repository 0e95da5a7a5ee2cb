package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"simctl/sim/msg"
	"strings"
	"sync/atomic"
	"time"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
	"simctl/stats"
)

// The analyses on common random numbers beyond a comparison: the value
// of each parameter one step down and up (value) and a payoff matrix of
// one side's options against the other's (matrix).

// ValueRequest is a value run: the scenario and each parameter of Side
// one step down and up, on the same encounters.
type ValueRequest struct {
	Source *Source
	Sets   []scenario.Set
	Side   string // the valued side; "": the first
	// Params are the parameters in order (init, hp, ac, attack, damage
	// or scenario paths); a repeated or empty name is skipped. Steps
	// holds the steps not 1; each must name a parameter.
	Params  []string
	Steps   map[string]float64
	Seed    uint64
	N       int64
	Workers int
	Shard   *results.Shard
	// Resume is an earlier, interrupted run of the same value run
	// (ResumePath names it in messages).
	Resume     *results.Value
	ResumePath string
	Command    string
}

// MatrixRequest is a payoff matrix: every row option of Side against
// every column option of the other side, on the same encounters.
type MatrixRequest struct {
	Source     *Source
	Sets       []scenario.Set
	Side       string // the row side; "": the first
	Rows, Cols []Option
	Seed       uint64
	N          int64
	Workers    int
	Shard      *results.Shard
	Resume     *results.Matrix
	ResumePath string
	Command    string
}

// Check refuses a matrix with no row or column, fewer than two pairings,
// or an option given twice on one side.
func (req *MatrixRequest) Check() error {
	if len(req.Rows) < 1 || len(req.Cols) < 1 || len(req.Rows)*len(req.Cols) < 2 {
		return usage(true, "give at least one --row and one --col option, and at least two of one of them (--row base='' is the scenario unchanged)")
	}
	for _, opts := range [][]Option{req.Rows, req.Cols} {
		seen := map[string]bool{}
		for _, op := range opts {
			if seen[op.Name] {
				return usage(true, "option %q is given twice", op.Name)
			}
			seen[op.Name] = true
		}
	}
	return nil
}

// SideIndex finds a side by name; "" is the first side.
func SideIndex(sc *scenario.Scenario, name string) (int, string, error) {
	if name == "" {
		return 0, sc.Sides[0].Name, nil
	}
	names := []string{sc.Sides[0].Name, sc.Sides[1].Name}
	for i, n := range names {
		if n == name {
			return i, n, nil
		}
	}
	return 0, "", msg.Errorf("--side %q: no such side%s; sides: %s, %s", name, scenario.Suggest(name, names), names[0], names[1])
}

// sideScenario compiles the scenario with sets and finds the side.
func sideScenario(src *Source, sets []scenario.Set, side string, warn io.Writer) (sc *scenario.Scenario, si int, sideName string, err error) {
	sc, _, err = src.Compile(sets, warn)
	if err != nil {
		return nil, 0, "", &Error{Kind: Invalid, Err: err}
	}
	si, sideName, err = SideIndex(sc, side)
	if err != nil {
		return nil, 0, "", &Error{Kind: Usage, Help: true, Err: err}
	}
	return sc, si, sideName, nil
}

// DocHeader is the header of an experiment document: how it was made, and
// the scenario as run (text, SHA-256, ruleset options, the roster's sides)
// for the report, from the scenario with the common overrides (compiled
// once more: the options' games may change the roster).
func DocHeader(kind string, src *Source, sc *scenario.Scenario, seed uint64, command string, sets []scenario.Set, warn io.Writer) results.Header {
	h := results.Header{Kind: kind, Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Seed: seed, Version: Version(),
		Command: command, Sets: setStrings(sets)}
	h.ScenarioSHA256 = src.Sum()
	if _, base, err := src.Compile(sets, warn); err == nil { // sideScenario compiled it already
		h.Context = ScenarioContext(src, sc, base)
	}
	return h
}

// CompileAll compiles the scenario under each list of extra overrides;
// nothing runs unless all are valid, and every invalid one is counted,
// the first most of them reported under their label (what names them
// all: "settings").
func CompileAll(src *Source, base []scenario.Set, extra [][]scenario.Set, label func(k int) msg.Text, warn io.Writer) ([]sim.Game, error) {
	return compileAll(src, base, extra, label, msg.New("settings"), 5, warn)
}

func compileAll(src *Source, base []scenario.Set, extra [][]scenario.Set, label func(k int) msg.Text, what msg.Text, most int, warn io.Writer) ([]sim.Game, error) {
	games := make([]sim.Game, len(extra))
	// The report: a part per invalid setting, then the count; a message
	// of messages, so it prints in the front end's language.
	var parts []any
	nbad := 0
	for k, e := range extra {
		_, g, err := src.Compile(append(append([]scenario.Set(nil), base...), e...), warn)
		if err != nil {
			if nbad < most {
				parts = append(parts, msg.New("%s:\n%v\n", label(k), err))
			}
			nbad++
			continue
		}
		games[k] = g
	}
	if nbad > 0 {
		parts = append(parts, msg.New("%d of %d %s are invalid scenarios; nothing was run", nbad, len(extra), what))
		m := msg.New(strings.Repeat("%v", len(parts)), parts...)
		return nil, &Error{Kind: Invalid, Err: &PointsError{Text: m.String(), Msg: m}}
	}
	return games, nil
}

func isInterrupt(err error) bool {
	return err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// playJoint plays experiment.PlayJoint (games on common random numbers
// over todo, side si's joint wins added to joint) for obs: build's partial
// documents go to its checkpoints and interim tables. It returns the ranges left and the error of an unexpected
// failure; an interruption with nothing played is an Error of kind
// Interrupted.
func playJoint(ctx context.Context, games []sim.Game, cfg sim.RunConfig, si int, joint *stats.Joint, todo []sim.Range,
	build func(interrupted bool, left []sim.Range) (any, error), obs *Observer) (left []sim.Range, interrupted bool, err error) {
	var done atomic.Int64
	cfg.Done = &done
	stop := obs.progress(experiment.RangesLen(todo), &done)
	var save func(left []sim.Range)
	if obs.Checkpoint != nil || obs.Interim != nil {
		save = func(left []sim.Range) {
			doc, err := build(true, left)
			if err != nil {
				return
			}
			if obs.Checkpoint != nil {
				obs.Checkpoint(doc)
			}
			if obs.Interim != nil {
				obs.Interim(doc)
			}
		}
	}
	every, seg := obs.segments()
	left, runErr := experiment.PlayJoint(ctx, games, cfg, si, joint, todo, save, every, seg)
	stop()
	interrupted = isInterrupt(runErr)
	if runErr != nil && !interrupted {
		return nil, false, &Error{Kind: Failed, Err: runErr}
	}
	if interrupted && joint.N == 0 {
		return nil, false, &Error{Kind: Interrupted, Err: msg.Errorf("interrupted before any encounter finished; nothing written")}
	}
	return left, interrupted, nil
}

// Value plays req and returns its document (marked interrupted if ctx
// ended it; see Compare).
func Value(ctx context.Context, req *ValueRequest, obs *Observer) (*results.Value, error) {
	if obs == nil {
		obs = &Observer{}
	}
	src := req.Source
	sc, si, sideName, err := sideScenario(src, req.Sets, req.Side, obs.Warn)
	if err != nil {
		return nil, err
	}
	var ps []experiment.Param
	seen := map[string]bool{}
	for _, name := range req.Params {
		name = strings.TrimSpace(name)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		step, given := req.Steps[name]
		if !given {
			step = 1
		}
		p, err := experiment.NewParam(src.Data, req.Sets, sc, sideName, name, step)
		if err != nil {
			return nil, &Error{Kind: Usage, Help: true, Err: err}
		}
		ps = append(ps, p)
	}
	for name := range req.Steps {
		if !seen[name] {
			return nil, usage(true, "--step %s: %s is not among --params", name, name)
		}
	}
	if len(ps) == 0 {
		return nil, usage(true, "--params names no parameter")
	}
	extra := experiment.Games(ps)
	games, err := CompileAll(src, req.Sets, extra, func(k int) msg.Text {
		if k == 0 {
			return msg.New("the scenario")
		}
		dir := "-"
		if k%2 == 0 {
			dir = "+"
		}
		p := ps[(k-1)/2]
		return msg.New("%s %s%v (%s)", p.Name, dir, p.Step, strings.Join(setList(extra[k]), " "))
	}, obs.Warn)
	if err != nil {
		return nil, err
	}
	h := DocHeader("value", src, sc, req.Seed, req.Command, req.Sets, obs.Warn)
	h.Shard = req.Shard
	vps := ValueParams(ps)
	joint := stats.NewJoint(len(games))
	todo := []sim.Range{req.Shard.Range(req.N)}
	var before float64
	if old := req.Resume; old != nil {
		err := results.CheckResume(req.ResumePath, results.HeaderFacts(&old.Header, old.Encounters), results.HeaderFacts(&h, 0), req.N)
		if err == nil && (old.Side != sideName || !reflect.DeepEqual(old.Params, vps)) {
			err = msg.Errorf("--resume %s: that run values side %s with parameters %s, this one side %s with %s; resume with the same command line",
				req.ResumePath, old.Side, paramList(old.Params), sideName, paramList(vps))
		}
		if err == nil {
			err = results.CheckDigest(req.ResumePath, old.ResumeDigest, old.TrustedDigest())
		}
		if err != nil {
			return nil, &Error{Kind: Usage, Err: err}
		}
		joint, todo, before = old.Joint, results.Todo(old.Unplayed), old.Elapsed
		obs.note("resuming %s: %d encounters played, %d to play", req.ResumePath, joint.N, experiment.RangesLen(todo))
	}
	t0 := time.Now()
	build := func(interrupted bool, left []sim.Range) *results.Value {
		v := &results.Value{Header: h, Side: sideName}
		v.Elapsed, v.Interrupted = before+time.Since(t0).Seconds(), interrupted
		if interrupted {
			v.Unplayed = results.Unplayed(left)
		}
		results.NewValue(v, ps, experiment.Analyse(joint, ps, sideName), experiment.Swings(joint, ps, sideName))
		if len(v.Unplayed) > 0 {
			v.ResumeDigest = v.TrustedDigest()
		}
		return v
	}
	cfg := sim.RunConfig{Seed: req.Seed, Workers: req.Workers}
	left, interrupted, err := playJoint(ctx, games, cfg, si, &joint, todo,
		func(interrupted bool, left []sim.Range) (any, error) { return build(interrupted, left), nil }, obs)
	if err != nil {
		return nil, err
	}
	return build(interrupted, left), nil
}

// Matrix plays req and returns its document (marked interrupted if ctx
// ended it; see Compare).
func Matrix(ctx context.Context, req *MatrixRequest, obs *Observer) (*results.Matrix, error) {
	if obs == nil {
		obs = &Observer{}
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	src, rows, cols := req.Source, req.Rows, req.Cols
	sc, si, rowSide, err := sideScenario(src, req.Sets, req.Side, obs.Warn)
	if err != nil {
		return nil, err
	}
	colSide := sc.Sides[1-si].Name
	var extra [][]scenario.Set
	for _, r := range rows {
		for _, c := range cols {
			extra = append(extra, append(append([]scenario.Set(nil), r.Sets...), c.Sets...))
		}
	}
	games, err := CompileAll(src, req.Sets, extra, func(k int) msg.Text {
		return msg.New("row %s against column %s", rows[k/len(cols)].Name, cols[k%len(cols)].Name)
	}, obs.Warn)
	if err != nil {
		return nil, err
	}
	names := func(opts []Option) ([]string, []results.NamedSets) {
		var ns []string
		var out []results.NamedSets
		for _, op := range opts {
			ns = append(ns, op.Name)
			out = append(out, results.NamedSets{Name: op.Name, Sets: setList(op.Sets)})
		}
		return ns, out
	}
	rn, rsets := names(rows)
	cn, csets := names(cols)
	h := DocHeader("matrix", src, sc, req.Seed, req.Command, req.Sets, obs.Warn)
	h.Shard = req.Shard
	joint := stats.NewJoint(len(games))
	todo := []sim.Range{req.Shard.Range(req.N)}
	var before float64
	if old := req.Resume; old != nil {
		err := results.CheckResume(req.ResumePath, results.HeaderFacts(&old.Header, old.Encounters), results.HeaderFacts(&h, 0), req.N)
		if err == nil && (old.RowSide != rowSide || !reflect.DeepEqual(old.RowOptions, rsets) || !reflect.DeepEqual(old.ColOptions, csets)) {
			err = msg.Errorf("--resume %s: that matrix has other --row or --col options, or another --side; resume with the same command line", req.ResumePath)
		}
		if err == nil {
			err = results.CheckDigest(req.ResumePath, old.ResumeDigest, old.TrustedDigest())
		}
		if err != nil {
			return nil, &Error{Kind: Usage, Err: err}
		}
		joint, todo, before = old.Joint, results.Todo(old.Unplayed), old.Elapsed
		obs.note("resuming %s: %d encounters per pairing played, %d to play", req.ResumePath, joint.N, experiment.RangesLen(todo))
	}
	t0 := time.Now()
	build := func(interrupted bool, left []sim.Range) (*results.Matrix, error) {
		res, err := experiment.Matrix(joint, rowSide, colSide, rn, cn)
		if err != nil {
			return nil, err
		}
		m := &results.Matrix{Header: h, RowOptions: rsets, ColOptions: csets, MatrixResult: *res}
		m.Elapsed, m.Interrupted = before+time.Since(t0).Seconds(), interrupted
		if interrupted {
			m.Unplayed = results.Unplayed(left)
		}
		if len(m.Unplayed) > 0 {
			m.ResumeDigest = m.TrustedDigest()
		}
		return m, nil
	}
	cfg := sim.RunConfig{Seed: req.Seed, Workers: req.Workers}
	left, interrupted, err := playJoint(ctx, games, cfg, si, &joint, todo,
		func(interrupted bool, left []sim.Range) (any, error) { return build(interrupted, left) }, obs)
	if err != nil {
		return nil, err
	}
	m, err := build(interrupted, left)
	if err != nil {
		return nil, &Error{Kind: Failed, Err: err}
	}
	return m, nil
}

// ValueParams is how a value document records its parameters.
func ValueParams(ps []experiment.Param) []results.ValueParam {
	var out []results.ValueParam
	for _, p := range ps {
		out = append(out, results.ValueParam{Name: p.Name, Step: p.Step, Down: setList(p.Down), Up: setList(p.Up)})
	}
	return out
}

func paramList(ps []results.ValueParam) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%s (step %v)", p.Name, p.Step))
	}
	return strings.Join(parts, ", ")
}

// setList is setStrings, but an empty list for no overrides (documents
// write [] there, not null).
func setList(sets []scenario.Set) []string {
	out := make([]string, len(sets))
	for i, s := range sets {
		out[i] = s.String()
	}
	return out
}

// MergeValues combines shards of one value run (value --shard k/K) into
// exactly the document one process would have made: their sums added
// (results.MergeValueSums), the figures computed again from them.
func MergeValues(vs []*results.Value) (*results.Value, error) {
	h, j, ps, err := results.MergeValueSums(vs)
	if err != nil {
		return nil, err
	}
	v := &results.Value{Header: h, Side: vs[0].Side}
	results.NewValue(v, ps, experiment.Analyse(j, ps, v.Side), experiment.Swings(j, ps, v.Side))
	return v, nil
}

// MergeMatrices combines shards of one matrix run (matrix --shard k/K)
// into exactly the document one process would have made.
func MergeMatrices(ms []*results.Matrix) (*results.Matrix, error) {
	h, j, err := results.MergeMatrixSums(ms)
	if err != nil {
		return nil, err
	}
	first := ms[0]
	res, err := experiment.Matrix(j, first.RowSide, first.ColSide, first.Rows, first.Cols)
	if err != nil {
		return nil, msg.Errorf("%s: %v", "merge", err)
	}
	return &results.Matrix{Header: h, RowOptions: first.RowOptions, ColOptions: first.ColOptions, MatrixResult: *res}, nil
}
