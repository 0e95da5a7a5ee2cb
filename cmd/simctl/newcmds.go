package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"simctl/cmd/simctl/app"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// cmdCheck validates scenarios without playing them: every problem of
// every file, exit 3 if any is invalid (2 if one names no scenario).
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var c common
	c.register(fs, gSet, "")
	pos, done, code := parseArgs("check", fs, args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) == 0 {
		return usageError(stderr, "check", "give the scenario files to check, e.g. simctl check my.yaml")
	}
	invalid, missing, problems := 0, 0, 0
	for _, p := range pos {
		sc, g, err := load(ctx, p, c.sets)
		var es scenario.Errors
		var ae *argError
		switch {
		case err == nil:
			fmt.Fprintf(stdout, "%s: ok: %s (%s), %d combatants, sides %s and %s\n",
				p, sc.Name, sc.Ruleset, len(g.Roster()), sc.Sides[0].Name, sc.Sides[1].Name)
		case errors.As(err, &es):
			invalid++
			problems += len(es)
			fmt.Fprintln(stderr, es.Error())
		case errors.As(err, &ae):
			missing++
			fmt.Fprintln(stderr, "simctl check:", err)
		default:
			invalid++
			problems++
			fmt.Fprintf(stderr, "%s: %v\n", p, err)
		}
	}
	switch {
	case invalid > 0:
		fmt.Fprintf(stderr, "%d of %d scenario(s) invalid, %d problem(s)\n", invalid, len(pos), problems)
		return exitScenario
	case missing > 0:
		return exitUsage
	}
	return exitOK
}

// cmdInit writes a starter scenario: the ruleset's built-in duel, headed by
// comments generated from the ruleset's own documentation, so the template
// always runs and never drifts from what the decoder accepts.
func cmdInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	out := fs.String("o", "", "`FILE` where to write (default RULESET.yaml; - for stdout)")
	force := fs.Bool("force", false, "overwrite FILE if it exists")
	pos, done, code := parseArgs("init", fs, args, stdout, stderr)
	if done {
		return code
	}
	name := "d20"
	switch len(pos) {
	case 0:
	case 1:
		name = pos[0]
	default:
		return usageError(stderr, "init", "give at most one RULESET (%s)", strings.Join(rulesets.Names(), ", "))
	}
	r, ok := rulesets.Lookup(name)
	if !ok {
		return usageError(stderr, "init", "unknown ruleset %q%s; valid: %s", name, didYouMean(name, rulesets.Names()), strings.Join(rulesets.Names(), ", "))
	}
	text, err := starter(r)
	if err != nil {
		fmt.Fprintln(stderr, "simctl init:", err)
		return exitFailure
	}
	path := *out
	if path == "" {
		path = name + ".yaml"
	}
	if path != "-" && !*force {
		if _, err := os.Stat(path); err == nil {
			return usageError(stderr, "init", "%s already exists; give another -o FILE, or --force to overwrite it", path)
		}
	}
	target, err := checkOut(path, "-o")
	if err != nil {
		fmt.Fprintln(stderr, "simctl init:", err)
		return exitUsage
	}
	if err := writeOut(target, stdout, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		fmt.Fprintln(stderr, "simctl init:", err)
		return exitFailure
	}
	if path != "-" {
		fmt.Fprintf(stderr, "wrote %s; next: simctl check %s, then simctl run %s (simctl rules %s explains the rules)\n", path, path, path, name)
	}
	return exitOK
}

// starter is the text of a starter scenario for r.
func starter(r sim.Ruleset) (string, error) {
	d := r.Doc()
	base := ""
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, d.Name+"/") && (base == "" || n == d.Name+"/duel") {
			base = n
		}
	}
	data, _, ok := scenarios.Read(base)
	if base == "" || !ok {
		return "", fmt.Errorf("no built-in scenario of ruleset %s to start from", d.Name)
	}
	var b strings.Builder
	c := func(format string, args ...any) { // a comment line
		line := strings.TrimRight("# "+fmt.Sprintf(format, args...), " ")
		b.WriteString(line + "\n")
	}
	wrapped := func(indent, s string) {
		for _, l := range strings.Split(wrap(s, 86, indent), "\n") {
			c("%s", l)
		}
	}
	c("A starter %s scenario, written by simctl init %s (simctl %s) from the", d.Name, d.Name, app.Release)
	c("built-in %s. Next:", base)
	c("  simctl check FILE        validate it (every problem at once, with line:col)")
	c("  simctl run FILE          play 100,000 encounters and print the win rates")
	c("  simctl run FILE --json -o result.json && simctl report result.json -o report/")
	c("Editor completion: simctl schema -o simctl-scenario.schema.json, then make the")
	c("first line of this file: # yaml-language-server: $schema=simctl-scenario.schema.json")
	c("")
	c("Ruleset %s: %s", d.Name, d.Title)
	wrapped("  ", "Source: "+d.Source)
	wrapped("  ", d.Summary)
	c("")
	c("Common fields: name, description, ruleset, options, max_rounds (a draw when reached),")
	c("distance (feet between the sides at the start; 0: in melee), sides (exactly two, each")
	c("with name, aware (false: surprised), policy, tactics and combatants). Every combatant")
	wrapped("", "has "+strings.Join(commonCombatantFields(base, data), ", ")+".")
	c("")
	wrapped("", "tactics: on a side or a combatant, decisions as data instead of a policy: rules grouped by the moment of decision, each with name:, when: CONDITION, do: DECISION and target:, the first that applies deciding. simctl policies "+d.Name+" lists its moments, facts and decisions; docs/tactics.md explains the language.")
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, d.Name+"/tactics-") {
			c("A worked example: simctl scenarios show %s", n)
			break
		}
	}
	if len(d.Options) > 0 {
		c("")
		c("options: (add under options:, e.g. options: {%s: %s}; the default is shown)", d.Options[0].Name, d.Options[0].Default)
		for _, o := range d.Options {
			c("  %s: %s    # valid: %s", o.Name, o.Default, o.Valid)
			wrapped("      ", o.Doc)
		}
	}
	if len(d.Fields) > 0 {
		c("")
		c("%s combatant fields:", d.Name)
		for _, f := range d.Fields {
			c("  %s", f.Name)
			wrapped("      ", f.Doc)
		}
	}
	if len(d.Policies) > 0 {
		c("")
		c("policies (policy: NAME, or {name: NAME, param: value}, on a side or a combatant):")
		for _, f := range d.Policies {
			c("  %s", f.Name)
			wrapped("      ", f.Doc)
		}
	}
	c("")
	b.Write(data)
	return b.String(), nil
}

// commonCombatantFields describes the common combatant fields the
// ruleset accepts, found by compiling its built-in base scenario with each
// one set on the first combatant: a starter must not name a field its
// ruleset refuses (Cavaliers has defence, not ac).
func commonCombatantFields(base string, data []byte) []string {
	src := &source{name: base, display: "builtin:" + base + ".yaml", data: data}
	sc, _, err := src.compile(nil)
	fields := []string{"a name", "count (copies Name#1, Name#2, ...)", "hp (a number or dice such as 3d10+6)"}
	if err != nil || len(sc.Sides[0].Combatants) == 0 {
		return append(fields, "and the fields below")
	}
	at := sc.Sides[0].Name + "." + sc.Sides[0].Combatants[0].Name + "."
	for _, f := range []struct{ name, value, doc string }{
		{"ac", "12", "ac"},
		{"init", "1", "init"},
		{"initiative_roll", "1", "initiative_roll (pins the die)"},
		{"attacks", "[3]", "attacks"},
		{"damage", "1d6", "damage (dice)"},
		{"speed", "30", "speed"},
	} {
		if _, _, err := src.compile([]scenario.Set{{Path: at + f.name, Value: f.value}}); err == nil {
			fields = append(fields, f.doc)
		}
	}
	return append(fields, "aware", "policy and tactics")
}

// cmdSchema prints the JSON Schema of scenario files.
func cmdSchema(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	out := fs.String("o", "", "`FILE` write the schema to FILE instead of stdout")
	pos, done, code := parseArgs("schema", fs, args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, "schema", "takes no arguments, got %q", pos[0])
	}
	target, err := checkOut(*out, "-o")
	if err != nil {
		fmt.Fprintln(stderr, "simctl schema:", err)
		return exitUsage
	}
	if err := writeOut(target, stdout, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(scenarioSchema())
	}); err != nil {
		fmt.Fprintln(stderr, "simctl schema:", err)
		return exitFailure
	}
	return exitOK
}
