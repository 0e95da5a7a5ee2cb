// Package rulesets is the registry of referees by name. Each ruleset
// package (d20, acks2, cavaliers, lotm) registers itself in init; the CLI
// imports them for that side effect and looks them up here.
//
// Registration happens only during package initialisation; afterwards the
// registry is read-only and safe for concurrent lookups.
package rulesets

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"simctl/sim"
	"simctl/sim/scenario"
)

var registry = map[string]sim.Ruleset{}

// Register adds a ruleset. It panics on a duplicate name (a programming
// error, caught at start-up).
func Register(r sim.Ruleset) {
	if _, dup := registry[r.Name()]; dup {
		panic(fmt.Sprintf("rulesets: %q registered twice", r.Name()))
	}
	registry[r.Name()] = r
}

// Lookup returns the ruleset called name.
func Lookup(name string) (sim.Ruleset, bool) {
	r, ok := registry[name]
	return r, ok
}

// Names lists the registered rulesets, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Schema is a scenario.Lookup over the registry.
func Schema(name string) (scenario.Schema, bool, []string) {
	r, ok := registry[name]
	if !ok {
		return scenario.Schema{}, false, Names()
	}
	return r.Schema(), true, Names()
}

// Compile loads nothing itself: it finds the scenario's ruleset and compiles.
func Compile(sc *scenario.Scenario) (sim.Game, error) {
	r, ok := registry[sc.Ruleset]
	if !ok {
		return nil, fmt.Errorf("%s: unknown ruleset %q; valid: %v", sc.File, sc.Ruleset, Names())
	}
	rejectTactics(sc)
	return r.Compile(sc)
}

// tacticsRulesets are the rulesets whose referee compiles tactics: blocks
// (docs/tactics.md). Elsewhere a block would be silently ignored, so it is
// an error.
var tacticsRulesets = []string{"acks2", "d20"}

func rejectTactics(sc *scenario.Scenario) {
	if slices.Contains(tacticsRulesets, sc.Ruleset) {
		return
	}
	msg := "tactics: blocks are not available for %s yet (they are for %s; see docs/tactics.md); use policy: (simctl rules %s)"
	for _, side := range sc.Sides {
		if side.Tactics != nil {
			sc.Dec.Errorf(side.Tactics, side.Path+".tactics", msg, sc.Ruleset, strings.Join(tacticsRulesets, ", "), sc.Ruleset)
		}
		for _, c := range side.Combatants {
			if c.Tactics != nil {
				sc.Dec.Errorf(c.Tactics, c.Path+".tactics", msg, sc.Ruleset, strings.Join(tacticsRulesets, ", "), sc.Ruleset)
			}
		}
	}
}
