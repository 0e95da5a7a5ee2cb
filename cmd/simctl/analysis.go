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
	"sync/atomic"

	"simctl/reports"
	"simctl/reports/results"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// The balance-analysis commands: value (exchange rates and the tornado),
// matrix, tournament and find. Each is a thin layer over an experiment
// design in sim/experiment and a document in reports.

// sideScenario reads SCENARIO, compiles it with sets and finds --side; on
// a problem it has reported it and returns the exit code.
func sideScenario(ctx context.Context, cmd, name string, sets []scenario.Set, side string, stderr io.Writer) (src *source, sc *scenario.Scenario, si int, sideName string, code int) {
	src, err := readSource(ctx, name)
	if err != nil {
		return nil, nil, 0, "", scenarioError(stderr, err)
	}
	sc, _, err = src.compile(sets)
	if err != nil {
		return nil, nil, 0, "", scenarioError(stderr, err)
	}
	si, sideName, err = app.SideIndex(sc, side)
	if err != nil {
		return nil, nil, 0, "", usageError(stderr, cmd, "%v", err)
	}
	return src, sc, si, sideName, exitOK
}

// docHeader is the header of an experiment document: how it was made, and
// the scenario as run (text, SHA-256, ruleset options, the roster's sides)
// for the report, from the scenario with the common --set (compiled once
// more: the options' games may change the roster).
func docHeader(kind string, src *source, sc *scenario.Scenario, seed uint64, args []string, sets setFlags) results.Header {
	return app.DocHeader(kind, src.app(), sc, seed, results.ShellJoin(append([]string{"simctl", kind}, args...)), sets, src.warnTo())
}

func setStrings(sets []scenario.Set) []string {
	out := make([]string, len(sets))
	for i, s := range sets {
		out[i] = s.String()
	}
	return out
}

func isInterrupt(err error) bool {
	return err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// stepFlags collects --step NAME=STEP.
type stepFlags map[string]float64

func (s stepFlags) String() string { return "" }

func (s stepFlags) Set(v string) error {
	name, val, ok := strings.Cut(v, "=")
	f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
	if !ok || strings.TrimSpace(name) == "" || err != nil || !(f > 0) {
		return msg.Errorf("%q: expected PARAM=STEP with a positive step, e.g. hp=2", v)
	}
	s[strings.TrimSpace(name)] = f
	return nil
}

func cmdValue(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("value", flag.ContinueOnError)
	side := kindFlag(fs, "value", "side")
	params := kindFlag(fs, "value", "params")
	steps := stepFlags{}
	fs.Var(steps, "step", "`PARAM=STEP` the step of a parameter (default 1; repeatable); whole-number fields take whole steps")
	shardFlag := fs.String("shard", "", "`k/K` play shard k of K of the -n encounters (or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); simctl merge adds the shards' JSON")
	resume := fs.String("resume", "", "`FILE` continue the interrupted value run whose JSON (--results or --format json -o) is FILE: play only the encounters it did not")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gFormat|gQuiet|gProgress, "encounters, played under every step of every parameter")
	o.register(fs, "the tornado (the one-at-a-time swings)")
	langF := langFlag(fs, "the text tables' own words (JSON, CSV and Markdown stay English)")
	pos, stop, code := parseArgs("value", fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "value", "%v", err)
	}
	if len(pos) != 1 {
		return usageError(stderr, "value", "give one SCENARIO, e.g. simctl value d20/duel --params init,hp,ac")
	}
	format, ok := o.check("value", stderr)
	if !ok {
		return exitUsage
	}
	if !o.checkFont("value", lang, stderr) {
		return exitUsage
	}
	shard, err := shardOf("value", *shardFlag, o.n.n)
	if err != nil {
		return usageError(stderr, "value", "%v", err)
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	req := &app.ValueRequest{Source: src.app(), Sets: o.sets, Side: *side, Params: strings.Split(*params, ","), Steps: steps,
		Seed: o.seed.v, N: o.n.n, Workers: o.workers.v, Shard: shard, Command: results.ShellJoin(append([]string{"simctl", "value"}, args...))}
	if *resume != "" {
		if req.Resume, err = readResume(ctx, *resume, msg.New("the JSON of simctl value"), func(in *results.Input) *results.Value { return in.Value }); err != nil {
			sayErr(stderr, "value", err)
			return exitUsage
		}
		req.ResumePath = *resume
	}
	obs := o.observer(ctx, "value", format, stderr)
	obs.Warn = src.warnTo()
	v, err := app.Value(ctx, req, obs)
	if err != nil {
		return appError(stderr, "value", err)
	}
	if !o.quiet {
		for _, w := range results.WarningTexts(v.Warnings, v.WarningsMsg) {
			sayWarning(stderr, "value", w)
		}
	}
	if !o.write("value", stdout, stderr, format, func(w io.Writer, f reports.Format) error { return reports.WriteValue(v, w, f, lang) }, func() (*reports.Figure, error) { return reports.TornadoFigure(lang, v) }) {
		return exitFailure
	}
	if v.Interrupted {
		say(stderr, "value", "interrupted after %s encounters; %s", thousandsInt(v.Encounters), o.interruptedWhere(format, stdout, true))
		return exitInterrupted
	}
	return exitOK
}

func cmdMatrix(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("matrix", flag.ContinueOnError)
	side := kindFlag(fs, "matrix", "side")
	var rows, cols optionFlags
	fs.Var(&rows, "row", kindUsage("matrix", "row"))
	fs.Var(&cols, "col", kindUsage("matrix", "col"))
	shardFlag := fs.String("shard", "", "`k/K` play shard k of K of the -n encounters (or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); simctl merge adds the shards' JSON")
	resume := fs.String("resume", "", "`FILE` continue the interrupted matrix whose JSON (--results or --format json -o) is FILE: play only the encounters it did not")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gFormat|gQuiet|gProgress, "encounters per pairing, the same for every pairing")
	o.register(fs, "the heat map")
	langF := langFlag(fs, "the text table's own words (JSON, CSV and Markdown stay English)")
	pos, stop, code := parseArgs("matrix", fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "matrix", "%v", err)
	}
	if len(pos) != 1 {
		return usageError(stderr, "matrix", "give one SCENARIO and the options, e.g. simctl matrix cavaliers/duel --row a='...' --row b='...' --col x='...' --col y='...'")
	}
	req := &app.MatrixRequest{Sets: o.sets, Side: *side, Seed: o.seed.v, N: o.n.n, Workers: o.workers.v,
		Command: results.ShellJoin(append([]string{"simctl", "matrix"}, args...))}
	for _, op := range rows {
		req.Rows = append(req.Rows, app.Option{Name: op.name, Sets: op.sets})
	}
	for _, op := range cols {
		req.Cols = append(req.Cols, app.Option{Name: op.name, Sets: op.sets})
	}
	if err := req.Check(); err != nil {
		return appError(stderr, "matrix", err)
	}
	format, ok := o.check("matrix", stderr)
	if !ok {
		return exitUsage
	}
	if !o.checkFont("matrix", lang, stderr) {
		return exitUsage
	}
	shard, err := shardOf("matrix", *shardFlag, o.n.n)
	if err != nil {
		return usageError(stderr, "matrix", "%v", err)
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	req.Source, req.Shard = src.app(), shard
	if *resume != "" {
		if req.Resume, err = readResume(ctx, *resume, msg.New("the JSON of simctl matrix"), func(in *results.Input) *results.Matrix { return in.Matrix }); err != nil {
			sayErr(stderr, "matrix", err)
			return exitUsage
		}
		req.ResumePath = *resume
	}
	obs := o.observer(ctx, "matrix", format, stderr)
	obs.Warn = src.warnTo()
	m, err := app.Matrix(ctx, req, obs)
	if err != nil {
		return appError(stderr, "matrix", err)
	}
	if !o.write("matrix", stdout, stderr, format, func(w io.Writer, f reports.Format) error { return reports.WriteMatrix(m, w, f, lang) }, func() (*reports.Figure, error) { return reports.MatrixFigure(lang, m) }) {
		return exitFailure
	}
	if m.Interrupted {
		say(stderr, "matrix", "interrupted after %s encounters per pairing; %s", thousandsInt(m.Encounters), o.interruptedWhere(format, stdout, true))
		return exitInterrupted
	}
	return exitOK
}

func cmdTournament(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tournament", flag.ContinueOnError)
	side := kindFlag(fs, "tournament", "side")
	var opts optionFlags
	fs.Var(&opts, "option", kindUsage("tournament", "option"))
	var axes varyFlags
	fs.Var(&axes, "vary", kindUsage("tournament", "vary"))
	// The selection's defaults are the table's (app: tournamentKind),
	// which the lab plays.
	first := kindFlag(fs, "tournament", "first")
	batch := kindFlag(fs, "tournament", "batch")
	alphaF := app.Lookup("tournament").Flag("alpha")
	alpha := fs.Float64(alphaF.Name, mustFloat(alphaF.Default), alphaF.Usage)
	delta := kindFlag(fs, "tournament", "delta")
	resume := fs.String("resume", "", "`FILE` continue the interrupted tournament whose JSON (--results or --format json -o) is FILE: its finished stages are kept")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gFormat|gQuiet|gProgress, "encounters a surviving candidate plays at most (the budget)")
	o.register(fs, "")
	langF := langFlag(fs, "the text table's own words (JSON, CSV and Markdown stay English)")
	pos, stop, code := parseArgs("tournament", fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "tournament", "%v", err)
	}
	if len(pos) != 1 {
		return usageError(stderr, "tournament", "give one SCENARIO and the candidates, e.g. simctl tournament d20/tactics-combo --vary heroes.Wizard.tactics.params.crowd=1:4:1")
	}
	firstN, err := parseCount(*first)
	if err != nil {
		return usageError(stderr, "tournament", "%s %v", "--first", err)
	}
	batchN := firstN
	if *batch != "" {
		if batchN, err = parseCount(*batch); err != nil {
			return usageError(stderr, "tournament", "%s %v", "--batch", err)
		}
	}
	deltaV, err := parseDelta(*delta)
	if err != nil {
		return usageError(stderr, "tournament", "%v", err)
	}
	req := &app.TournamentRequest{Sets: o.sets, Side: *side, Axes: axes, Seed: o.seed.v, Workers: o.workers.v,
		Params:  experiment.SelectParams{Alpha: *alpha, Delta: deltaV, First: firstN, Batch: batchN, Budget: o.n.n},
		Command: results.ShellJoin(append([]string{"simctl", "tournament"}, args...))}
	for _, op := range opts {
		req.Options = append(req.Options, app.Option{Name: op.name, Sets: op.sets})
	}
	if err := req.Check(); err != nil {
		return appError(stderr, "tournament", err)
	}
	if o.plot != "" {
		return usageError(stderr, "tournament", "--plot: a tournament has no figure; its table is the result")
	}
	format, ok := o.check("tournament", stderr)
	if !ok {
		return exitUsage
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	req.Source = src.app()
	if *resume != "" {
		if req.Resume, err = readResume(ctx, *resume, msg.New("the JSON of simctl tournament"), func(in *results.Input) *results.Tournament { return in.Tournament }); err != nil {
			sayErr(stderr, "tournament", err)
			return exitUsage
		}
		req.ResumePath = *resume
	}
	obs := o.observer(ctx, "tournament", format, stderr)
	obs.Warn = src.warnTo()
	t, err := app.Tournament(ctx, req, obs)
	if err != nil {
		return appError(stderr, "tournament", err)
	}
	if !o.write("tournament", stdout, stderr, format, func(w io.Writer, f reports.Format) error { return reports.WriteTournament(t, w, f, lang) }, nil) {
		return exitFailure
	}
	if t.Interrupted {
		say(stderr, "tournament", "interrupted after %d stage(s); %s", len(t.Stages), o.interruptedWhere(format, stdout, true))
		return exitInterrupted
	}
	return exitOK
}

// mustFloat is a number default of the table (a mistake in it if not).
func mustFloat(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("simctl: a table default is not a number: " + s)
	}
	return x
}

// parseDelta reads --delta as a proportion (0.01) or percentage points
// (1pp, 1%), as --precision is read.
func parseDelta(s string) (float64, error) {
	d, err := parsePrecision(s)
	if err != nil || d == 0 {
		return 0, msg.Errorf("--delta %q: give the indifference zone as a proportion (0.01) or in percentage points (1pp), between 0 and 1", s)
	}
	return d, nil
}

func cmdFind(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("find", flag.ContinueOnError)
	where := kindFlag(fs, "find", "where")
	limitF := app.Lookup("find").Flag("limit")
	limit := fs.Int(limitF.Name, int(mustFloat(limitF.Default)), limitF.Usage)
	var c common
	c.register(fs, gN|gSeed|gWorkers|gSet|gFormat|gQuiet|gProgress, "encounters to search (0 .. N-1 of the run)")
	langF := langFlag(fs, "the text output and simctl's messages (JSON stays English)")
	pos, stop, code := parseArgs("find", fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "find", "%v", err)
	}
	if len(pos) != 1 || *where == "" {
		return usageError(stderr, "find", `give one SCENARIO and --where COND, e.g. simctl find d20/duel --where 'side("heroes").won and rounds >= 5'`)
	}
	req := &app.FindRequest{Sets: c.sets, Where: *where, Limit: *limit, Seed: c.seed.v, N: c.n.n, Workers: c.workers.v,
		Command: results.ShellJoin(append([]string{"simctl", "find"}, args...))}
	if err := req.Check(); err != nil {
		return appError(stderr, "find", err)
	}
	format, err := c.resolveFormat()
	if err != nil {
		return usageError(stderr, "find", "%v", err)
	}
	if format == reports.CSV || format == reports.Markdown {
		return usageError(stderr, "find", "--format %s: find writes text or json", format)
	}
	target, err := checkOut(c.out, "-o")
	if err != nil {
		sayErr(stderr, "find", err)
		return exitUsage
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	req.Source = src.app()
	doc, err := app.Find(ctx, req, &app.Observer{Warn: src.warnTo(), Progress: func(total int64, done *atomic.Int64) func() {
		return startProgress(ctx, c.showProgress(), total, done, stderr)
	}})
	if err != nil {
		return appError(stderr, "find", err)
	}
	res, interrupted := &doc.FindResult, doc.Interrupted
	if err := writeOut(target, stdout, func(w io.Writer) error {
		if format == reports.JSON {
			return results.WriteJSON(w, doc)
		}
		share := 0.0
		if res.Encounters > 0 {
			share = 100 * float64(res.Matches) / float64(res.Encounters)
		}
		// The condition is the user's, as written.
		fmt.Fprintln(w, lang.T("find.matches", lang.Int(res.Matches), lang.Int(res.Encounters), c.seed.v, *where, lang.Percent(share/100, 2)))
		if len(res.First) == 0 {
			return nil
		}
		idx := make([]string, len(res.First))
		for i, e := range res.First {
			idx[i] = strconv.FormatInt(e, 10)
		}
		fmt.Fprintln(w, lang.N("find.first", int64(len(res.First)), strings.Join(idx, " ")))
		trace := []string{"simctl", "trace", pos[0], "--seed", strconv.FormatUint(c.seed.v, 10), "--encounter", idx[0]}
		for _, s := range c.sets.strings() {
			trace = append(trace, "--set", s)
		}
		_, err := fmt.Fprintln(w, lang.T("find.replay", results.ShellJoin(trace)))
		return err
	}); err != nil {
		sayErr(stderr, "find", err)
		return exitFailure
	}
	if interrupted {
		say(stderr, "find", "interrupted after %s encounters", thousandsInt(res.Encounters))
		return exitInterrupted
	}
	return exitOK
}

// parsePick reads --pick: min, median, max, or pNN (a percentile).
func parsePick(s string) (float64, error) {
	switch s {
	case "min":
		return 0, nil
	case "max":
		return 1, nil
	case "median":
		return 0.5, nil
	}
	if strings.HasPrefix(s, "p") {
		if v, err := strconv.ParseFloat(s[1:], 64); err == nil && v > 0 && v < 100 {
			return v / 100, nil
		}
	}
	return 0, msg.Errorf("--pick %q: expected min, median, max or pNN (a percentile, e.g. p90)", s)
}

// readResume reads the JSON given to --resume and picks from it the
// document of the command resuming (nil when the file is another kind;
// what names the kind expected in the error).
func readResume[T any](ctx context.Context, path string, what msg.Text, pick func(*results.Input) *T) (*T, error) {
	in, err := results.ReadInputContext(ctx, path)
	if err != nil {
		return nil, msg.Errorf("%s: %v", "--resume", err)
	}
	doc := pick(in)
	if doc == nil {
		return nil, msg.Errorf("--resume %s: not %s (write it with --results FILE or --format json -o FILE)", path, what)
	}
	return doc, nil
}
