package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"simctl/sim/experiment"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"go.yaml.in/yaml/v3"

	"simctl/reports"
	"simctl/reports/safeio"
	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/stats"
)

// option is one compared option as given on the command line or in a
// compare file.
type option struct {
	name string
	sets []scenario.Set
}

// optionFlags collects repeated --option NAME='--set PATH=VALUE ...'.
type optionFlags []option

func (o *optionFlags) String() string { return "" }

func (o *optionFlags) Set(s string) error {
	name, spec, found := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !found || name == "" {
		return fmt.Errorf("expected NAME='--set PATH=VALUE ...', e.g. fast='--set heroes.Fighter.init=5' (NAME='' is the scenario unchanged)")
	}
	sets, err := parseOptionSpec(spec)
	if err != nil {
		return fmt.Errorf("option %s: %v", name, err)
	}
	*o = append(*o, option{name, sets})
	return nil
}

// parseOptionSpec reads "--set A=1 --set 'B={x: 1}'" (or bare A=1 words)
// with shell-style quoting.
func parseOptionSpec(spec string) ([]scenario.Set, error) {
	words, err := splitWords(spec)
	if err != nil {
		return nil, err
	}
	var sets []scenario.Set
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--set" || w == "-set":
			if i+1 == len(words) {
				return nil, fmt.Errorf("%s needs PATH=VALUE", w)
			}
			i++
			w = words[i]
		case strings.HasPrefix(w, "--set=") || strings.HasPrefix(w, "-set="):
			w = w[strings.IndexByte(w, '=')+1:]
		case strings.HasPrefix(w, "-"):
			return nil, fmt.Errorf("%q: an option is a list of --set PATH=VALUE", w)
		}
		s, err := scenario.ParseSet(w)
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// splitWords splits s into words like a POSIX shell: blanks separate,
// single quotes keep everything, double quotes keep everything but \" and
// \\, a backslash outside quotes escapes the next character.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false // inside a word
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
			in = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// readCompareFile reads a compare file:
//
//	scenario: d20/duel          # optional when SCENARIO is given
//	baseline: base              # optional; the first option by default
//	options:
//	  - name: base              # no set: the scenario unchanged
//	  - name: init+4
//	    set: [heroes.Fighter.init=5]
//	  - name: delay
//	    set: {heroes.Fighter.policy: {name: delay, until: Orc}}
func readCompareFile(ctx context.Context, path string) (scen, baseline string, opts []option, err error) {
	data, err := safeio.ReadFile(ctx, path, safeio.MaxScenarioBytes, "compare file")
	if err != nil {
		return "", "", nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", "", nil, fmt.Errorf("%s: %v", path, err)
	}
	var errs []string
	bad := func(n *yaml.Node, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d:%d: %s", path, n.Line, n.Column, fmt.Sprintf(format, args...)))
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return "", "", nil, fmt.Errorf("%s: a compare file is a mapping with options: (and optionally scenario:, baseline:)", path)
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "scenario":
			scen = v.Value
		case "baseline":
			baseline = v.Value
		case "options":
			if v.Kind != yaml.SequenceNode {
				bad(v, "options: expected a list of {name, set}")
				continue
			}
			for _, on := range v.Content {
				if on.Kind != yaml.MappingNode {
					bad(on, "an option is a mapping {name: NAME, set: [PATH=VALUE, ...]}")
					continue
				}
				var o option
				for j := 0; j+1 < len(on.Content); j += 2 {
					ok, ov := on.Content[j], on.Content[j+1]
					switch ok.Value {
					case "name":
						o.name = ov.Value
					case "set":
						switch ov.Kind {
						case yaml.SequenceNode:
							for _, sn := range ov.Content {
								s, err := scenario.ParseSet(sn.Value)
								if err != nil {
									bad(sn, "%v", err)
									continue
								}
								o.sets = append(o.sets, s)
							}
						case yaml.MappingNode:
							for m := 0; m+1 < len(ov.Content); m += 2 {
								o.sets = append(o.sets, scenario.Set{Path: ov.Content[m].Value, Value: yamlText(ov.Content[m+1])})
							}
						default:
							if !(ov.Kind == yaml.ScalarNode && ov.Tag == "!!null") {
								bad(ov, "set: expected a list of PATH=VALUE or a mapping PATH: VALUE")
							}
						}
					default:
						bad(ok, "unknown field %q in an option; valid: name, set", ok.Value)
					}
				}
				if o.name == "" {
					bad(on, "an option needs a name")
				}
				opts = append(opts, o)
			}
		default:
			bad(k, "unknown field %q; valid: scenario, baseline, options", k.Value)
		}
	}
	if len(errs) > 0 {
		return "", "", nil, errors.New(strings.Join(errs, "\n"))
	}
	return scen, baseline, opts, nil
}

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var opts optionFlags
	fs.Var(&opts, "option", "`NAME='--set PATH=VALUE ...'` an option to compare (repeatable; the first is the baseline)")
	file := fs.String("compare", "", "`FILE` read the options (and optionally the scenario and baseline) from a compare file")
	baseline := fs.String("baseline", "", "`NAME` the option the others are compared with (default: the first)")
	resume := fs.String("resume", "", "`FILE` continue the interrupted comparison whose JSON (--results or --format json -o) is FILE: play only the encounters it did not")
	shardFlag := fs.String("shard", "", "`k/K` play shard k of K of the -n encounters (or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); simctl merge adds the shards' JSON")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gPrecision|gFormat|gQuiet|gProgress, "encounters per option, the same for every option; with --precision, the most to play")
	batch := batchFlag(fs, "with --precision: encounters between checks")
	o.register(fs, "the bar chart")
	pos, stop, code := parseArgs("compare", fs, args, stdout, stderr)
	if stop {
		return code
	}
	n, seed, workers, sets := &o.n.n, &o.seed.v, &o.workers.v, o.sets
	w, err := parsePrecision(o.precision)
	if err != nil {
		return usageError(stderr, "compare", "%v", err)
	}
	if *batch < 1 {
		return usageError(stderr, "compare", "--batch %d: must be at least 1", *batch)
	}
	if w > 0 && *resume != "" {
		return usageError(stderr, "compare", "--precision and --resume do not mix: where an interrupted precision comparison would have stopped depends on the batches still to come; run it again")
	}
	if w > 0 && *shardFlag != "" {
		return usageError(stderr, "compare", "--precision and --shard do not mix: a shard cannot know when the whole comparison is precise enough")
	}
	shard, err := shardOf("compare", *shardFlag, o.n.n)
	if err != nil {
		return usageError(stderr, "compare", "%v", err)
	}
	format, ok := o.check("compare", stderr)
	if !ok {
		return exitUsage
	}
	name := ""
	if len(pos) == 1 {
		name = pos[0]
	}
	if *file != "" {
		fscen, fbase, fopts, err := readCompareFile(ctx, *file)
		if err != nil {
			fmt.Fprintln(stderr, "simctl compare:", err)
			return exitUsage
		}
		if name == "" {
			name = fscen
		}
		if *baseline == "" {
			*baseline = fbase
		}
		opts = append(fopts, opts...)
	}
	if len(pos) > 1 || name == "" {
		return usageError(stderr, "compare", "give one SCENARIO (or scenario: in the --compare file) and the options, e.g. simctl compare d20/duel --option base='' --option fast='--set heroes.Fighter.init=5'")
	}
	switch {
	case len(opts) < 2:
		fmt.Fprintf(stderr, "simctl compare: %d option(s); compare needs at least two (--option base='' is the scenario unchanged)\n", len(opts))
		return exitUsage
	}
	seen := map[string]bool{}
	for _, op := range opts {
		if msg := scenario.NameProblem(op.name); msg != "" {
			fmt.Fprintf(stderr, "simctl compare: option name %q %s\n", op.name, msg)
			return exitUsage
		}
		if seen[op.name] {
			fmt.Fprintf(stderr, "simctl compare: option %q is given twice\n", op.name)
			return exitUsage
		}
		seen[op.name] = true
	}
	if *baseline != "" {
		k := -1
		for i, op := range opts {
			if op.name == *baseline {
				k = i
			}
		}
		if k < 0 {
			fmt.Fprintf(stderr, "simctl compare: --baseline %q is not an option\n", *baseline)
			return exitUsage
		}
		opts = append(append([]option{opts[k]}, opts[:k]...), opts[k+1:]...)
	}

	src, err := readSource(ctx, name)
	if err != nil {
		return scenarioError(stderr, err)
	}
	sc, g0, err := src.compile(sets)
	if err != nil {
		return scenarioError(stderr, err)
	}
	games := make([]sim.Game, len(opts))
	bad := 0
	for k, op := range opts {
		_, g, err := src.compile(append(append([]scenario.Set(nil), sets...), op.sets...))
		if err != nil {
			fmt.Fprintf(stderr, "option %s:\n%v\n", op.name, err)
			bad++
			continue
		}
		games[k] = g
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "%d of %d options are invalid scenarios; nothing was run\n", bad, len(opts))
		return exitScenario
	}

	sum := src.sum()
	pt := &experiment.PairedTally{Tallies: make([]*sim.Tally, len(games)), Paired: make([][2]stats.Paired, len(games)), Cross: make([][]int64, len(games))}
	for k, g := range games {
		pt.Tallies[k] = sim.NewTally(g)
		if k > 0 && len(pt.Tallies[k].Counts.Sides) == len(pt.Tallies[0].Counts.Sides) {
			pt.Cross[k] = make([]int64, len(pt.Tallies[k].Counts.Sides))
		}
	}
	todo := []sim.Range{shardRange(shard, *n)}
	var before float64
	if *resume != "" {
		old, err := resumeCompare(ctx, *resume, sum, *seed, sets.strings(), *n, shard, opts)
		if err != nil {
			fmt.Fprintln(stderr, "simctl compare:", err)
			return exitUsage
		}
		for k, op := range old.Options {
			pt.Tallies[k] = op.Result.Tally(games[k])
			if k > 0 {
				pt.Paired[k] = [2]stats.Paired{op.Diff[0].Paired, op.Diff[1].Paired}
				// resumeCompare checked the version, and this one writes the
				// cross sums: a missing or short list is a damaged file.
				if len(op.EconomyCross) != len(pt.Cross[k]) {
					fmt.Fprintf(stderr, "simctl compare: --resume %s: option %s has %d action-economy cross sums, not the %d of this scenario's counters; the file is damaged\n", *resume, op.Name, len(op.EconomyCross), len(pt.Cross[k]))
					return exitUsage
				}
				copy(pt.Cross[k], op.EconomyCross)
			}
		}
		todo, before = todoOf(old.Unplayed), old.Elapsed
		if !o.quiet {
			fmt.Fprintf(stderr, "simctl compare: resuming %s: %d encounters per option played, %d to play\n", *resume, old.Encounters, rangesLen(todo))
		}
	}

	var done atomic.Int64
	cfg := sim.RunConfig{Seed: *seed, N: *n, Workers: *workers, Done: &done}
	// The bar counts encounter indices; each index plays every option.
	stopBar := startProgress(ctx, o.showProgress(), rangesLen(todo), &done, stderr)
	testHook(&done)
	t0 := time.Now()
	sides := [2]string{sc.Sides[0].Name, sc.Sides[1].Name}
	cctx := scenarioContext(src, sc, g0)
	build := func(interrupted bool, left []sim.Range) *reports.Compare {
		c := &reports.Compare{
			Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Seed: *seed, Version: fullVersion(),
			Command: reports.ShellJoin(append([]string{"simctl", "compare"}, args...)),
			Sets:    sets.strings(), Elapsed: before + time.Since(t0).Seconds(), Sides: sides,
			Context: cctx, Interrupted: interrupted, Shard: shard,
		}
		if interrupted && w == 0 {
			c.Unplayed = unplayedOf(left)
		}
		for k, op := range opts {
			var own, all []string
			for _, s := range op.sets {
				own = append(own, s.String())
			}
			all = append(append(all, sets.strings()...), own...)
			m := reports.Meta{Scenario: sc.Name, File: sc.File, Ruleset: sc.Ruleset, Version: c.Version, Seed: *seed,
				Sides: sides, Sets: all, Interrupted: interrupted, ScenarioSHA256: sum, Shard: shard}
			if !interrupted && shard == nil { // otherwise it played no prefix 0..n-1 that run could repeat
				m.Command = runCommand(name, pt.Tallies[k].Encounters, *seed, all)
			}
			o := reports.Option{Name: op.name, Sets: own, Command: m.Command, Result: reports.New(m, games[k], pt.Tallies[k])}
			if k > 0 && k < len(pt.Cross) && pt.Cross[k] != nil {
				o.EconomyCross = append([]int64(nil), pt.Cross[k]...)
			}
			c.Options = append(c.Options, o)
		}
		c.Finish(pt.Paired)
		return c
	}
	var reached bool
	var runErr error
	var left []sim.Range
	if w > 0 {
		pt, reached, runErr = runCompare(ctx, games, cfg, w, *batch)
	} else {
		left, runErr = playCRN(ctx, games, cfg, true, todo, func(c *experiment.CRN) {
			part := &experiment.PairedTally{Tallies: c.Tallies, Paired: make([][2]stats.Paired, len(games)), Cross: c.Cross}
			for k := range games {
				part.Paired[k] = [2]stats.Paired{c.Paired(k, 0), c.Paired(k, 1)}
			}
			pt.Merge(part)
		}, checkpointer(ctx, o.jsonTarget(format), func(left []sim.Range) {
			c := build(true, left)
			saveCheckpoint(o.jsonTarget(format), "compare", stderr, func(w io.Writer) error { return c.Write(w, reports.JSON) })
			hooksOf(ctx).sendInterim(c)
		}))
	}
	stopBar()
	interrupted := runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded))
	if runErr != nil && !interrupted {
		fmt.Fprintln(stderr, "simctl compare:", runErr)
		return exitFailure
	}
	if interrupted && pt.Tallies[0].Encounters == 0 {
		// No row to print that would not be made up.
		fmt.Fprintln(stderr, "simctl compare: interrupted before any encounter finished; nothing written")
		return exitInterrupted
	}
	c := build(interrupted, left)
	if w > 0 {
		if reached {
			c.Warnings = append(c.Warnings, fmt.Sprintf("--precision %s reached after %s encounters per option", o.precision, thousandsInt(c.Encounters)))
		} else if runErr == nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("--precision %s not reached within -n %s encounters; the intervals are wider", o.precision, thousandsInt(*n)))
		}
	}
	for _, warn := range c.Warnings {
		if !o.quiet {
			fmt.Fprintln(stderr, "simctl compare: warning:", warn)
		}
	}
	if !o.write("compare", stdout, stderr, format, c.Write, func() (*reports.Figure, error) { return reports.CompareFigure(c) }) {
		return exitFailure
	}
	if interrupted {
		fmt.Fprintf(stderr, "simctl compare: interrupted after %s encounters per option; %s%s\n", thousandsInt(c.Encounters), whereWritten(o.out, stdout), resumeHint(o.jsonTarget(format), w == 0))
		return exitInterrupted
	}
	return exitOK
}

// runCompare plays the options on common random numbers; with precision
// w > 0 it applies the sweep's sequential stopping rule
// (experiment.PrecisionReached) to every option at once: batches of encounter
// indices 0, 1, 2, ... until each option's two 95% intervals are narrower
// than w, or cfg.N. The tallies depend only on the seed, N, w and batch.
func runCompare(ctx context.Context, games []sim.Game, cfg sim.RunConfig, w float64, batch int64) (*experiment.PairedTally, bool, error) {
	if w <= 0 {
		pt, err := experiment.RunPaired(ctx, games, cfg)
		return pt, false, err
	}
	total := cfg.N
	var acc *experiment.PairedTally
	for start := int64(0); start < total; {
		cfg.Start, cfg.N = start, min(batch, total-start)
		pt, err := experiment.RunPaired(ctx, games, cfg)
		if acc == nil {
			acc = pt
		} else {
			acc.Merge(pt)
		}
		if err != nil {
			return acc, false, err
		}
		start += cfg.N
		reached := true
		for _, t := range acc.Tallies {
			reached = reached && experiment.PrecisionReached(t, w)
		}
		if reached {
			if cfg.Done != nil {
				cfg.Done.Add(total - start)
			}
			return acc, true, nil
		}
	}
	return acc, false, nil
}

// resumeCompare reads an interrupted comparison's JSON and checks it is
// this one's: the same simctl, scenario text, seed, overrides, -n and
// options (names, overrides and order, the baseline first).
func resumeCompare(ctx context.Context, path, sum string, seed uint64, sets []string, n int64, shard *reports.Shard, opts []option) (*reports.Compare, error) {
	old, err := readResume(ctx, path, "the JSON of simctl compare", func(in *reports.Input) *reports.Compare { return in.Compare })
	if err != nil {
		return nil, err
	}
	oldSum := ""
	if old.Context != nil {
		oldSum = old.Context.ScenarioSHA256
	}
	f := docFacts{Interrupted: old.Interrupted, Unplayed: old.Unplayed, Played: old.Encounters, SHA256: oldSum, Version: old.Version, Seed: old.Seed, Sets: old.Sets, Shard: old.Shard}
	if err := checkResume(path, f, docFacts{SHA256: sum, Version: fullVersion(), Seed: seed, Sets: sets, Shard: shard}, n); err != nil {
		return nil, err
	}
	same := len(old.Options) == len(opts)
	for k := 0; same && k < len(opts); k++ {
		same = old.Options[k].Name == opts[k].name && slices.Equal(old.Options[k].Sets, setStrings(opts[k].sets))
	}
	if !same {
		return nil, fmt.Errorf("--resume %s: that comparison has other options (names, overrides, order or baseline); resume with the same command line", path)
	}
	for k, op := range old.Options {
		if op.Result.Encounters != old.Encounters || (k > 0 && (op.Diff[0].Paired.N != old.Encounters || op.Diff[1].Paired.N != old.Encounters)) {
			return nil, fmt.Errorf("--resume %s: option %s does not hold the comparison's %d encounters; the file is damaged", path, op.Name, old.Encounters)
		}
	}
	return old, nil
}
