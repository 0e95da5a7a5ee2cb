package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"simctl/agents"
	"simctl/rulesets"
)

// cmdPolicies lists the tactics library (the named policies written in the
// tactics language) and, for d20, the facts and decisions a tactics block
// may use; `policies show NAME` prints one library tactic to copy and edit.
func cmdPolicies(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("policies", flag.ContinueOnError)
	args, done, code := parseArgs("policies", fs, args, stdout, stderr)
	if done {
		return code
	}
	if len(args) >= 1 && args[0] == "show" {
		if len(args) != 2 {
			return usageError(stderr, "policies", "give one library tactic: simctl policies show [RULESET/]NAME")
		}
		rs, name, ok := strings.Cut(args[1], "/")
		if !ok {
			rs, name = "d20", args[1]
			for _, r := range rulesets.Names() {
				if _, found := agents.LibrarySource(r, name); found {
					rs = r
				}
			}
		}
		src, found := agents.LibrarySource(rs, name)
		if !found {
			return usageError(stderr, "policies", "no library tactic %q for %s%s; library: %s", name, rs, didYouMean(name, agents.LibraryNames(rs)), strings.Join(agents.LibraryNames(rs), ", "))
		}
		fmt.Fprintf(stdout, "# %s/%s: use it as tactics: %s (or {use: %s, params: {...}}), or copy it into tactics: and edit\n%s", rs, name, name, name, src)
		return exitOK
	}
	if len(args) > 1 {
		return usageError(stderr, "policies", "give at most one RULESET, or show NAME")
	}
	names := rulesets.Names()
	if len(args) == 1 {
		if _, ok := rulesets.Lookup(args[0]); !ok {
			return usageError(stderr, "policies", "unknown ruleset %q%s; valid: %s", args[0], didYouMean(args[0], names), strings.Join(names, ", "))
		}
		names = []string{args[0]}
	}
	for i, rs := range names {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		r, _ := rulesets.Lookup(rs)
		lib := agents.LibraryNames(rs)
		fmt.Fprintf(stdout, "%s\n", rs)
		if len(lib) == 0 {
			fmt.Fprintf(stdout, "  no tactics library yet: its policies are Go (simctl rules %s)\n", rs)
		}
		for _, n := range lib {
			src, _ := agents.LibrarySource(rs, n)
			fmt.Fprintf(stdout, "  %s\n%s\n", n, wrap(firstComment(string(src)), 84, "      "))
		}
		var goOnly []string
		for _, p := range r.Doc().Policies {
			if !slices.Contains(lib, p.Name) {
				goOnly = append(goOnly, p.Name)
			}
		}
		if len(lib) > 0 && len(goOnly) > 0 {
			fmt.Fprintf(stdout, "  Go only: %s (simctl rules %s)\n", strings.Join(goOnly, ", "), rs)
		}
		if b, ok := agents.LookupBinding(rs); ok && b.Describe != nil && len(args) == 1 {
			b.Describe(stdout)
		}
	}
	fmt.Fprintln(stdout, "\nsimctl policies show NAME prints one; docs/tactics.md is the reference.")
	return exitOK
}

// firstComment joins the leading comment lines of a library file.
func firstComment(src string) string {
	var parts []string
	for _, line := range strings.Split(src, "\n") {
		c, ok := strings.CutPrefix(line, "#")
		if !ok {
			break
		}
		parts = append(parts, strings.TrimSpace(c))
	}
	return strings.Join(parts, " ")
}
