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
	"sync"

	"simctl/sim"
	"simctl/sim/msg"
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

// Compile loads nothing itself: it finds the scenario's ruleset and
// compiles. Every problem recorded through sc.Dec while compiling is
// returned here, whether or not the ruleset returned it too: a ruleset
// that forgets to check sc.Rep cannot drop them.
func Compile(sc *scenario.Scenario) (sim.Game, error) {
	r, ok := registry[sc.Ruleset]
	if !ok {
		return nil, msg.Errorf("%s: unknown ruleset %q; valid: %v", sc.File, sc.Ruleset, Names())
	}
	checkSidePolicies(sc, r)
	g, err := r.Compile(sc)
	if err != nil {
		return nil, err
	}
	if sc.Rep != nil {
		if err := sc.Rep.Err(); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// checkSidePolicies rejects an unknown side policy name that no combatant
// uses because each overrides it: the ruleset compiles only the policies
// in force, so "policy: deley" would otherwise pass unnoticed. (Sides
// with a combatant that inherits the policy are checked by the ruleset.)
func checkSidePolicies(sc *scenario.Scenario, r sim.Ruleset) {
	if sc.Dec == nil {
		return
	}
	valid := policyNames(r)
	for _, side := range sc.Sides {
		p := side.Policy
		if p.Name == "" || slices.Contains(valid, p.Name) {
			continue
		}
		inherited := false
		for _, c := range side.Combatants {
			inherited = inherited || c.Policy.Name == ""
		}
		if !inherited {
			n, path := p.Node, p.Path
			if v := scenario.Value(n, "name"); v != nil {
				n, path = v, path+".name"
			}
			sc.Dec.Errorf(n, path, "unknown policy %q%s (every combatant of side %q overrides it, but it is still read); valid: %s",
				p.Name, scenario.Suggest(p.Name, valid), side.Name, strings.Join(valid, ", "))
		}
	}
}

// policies holds each ruleset's policy names (ruleset name → []string),
// read from its Doc on first use: a Doc lists the trait library too,
// parsed from its YAML on every call, and a search compiles thousands of
// candidates.
var policies sync.Map

// policyNames lists r's policies (as its Doc does).
func policyNames(r sim.Ruleset) []string {
	if v, ok := policies.Load(r.Name()); ok {
		return v.([]string)
	}
	names := []string{}
	for _, f := range r.Doc().Policies {
		names = append(names, f.Name)
	}
	policies.Store(r.Name(), names)
	return names
}
