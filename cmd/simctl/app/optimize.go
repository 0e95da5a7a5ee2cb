package app

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"math"
	"regexp"
	"simctl/sim/msg"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"go.yaml.in/yaml/v3"

	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// The guarantee and spending of a search unless the front end says
// otherwise (the CLI's flag defaults, the lab's only values).
const (
	OptimizeAlpha   = 0.05
	OptimizeDelta   = 0.01 // 1pp
	OptimizeBudget  = 20_000_000
	OptimizeFirst   = 1000
	OptimizeConfirm = 20_000
)

// OptimizeRequest is a search for the best candidate of a space of one
// side's settings (or, with Both, a double oracle over both sides'
// spaces), with the guarantee of experiment.Optimize.
type OptimizeRequest struct {
	Source *Source
	Sets   []scenario.Set
	Side   string // the side whose win rate is maximised; "": the first
	// The space: every combination of the Axes' values, each under every
	// Option, constrained by Where (the tactics language over the numeric
	// axes); with Rules (subset, order or both) the rule list at Block.
	Axes    []results.Axis
	Options []Option
	Where   string
	Rules   string
	Block   string
	// Traits: each trait of each list on or off its combatant (feat
	// selection), a Switch dimension of the space after the Axes.
	Traits   []results.TraitList
	Baseline string // an Option's name: the play the candidates are measured against
	Both     bool
	// The guarantee and the spending.
	Alpha, Delta                float64
	Budget, First, Confirm, Cap int64
	Seed                        uint64
	Workers                     int
	// Resume is an earlier, unfinished search of the same space
	// (ResumePath names it in messages): its finished stages are kept.
	Resume     *results.Optimize
	ResumePath string
	// Shard, if set, plays only part K of Of of the search's next stage.
	Shard   *ShardSpec
	Command string
}

// ShardSpec is a part of a stage to play: part K of Of (Spec is how the
// user wrote it, for messages).
type ShardSpec struct {
	K, Of int
	Spec  string
}

// Optimized says what became of a search besides its document: whether
// what was played can be resumed (a screening or selection state).
type Optimized struct {
	*results.Optimize
	Resumable bool
}

// Check refuses a guarantee out of range and an empty or half-given
// space.
func (req *OptimizeRequest) Check() error {
	switch {
	case !(req.Delta > 0 && req.Delta < 1):
		return usage(true, "--delta %v: a win-rate difference between 0 and 1, e.g. 0.01, 1pp or 0.5pp", req.Delta)
	case !(req.Alpha > 0 && req.Alpha < 1):
		return usage(true, "--alpha %v: a level between 0 and 1, e.g. 0.05", req.Alpha)
	case (req.Rules == "") != (req.Block == ""):
		return usage(true, "--rules and --block go together: --rules subset|order|both --block PATH (the rule list, e.g. foot.tactics.turn)")
	}
	if req.Rules != "" {
		if _, err := experiment.ParseRulesMode(req.Rules); err != nil {
			return usage(true, "%s %v", "--rules", err)
		}
	}
	if len(req.Axes) == 0 && len(req.Options) == 0 && req.Rules == "" && len(req.Traits) == 0 {
		return usage(true, "an empty space: give --vary, --option, --rules or --traits")
	}
	return nil
}

// Optimize plays req and returns its document (marked interrupted if ctx
// ended it, with the state to resume from). The observer's Checkpoint and
// Interim hear the document as it would be if stopped after every stage.
func Optimize(ctx context.Context, req *OptimizeRequest, obs *Observer) (*Optimized, error) {
	if obs == nil {
		obs = &Observer{}
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	src := req.Source
	sc, si, sideName, err := sideScenario(src, req.Sets, req.Side, obs.Warn)
	if err != nil {
		return nil, err
	}
	axes := req.Axes
	for i := range axes {
		if err := CheckWholeSteps(src, req.Sets, &axes[i], obs.Warn); err != nil {
			return nil, usage(true, "%v", err)
		}
	}
	doc := &results.Optimize{Header: DocHeader("optimize", src, sc, req.Seed, req.Command, req.Sets, obs.Warn), Side: sideName, Vary: axes, Where: req.Where, Rules: req.Rules, Block: req.Block, Traits: req.Traits}
	for _, op := range req.Options {
		doc.Options = append(doc.Options, results.NamedSets{Name: op.Name, Sets: setStrings(op.Sets)})
	}
	doc.Guarantee.Alpha, doc.Guarantee.Delta = req.Alpha, req.Delta
	if req.Both {
		for _, x := range []struct {
			set  bool
			flag string
		}{{req.Rules != "", "--rules"}, {req.Baseline != "", "--baseline"}, {req.Shard != nil, "--shard"}, {req.Resume != nil, "--resume"}} {
			if x.set {
				return nil, usage(true, "%s does not apply to --both (a double oracle searches --vary, --option and --traits spaces of both sides, on one machine)", x.flag)
			}
		}
		if err := optimizeBoth(ctx, req, sc, si, doc, obs); err != nil {
			return nil, err
		}
		return &Optimized{Optimize: doc}, nil
	}

	// The space.
	sp := &experiment.Space{}
	for _, a := range axes {
		sp.Dims = append(sp.Dims, experiment.NewDim(a.Path, a.Values))
	}
	for _, op := range req.Options {
		sp.Alts = append(sp.Alts, experiment.Alternative{Name: op.Name, Sets: op.Sets})
	}
	if err := addTraits(src, req, sc, sp); err != nil {
		return nil, err
	}
	if req.Rules != "" {
		mode, err := experiment.ParseRulesMode(req.Rules)
		if err != nil {
			return nil, usage(true, "%s %v", "--rules", err)
		}
		if sp.Block, err = experiment.NewRuleBlock(src.Data, req.Sets, req.Block, mode); err != nil {
			return nil, usage(true, "%v", err)
		}
	}
	if req.Where != "" {
		if err := sp.Constrain(req.Where); err != nil {
			return nil, usage(true, "%s: %v", "--where", err)
		}
	}
	var baseGame sim.Game
	baseName := ""
	if req.Baseline != "" {
		i := slices.IndexFunc(req.Options, func(op Option) bool { return op.Name == req.Baseline })
		if i < 0 {
			names := make([]string, len(req.Options))
			for k, op := range req.Options {
				names[k] = op.Name
			}
			return nil, usage(true, "--baseline %q: no --option of that name%s; options: %s", req.Baseline, scenario.Suggest(req.Baseline, names), strings.Join(names, ", "))
		}
		_, g, err := src.Compile(append(append([]scenario.Set(nil), req.Sets...), req.Options[i].Sets...), obs.Warn)
		if err != nil {
			return nil, &Error{Kind: Invalid, Err: err}
		}
		baseGame, baseName = g, req.Baseline
	} else {
		_, g, err := src.Compile(req.Sets, obs.Warn)
		if err != nil {
			return nil, &Error{Kind: Invalid, Err: err}
		}
		baseGame = g
	}

	// A candidate's key is what it compiles to. Only a searched rule
	// list or a varied tactics parameter needs the compiled candidate
	// for it (the compiler's warnings say which rules can never fire);
	// otherwise nothing is compiled before the search, and each candidate
	// is built when it first plays (cfg.Build).
	needCompile, params := sp.Block != nil, false
	for _, d := range sp.Dims {
		params = params || reParam.MatchString(d.Path)
	}
	needCompile = needCompile || params
	// A searched rule list alone: which of its rules end it (every rule
	// after one can never fire) is learnt from one compile per rule, and
	// a structure's unreachable rules follow from it.
	var probed func(experiment.Point) scenario.Errors
	var probeSc *scenario.Scenario
	if sp.Block != nil && !params && len(sp.Alts) == 0 {
		probeSc, probed = blockProbe(src, req.Sets, sp)
		needCompile = probed == nil
	}
	var badParts []any // a message per invalid candidate, then the count
	bad := 0
	points, count, err := sp.Enumerate(func(p experiment.Point) (string, error) {
		// A large space takes a while to list, and Ctrl-C must answer
		// during it.
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if probed != nil {
			return candidateKey(src, req.Sets, sp, p, probeSc, probed(p)), nil
		}
		if !needCompile {
			return candidateKey(src, req.Sets, sp, p, nil, nil), nil
		}
		sets := append(append([]scenario.Set(nil), req.Sets...), p.Sets...)
		csc, _, warns, err := src.CompileWarn(sets)
		if err != nil {
			if bad < 3 {
				badParts = append(badParts, msg.New("candidate %s:\n%v\n", p.Name, err))
			}
			bad++
			return "bad:" + p.Name, nil
		}
		return candidateKey(src, req.Sets, sp, p, csc, warns), nil
	})
	if err != nil {
		if isInterrupt(err) {
			return nil, &Error{Kind: Interrupted, Err: msg.Errorf("interrupted while listing the candidates; nothing was played or written")}
		}
		return nil, usage(true, "%v", err)
	}
	if bad > 0 {
		badParts = append(badParts, msg.New("%d candidate(s) are invalid scenarios; nothing was run", bad))
		m := msg.New(strings.Repeat("%v", len(badParts)), badParts...)
		return nil, &Error{Kind: Invalid, Err: &PointsError{Text: m.String(), Msg: m}}
	}
	if len(points) == 0 {
		return nil, usage(true, "--where %s excludes every one of the %d combinations", req.Where, count.Combinations)
	}
	glist := make([]sim.Game, len(points)) // built as they first play

	cfg := experiment.OptimizeConfig{Seed: req.Seed, Workers: req.Workers, Alpha: req.Alpha, Delta: req.Delta, First: req.First, Cap: req.Cap, Budget: req.Budget, Confirm: req.Confirm,
		Build: candidateBuilder(src, req.Sets, points)}
	var before float64
	if req.Resume != nil {
		old := req.Resume
		path := req.ResumePath
		if err := checkOptimizeResume(old, path, doc); err != nil {
			return nil, &Error{Kind: Usage, Err: err}
		}
		refuse := func(format string, a ...any) error {
			return &Error{Kind: Usage, Err: msg.Errorf(format, a...)}
		}
		cfg.Finalists, cfg.Prior = old.Search.Finalists, old.Search
		if old.Search.Screening != nil {
			// Screening was unfinished: go on from its state, after the
			// merged rung if the document is one.
			st := old.Search.Screening.Clone()
			if err := st.Check(len(points)); err != nil {
				return nil, refuse("--resume %s: %v", path, err)
			}
			prior := *old.Search
			prior.Screening, prior.Finalists = nil, nil
			prior.Stages = append([]experiment.SearchStage(nil), prior.Stages...)
			prior.Incumbent = append([]experiment.IncumbentPoint(nil), prior.Incumbent...)
			prior.ScreenedOut = append([][3]int64(nil), prior.ScreenedOut...)
			cfg.Screen = st
			if old.Stage != nil {
				if old.Shard != nil {
					return nil, refuse("--resume %s is one shard of a stage; merge every shard first (simctl merge part*.json -o stage.json)", path)
				}
				if err := st.ApplyRung(old.Stage, &prior); err != nil {
					return nil, refuse("--resume %s: the merged rung does not apply: %v", path, err)
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
					return nil, refuse("--resume %s is one shard of a stage; merge every shard first (simctl merge part*.json -o stage.json)", path)
				}
				if err := st.Check(len(cfg.Finalists)); err != nil {
					return nil, refuse("--resume %s: %v", path, err)
				}
				if err := st.Apply(old.Stage); err != nil {
					return nil, refuse("--resume %s: the merged stage does not apply: %v", path, err)
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
		obs.note("resuming %s: %d finalists", path, len(cfg.Finalists))
	}
	if req.Shard != nil {
		if err := optimizeShard(ctx, req.Shard, cfg, sp, points, glist, si, sideName, doc, obs); err != nil {
			return nil, err
		}
		return &Optimized{Optimize: doc}, nil
	}
	t0 := time.Now()
	if obs.Checkpoint != nil || obs.Interim != nil {
		// The document as it would be if stopped, after every stage: a
		// checkpoint to resume from, and a display's live incumbent and
		// narrowing intervals.
		cfg.OnStage = func(r *experiment.OptimizeResult) {
			cp := *doc
			cp.Search, cp.Interrupted, cp.Elapsed = r, true, before+time.Since(t0).Seconds()
			cp.ResumeDigest = cp.TrustedDigest()
			if obs.Checkpoint != nil {
				obs.Checkpoint(&cp)
			}
			if obs.Interim != nil {
				cp := cp
				obs.Interim(&cp)
			}
		}
	}
	// The progress counter advances by the encounters played, every
	// candidate counted; its total starts at an upper bound of the whole
	// search (experiment.OptimizeBound) and falls after every stage to
	// what was played plus a bound of the stages left (LiveTotal), so
	// the bar never goes back nor past 100%.
	var done, total atomic.Int64
	cfg.Done, cfg.Total = &done, &total
	total.Store(experiment.OptimizeBound(sp, points, cfg))
	liveTotals.Store(&done, &total)
	defer liveTotals.Delete(&done)
	stop := obs.progress(total.Load(), &done)
	res, runErr := experiment.Optimize(ctx, sp, points, glist, baseGame, baseName, si, sideName, cfg)
	stop()
	interrupted := isInterrupt(runErr)
	var invalid *Error
	if errors.As(runErr, &invalid) {
		return nil, invalid
	}
	if runErr != nil && !interrupted {
		return nil, &Error{Kind: Failed, Err: runErr}
	}
	res.Space = count
	doc.Search = res
	doc.Elapsed, doc.Interrupted = before+time.Since(t0).Seconds(), interrupted
	if !interrupted {
		fillBest(doc, res, points)
	} else {
		doc.ResumeDigest = doc.TrustedDigest()
	}
	return &Optimized{Optimize: doc, Resumable: res.Screening != nil || res.Selection != nil && res.Selection.State != nil}, nil
}

// addTraits checks req's --traits lists and adds each to sp (after its
// --vary dimensions): OWNER is a combatant (SIDE.NAME) of the scenario,
// each NAME a trait of its ruleset's library, listed once, and not
// already among the traits the combatant is written with.
func addTraits(src *Source, req *OptimizeRequest, sc *scenario.Scenario, sp *experiment.Space) error {
	if len(req.Traits) == 0 {
		return nil
	}
	var lib []string
	if r, ok := rulesets.Lookup(sc.Ruleset); ok {
		for _, f := range r.Doc().Traits {
			lib = append(lib, f.Name)
		}
	}
	owners := map[string]bool{}
	for _, tl := range req.Traits {
		flag := "--traits " + tl.String()
		if len(lib) == 0 {
			return usage(true, "%s: %s has no trait library", flag, sc.Ruleset)
		}
		sideName, member, ok := strings.Cut(tl.Owner, ".")
		found := false
		var who []string
		for _, side := range sc.Sides {
			for _, c := range side.Combatants {
				who = append(who, side.Name+"."+c.Name)
				if ok && side.Name == sideName && c.Name == member {
					found = true
				}
			}
		}
		if !found {
			return usage(true, "%s: %s is not a combatant of the scenario%s; name one as SIDE.NAME: %s", flag, tl.Owner, scenario.Suggest(tl.Owner, who), strings.Join(who, ", "))
		}
		if owners[tl.Owner] {
			return usage(true, "%s: %s has a --traits list already; give all its traits in one", flag, tl.Owner)
		}
		owners[tl.Owner] = true
		var base []*yaml.Node
		text, written, err := scenario.ValueAt(src.Data, req.Sets, tl.Owner+".traits")
		if err != nil {
			return usage(true, "%s: %v", flag, err)
		}
		if written {
			var doc yaml.Node
			if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.SequenceNode {
				return usage(true, "%s: %s.traits is not a list (it holds %s)", flag, tl.Owner, text)
			}
			base = doc.Content[0].Content
		}
		if len(tl.Names) == 0 {
			return usage(true, "%s: no traits; list library traits, e.g. --traits %s=%s", flag, tl.Owner, strings.Join(lib[:min(2, len(lib))], ","))
		}
		seen := map[string]bool{}
		for _, n := range tl.Names {
			switch {
			case !slices.Contains(lib, n):
				return usage(true, "%s: no library trait %q for %s%s; library: %s (simctl rules %s lists them)", flag, n, sc.Ruleset, scenario.Suggest(n, lib), strings.Join(lib, ", "), sc.Ruleset)
			case seen[n]:
				return usage(true, "%s: %s listed twice", flag, n)
			}
			seen[n] = true
			for _, b := range base {
				if b.Kind == yaml.ScalarNode && b.Value == n || scenario.Value(b, "name") != nil && scenario.Value(b, "name").Value == n ||
					scenario.Value(b, "use") != nil && scenario.Value(b, "use").Value == n {
					return usage(true, "%s: %s is written with %s already; a search puts on or off only traits it does not have", flag, tl.Owner, n)
				}
			}
		}
		for _, a := range req.Axes {
			for _, n := range tl.Names {
				if a.Path == tl.Owner+".traits."+n || a.Path == tl.Owner+".traits" {
					return usage(true, "--vary %s: --traits %s puts that trait on or off; vary its parameters (%s.traits.%s.params.NAME)", a.Path, tl.String(), tl.Owner, n)
				}
			}
		}
		sp.AddTraits(tl.Owner, tl.Names, base)
	}
	return nil
}

// blockProbe learns which rules of sp's searched block end it: rule r
// does when, compiled as the list [r, x], the compiler warns that x can
// never fire (a rule with no when: whose decision cannot fall through;
// that is a property of the rule, wherever it stands). It returns the
// scenario compiled with the common --set and, for a candidate, the
// warnings its compile would give about the block: one for every rule
// after the first that ends it. nil when any probe does not compile (the
// candidates are then compiled to be keyed).
func blockProbe(src *Source, common []scenario.Set, sp *experiment.Space) (*scenario.Scenario, func(experiment.Point) scenario.Errors) {
	b := sp.Block
	owner, moment, _ := strings.Cut(b.Path, ".tactics.")
	base, _, _, err := src.CompileWarn(common)
	if err != nil {
		return nil, nil
	}
	at, ok := scenarioPath(base, owner)
	if !ok {
		return base, func(experiment.Point) scenario.Errors { return nil } // candidateKey drops nothing then
	}
	n := len(b.Rules)
	ends := make([]bool, n)
	for r := range n {
		sets := append(append([]scenario.Set(nil), common...), b.Set([]int{r, (r + 1) % n}))
		_, _, warns, err := src.CompileWarn(sets)
		if err != nil {
			return nil, nil
		}
		for _, w := range warns {
			if m := reNever.FindStringSubmatch(w.Path); m != nil && strings.Contains(w.Msg, "can never fire") && m[1] == at && m[2] == moment && m[3] == "1" {
				ends[r] = true
			}
		}
	}
	return base, func(p experiment.Point) scenario.Errors {
		var out scenario.Errors
		for i, r := range p.Rules {
			if ends[r] {
				for j := i + 1; j < len(p.Rules); j++ {
					out = append(out, &scenario.Error{Path: fmt.Sprintf("%s.tactics.%s[%d]", at, moment, j), Msg: "can never fire"})
				}
				break
			}
		}
		return out
	}
}

// candidateBuilder is OptimizeConfig.Build for points: it compiles each
// candidate asked for that has no game (the common --set, then its own)
// and releases the games of candidates no longer asked for. A candidate
// that does not compile ends the search with its problems.
func candidateBuilder(src *Source, common []scenario.Set, points []experiment.Point) func(context.Context, []sim.Game, []int) error {
	return func(ctx context.Context, games []sim.Game, ks []int) error {
		in := make(map[int]bool, len(ks))
		for _, k := range ks {
			in[k] = true
		}
		for k := range games {
			if games[k] != nil && !in[k] {
				games[k] = nil
			}
		}
		for _, k := range ks {
			if games[k] != nil {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			sets := append(append([]scenario.Set(nil), common...), points[k].Sets...)
			_, g, _, err := src.CompileWarn(sets)
			if err != nil {
				return &Error{Kind: Invalid, Err: msg.Errorf("candidate %s is not a valid scenario (found when it was first to play; the search stopped):\n%v", points[k].Name, err)}
			}
			games[k] = g
		}
		return nil
	}
}

// fillBest sets the document's best candidate and guarantee from the search.
func fillBest(doc *results.Optimize, res *experiment.OptimizeResult, points []experiment.Point) {
	for _, r := range res.Ranked {
		if r.Point != res.Best {
			continue
		}
		doc.Best = results.OptimizeBest{Name: r.Name, Settings: r.Settings, Sets: setStrings(points[r.Point].Sets), WinRate: r.ConfirmRate, CI95: r.ConfirmCI,
			Separated: res.Separated, Gain: r.Gain, GainCI: r.GainCI}
	}
	g := &doc.Guarantee
	g.Evaluated, g.Screened, g.Space, g.Encounters, g.Uniform = len(res.Finalists), res.Screened, res.Space.Candidates, res.Encounters, res.Uniform
	g.Statement = results.GuaranteeText(g.Alpha, g.Delta, g.Evaluated, g.Screened, g.Space, res.Separated)
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
func candidateKey(src *Source, common []scenario.Set, sp *experiment.Space, p experiment.Point, sc *scenario.Scenario, warns scenario.Errors) string {
	var b strings.Builder
	var sets []scenario.Set // read back only where a path may be overwritten or a parameter unread
	if len(sp.Alts) > 0 || sp.Block != nil || sc != nil {
		sets = append(append([]scenario.Set(nil), common...), p.Sets...)
	}
	// dead[block's scenario path + "." + moment][i]: rule i never fires.
	var dead map[string]map[int]bool
	if len(warns) > 0 {
		dead = map[string]map[int]bool{}
	}
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
		if !overwritten && sp.OffTrait(i, p.Index) {
			v = "(off)" // a parameter of a trait not taken: not written
		} else if overwritten {
			got, ok, err := scenario.ValueAt(src.Data, sets, d.Path)
			if err != nil || !ok {
				v = "(unset)"
			} else if f, err := strconv.ParseFloat(strings.TrimSpace(got), 64); err == nil {
				v = strconv.FormatFloat(f, 'g', -1, 64)
			} else {
				v = strings.TrimSpace(got)
			}
		}
		if sc != nil { // (the regular expression costs more than the rest of a key)
			if m := reParam.FindStringSubmatch(d.Path); m != nil && !paramRead(src.Data, sets, sc, m[1], m[2], dead) {
				v = "(unread)"
			}
		}
		b.WriteString(d.Path)
		b.WriteByte('=')
		b.WriteString(v)
		b.WriteByte('\n')
	}
	if p.Alt >= 0 {
		for _, s := range sp.Alts[p.Alt].Sets {
			v, _, err := scenario.ValueAt(src.Data, sets, s.Path)
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
			if ref.MatchString(YAMLText(val)) {
				return true
			}
			continue
		}
		for i, r := range val.Content {
			if !dead[at+"."+key][i] && ref.MatchString(YAMLText(r)) {
				return true
			}
		}
	}
	return false
}

// checkOptimizeResume checks that an unfinished search's document is
// this one's: the same simctl, scenario text, seed, overrides and space.
func checkOptimizeResume(old *results.Optimize, path string, doc *results.Optimize) error {
	switch {
	case old.Search == nil || !old.Interrupted:
		return msg.Errorf("--resume %s: that search finished (or holds no search); nothing to resume", path)
	case results.CheckDigest(path, old.ResumeDigest, old.TrustedDigest()) != nil:
		return results.CheckDigest(path, old.ResumeDigest, old.TrustedDigest())
	case old.ScenarioSHA256 != doc.ScenarioSHA256:
		return results.ResumeRefused(path, "that search's scenario text differs")
	case old.Version != doc.Version:
		return results.ResumeRefused(path, "that search was made by simctl %s, this is %s", old.Version, doc.Version)
	case old.Seed != doc.Seed:
		return results.ResumeRefused(path, "that search has seed %d, this one %d", old.Seed, doc.Seed)
	case !slices.Equal(old.Sets, doc.Sets):
		return results.ResumeRefused(path, "that search has --set %v, this one %v", old.Sets, doc.Sets)
	case old.Side != doc.Side || old.Where != doc.Where || old.Rules != doc.Rules || old.Block != doc.Block ||
		fmt.Sprint(old.Vary) != fmt.Sprint(doc.Vary) || fmt.Sprint(old.Options) != fmt.Sprint(doc.Options) || fmt.Sprint(old.Traits) != fmt.Sprint(doc.Traits):
		return results.ResumeRefused(path, "that search has another space (--side, --vary, --option, --where, --rules, --block, --traits)")
	case old.Guarantee.Alpha != doc.Guarantee.Alpha || old.Guarantee.Delta != doc.Guarantee.Delta:
		return results.ResumeRefused(path, "that search has --alpha %v --delta %v", old.Guarantee.Alpha, old.Guarantee.Delta)
	}
	return nil
}

// optimizeBoth is Both: the double oracle. The row side is Side, its
// space the axes and options whose paths start with its name; the other
// side's are the rest. Every cell is a game of one row and one column
// candidate, all cells on the same encounters. It fills doc.
func optimizeBoth(ctx context.Context, req *OptimizeRequest, sc *scenario.Scenario, si int, doc *results.Optimize, obs *Observer) error {
	if req.Where != "" {
		return usage(true, "--where with --both is not supported: constrain each side with its --vary ranges")
	}
	src := req.Source
	names := [2]string{sc.Sides[si].Name, sc.Sides[1-si].Name}
	var dims []experiment.Dim
	for _, a := range req.Axes {
		dims = append(dims, experiment.NewDim(a.Path, a.Values))
	}
	var alts []experiment.Alternative
	for _, op := range req.Options {
		alts = append(alts, experiment.Alternative{Name: op.Name, Sets: op.Sets})
	}
	spaces, err := experiment.SplitBoth(names, dims, alts)
	if err != nil {
		return usage(true, "%v", err)
	}
	// A --traits list is its combatant's side's: on/off dimensions of
	// that side's space (a taken trait's --vary parameters went there
	// with SplitBoth, by their path).
	for s := range spaces {
		one := *req
		one.Traits = nil
		for _, tl := range req.Traits {
			if experiment.SideOf(names, tl.Owner) == s {
				one.Traits = append(one.Traits, tl)
			}
		}
		if err := addTraits(src, &one, sc, &spaces[s]); err != nil {
			return err
		}
	}
	for _, tl := range req.Traits {
		if experiment.SideOf(names, tl.Owner) < 0 {
			// Not a combatant: addTraits says so, with the names.
			one := *req
			one.Traits = []results.TraitList{tl}
			if err := addTraits(src, &one, sc, &experiment.Space{}); err != nil {
				return err
			}
		}
	}
	var pts [2][]experiment.Point
	var merged [2][]experiment.Merged
	for s := range spaces {
		if len(spaces[s].Dims) == 0 && len(spaces[s].Alts) == 0 {
			return usage(true, "--both: give %s a space too (--vary, --option or --traits paths starting with %s.)", names[s], names[s])
		}
		var cnt experiment.SpaceCount
		pts[s], cnt, err = spaces[s].Enumerate(func(p experiment.Point) (string, error) {
			return candidateKey(src, req.Sets, &spaces[s], p, nil, nil), nil
		})
		if err != nil {
			return usage(true, "%v", err)
		}
		merged[s] = cnt.Merged
	}
	R, C := len(pts[0]), len(pts[1])
	if R*C > 10_000 {
		return usage(true, "--both: %d x %d = %d cells; at most 10000", R, C, R*C)
	}
	cellGame := func(r, c int) (sim.Game, error) {
		sets := append(append(append([]scenario.Set(nil), req.Sets...), pts[0][r].Sets...), pts[1][c].Sets...)
		_, g, err := src.Compile(sets, obs.Warn)
		return g, err
	}
	var done atomic.Int64
	stop := obs.progress(int64(R+C)*4*req.Cap, &done)
	cells := func(ctx context.Context, pairs [][2]int) ([]int64, error) {
		gs := make([]sim.Game, len(pairs))
		for i, p := range pairs {
			g, err := cellGame(p[0], p[1])
			if err != nil {
				return nil, msg.Errorf("cell %s against %s:\n%v", pts[0][p[0]].Name, pts[1][p[1]].Name, err)
			}
			gs[i] = g
		}
		crn, err := experiment.RunCRN(ctx, gs, sim.RunConfig{Seed: req.Seed, N: req.Cap, Workers: req.Workers, Done: &done})
		if err != nil {
			return nil, err
		}
		return append([]int64(nil), crn.Wins[si].Sum...), nil
	}
	t0 := time.Now()
	res, err := experiment.DoubleOracle(ctx, R, C, experiment.OracleConfig{N: req.Cap, Alpha: req.Alpha, Delta: req.Delta, Cells: cells})
	stop()
	if err != nil {
		if isInterrupt(err) {
			return &Error{Kind: Interrupted, Err: msg.Errorf("interrupted; a double oracle keeps no partial result (run it again)")}
		}
		return &Error{Kind: Failed, Err: err}
	}
	or := &results.OptimizeOracle{RowSide: names[0], ColSide: names[1], OracleResult: *res}
	// Each side's space as searched, and what was merged in it, so a
	// reader sees which side every option played for.
	for s, sp := range [2]*[]string{&or.RowSpace, &or.ColSpace} {
		for _, p := range pts[s] {
			*sp = append(*sp, p.Name)
		}
		for _, m := range merged[s] {
			or.Merged = append(or.Merged, results.MergedOf{Side: names[s], Name: m.Name, Into: m.Into})
		}
	}
	for i, r := range res.Rows {
		or.RowMix = append(or.RowMix, results.MixOf{Name: pts[0][r].Name, Weight: res.RowWeights[i]})
	}
	for j, c := range res.Cols {
		or.ColMix = append(or.ColMix, results.MixOf{Name: pts[1][c].Name, Weight: res.ColWeights[j]})
	}
	sort.SliceStable(or.RowMix, func(a, b int) bool { return or.RowMix[a].Weight > or.RowMix[b].Weight })
	sort.SliceStable(or.ColMix, func(a, b int) bool { return or.ColMix[a].Weight > or.ColMix[b].Weight })
	doc.Oracle = or
	doc.Elapsed = time.Since(t0).Seconds()
	g := &doc.Guarantee
	g.Evaluated, g.Space, g.Encounters = res.Cells, int64(R*C), res.Encounters
	g.Statement = fmt.Sprintf("with probability at least %s every cell estimated lies within its bounds at once, so the value lies in %s and no strategy of either space gains more than %s against the mixes found (%d of the %d cells estimated)",
		strconv.FormatFloat(100*(1-req.Alpha), 'f', -1, 64)+"%", fmt.Sprintf("[%.2f%%, %.2f%%]", 100*res.ValueBounds[0], 100*res.ValueBounds[1]),
		fmt.Sprintf("%.2f pp", 100*res.Exploitability), res.Cells, R*C)
	if math.IsNaN(res.Value) {
		return &Error{Kind: Failed, Err: msg.Errorf("the double oracle's value is not a number")}
	}
	return nil
}

// optimizeShard plays one part of the search's next stage (Shard): a
// screening rung while the space is screened, else a stage of the
// selection; it fills doc with the part and the state it started from.
// simctl merge adds the parts, and a resume applies the whole stage and
// goes on.
func optimizeShard(ctx context.Context, spec *ShardSpec, cfg experiment.OptimizeConfig, sp *experiment.Space, points []experiment.Point, games []sim.Game, si int, sideName string,
	doc *results.Optimize, obs *Observer) error {
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
			return usage(true, "--shard: one candidate; nothing to select")
		}
		sel := cfg.Resume
		if sel == nil {
			var err error
			if sel, err = experiment.NewSelectState(len(cfg.Finalists), cfg.SelectParams(len(cfg.Finalists))); err != nil {
				return usage(true, "%v", err)
			}
		}
		if sel.Finished() {
			return usage(true, "--shard: the selection has finished; run --resume without --shard to confirm and report")
		}
		start, n, alive = sel.NextStage()
		if err := cfg.Build(ctx, games, cfg.Finalists); err != nil {
			return shardBuildError(err)
		}
		sub = make([]sim.Game, len(cfg.Finalists))
		names := make([]string, len(cfg.Finalists))
		for i, k := range cfg.Finalists {
			sub[i], names[i] = games[k], points[k].Name
		}
		res.Finalists, res.Selection = cfg.Finalists, sel.Result(names, sideName)
	}
	first := int64(spec.K)*(n/int64(spec.Of)) + int64(spec.K)*(n%int64(spec.Of))/int64(spec.Of)
	next := int64(spec.K+1)*(n/int64(spec.Of)) + int64(spec.K+1)*(n%int64(spec.Of))/int64(spec.Of)
	shard := &results.Shard{K: spec.K, Of: spec.Of, Start: first, N: next - first, Total: n}
	if shard.N < 1 {
		return usage(true, "--shard %s: -n %d leaves this shard no encounters; use fewer shards or a larger -n", spec.Spec, n)
	}
	t0 := time.Now()
	var done atomic.Int64
	stop := obs.progress(int64(len(alive))*shard.N, &done)
	play := experiment.PlayStage
	if st != nil {
		// A rung ranks by wins alone, its candidates built a batch at a time.
		play = func(ctx context.Context, games []sim.Game, side int, alive []int, rc sim.RunConfig) (*experiment.StageSums, error) {
			return experiment.PlayRungBuilt(ctx, games, side, alive, cfg.Build, rc)
		}
	}
	sums, err := play(ctx, sub, si, alive, sim.RunConfig{Seed: cfg.Seed, Start: start + shard.Start, N: shard.N, Workers: cfg.Workers, Done: &done, DonePer: int64(len(alive))})
	stop()
	if err != nil {
		return shardBuildError(err)
	}
	doc.Search = res
	doc.Stage, doc.Shard, doc.Interrupted = sums, shard, true
	doc.ResumeDigest = doc.TrustedDigest()
	doc.Elapsed = time.Since(t0).Seconds()
	return nil
}

// shardBuildError is a shard's error building or playing its candidates.
func shardBuildError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if isInterrupt(err) {
		return &Error{Kind: Interrupted, Err: msg.Errorf("interrupted; a shard keeps no partial stage (run it again)")}
	}
	return &Error{Kind: Failed, Err: err}
}

// MergeOptimizeStages is results.MergeOptimizeStages on the shards read
// from paths, each checked against its digest first; the merged stage
// carries its own.
func MergeOptimizeStages(opts []*results.Optimize, paths []string) (*results.Optimize, error) {
	for i, o := range opts {
		if have := o.ResumeDigest; have == "" || !hmac.Equal([]byte(have), []byte(o.TrustedDigest())) {
			return nil, msg.Errorf("merge: %s: its resume_digest does not match the stage it holds: the file was edited or damaged after simctl wrote it; play that shard again", paths[i])
		}
	}
	m, err := results.MergeOptimizeStages(opts)
	if err != nil {
		return nil, err
	}
	m.ResumeDigest = m.TrustedDigest()
	return m, nil
}
