package main

import (
	"context"
	"flag"
	"io"
	"simctl/cmd/simctl/app"
	"simctl/sim/msg"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/reports"
	"simctl/reports/results"
	"simctl/reports/safeio"
	"simctl/sim/scenario"
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
	name, sets, err := app.ParseOption(s)
	if err != nil {
		return err
	}
	*o = append(*o, option{name, sets})
	return nil
}

// compareProblems collects a compare file's problems, each at its line
// and column.
type compareProblems struct {
	path string
	list []any
}

func (p *compareProblems) bad(n *yaml.Node, format string, args ...any) {
	p.list = append(p.list, msg.New("%s:%d:%d: %s", p.path, n.Line, n.Column, msg.New(format, args...)))
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
		return "", "", nil, msg.Errorf("%s: %v", path, err)
	}
	errs := &compareProblems{path: path}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return "", "", nil, msg.Errorf("%s: a compare file is a mapping with options: (and optionally scenario:, baseline:)", path)
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
				errs.bad(v, "options: expected a list of {name, set}")
				continue
			}
			for _, on := range v.Content {
				if on.Kind != yaml.MappingNode {
					errs.bad(on, "an option is a mapping {name: NAME, set: [PATH=VALUE, ...]}")
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
									errs.bad(sn, "%v", err)
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
								errs.bad(ov, "set: expected a list of PATH=VALUE or a mapping PATH: VALUE")
							}
						}
					default:
						errs.bad(ok, "unknown field %q in an option; valid: name, set", ok.Value)
					}
				}
				if o.name == "" {
					errs.bad(on, "an option needs a name")
				}
				opts = append(opts, o)
			}
		default:
			errs.bad(k, "unknown field %q; valid: scenario, baseline, options", k.Value)
		}
	}
	if len(errs.list) > 0 {
		return "", "", nil, msg.Errorf(strings.TrimSuffix(strings.Repeat("%v\n", len(errs.list)), "\n"), errs.list...)
	}
	return scen, baseline, opts, nil
}

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var opts optionFlags
	fs.Var(&opts, "option", kindUsage("compare", "option"))
	file := fs.String("compare", "", "`FILE` read the options (and optionally the scenario and baseline) from a compare file")
	baseline := fs.String("baseline", "", "`NAME` the option the others are compared with (default: the first)")
	resume := fs.String("resume", "", "`FILE` continue the interrupted comparison whose JSON (--results or --format json -o) is FILE: play only the encounters it did not")
	shardFlag := fs.String("shard", "", "`k/K` play shard k of K of the -n encounters (or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); simctl merge adds the shards' JSON")
	var nulls namesFlag
	fs.Var(&nulls, "null-control", "`NAME` the option NAME is meant to play the same scenario as the baseline (a null control); without it such an option is an error (repeatable)")
	var o outputFlags
	o.common.register(fs, gN|gSeed|gWorkers|gSet|gPrecision|gFormat|gQuiet|gProgress, "encounters per option, the same for every option; with --precision, the most to play")
	batch := batchFlag(fs, "with --precision: encounters between checks")
	o.register(fs, "the bar chart")
	langF := langFlag(fs, "the text tables' own words (JSON, CSV and Markdown stay English)")
	pos, stop, code := parseArgs("compare", fs, args, stdout, stderr)
	if stop {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "compare", "%v", err)
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
	if !o.checkFont("compare", lang, stderr) {
		return exitUsage
	}
	name := ""
	if len(pos) == 1 {
		name = pos[0]
	}
	if *file != "" {
		fscen, fbase, fopts, err := readCompareFile(ctx, *file)
		if err != nil {
			sayErr(stderr, "compare", err)
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
	req := &app.CompareRequest{Sets: sets, Seed: *seed, N: *n, Workers: *workers, Precision: w, PrecisionText: o.precision,
		Batch: *batch, Shard: shard, Command: results.ShellJoin(append([]string{"simctl", "compare"}, args...)), NullControls: nulls}
	for _, op := range opts {
		req.Options = append(req.Options, app.Option{Name: op.name, Sets: op.sets})
	}
	if err := req.Check(); err != nil {
		return appError(stderr, "compare", err)
	}
	if *baseline != "" {
		k := slices.IndexFunc(req.Options, func(op app.Option) bool { return op.Name == *baseline })
		if k < 0 {
			say(stderr, "compare", "--baseline %q is not an option", *baseline)
			return exitUsage
		}
		req.Options = append(append([]app.Option{req.Options[k]}, req.Options[:k]...), req.Options[k+1:]...)
	}
	src, err := readSource(ctx, name)
	if err != nil {
		return scenarioError(stderr, err)
	}
	req.Source = src.app()
	if *resume != "" {
		old, err := readResume(ctx, *resume, msg.New("the JSON of simctl compare"), func(in *results.Input) *results.Compare { return in.Compare })
		if err != nil {
			sayErr(stderr, "compare", err)
			return exitUsage
		}
		req.Resume, req.ResumePath = old, *resume
	}
	obs := o.observer(ctx, "compare", format, stderr)
	obs.Warn = src.warnTo()
	c, err := app.Compare(ctx, req, obs)
	if err != nil {
		return appError(stderr, "compare", err)
	}
	for _, warn := range results.WarningTexts(c.Warnings, c.WarningsMsg) {
		if !o.quiet {
			sayWarning(stderr, "compare", warn)
		}
	}
	if !o.write("compare", stdout, stderr, format, func(w io.Writer, f reports.Format) error { return reports.WriteCompare(c, w, f, lang) }, func() (*reports.Figure, error) { return reports.CompareFigure(lang, c) }) {
		return exitFailure
	}
	if c.Interrupted {
		say(stderr, "compare", "interrupted after %s encounters per option; %s", thousandsInt(c.Encounters), o.interruptedWhere(format, stdout, w == 0))
		return exitInterrupted
	}
	return exitOK
}

// namesFlag collects a repeated flag's values.
type namesFlag []string

func (n *namesFlag) String() string     { return strings.Join(*n, ",") }
func (n *namesFlag) Set(s string) error { *n = append(*n, s); return nil }
