package agents_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	_ "simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// d20Scenarios are every built-in d20 scenario and the d20 benchmark
// scenarios, as (display name, YAML).
func d20Scenarios(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range scenarios.Names() {
		if strings.HasPrefix(name, "d20/") {
			data, _, _ := scenarios.Read(name)
			out[name] = data
		}
	}
	files, _ := filepath.Glob("../benchmarks/scenarios/d20-*.yaml")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	if len(out) < 4 {
		t.Fatalf("found only %d d20 scenarios", len(out))
	}
	return out
}

// libraryFor is the library tactic that replaces a Go policy, as a --set
// value; ok is false for a policy the library cannot express.
func libraryFor(p scenario.PolicySpec) (string, bool) {
	params := map[string]string{}
	for k, n := range p.Params {
		params[k] = n.Value
	}
	take := func(keys ...string) string {
		var kv []string
		for _, k := range keys {
			if v, ok := params[k]; ok {
				kv = append(kv, k+": "+v)
				delete(params, k)
			}
		}
		return "{" + strings.Join(kv, ", ") + "}"
	}
	use := p.Name
	if use == "" {
		use = "default"
	}
	var set string
	switch use {
	case "default":
		if params["charge"] == "always" {
			use = "charge"
		}
		delete(params, "charge")
		set = take("target")
	case "delay":
		set = take("until", "target")
	case "ready":
		if params["action"] != "" && params["action"] != "attack" {
			return "", false
		}
		delete(params, "action")
		if params["when"] == "always" {
			params["always"] = "1"
		}
		delete(params, "when")
		set = take("trigger", "always", "target")
	case "counterspell":
		set = take("spell", "target")
	default:
		return "", false
	}
	if len(params) > 0 {
		return "", false
	}
	return fmt.Sprintf("{use: %s, params: %s}", use, set), true
}

// Each library tactic makes the same decisions as the Go policy it
// replaces: every built-in d20 scenario, with every combatant's policy
// (explicit or the implicit default) swapped for its library tactic,
// gives identical tallies at a fixed seed.
func TestD20LibraryMatchesGoPolicies(t *testing.T) {
	used := map[string]bool{}
	for name, data := range d20Scenarios(t) {
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			sc, err := scenario.Load(name, data, nil, rulesets.Schema)
			if err != nil {
				t.Fatal(err)
			}
			var sets []scenario.Set
			for _, side := range sc.Sides {
				for _, cs := range side.Combatants {
					if cs.Tactics != nil || side.Tactics != nil {
						continue // already tactics: the same in both runs
					}
					spec := side.Policy
					if cs.Policy.Name != "" {
						spec = cs.Policy
					}
					v, ok := libraryFor(spec)
					if !ok {
						t.Fatalf("%s: no library tactic for policy %+v", cs.Name, spec)
					}
					used[v[len("{use: "):strings.IndexByte(v, ',')]] = true
					sets = append(sets, scenario.Set{Path: side.Name + "." + cs.Name + ".tactics", Value: v})
				}
			}
			goT := run(t, name, data, nil)
			tacT := run(t, name, data, sets)
			if tacT.Counts.Rules == nil {
				t.Fatal("the tactics run has no rule counters")
			}
			tacT.Counts.Rules, goT.Counts.Rules = nil, nil
			if !reflect.DeepEqual(goT, tacT) {
				t.Errorf("tactics differ from the Go policies with %v:\ngo      %+v\ntactics %+v", sets, goT, tacT)
			}
		})
	}
	var names []string
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := "charge counterspell default delay ready"; strings.Join(names, " ") != want {
		t.Errorf("library tactics exercised: %v, want %s", names, want)
	}
}

func run(t *testing.T, name string, data []byte, sets []scenario.Set) *sim.Tally {
	t.Helper()
	sc, err := scenario.Load(name, data, sets, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 11, N: 3000, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return tally
}
