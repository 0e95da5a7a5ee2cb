package main

import (
	"flag"
	"fmt"
	"io"

	"simctl/cmd/simctl/app"
	"simctl/rulesets"
)

// cmdPolicies lists the tactics library (the named policies written in the
// tactics language) and, for d20, the facts and decisions a tactics block
// may use; `policies show NAME` prints one library tactic to copy and edit.
func cmdPolicies(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("policies", flag.ContinueOnError)
	langF := langFlag(fs, "simctl's messages")
	args, done, code := parseArgs("policies", fs, args, stdout, stderr)
	if done {
		return code
	}
	if _, err := resolveLang(*langF); err != nil {
		return usageError(stderr, "policies", "%v", err)
	}
	if len(args) >= 1 && args[0] == "show" {
		if len(args) != 2 {
			return usageError(stderr, "policies", "give one library tactic: simctl policies show [RULESET/]NAME")
		}
		text, err := app.Tactic(args[1])
		if err != nil {
			return usageError(stderr, "policies", "%v", err)
		}
		fmt.Fprint(stdout, text)
		return exitOK
	}
	if len(args) > 1 {
		return usageError(stderr, "policies", "give at most one RULESET, or show NAME")
	}
	ruleset := ""
	if len(args) == 1 {
		if _, ok := rulesets.Lookup(args[0]); !ok {
			return usageError(stderr, "policies", "%v", app.UnknownRuleset(args[0]))
		}
		ruleset = args[0]
	}
	text, err := app.Policies(ruleset)
	if err != nil {
		return usageError(stderr, "policies", "%v", err)
	}
	fmt.Fprint(stdout, text)
	return exitOK
}
