package main

import (
	"context"
	"flag"
	"io"
	"simctl/sim/msg"
	"strings"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/results"
)

// simctl optimize: the best candidate of a search space for one side (or,
// with --both, a double oracle over both sides' spaces), with the
// guarantee of sim/experiment's Optimize. This file reads the command
// line into a request (app.Optimize builds each candidate when it first
// plays) and writes the document of reports/optimize.go.

// traitFlags are --traits SIDE.NAME=TRAIT,...: one list per combatant.
type traitFlags []results.TraitList

func (t *traitFlags) String() string { return "" }

func (t *traitFlags) Set(s string) error {
	owner, list, ok := strings.Cut(s, "=")
	owner = strings.TrimSpace(owner)
	if !ok || owner == "" {
		return msg.Errorf("%q: expected SIDE.NAME=TRAIT,..., e.g. heroes.Fighter=dodge,weapon_focus,power_attack", s)
	}
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n == "" {
			return msg.Errorf("%q: an empty trait name; list library traits separated by commas, e.g. heroes.Fighter=dodge,weapon_focus", s)
		}
		names = append(names, n)
	}
	*t = append(*t, results.TraitList{Owner: owner, Names: names})
	return nil
}

func cmdOptimize(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("optimize", flag.ContinueOnError)
	side := kindFlag(fs, "optimize", "side")
	var axes varyFlags
	fs.Var(&axes, "vary", kindUsage("optimize", "vary"))
	var opts optionFlags
	fs.Var(&opts, "option", "`NAME='--set PATH=VALUE ...'` a named alternative (repeatable): another tactics block, library tactics, a policy")
	where := kindFlag(fs, "optimize", "where")
	rules := fs.String("rules", "", "`MODE` search the structure of --block's rules: subset (each rule on or off), order (every order) or both")
	var traitLists traitFlags
	fs.Var(&traitLists, "traits", "`SIDE.NAME=TRAIT,...` library traits the combatant may take, each on or off in the space (repeatable); --where counts them as SIDE.NAME.traits and reads each as SIDE.NAME.traits.TRAIT (0 or 1); a taken trait's parameters are --vary paths SIDE.NAME.traits.TRAIT.params.P")
	block := fs.String("block", "", "`PATH` the rule list --rules searches, e.g. foot.tactics.turn or heroes.Knight.tactics.turn")
	baseline := fs.String("baseline", "", "`NAME` the intended play the candidates are measured against: an --option's name (default: the scenario as written)")
	alpha := fs.Float64("alpha", app.OptimizeAlpha, "`A` the guarantee holds with probability at least 1-A")
	deltaS := fs.String("delta", "1pp", "`D` the indifference zone: the best found is within D of the best evaluated (0.01, 1pp or 0.5pp)")
	budget := &countValue{n: app.OptimizeBudget}
	fs.Var(budget, "budget", "`B` encounters the screening and the selection may spend, every candidate's counted (default 20M): the selection shares B among its finalists (each plays at least one --first stage), a screening rung spends at most B/4, and a space whose first stages do not fit B/2 is screened; the confirmation (--confirm for each candidate confirmed and the baseline) comes on top")
	first := &countValue{n: app.OptimizeFirst}
	fs.Var(first, "first", "`N` encounters per candidate in every stage of the selection (default 1000)")
	confirm := &countValue{n: app.OptimizeConfirm}
	fs.Var(confirm, "confirm", "`N` fresh encounters each confirmed candidate and the baseline play after the selection (default 20000)")
	both := fs.Bool("both", false, "search both sides by double oracle: --vary/--option/--traits paths that start with the other side's name are its space")
	resume := fs.String("resume", "", "`FILE` continue the interrupted search whose JSON (--format json -o or --results) is FILE: its finished stages are kept; a merged stage (simctl merge of --shard outputs) is applied first")
	shardFlag := fs.String("shard", "", "`k/K` play part k of K of the selection's next stage (from --resume FILE's state, or the first) and write it as JSON for simctl merge")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gFormat|gQuiet|gProgress, "encounters a candidate plays at most in the selection (the per-candidate cap)")
	o.register(fs, "")
	langF := langFlag(fs, "the text table's own words (JSON, CSV and Markdown stay English)")
	pos, stop, code := parseArgs("optimize", fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "optimize", "%v", err)
	}
	if len(pos) != 1 {
		return usageError(stderr, "optimize", "give one SCENARIO and a space, e.g. simctl optimize d20/duel --side heroes --vary heroes.Fighter.init=1:5 --vary heroes.Fighter.hp=20:28:2")
	}
	delta, err := parsePrecision(*deltaS)
	if err != nil || !(delta > 0 && delta < 1) {
		return usageError(stderr, "optimize", "--delta %q: a win-rate difference between 0 and 1, e.g. 0.01, 1pp or 0.5pp", *deltaS)
	}
	req := &app.OptimizeRequest{Sets: o.sets, Side: *side, Axes: axes, Where: *where, Rules: *rules, Block: *block, Traits: traitLists, Baseline: *baseline, Both: *both,
		Alpha: *alpha, Delta: delta, Budget: budget.n, First: first.n, Confirm: confirm.n, Cap: o.n.n, Seed: o.seed.v, Workers: o.workers.v,
		Command: results.ShellJoin(append([]string{"simctl", "optimize"}, args...))}
	for _, op := range opts {
		req.Options = append(req.Options, app.Option{Name: op.name, Sets: op.sets})
	}
	if err := req.Check(); err != nil {
		return appError(stderr, "optimize", err)
	}
	if o.plot != "" {
		return usageError(stderr, "optimize", "--plot: optimize draws its figures in simctl report (the incumbent and the landscape)")
	}
	format, ok := o.check("optimize", stderr)
	if !ok {
		return exitUsage
	}
	if *shardFlag != "" {
		k, of := 0, 0
		if !*both { // --both refuses --shard however it is written
			if k, of, err = parseShard(*shardFlag); err != nil {
				return usageError(stderr, "optimize", "%v", err)
			}
		}
		req.Shard = &app.ShardSpec{K: k, Of: of, Spec: *shardFlag}
	}
	src, err := readSource(ctx, pos[0])
	if err != nil {
		return scenarioError(stderr, err)
	}
	req.Source = src.app()
	if *resume != "" {
		if req.Resume, err = readResume(ctx, *resume, msg.New("the JSON of simctl optimize"), func(in *results.Input) *results.Optimize { return in.Optimize }); err != nil {
			sayErr(stderr, "optimize", err)
			return exitUsage
		}
		req.ResumePath = *resume
	}
	obs := o.observer(ctx, "optimize", format, stderr)
	obs.Warn = src.warnTo()
	if *shardFlag != "" && format != reports.JSON && !*both {
		return usageError(stderr, "optimize", "--shard writes JSON for simctl merge: add --json (or -o FILE.json)")
	}
	res, err := app.Optimize(ctx, req, obs)
	if err != nil {
		return appError(stderr, "optimize", err)
	}
	if !o.write("optimize", stdout, stderr, format, func(w io.Writer, f reports.Format) error { return reports.WriteOptimize(res.Optimize, w, f, lang) }, nil) {
		return exitFailure
	}
	if res.Interrupted && res.Shard == nil {
		say(stderr, "optimize", "interrupted; %s", o.interruptedWhere(format, stdout, res.Resumable))
		return exitInterrupted
	}
	return exitOK
}
