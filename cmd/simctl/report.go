package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/reports"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

func cmdReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("o", "", "`DIR` write the report folder DIR (report.md, report.html, PNG figures); required")
	title := fs.String("title", "", "`TEXT` report title (default: Balance report: SCENARIO)")
	quiet := fs.Bool("quiet", false, "no warnings on stderr; errors only")
	pos, done, code := parseArgs("report", fs, args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) == 0 || *out == "" {
		return usageError(stderr, "report", "give the RESULT.json files and -o DIR, e.g. simctl report duel.json -o report/")
	}
	b := &reports.Bundle{Title: *title, Version: fullVersion(), Command: reports.ShellJoin(append([]string{"simctl", "report"}, args...))}
	for _, p := range pos {
		in, err := reports.ReadInput(p)
		if err != nil {
			fmt.Fprintln(stderr, "simctl report:", err)
			return exitFailure
		}
		if in.Run != nil {
			ctx, err := contextOf(scenarioArg(in.Run.File), in.Run.Sets)
			if err != nil && !*quiet {
				fmt.Fprintf(stderr, "simctl report: warning: %s: cannot read its scenario %s (%v); the report leaves out its ruleset options, scenario text and side colours of combatants\n",
					p, in.Run.File, firstLine(err))
			}
			in.Context = ctx
		}
		b.Inputs = append(b.Inputs, in)
	}
	if b.Title == "" {
		b.Title = "Balance report: " + inputScenario(b.Inputs[0])
		for _, in := range b.Inputs[1:] {
			if inputScenario(in) != inputScenario(b.Inputs[0]) {
				b.Title = "Balance report"
			}
		}
	}
	files, err := b.Write(*out)
	if err != nil {
		fmt.Fprintln(stderr, "simctl report:", err)
		return exitFailure
	}
	for _, f := range files {
		fmt.Fprintln(stdout, filepath.Join(*out, f))
	}
	return exitOK
}

func inputScenario(in *reports.Input) string {
	switch {
	case in.Run != nil:
		return in.Run.Scenario
	case in.Sweep != nil:
		return in.Sweep.Scenario
	}
	return in.Compare.Scenario
}

func firstLine(err error) string {
	return strings.SplitN(err.Error(), "\n", 2)[0]
}

// scenarioArg turns a result's file ("builtin:d20/duel.yaml" or a path)
// back into a SCENARIO argument.
func scenarioArg(file string) string {
	if strings.HasPrefix(file, "builtin:") {
		return strings.TrimSuffix(strings.TrimPrefix(file, "builtin:"), ".yaml")
	}
	return file
}

// contextOf loads a scenario with overrides and describes it for a report.
func contextOf(name string, sets []string) (*reports.Context, error) {
	var ss []scenario.Set
	for _, s := range sets {
		x, err := scenario.ParseSet(s)
		if err != nil {
			return nil, err
		}
		ss = append(ss, x)
	}
	sc, g, err := load(name, ss)
	if err != nil {
		return nil, err
	}
	return scenarioContext(name, sc, g), nil
}

// scenarioContext is what a report needs to let a reader reproduce a run
// beyond the counts: the scenario text as written (the overrides are
// listed apart), every ruleset option with the value in effect, and the
// side of each combatant of the roster.
func scenarioContext(name string, sc *scenario.Scenario, g sim.Game) *reports.Context {
	ctx := &reports.Context{}
	if st, err := os.Stat(name); err == nil && !st.IsDir() {
		if data, err := os.ReadFile(name); err == nil {
			ctx.ScenarioYAML = string(data)
		}
	} else if data, _, ok := scenarios.Read(name); ok {
		ctx.ScenarioYAML = string(data)
	}
	if r, ok := rulesets.Lookup(sc.Ruleset); ok {
		for _, o := range r.Doc().Options {
			v := reports.OptionValue{Name: o.Name, Value: o.Default, Default: true}
			if n := sc.Options[o.Name]; n != nil {
				v.Value, v.Default = yamlText(n), false
			}
			ctx.Options = append(ctx.Options, v)
		}
	}
	for _, e := range g.Roster() {
		ctx.RosterSides = append(ctx.RosterSides, e.Side)
	}
	return ctx
}

// yamlText renders a YAML value on one line, in flow style.
func yamlText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	b, err := yaml.Marshal(flowCopy(n))
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(string(b))
}

// flowCopy is a deep copy of n with every mapping and list in flow style.
func flowCopy(n *yaml.Node) *yaml.Node {
	c := *n
	if c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
		c.Style |= yaml.FlowStyle
	}
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = flowCopy(x)
	}
	return &c
}

// figureOut writes a figure to --plot FILE (.png or .svg).
func figureOut(path string, f *reports.Figure, err error) error {
	if err != nil {
		return err
	}
	return f.Save(path)
}
