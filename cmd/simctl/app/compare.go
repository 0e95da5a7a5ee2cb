package app

import (
	"context"
	"errors"
	"simctl/sim/msg"
	"slices"
	"sync/atomic"
	"time"

	"go.yaml.in/yaml/v3"

	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
	"simctl/stats"
)

// Option is one option of a comparison: a name and its overrides (none:
// the scenario unchanged).
type Option struct {
	Name string
	Sets []scenario.Set
}

// CompareRequest is a comparison: every option played on the same
// encounters (common random numbers), each compared with the first, the
// baseline.
type CompareRequest struct {
	Source  *Source
	Sets    []scenario.Set // overrides for every option
	Options []Option       // the baseline first
	Seed    uint64
	N       int64 // encounters per option; with Precision, the most to play
	Workers int
	// Precision, if positive, stops once every option's two 95%
	// intervals are at most this wide, checked every Batch encounters;
	// PrecisionText is how the user wrote it, for the warnings.
	Precision     float64
	PrecisionText string
	Batch         int64
	// Shard, if set, plays this shard's part of the N encounters.
	Shard *results.Shard
	// Resume is an earlier, interrupted run of the same comparison
	// (ResumePath names it in messages): only what it left is played.
	Resume     *results.Compare
	ResumePath string
	// Command is the command line the document records.
	Command string
	// NullControls names the options meant to equal the baseline (a
	// deliberate check that the machinery finds no difference); any other
	// option whose scenario equals the baseline's is refused.
	NullControls []string
}

// Check refuses a request no front end should pass on: fewer than two
// options, an option name a document cannot carry or given twice, a
// batch below 1, precision with a shard or a resume.
func (req *CompareRequest) Check() error {
	if len(req.Options) < 2 {
		return usage(false, "%d option(s); compare needs at least two (--option base='' is the scenario unchanged)", len(req.Options))
	}
	seen := map[string]bool{}
	for _, op := range req.Options {
		if why := scenario.NameProblem(op.Name); why.Format != "" {
			return usage(false, "option name %q %s", op.Name, why)
		}
		if seen[op.Name] {
			return usage(false, "option %q is given twice", op.Name)
		}
		seen[op.Name] = true
	}
	return nil
}

// Compare plays req and returns its document. An interrupted comparison
// (ctx done) returns its document marked interrupted, and no error,
// unless no encounter finished: then an Error of kind Interrupted.
func Compare(ctx context.Context, req *CompareRequest, obs *Observer) (*results.Compare, error) {
	if obs == nil {
		obs = &Observer{}
	}
	if err := req.Check(); err != nil {
		return nil, err
	}
	src, sets, opts, seed, n, w, shard := req.Source, req.Sets, req.Options, req.Seed, req.N, req.Precision, req.Shard
	sc, g0, err := src.Compile(sets, obs.Warn)
	if err != nil {
		return nil, &Error{Kind: Invalid, Err: err}
	}
	extra := make([][]scenario.Set, len(opts))
	for k, op := range opts {
		extra[k] = op.Sets
	}
	games, err := compileAll(src, sets, extra, func(k int) msg.Text { return msg.New("option %s", opts[k].Name) }, msg.New("options"), len(opts), obs.Warn)
	if err != nil {
		return nil, err
	}
	if err := sameAsBaseline(src, sets, opts, req.NullControls); err != nil {
		return nil, err
	}

	sum := src.Sum()
	setsText := setStrings(sets)
	pt := &experiment.PairedTally{Tallies: make([]*sim.Tally, len(games)), Paired: make([][2]stats.Paired, len(games)), Cross: make([][]int64, len(games))}
	for k, g := range games {
		pt.Tallies[k] = sim.NewTally(g)
		if k > 0 && len(pt.Tallies[k].Counts.Sides) == len(pt.Tallies[0].Counts.Sides) {
			pt.Cross[k] = make([]int64, len(pt.Tallies[k].Counts.Sides))
		}
	}
	todo := []sim.Range{shard.Range(n)}
	var before float64
	if old := req.Resume; old != nil {
		if err := checkCompareResume(old, req.ResumePath, sum, seed, setsText, n, shard, opts); err != nil {
			return nil, &Error{Kind: Usage, Err: err}
		}
		for k, op := range old.Options {
			pt.Tallies[k] = op.Result.Tally(games[k])
			if k > 0 {
				pt.Paired[k] = [2]stats.Paired{op.Diff[0].Paired, op.Diff[1].Paired}
				// The version was checked, and this one writes the cross
				// sums: a missing or short list is a damaged file.
				if len(op.EconomyCross) != len(pt.Cross[k]) {
					return nil, usage(false, "--resume %s: option %s has %d action-economy cross sums, not the %d of this scenario's counters; the file is damaged", req.ResumePath, op.Name, len(op.EconomyCross), len(pt.Cross[k]))
				}
				copy(pt.Cross[k], op.EconomyCross)
			}
		}
		todo, before = results.Todo(old.Unplayed), old.Elapsed
		obs.note("resuming %s: %d encounters per option played, %d to play", req.ResumePath, old.Encounters, experiment.RangesLen(todo))
	}

	var done atomic.Int64
	cfg := sim.RunConfig{Seed: seed, N: n, Workers: req.Workers, Done: &done}
	// Progress counts encounter indices; each index plays every option.
	stop := obs.progress(experiment.RangesLen(todo), &done)
	t0 := time.Now()
	sides := [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	cctx := ScenarioContext(src, sc, g0)
	build := func(interrupted bool, left []sim.Range) *results.Compare {
		c := &results.Compare{
			Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Seed: seed, Version: Version(),
			Command: req.Command, Sets: setsText, Elapsed: before + time.Since(t0).Seconds(), Sides: sides,
			Context: cctx, Interrupted: interrupted, Shard: shard,
		}
		if interrupted && w == 0 {
			c.Unplayed = results.Unplayed(left)
		}
		for k, op := range opts {
			own := setStrings(op.Sets)
			all := append(append([]string(nil), setsText...), own...)
			m := results.Meta{Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Version: c.Version, Seed: seed,
				Sides: sides, Sets: all, Interrupted: interrupted, ScenarioSHA256: sum, Shard: shard}
			if !interrupted && shard == nil { // otherwise it played no prefix 0..n-1 that run could repeat
				m.Command = RunCommand(src.Name, pt.Tallies[k].Encounters, seed, all)
			}
			o := results.Option{Name: op.Name, Sets: own, Command: m.Command, Result: results.New(m, games[k], pt.Tallies[k])}
			if k > 0 && k < len(pt.Cross) && pt.Cross[k] != nil {
				o.EconomyCross = append([]int64(nil), pt.Cross[k]...)
			}
			c.Options = append(c.Options, o)
		}
		c.Finish(pt.Paired)
		if len(c.Unplayed) > 0 {
			c.ResumeDigest = c.TrustedDigest()
		}
		return c
	}
	var reached bool
	var runErr error
	var left []sim.Range
	if w > 0 {
		pt, reached, runErr = experiment.RunPairedUntil(ctx, games, cfg, w, req.Batch)
	} else {
		every, seg := obs.segments()
		var save func(left []sim.Range)
		if obs.Checkpoint != nil || obs.Interim != nil {
			save = func(left []sim.Range) {
				c := build(true, left)
				if obs.Checkpoint != nil {
					obs.Checkpoint(c)
				}
				if obs.Interim != nil {
					obs.Interim(c)
				}
			}
		}
		left, runErr = experiment.PlayCRN(ctx, games, cfg, true, todo, func(c *experiment.CRN) {
			part := &experiment.PairedTally{Tallies: c.Tallies, Paired: make([][2]stats.Paired, len(games)), Cross: c.Cross}
			for k := range games {
				part.Paired[k] = [2]stats.Paired{c.Paired(k, 0), c.Paired(k, 1)}
			}
			pt.Merge(part)
		}, save, every, seg)
	}
	stop()
	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		return nil, &Error{Kind: Failed, Err: runErr}
	}
	if interrupted && pt.Tallies[0].Encounters == 0 {
		// No row to print that would not be made up.
		return nil, &Error{Kind: Interrupted, Err: msg.Errorf("interrupted before any encounter finished; nothing written")}
	}
	c := build(interrupted, left)
	if w > 0 {
		if reached {
			results.AddWarning(&c.Warnings, &c.WarningsMsg, msg.New("--precision %s reached after %s encounters per option", req.PrecisionText, results.Thousands(c.Encounters)))
		} else if runErr == nil {
			results.AddWarning(&c.Warnings, &c.WarningsMsg, msg.New("--precision %s not reached within -n %s encounters; the intervals are wider", req.PrecisionText, results.Thousands(n)))
		}
	}
	return c, nil
}

// checkCompareResume checks an interrupted comparison's document is this
// one's: the same simctl, scenario text, seed, overrides, -n and options
// (names, overrides and order, the baseline first).
func checkCompareResume(old *results.Compare, path, sum string, seed uint64, sets []string, n int64, shard *results.Shard, opts []Option) error {
	oldSum := old.Context.SHA256()
	f := results.DocFacts{Interrupted: old.Interrupted, Unplayed: old.Unplayed, Played: old.Encounters, SHA256: oldSum, Version: old.Version, Seed: old.Seed, Sets: old.Sets, Shard: old.Shard}
	if err := results.CheckResume(path, f, results.DocFacts{SHA256: sum, Version: Version(), Seed: seed, Sets: sets, Shard: shard}, n); err != nil {
		return err
	}
	same := len(old.Options) == len(opts)
	for k := 0; same && k < len(opts); k++ {
		same = old.Options[k].Name == opts[k].Name && slices.Equal(old.Options[k].Sets, setList(opts[k].Sets))
	}
	if !same {
		return msg.Errorf("--resume %s: that comparison has other options (names, overrides, order or baseline); resume with the same command line", path)
	}
	for k, op := range old.Options {
		if op.Result.Encounters != old.Encounters || (k > 0 && (op.Diff[0].Paired.N != old.Encounters || op.Diff[1].Paired.N != old.Encounters)) {
			return msg.Errorf("--resume %s: option %s does not hold the comparison's %d encounters; the file is damaged", path, op.Name, old.Encounters)
		}
	}
	return results.CheckDigest(path, old.ResumeDigest, old.TrustedDigest())
}

// sameAsBaseline refuses an option whose scenario, overrides applied, is
// the baseline's (a --set to the value the file already has, or the same
// --set twice): the comparison would measure the scenario against itself
// and print +0.00 pp as if it were an answer. Options named in nulls are
// such controls on purpose; naming one that differs is refused too.
func sameAsBaseline(src *Source, sets []scenario.Set, opts []Option, nulls []string) error {
	tree := func(extra []scenario.Set) *yaml.Node {
		sc, _ := scenario.Decode(src.Display, src.Data, append(append([]scenario.Set(nil), sets...), extra...), rulesets.Schema)
		if sc == nil {
			return nil
		}
		return sc.Root
	}
	null := map[string]bool{}
	for _, n := range nulls {
		found := false
		for _, op := range opts[1:] {
			found = found || op.Name == n
		}
		if !found {
			return usage(false, "--null-control %s: no option of that name (besides the baseline %s)", n, opts[0].Name)
		}
		null[n] = true
	}
	base := tree(opts[0].Sets)
	for _, op := range opts[1:] {
		same := base != nil && scenario.SameTree(base, tree(op.Sets))
		switch {
		case same && !null[op.Name]:
			return usage(false, "option %s plays the same scenario as the baseline %s (its --set changes no field), so the comparison would measure the scenario against itself; change its --set, or add --null-control %s if a null control is what you want", op.Name, opts[0].Name, op.Name)
		case !same && null[op.Name]:
			return usage(false, "--null-control %s: option %s changes the scenario, so it is no null control; drop --null-control %s", op.Name, op.Name, op.Name)
		}
	}
	return nil
}
