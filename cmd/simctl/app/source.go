package app

import (
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

// Source is a scenario's text as read once: every point of a sweep or
// option of a comparison compiles the same bytes, and results embed them.
type Source struct {
	Name    string // what reproducing command lines call it (a file, or a built-in's name)
	Display string // the file name in messages ("builtin:d20/duel.yaml" for a built-in)
	Data    []byte
}

// Text and Sum are what results embed: the scenario as run and its
// SHA-256, by which merge tells scenarios apart.
func (src *Source) Text() string { return string(src.Data) }
func (src *Source) Sum() string  { return results.ScenarioSum(src.Data) }

// Compile decodes and compiles the source with overrides, writing its
// warnings to warn (nil: dropped).
func (src *Source) Compile(sets []scenario.Set, warn io.Writer) (*scenario.Scenario, sim.Game, error) {
	sc, g, warns, err := src.CompileWarn(sets)
	sayWarnings(warn, warns)
	return sc, g, err
}

// sayWarnings writes a compile's warnings to warn (nil: dropped): legal
// but probably unintended (an unreachable tactics rule), said and gone on.
func sayWarnings(warn io.Writer, warns scenario.Errors) {
	if warn != nil {
		for _, w := range warns {
			Say(warn, "warning: %v", w)
		}
	}
}

// CompileWarn is Compile returning the warnings instead of writing them
// (simctl serve shows them beside the editor). Every problem of the
// scenario comes back at once as scenario.Errors: the core fields' and,
// when the scenario is whole enough to try, the ruleset's.
func (src *Source) CompileWarn(sets []scenario.Set) (*scenario.Scenario, sim.Game, scenario.Errors, error) {
	return compileDecoded(scenario.Decode(src.Display, src.Data, sets, rulesets.Schema))
}

// CompileParsed is CompileWarn with the text parsed once beforehand (p is
// scenario.Parse of a Source's Display and Data): what a search's
// candidates share. It gives what that Source's CompileWarn gives.
func CompileParsed(p *scenario.Parsed, sets []scenario.Set) (*scenario.Scenario, sim.Game, scenario.Errors, error) {
	return compileDecoded(p.Decode(sets, rulesets.Schema))
}

// compileDecoded compiles a decoded scenario (scenario.Decode's results).
func compileDecoded(sc *scenario.Scenario, err error) (*scenario.Scenario, sim.Game, scenario.Errors, error) {
	if sc == nil {
		return nil, nil, nil, err
	}
	if err != nil {
		// Let the ruleset check its own fields too, so the user fixes the
		// file in one pass; it must not panic on the half-valid scenario,
		// but if it does, the problems already found are what to report.
		if _, ok := rulesets.Lookup(sc.Ruleset); ok && len(sc.Sides) == 2 {
			func() {
				defer func() { _ = recover() }()
				rulesets.Compile(sc)
			}()
		}
		return nil, nil, nil, sc.Rep.Err()
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		return nil, nil, nil, err
	}
	return sc, g, sc.Rep.Warns, nil
}

// ScenarioContext is what a report needs to let a reader reproduce a run
// beyond the counts: the scenario text as written (the overrides are
// listed apart), every ruleset option with the value in effect, and the
// side of each combatant of the roster.
func ScenarioContext(src *Source, sc *scenario.Scenario, g sim.Game) *results.Context {
	ctx := &results.Context{ScenarioYAML: src.Text(), ScenarioSHA256: src.Sum()}
	if r, ok := rulesets.Lookup(sc.Ruleset); ok {
		for _, o := range r.Doc().Options {
			v := results.OptionValue{Name: o.Name, Value: o.Default, Default: true}
			if n := sc.Options[o.Name]; n != nil {
				v.Value, v.Default = YAMLText(n), false
			}
			ctx.Options = append(ctx.Options, v)
		}
	}
	for _, e := range g.Roster() {
		ctx.RosterSides = append(ctx.RosterSides, e.Side)
	}
	return ctx
}

// YAMLText renders a YAML value on one line, in flow style.
func YAMLText(n *yaml.Node) string {
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

// RunCommand is the `simctl run` command line that reproduces a result
// exactly: encounters 0..n-1 with the seed and overrides.
func RunCommand(name string, n int64, seed uint64, sets []string) string {
	args := []string{"simctl", "run", name, "-n", fmt.Sprint(n), "--seed", fmt.Sprint(seed)}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	return results.ShellJoin(args)
}
