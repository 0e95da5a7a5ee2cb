package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	_ "simctl/agents" // registers the scripted policies
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// version is the simctl release; results carry it so a number can be traced
// to the code that made it.
const version = "0.1.0"

func fullVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return version + "+" + s.Value[:12]
			}
		}
	}
	return version
}

const usage = `simctl — Monte Carlo balance lab for tabletop-RPG combat

usage:
  simctl run SCENARIO [-n N] [--seed S] [--workers W] [--json] [--set PATH=VALUE]... [--shard k/K] [-o FILE]
  simctl trace SCENARIO --seed S --encounter I [--set PATH=VALUE]...
  simctl merge RESULT.json... [--json] [-o FILE]
  simctl scenarios
  simctl rules NAME
  simctl version

SCENARIO is a YAML file or a built-in scenario name (see simctl scenarios).
Run "simctl COMMAND -h" for a command's flags.
`

// Main is the whole CLI, testable: it reads args and writes only to stdout
// and stderr, and returns the exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// No panic reaches a user as a stack trace.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "simctl: internal error: %v\nplease report it with the command line and scenario\n", p)
			code = exitFailure
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return cmdRun(ctx, rest, stdout, stderr)
	case "trace":
		return cmdTrace(rest, stdout, stderr)
	case "merge":
		return cmdMerge(rest, stdout, stderr)
	case "scenarios":
		return cmdScenarios(stdout)
	case "rules":
		return cmdRules(rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "simctl", fullVersion())
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "simctl: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}

// parseInterleaved parses flags that may come before or after positional
// arguments (simctl run my.yaml -n 1000 is the natural order).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// setFlags collects repeated --set PATH=VALUE.
type setFlags []scenario.Set

func (s *setFlags) String() string {
	var parts []string
	for _, x := range *s {
		parts = append(parts, x.String())
	}
	return strings.Join(parts, " ")
}

func (s *setFlags) Set(v string) error {
	x, err := scenario.ParseSet(v)
	if err != nil {
		return err
	}
	*s = append(*s, x)
	return nil
}

func (s setFlags) strings() []string {
	var out []string
	for _, x := range s {
		out = append(out, x.String())
	}
	return out
}

// load finds SCENARIO as a file or a built-in and compiles it.
func load(name string, sets []scenario.Set) (*scenario.Scenario, sim.Game, error) {
	var sc *scenario.Scenario
	var err error
	if _, statErr := os.Stat(name); statErr == nil {
		sc, err = scenario.LoadFile(name, sets, rulesets.Schema)
	} else if data, display, ok := scenarios.Read(name); ok {
		sc, err = scenario.Load(display, data, sets, rulesets.Schema)
	} else {
		return nil, nil, fmt.Errorf("%s: no such file or built-in scenario; built-ins: %s", name, strings.Join(scenarios.Names(), ", "))
	}
	if err != nil {
		return nil, nil, err
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		return nil, nil, err
	}
	return sc, g, nil
}

func cmdScenarios(stdout io.Writer) int {
	for _, n := range scenarios.Names() {
		data, display, _ := scenarios.Read(n)
		sc, err := scenario.Load(display, data, nil, rulesets.Schema)
		desc := ""
		if err == nil {
			desc = sc.Name
			if sc.Description != "" {
				desc += ": " + sc.Description
			}
		} else {
			desc = "(invalid: " + strings.SplitN(err.Error(), "\n", 2)[0] + ")"
		}
		fmt.Fprintf(stdout, "%-28s %s\n", n, desc)
	}
	return exitOK
}

func cmdRules(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "usage: simctl rules NAME (one of %s)\n", strings.Join(rulesets.Names(), ", "))
		return exitUsage
	}
	r, ok := rulesets.Lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "simctl rules: unknown ruleset %q; valid: %s\n", args[0], strings.Join(rulesets.Names(), ", "))
		return exitUsage
	}
	d := r.Doc()
	fmt.Fprintf(stdout, "%s — %s\nsource: %s\n\n%s\n", d.Name, d.Title, d.Source, wrap(d.Summary, 88, ""))
	fmt.Fprintf(stdout, "\noptions (scenario options:, default first):\n")
	for _, o := range d.Options {
		fmt.Fprintf(stdout, "  %s: %s  [%s]\n%s\n", o.Name, o.Default, o.Valid, wrap(o.Doc, 84, "      "))
	}
	section := func(title string, fs []sim.Field) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(stdout, "\n%s:\n", title)
		for _, f := range fs {
			fmt.Fprintf(stdout, "  %s\n%s\n", f.Name, wrap(f.Doc, 84, "      "))
		}
	}
	section("combatant fields (besides name, count, hp, ac, init, initiative_roll, attacks, damage, speed, aware, policy)", d.Fields)
	section("policies (policy: NAME or {name: NAME, param: value})", d.Policies)
	section("actions and rules", d.Actions)
	section("counters (action_economy, besides "+strings.Join(sim.BaseCounters, ", ")+")", d.Counters)
	return exitOK
}

func wrap(s string, width int, indent string) string {
	var lines []string
	line := indent
	for _, w := range strings.Fields(s) {
		if len(line)+len(w)+1 > width && strings.TrimSpace(line) != "" {
			lines = append(lines, line)
			line = indent
		}
		if strings.TrimSpace(line) != "" {
			line += " "
		}
		line += w
	}
	if strings.TrimSpace(line) != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// writeOut writes to -o FILE atomically (a temp file renamed into place), so
// an interrupted write never leaves half a result, or to stdout.
func writeOut(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	tmp, err := os.CreateTemp(dirOf(path), ".simctl-*")
	if err != nil {
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func dirOf(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[:i+1]
	}
	return "."
}

// scenarioError prints a scenario's problems, one per line.
func scenarioError(stderr io.Writer, err error) int {
	var es scenario.Errors
	if errors.As(err, &es) {
		fmt.Fprintf(stderr, "%s\n%d problem(s); nothing was run\n", es.Error(), len(es))
		return exitScenario
	}
	fmt.Fprintf(stderr, "simctl: %v\n", err)
	return exitScenario
}

// parseShard reads "k/K" (k counted from 0) or "K" with k from the job
// array's environment: JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or
// SLURM_ARRAY_TASK_ID (Slurm).
func parseShard(s string) (k, of int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	ks, ofs, found := strings.Cut(s, "/")
	if !found {
		ks, ofs = "", s
	}
	of, err = strconv.Atoi(ofs)
	if err != nil || of < 1 {
		return 0, 0, fmt.Errorf("--shard %q: expected k/K with 0 <= k < K, e.g. 3/10, or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID", s)
	}
	if ks == "" {
		for _, env := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if v := os.Getenv(env); v != "" {
				ks = v
				break
			}
		}
		if ks == "" {
			return 0, 0, fmt.Errorf("--shard %s: no shard index; give k/%s or set JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID", s, s)
		}
	}
	k, err = strconv.Atoi(ks)
	if err != nil || k < 0 || k >= of {
		return 0, 0, fmt.Errorf("--shard: index %q must be a whole number from 0 to %d", ks, of-1)
	}
	return k, of, nil
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
