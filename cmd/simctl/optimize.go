package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"go.yaml.in/yaml/v3"

	"simctl/reports"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// simctl optimize: the best candidate of a search space for one side (or,
// with --both, a double oracle over both sides' spaces), with the
// guarantee of sim/experiment's Optimize. This file reads the command
// line into a Space, compiles every candidate once, and writes the
// document of reports/optimize.go.

func cmdOptimize(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("optimize", flag.ContinueOnError)
	side := fs.String("side", "", "`NAME` the side whose settings are searched and whose win rate is maximised (default: the first)")
	var axes varyFlags
	fs.Var(&axes, "vary", "`PATH=RANGE` a searched --set path (repeatable): a:b[:step] or v1,v2,...; tactics params too (heroes.tactics.params.hurt=0:1:0.05)")
	var opts optionFlags
	fs.Var(&opts, "option", "`NAME='--set PATH=VALUE ...'` a named alternative (repeatable): another tactics block, library tactics, a policy")
	where := fs.String("where", "", "`EXPR` a constraint on the numeric --vary paths, in the tactics language, e.g. '(heroes.Fighter.init - 1) + (heroes.Fighter.hp - 20) / 2 <= 4'; a path with # or - is quoted: path(\"monsters.Orc#2.init\")")
	rules := fs.String("rules", "", "`MODE` search the structure of --block's rules: subset (each rule on or off), order (every order) or both")
	block := fs.String("block", "", "`PATH` the rule list --rules searches, e.g. foot.tactics.turn or heroes.Knight.tactics.turn")
	baseline := fs.String("baseline", "", "`NAME` the intended play the candidates are measured against: an --option's name (default: the scenario as written)")
	alpha := fs.Float64("alpha", 0.05, "`A` the guarantee holds with probability at least 1-A")
	deltaS := fs.String("delta", "1pp", "`D` the indifference zone: the best found is within D of the best evaluated (0.01, 1pp or 0.5pp)")
	budget := &countValue{n: 20_000_000}
	fs.Var(budget, "budget", "`B` encounters the whole search may spend, every candidate's counted (default 20M); past it the space is screened")
	first := &countValue{n: 1000}
	fs.Var(first, "first", "`N` encounters per candidate in every stage of the selection (default 1000)")
	confirm := &countValue{n: 20_000}
	fs.Var(confirm, "confirm", "`N` fresh encounters each confirmed candidate and the baseline play after the selection (default 20000)")
	both := fs.Bool("both", false, "search both sides by double oracle: --vary/--option paths that start with the other side's name are its space")
	resume := fs.String("resume", "", "`FILE` continue the interrupted search whose JSON (--format json -o or --results) is FILE: its finished stages are kept; a merged stage (simctl merge of --shard outputs) is applied first")
	shardFlag := fs.String("shard", "", "`k/K` play part k of K of the selection's next stage (from --resume FILE's state, or the first) and write it as JSON for simctl merge")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gFormat|gQuiet|gProgress, "encounters a candidate plays at most in the selection (the per-candidate cap)")
	o.register(fs, "")
	pos, stop, code := parseArgs("optimize", fs, args, stdout, stderr)
	if stop {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "optimize", "give one SCENARIO and a space, e.g. simctl optimize d20/duel --side heroes --vary heroes.Fighter.init=1:5 --vary heroes.Fighter.hp=20:28:2")
	}
	delta, err := parsePrecision(*deltaS)
	if err != nil || !(delta > 0 && delta < 1) {
		return usageError(stderr, "optimize", "--delta %q: a win-rate difference between 0 and 1, e.g. 0.01, 1pp or 0.5pp", *deltaS)
	}
	if !(*alpha > 0 && *alpha < 1) {
		return usageError(stderr, "optimize", "--alpha %v: a level between 0 and 1, e.g. 0.05", *alpha)
	}
	if o.plot != "" {
		return usageError(stderr, "optimize", "--plot: optimize draws its figures in simctl report (the incumbent and the landscape)")
	}
	if (*rules == "") != (*block == "") {
		return usageError(stderr, "optimize", "--rules and --block go together: --rules subset|order|both --block PATH (the rule list, e.g. foot.tactics.turn)")
	}
	var mode experiment.RulesMode
	if *rules != "" {
		if mode, err = experiment.ParseRulesMode(*rules); err != nil {
			return usageError(stderr, "optimize", "--rules %v", err)
		}
	}
	if len(axes) == 0 && len(opts) == 0 && *rules == "" {
		return usageError(stderr, "optimize", "an empty space: give --vary, --option or --rules")
	}
	format, ok := o.check("optimize", stderr)
	if !ok {
		return exitUsage
	}
	src, sc, si, sideName, code := sideScenario(ctx, "optimize", pos[0], o.sets, *side, stderr)
	if src == nil {
		return code
	}
	for i := range axes {
		if msg := checkWholeSteps(src, o.sets, &axes[i]); msg != "" {
			return usageError(stderr, "optimize", "%s", msg)
		}
	}
	doc := &reports.Optimize{Header: docHeader("optimize", src, sc, o.seed.v, args, o.sets), Side: sideName, Vary: axes, Where: *where, Rules: *rules, Block: *block}
	for _, op := range opts {
		doc.Options = append(doc.Options, reports.NamedSets{Name: op.name, Sets: setStrings(op.sets)})
	}
	doc.Guarantee.Alpha, doc.Guarantee.Delta = *alpha, delta
	if *both {
		for _, x := range []struct {
			set  bool
			flag string
		}{{*rules != "", "--rules"}, {*baseline != "", "--baseline"}, {*shardFlag != "", "--shard"}, {*resume != "", "--resume"}} {
			if x.set {
				return usageError(stderr, "optimize", "%s does not apply to --both (a double oracle searches --vary and --option spaces of both sides, on one machine)", x.flag)
			}
		}
		return optimizeBoth(ctx, src, sc, si, axes, opts, *where, &o, format, doc, *alpha, delta, stdout, stderr)
	}

	// The space.
	sp := &experiment.Space{}
	for _, a := range axes {
		sp.Dims = append(sp.Dims, experiment.NewDim(a.Path, a.Values))
	}
	for _, op := range opts {
		sp.Alts = append(sp.Alts, experiment.Alternative{Name: op.name, Sets: op.sets})
	}
	if *rules != "" {
		if sp.Block, err = experiment.NewRuleBlock(src.data, o.sets, *block, mode); err != nil {
			return usageError(stderr, "optimize", "%v", err)
		}
	}
	if *where != "" {
		if err := sp.Constrain(*where); err != nil {
			return usageError(stderr, "optimize", "--where: %v", err)
		}
	}
	var baseGame sim.Game
	baseName := ""
	if *baseline != "" {
		i := slices.IndexFunc(opts, func(op option) bool { return op.name == *baseline })
		if i < 0 {
			names := make([]string, len(opts))
			for k, op := range opts {
				names[k] = op.name
			}
			return usageError(stderr, "optimize", "--baseline %q: no --option of that name%s; options: %s", *baseline, didYouMean(*baseline, names), strings.Join(names, ", "))
		}
		_, g, err := src.compile(append(append([]scenario.Set(nil), o.sets...), opts[i].sets...))
		if err != nil {
			return scenarioError(stderr, err)
		}
		baseGame, baseName = g, *baseline
	} else {
		_, g, err := src.compile(o.sets)
		if err != nil {
			return scenarioError(stderr, err)
		}
		baseGame = g
	}

	// Every candidate compiled once; its key is what it compiles to.
	games := map[string]sim.Game{}
	bad := 0
	points, count, err := sp.Enumerate(func(p experiment.Point) (string, error) {
		sets := append(append([]scenario.Set(nil), o.sets...), p.Sets...)
		csc, g, warns, err := src.compileWarn(sets)
		if err != nil {
			if bad < 3 {
				fmt.Fprintf(stderr, "candidate %s:\n%v\n", p.Name, err)
			}
			bad++
			return "bad:" + p.Name, nil
		}
		games[p.Name] = g
		return candidateKey(src, o.sets, sp, p, csc, warns), nil
	})
	if err != nil {
		return usageError(stderr, "optimize", "%v", err)
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "%d candidate(s) are invalid scenarios; nothing was run\n", bad)
		return exitScenario
	}
	if len(points) == 0 {
		return usageError(stderr, "optimize", "--where %s excludes every one of the %d combinations", *where, count.Combinations)
	}
	glist := make([]sim.Game, len(points))
	for k, p := range points {
		glist[k] = games[p.Name]
	}

	cfg := experiment.OptimizeConfig{Seed: o.seed.v, Workers: o.workers.v, Alpha: *alpha, Delta: delta, First: first.n, Cap: o.n.n, Budget: budget.n, Confirm: confirm.n}
	var before float64
	if *resume != "" {
		old, err := resumeOptimize(ctx, *resume, doc)
		if err != nil {
			fmt.Fprintln(stderr, "simctl optimize:", err)
			return exitUsage
		}
		cfg.Finalists, cfg.Prior = old.Search.Finalists, old.Search
		if old.Search.Screening != nil {
			// Screening was unfinished: go on from its state, after the
			// merged rung if the document is one.
			st := old.Search.Screening.Clone()
			if err := st.Check(len(points)); err != nil {
				fmt.Fprintf(stderr, "simctl optimize: --resume %s: %v\n", *resume, err)
				return exitUsage
			}
			prior := *old.Search
			prior.Screening, prior.Finalists = nil, nil
			prior.Stages = append([]experiment.SearchStage(nil), prior.Stages...)
			prior.Incumbent = append([]experiment.IncumbentPoint(nil), prior.Incumbent...)
			prior.ScreenedOut = append([][3]int64(nil), prior.ScreenedOut...)
			cfg.Screen = st
			if old.Stage != nil {
				if old.Shard != nil {
					fmt.Fprintf(stderr, "simctl optimize: --resume %s is one shard of a stage; merge every shard first (simctl merge part*.json -o stage.json)\n", *resume)
					return exitUsage
				}
				if err := st.ApplyRung(old.Stage, &prior); err != nil {
					fmt.Fprintf(stderr, "simctl optimize: --resume %s: the merged rung does not apply: %v\n", *resume, err)
					return exitUsage
				}
				if st.Finished() {
					cfg.Screen, cfg.Finalists = nil, experiment.FinishScreen(sp, points, st, &prior)
					prior.Finalists = cfg.Finalists
				}
			}
			cfg.Prior = &prior
		} else if s := old.Search.Selection; s != nil && s.State != nil {
			st := s.State.Clone()
			if old.Stage != nil {
				if old.Shard != nil {
					fmt.Fprintf(stderr, "simctl optimize: --resume %s is one shard of a stage; merge every shard first (simctl merge part*.json -o stage.json)\n", *resume)
					return exitUsage
				}
				if err := st.Check(len(cfg.Finalists)); err != nil {
					fmt.Fprintf(stderr, "simctl optimize: --resume %s: %v\n", *resume, err)
					return exitUsage
				}
				if err := st.Apply(old.Stage); err != nil {
					fmt.Fprintf(stderr, "simctl optimize: --resume %s: the merged stage does not apply: %v\n", *resume, err)
					return exitUsage
				}
				if !st.Finished() {
					// The point an uninterrupted search records after this
					// stage (a finishing stage's is recorded by Optimize),
					// counting screening's encounters (the search's so far).
					names := make([]string, len(cfg.Finalists))
					for i, k := range cfg.Finalists {
						names[i] = points[k].Name
					}
					r := st.Result(names, sideName)
					prior := *old.Search
					prior.Incumbent = append(append([]experiment.IncumbentPoint(nil), prior.Incumbent...), experiment.IncumbentPoint{
						Encounters: old.Search.Encounters + r.Encounters, Point: cfg.Finalists[r.Leader], WinRate: r.Candidates[r.Leader].WinRate, Stage: "selection"})
					cfg.Prior = &prior
				}
			}
			cfg.Resume = st
		}
		before = old.Elapsed
		if !o.quiet {
			fmt.Fprintf(stderr, "simctl optimize: resuming %s: %d finalists\n", *resume, len(cfg.Finalists))
		}
	}
	if *shardFlag != "" {
		return optimizeShard(ctx, *shardFlag, cfg, sp, points, glist, si, sideName, doc, &o, format, stdout, stderr)
	}
	checkpoint := o.jsonTarget(format)
	t0 := time.Now()
	if checkpoint != nil {
		cfg.OnStage = func(r *experiment.OptimizeResult) {
			cp := *doc
			cp.Search, cp.Interrupted, cp.Elapsed = r, true, before+time.Since(t0).Seconds()
			saveCheckpoint(checkpoint, "optimize", stderr, func(w io.Writer) error { return cp.Write(w, reports.JSON) })
		}
	}
	if h := hooksOf(ctx); h.interims() {
		// simctl serve: the incumbent and the narrowing intervals live,
		// after every stage (the document as it would be if stopped).
		prev := cfg.OnStage
		cfg.OnStage = func(r *experiment.OptimizeResult) {
			if prev != nil {
				prev(r)
			}
			cp := *doc
			cp.Search, cp.Interrupted, cp.Elapsed = r, true, before+time.Since(t0).Seconds()
			h.sendInterim(&cp)
		}
	}
	var done atomic.Int64
	cfg.Done = &done
	// The progress counter advances by encounter indices (every game of a
	// stage plays each): the selection's cap per candidate, the
	// confirmation, and screening's rungs (First, 2·First, ...: about
	// 15·First) when the space is screened.
	total := cfg.SelectParams(len(points)).Budget + confirm.n
	if cfg.Screens(len(points)) && cfg.Finalists == nil {
		total += 15 * first.n
	}
	stopBar := startProgress(ctx, o.showProgress(), total, &done, stderr)
	testHook(&done)
	res, runErr := experiment.Optimize(ctx, sp, points, glist, baseGame, baseName, si, sideName, cfg)
	stopBar()
	interrupted := isInterrupt(runErr)
	if runErr != nil && !interrupted {
		fmt.Fprintln(stderr, "simctl optimize:", runErr)
		return exitFailure
	}
	res.Space = count
	doc.Search = res
	doc.Elapsed, doc.Interrupted = before+time.Since(t0).Seconds(), interrupted
	if !interrupted {
		fillBest(doc, res, points)
	}
	if !o.write("optimize", stdout, stderr, format, doc.Write, nil) {
		return exitFailure
	}
	if interrupted {
		fmt.Fprintf(stderr, "simctl optimize: interrupted; %s%s\n", whereWritten(o.out, stdout), resumeHint(checkpoint, res.Screening != nil || res.Selection != nil && res.Selection.State != nil))
		return exitInterrupted
	}
	return exitOK
}

// fillBest sets the document's best candidate and guarantee from the search.
func fillBest(doc *reports.Optimize, res *experiment.OptimizeResult, points []experiment.Point) {
	for _, r := range res.Ranked {
		if r.Point != res.Best {
			continue
		}
		doc.Best = reports.OptimizeBest{Name: r.Name, Settings: r.Settings, Sets: setStrings(points[r.Point].Sets), WinRate: r.ConfirmRate, CI95: r.ConfirmCI,
			Separated: res.Separated, Gain: r.Gain, GainCI: r.GainCI}
	}
	g := &doc.Guarantee
	g.Evaluated, g.Screened, g.Space, g.Encounters, g.Uniform = len(res.Finalists), res.Screened, res.Space.Candidates, res.Encounters, res.Uniform
	g.Statement = reports.GuaranteeText(g.Alpha, g.Delta, g.Evaluated, g.Screened, g.Space, res.Separated)
}

// reNever finds the rule an "unreachable rule" warning is about: the
// block's path, its moment and the rule's index.
var reNever = regexp.MustCompile(`^(.*)\.tactics\.([a-z_]+)\[(\d+)\]$`)

// reParam reads a varied tactics parameter's path: the block and the name.
var reParam = regexp.MustCompile(`^(.+)\.tactics\.params\.([A-Za-z_][A-Za-z0-9_]*)$`)

// candidateKey is what a candidate compiles to, as text: the value at
// every path the space sets (numbers in one spelling), read back from the
// scenario with the overrides applied. Rules that can never fire (the
// compiler's warnings name them: rules after an unconditional one) do not
// count: a searched rule list is keyed by its reachable rules only, so
// orders that differ only after an unconditional rule are one candidate,
// and a varied parameter of a tactics block that no reachable rule of
// that block reads is keyed "(unread)", so its values are one candidate.
// sc is the candidate's compiled scenario (nil: no such deduplication).
func candidateKey(src *source, common []scenario.Set, sp *experiment.Space, p experiment.Point, sc *scenario.Scenario, warns scenario.Errors) string {
	var b strings.Builder
	sets := append(append([]scenario.Set(nil), common...), p.Sets...)
	// dead[block's scenario path + "." + moment][i]: rule i never fires.
	dead := map[string]map[int]bool{}
	for _, w := range warns {
		if !strings.Contains(w.Msg, "can never fire") {
			continue
		}
		if m := reNever.FindStringSubmatch(w.Path); m != nil {
			i, _ := strconv.Atoi(m[3])
			k := m[1] + "." + m[2]
			if dead[k] == nil {
				dead[k] = map[int]bool{}
			}
			dead[k][i] = true
		}
	}
	// An alternative or a rule list set later may overwrite a varied
	// path (an --option replacing the tactics block whose param is
	// varied): then read back what is left.
	overwritten := len(sp.Alts) > 0 || sp.Block != nil
	for i, d := range sp.Dims {
		v := d.Values[p.Index[i]]
		if d.Nums != nil {
			v = strconv.FormatFloat(d.Nums[p.Index[i]], 'g', -1, 64)
		}
		if overwritten {
			got, ok, err := scenario.ValueAt(src.data, sets, d.Path)
			if err != nil || !ok {
				v = "(unset)"
			} else if f, err := strconv.ParseFloat(strings.TrimSpace(got), 64); err == nil {
				v = strconv.FormatFloat(f, 'g', -1, 64)
			} else {
				v = strings.TrimSpace(got)
			}
		}
		if m := reParam.FindStringSubmatch(d.Path); m != nil && sc != nil && !paramRead(src.data, sets, sc, m[1], m[2], dead) {
			v = "(unread)"
		}
		fmt.Fprintf(&b, "%s=%s\n", d.Path, v)
	}
	if p.Alt >= 0 {
		for _, s := range sp.Alts[p.Alt].Sets {
			v, _, err := scenario.ValueAt(src.data, sets, s.Path)
			if err != nil {
				v = s.Value
			}
			fmt.Fprintf(&b, "%s=%s\n", s.Path, v)
		}
	}
	if sp.Block != nil {
		owner, moment, _ := strings.Cut(sp.Block.Path, ".tactics.")
		var drop map[int]bool
		if at, ok := scenarioPath(sc, owner); ok {
			drop = dead[at+"."+moment]
		}
		var keep []int
		for i, r := range p.Rules {
			if !drop[i] {
				keep = append(keep, r)
			}
		}
		fmt.Fprintf(&b, "%s=%s\n", sp.Block.Path, sp.Block.Label(keep))
	}
	return b.String()
}

// scenarioPath turns a --set path's owner of a tactics block (a side,
// "heroes", or a combatant entry, "heroes.Knight") into the compiled
// scenario's path of it ("sides[0]", "sides[0].combatants[1]"), the path
// the compiler's warnings name; false when it names none, or more than one
// entry has that name.
func scenarioPath(sc *scenario.Scenario, owner string) (string, bool) {
	if sc == nil {
		return "", false
	}
	sideName, member, hasMember := strings.Cut(owner, ".")
	for _, side := range sc.Sides {
		if side.Name != sideName {
			continue
		}
		if !hasMember {
			return side.Path, true
		}
		at, n := "", 0
		for _, c := range side.Combatants {
			if c.Name == member {
				at, n = c.Path, n+1
			}
		}
		return at, n == 1
	}
	return "", false
}

// paramRead reports whether some rule of the tactics block at owner (a
// --set path: heroes.Knight) that can fire mentions $name in any field.
// It answers true whenever it cannot tell: a library tactic (use:, or a
// name), a block it cannot find or read.
func paramRead(data []byte, sets []scenario.Set, sc *scenario.Scenario, owner, name string, dead map[string]map[int]bool) bool {
	at, ok := scenarioPath(sc, owner)
	if !ok {
		return true
	}
	text, ok, err := scenario.ValueAt(data, sets, owner+".tactics")
	if err != nil || !ok {
		return true
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return true
	}
	ref := regexp.MustCompile(`\$` + regexp.QuoteMeta(name) + `\b`)
	m := doc.Content[0]
	for j := 0; j+1 < len(m.Content); j += 2 {
		key, val := m.Content[j].Value, m.Content[j+1]
		switch {
		case key == "use":
			return true
		case key == "params":
			continue
		case val.Kind != yaml.SequenceNode:
			if ref.MatchString(yamlText(val)) {
				return true
			}
			continue
		}
		for i, r := range val.Content {
			if !dead[at+"."+key][i] && ref.MatchString(yamlText(r)) {
				return true
			}
		}
	}
	return false
}

// resumeOptimize reads an unfinished search's JSON and checks it is this
// one's: the same simctl, scenario text, seed, overrides and space.
func resumeOptimize(ctx context.Context, path string, doc *reports.Optimize) (*reports.Optimize, error) {
	old, err := readResume(ctx, path, "the JSON of simctl optimize", func(in *reports.Input) *reports.Optimize { return in.Optimize })
	if err != nil {
		return nil, err
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("--resume %s: %s; resume with the same command line", path, fmt.Sprintf(format, a...))
	}
	switch {
	case old.Search == nil || !old.Interrupted:
		return nil, fmt.Errorf("--resume %s: that search finished (or holds no search); nothing to resume", path)
	case old.ScenarioSHA256 != doc.ScenarioSHA256:
		return nil, bad("that search's scenario text differs")
	case old.Version != doc.Version:
		return nil, bad("that search was made by simctl %s, this is %s", old.Version, doc.Version)
	case old.Seed != doc.Seed:
		return nil, bad("that search has seed %d, this one %d", old.Seed, doc.Seed)
	case !slices.Equal(old.Sets, doc.Sets):
		return nil, bad("that search has --set %v, this one %v", old.Sets, doc.Sets)
	case old.Side != doc.Side || old.Where != doc.Where || old.Rules != doc.Rules || old.Block != doc.Block ||
		fmt.Sprint(old.Vary) != fmt.Sprint(doc.Vary) || fmt.Sprint(old.Options) != fmt.Sprint(doc.Options):
		return nil, bad("that search has another space (--side, --vary, --option, --where, --rules, --block)")
	case old.Guarantee.Alpha != doc.Guarantee.Alpha || old.Guarantee.Delta != doc.Guarantee.Delta:
		return nil, bad("that search has --alpha %v --delta %v", old.Guarantee.Alpha, old.Guarantee.Delta)
	}
	return old, nil
}

// optimizeBoth is --both: the double oracle. The row side is --side, its
// space the --vary and --option settings whose paths start with its name;
// the other side's are the rest. Every cell is a game of one row and one
// column candidate, all cells on the same encounters.
func optimizeBoth(ctx context.Context, src *source, sc *scenario.Scenario, si int, axes varyFlags, opts optionFlags, where string,
	o *outputFlags, format reports.Format, doc *reports.Optimize, alpha, delta float64, stdout, stderr io.Writer) int {
	if where != "" {
		return usageError(stderr, "optimize", "--where with --both is not supported: constrain each side with its --vary ranges")
	}
	names := [2]string{sc.Sides[si].Name, sc.Sides[1-si].Name}
	mine := func(path string) bool { return strings.HasPrefix(path, names[0]+".") }
	var spaces [2]experiment.Space
	for _, a := range axes {
		s := 1
		if mine(a.Path) {
			s = 0
		}
		spaces[s].Dims = append(spaces[s].Dims, experiment.NewDim(a.Path, a.Values))
	}
	for _, op := range opts {
		s := -1
		for _, x := range op.sets {
			t := 1
			if mine(x.Path) {
				t = 0
			}
			if s >= 0 && s != t {
				return usageError(stderr, "optimize", "--option %s sets paths of both sides; with --both each option belongs to one side (its paths start with the side's name)", op.name)
			}
			s = t
		}
		if s < 0 {
			s = 0
		}
		spaces[s].Alts = append(spaces[s].Alts, experiment.Alternative{Name: op.name, Sets: op.sets})
	}
	var pts [2][]experiment.Point
	for s := range spaces {
		if len(spaces[s].Dims) == 0 && len(spaces[s].Alts) == 0 {
			return usageError(stderr, "optimize", "--both: give %s a space too (--vary or --option paths starting with %s.)", names[s], names[s])
		}
		var err error
		pts[s], _, err = spaces[s].Enumerate(func(p experiment.Point) (string, error) {
			return candidateKey(src, o.sets, &spaces[s], p, nil, nil), nil
		})
		if err != nil {
			return usageError(stderr, "optimize", "%v", err)
		}
	}
	R, C := len(pts[0]), len(pts[1])
	if R*C > 10_000 {
		return usageError(stderr, "optimize", "--both: %d x %d = %d cells; at most 10000", R, C, R*C)
	}
	cellGame := func(r, c int) (sim.Game, error) {
		sets := append(append(append([]scenario.Set(nil), o.sets...), pts[0][r].Sets...), pts[1][c].Sets...)
		_, g, err := src.compile(sets)
		return g, err
	}
	var done atomic.Int64
	stopBar := startProgress(ctx, o.showProgress(), int64(R+C)*4*o.n.n, &done, stderr)
	testHook(&done)
	cells := func(ctx context.Context, pairs [][2]int) ([]int64, error) {
		gs := make([]sim.Game, len(pairs))
		for i, p := range pairs {
			g, err := cellGame(p[0], p[1])
			if err != nil {
				return nil, fmt.Errorf("cell %s against %s:\n%v", pts[0][p[0]].Name, pts[1][p[1]].Name, err)
			}
			gs[i] = g
		}
		crn, err := experiment.RunCRN(ctx, gs, sim.RunConfig{Seed: o.seed.v, N: o.n.n, Workers: o.workers.v, Done: &done})
		if err != nil {
			return nil, err
		}
		return append([]int64(nil), crn.Wins[si].Sum...), nil
	}
	t0 := time.Now()
	res, err := experiment.DoubleOracle(ctx, R, C, experiment.OracleConfig{N: o.n.n, Alpha: alpha, Delta: delta, Cells: cells})
	stopBar()
	if err != nil {
		if isInterrupt(err) {
			fmt.Fprintln(stderr, "simctl optimize: interrupted; a double oracle keeps no partial result (run it again)")
			return exitInterrupted
		}
		fmt.Fprintln(stderr, "simctl optimize:", err)
		return exitFailure
	}
	or := &reports.OptimizeOracle{RowSide: names[0], ColSide: names[1], OracleResult: *res}
	for i, r := range res.Rows {
		or.RowMix = append(or.RowMix, reports.MixOf{Name: pts[0][r].Name, Weight: res.RowWeights[i]})
	}
	for j, c := range res.Cols {
		or.ColMix = append(or.ColMix, reports.MixOf{Name: pts[1][c].Name, Weight: res.ColWeights[j]})
	}
	sort.SliceStable(or.RowMix, func(a, b int) bool { return or.RowMix[a].Weight > or.RowMix[b].Weight })
	sort.SliceStable(or.ColMix, func(a, b int) bool { return or.ColMix[a].Weight > or.ColMix[b].Weight })
	doc.Oracle = or
	doc.Elapsed = time.Since(t0).Seconds()
	g := &doc.Guarantee
	g.Evaluated, g.Space, g.Encounters = res.Cells, int64(R*C), res.Encounters
	g.Statement = fmt.Sprintf("with probability at least %s every cell estimated lies within its bounds at once, so the value lies in %s and no strategy of either space gains more than %s against the mixes found (%d of the %d cells estimated)",
		strconv.FormatFloat(100*(1-alpha), 'f', -1, 64)+"%", fmt.Sprintf("[%.2f%%, %.2f%%]", 100*res.ValueBounds[0], 100*res.ValueBounds[1]),
		fmt.Sprintf("%.2f pp", 100*res.Exploitability), res.Cells, R*C)
	if math.IsNaN(res.Value) {
		fmt.Fprintln(stderr, "simctl optimize: the double oracle's value is not a number")
		return exitFailure
	}
	if !o.write("optimize", stdout, stderr, format, doc.Write, nil) {
		return exitFailure
	}
	return exitOK
}

// bestTrace replays the best candidate's median fight (by regular rounds,
// among the first encounters its confirmation played, the lowest index
// among equals) from the scenario text the document embeds, as simctl
// trace prints it, with its rule fires: how the answer wins.
func bestTrace(ctx context.Context, o *reports.Optimize) ([]reports.FightTrace, error) {
	var ss []scenario.Set
	for _, s := range append(append([]string(nil), o.Sets...), o.Best.Sets...) {
		x, err := scenario.ParseSet(s)
		if err != nil {
			return nil, err
		}
		ss = append(ss, x)
	}
	src := &source{name: o.File, display: o.File, data: []byte(o.Context.ScenarioYAML), warn: io.Discard}
	sc, g, err := src.compile(ss)
	if err != nil {
		return nil, err
	}
	start, n := o.Search.ConfirmStart, min(o.Search.ConfirmN, traceSample)
	if n < 1 {
		return nil, nil
	}
	probe := experiment.NewProbe(g, [2]string{sc.Sides[0].Name, sc.Sides[1].Name})
	metric, err := probe.Metric("rounds")
	if err != nil {
		return nil, err
	}
	i, v, err := experiment.Pick(ctx, probe, metric, sim.RunConfig{Seed: o.Seed, Start: start, N: n}, 0.5)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if err := reports.Trace(&b, sc, g, o.Seed, i); err != nil {
		return nil, err
	}
	cmd := []string{"simctl", "trace", o.File, "--seed", strconv.FormatUint(o.Seed, 10), "--encounter", strconv.FormatInt(i, 10)}
	for _, s := range append(append([]string(nil), o.Sets...), o.Best.Sets...) {
		cmd = append(cmd, "--set", s)
	}
	return []reports.FightTrace{{Name: "best-median", Text: "# " + reports.ShellJoin(cmd) + "\n" + b.String(),
		Title: fmt.Sprintf("the best candidate's median fight: encounter %d, %v round(s) (of its confirmation encounters %d..%d)", i, v, start, start+n-1)}}, nil
}

// optimizeShard plays one part of the search's next stage (--shard
// k/K): a screening rung while the space is screened, else a stage of the
// selection; it writes the part with the state it started from. simctl
// merge adds the parts, and --resume applies the whole stage and goes on.
func optimizeShard(ctx context.Context, spec string, cfg experiment.OptimizeConfig, sp *experiment.Space, points []experiment.Point, games []sim.Game, si int, sideName string,
	doc *reports.Optimize, o *outputFlags, format reports.Format, stdout, stderr io.Writer) int {
	if format != reports.JSON {
		return usageError(stderr, "optimize", "--shard writes JSON for simctl merge: add --json (or -o FILE.json)")
	}
	// What the search has done so far (screening), carried to the part.
	res := &experiment.OptimizeResult{Side: sideName, Best: -1}
	if p := cfg.Prior; p != nil {
		res.Screened, res.Stages, res.Encounters, res.Incumbent, res.ScreenedOut = p.Screened, p.Stages, p.Encounters, p.Incumbent, p.ScreenedOut
	}
	st := cfg.Screen
	if cfg.Finalists == nil && st == nil && cfg.Screens(len(points)) {
		st = experiment.NewScreenState(sp, points, cfg)
		res.Screened = len(st.Alive)
	}
	var start, n int64
	var alive []int
	sub := games
	if st != nil {
		start, n, alive = st.NextRung()
		res.Screening = st
	} else {
		if cfg.Finalists == nil {
			for k := range points {
				cfg.Finalists = append(cfg.Finalists, k)
			}
		}
		if len(cfg.Finalists) < 2 {
			return usageError(stderr, "optimize", "--shard: one candidate; nothing to select")
		}
		sel := cfg.Resume
		if sel == nil {
			var err error
			if sel, err = experiment.NewSelectState(len(cfg.Finalists), cfg.SelectParams(len(cfg.Finalists))); err != nil {
				return usageError(stderr, "optimize", "%v", err)
			}
		}
		if sel.Finished() {
			return usageError(stderr, "optimize", "--shard: the selection has finished; run --resume without --shard to confirm and report")
		}
		start, n, alive = sel.NextStage()
		sub = make([]sim.Game, len(cfg.Finalists))
		names := make([]string, len(cfg.Finalists))
		for i, k := range cfg.Finalists {
			sub[i], names[i] = games[k], points[k].Name
		}
		res.Finalists, res.Selection = cfg.Finalists, sel.Result(names, sideName)
	}
	shard, err := shardOf("optimize", spec, n)
	if err != nil {
		return usageError(stderr, "optimize", "%v", err)
	}
	t0 := time.Now()
	var done atomic.Int64
	stopBar := startProgress(ctx, o.showProgress(), int64(len(alive))*shard.N, &done, stderr)
	testHook(&done)
	sums, err := experiment.PlayStage(ctx, sub, si, alive, sim.RunConfig{Seed: cfg.Seed, Start: start + shard.Start, N: shard.N, Workers: cfg.Workers, Done: &done})
	stopBar()
	if err != nil {
		if isInterrupt(err) {
			fmt.Fprintln(stderr, "simctl optimize: interrupted; a shard keeps no partial stage (run it again)")
			return exitInterrupted
		}
		fmt.Fprintln(stderr, "simctl optimize:", err)
		return exitFailure
	}
	doc.Search = res
	doc.Stage, doc.Shard, doc.Interrupted = sums, shard, true
	doc.Elapsed = time.Since(t0).Seconds()
	if !o.write("optimize", stdout, stderr, format, doc.Write, nil) {
		return exitFailure
	}
	return exitOK
}
