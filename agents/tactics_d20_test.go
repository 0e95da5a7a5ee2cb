package agents_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	_ "simctl/rulesets/lotm"
	"simctl/sim"
	"simctl/sim/scenario"
)

// d20Scenarios are every built-in d20 scenario and the d20 benchmark
// scenarios.
func d20Scenarios(t *testing.T) []namedScenario {
	t.Helper()
	out := builtinScenarios(t, "d20", 0)
	files, _ := filepath.Glob("../benchmarks/scenarios/d20-*.yaml")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, namedScenario{f, data})
	}
	if len(out) < 4 {
		t.Fatalf("found only %d d20 scenarios", len(out))
	}
	return out
}

// libraryFor is the library tactic that replaces a Go policy, as a --set
// value; ok is false for a policy the library cannot express.
func libraryFor(p scenario.PolicySpec) (string, bool) {
	u := newLibraryUse(p)
	switch u.use {
	case "default":
		if u.params["charge"] == "always" {
			u.use = "charge"
		}
		delete(u.params, "charge")
		u.take("target")
	case "delay":
		u.take("until", "target")
	case "ready":
		if u.params["action"] != "" && u.params["action"] != "attack" {
			return "", false
		}
		delete(u.params, "action")
		if u.params["when"] == "always" {
			u.params["always"] = "1"
		}
		delete(u.params, "when")
		u.take("trigger", "always", "target")
	case "counterspell":
		u.take("spell", "target")
	default:
		return "", false
	}
	return u.value()
}

// Each library tactic makes the same decisions as the Go policy it
// replaces: every built-in d20 scenario, with every combatant's policy
// (explicit or the implicit default) swapped for its library tactic,
// gives identical tallies at a fixed seed.
func TestD20LibraryMatchesGoPolicies(t *testing.T) {
	checkLibraryMatchesGo(t, d20Scenarios(t), libraryFor, "charge counterspell default delay ready")
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
