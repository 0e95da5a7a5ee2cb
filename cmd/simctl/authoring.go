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
	"simctl/sim/scenario"
)

// The commands that help write scenarios without playing them: check
// (validate), init (a starter file) and schema (the JSON Schema).

// cmdCheck validates scenarios without playing them: every problem of
// every file, exit 3 if any is invalid (2 if one names no scenario).
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var c common
	c.register(fs, gSet, "")
	langF := langFlag(fs, "the summary lines and simctl's messages")
	pos, done, code := parseArgs("check", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "check", "%v", err)
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
			fmt.Fprintln(stdout, lang.N("check.ok", int64(len(g.Roster())), p, sc.Name, sc.Ruleset, sc.Sides[0].Name, sc.Sides[1].Name))
		case errors.As(err, &es):
			invalid++
			problems += len(es)
			fmt.Fprintln(stderr, langOf(stderr).Err(es))
		case errors.As(err, &ae):
			missing++
			sayErr(stderr, "check", err)
		default:
			invalid++
			problems++
			fmt.Fprintf(stderr, "%s: %s\n", p, langOf(stderr).Err(err))
		}
	}
	switch {
	case invalid > 0:
		fmt.Fprintln(stderr, lang.T("check.invalid", invalid, len(pos), problems))
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
	langF := langFlag(fs, "the starter's comments and simctl's messages (the YAML keys stay as the format writes them)")
	pos, done, code := parseArgs("init", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "init", "%v", err)
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
		return usageError(stderr, "init", "%v", app.UnknownRuleset(name))
	}
	text, err := app.StarterIn(r, lang)
	if err != nil {
		sayErr(stderr, "init", err)
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
		sayErr(stderr, "init", err)
		return exitUsage
	}
	if err := writeOut(target, stdout, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		sayErr(stderr, "init", err)
		return exitFailure
	}
	if path != "-" {
		fmt.Fprintln(stderr, lang.T("init.wrote", path, path, path, name))
	}
	return exitOK
}

// cmdSchema prints the JSON Schema of scenario files.
func cmdSchema(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	langF := langFlag(fs, "simctl's messages")
	out := fs.String("o", "", "`FILE` write the schema to FILE instead of stdout")
	pos, done, code := parseArgs("schema", fs, args, stdout, stderr)
	if done {
		return code
	}
	if _, err := resolveLang(*langF); err != nil {
		return usageError(stderr, "schema", "%v", err)
	}
	if len(pos) > 0 {
		return usageError(stderr, "schema", "takes no arguments, got %q", pos[0])
	}
	target, err := checkOut(*out, "-o")
	if err != nil {
		sayErr(stderr, "schema", err)
		return exitUsage
	}
	if err := writeOut(target, stdout, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(app.Schema())
	}); err != nil {
		sayErr(stderr, "schema", err)
		return exitFailure
	}
	return exitOK
}
