package agents_test

import (
	"testing"

	"simctl/rulesets"
	_ "simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim/scenario"
)

// lotmLibraryFor is the LotM library tactic that replaces a Go policy, as
// a --set value; ok is false for parameters the library does not carry.
func lotmLibraryFor(p scenario.PolicySpec) (string, bool) {
	u := newLibraryUse(p)
	switch u.use {
	case "default", "aim", "feint", "intimidate", "ambush", "grapple", "charge":
		u.take("target")
	case "vital":
		u.take("target", "part")
	case "combo":
		u.take("target", "ally")
	default:
		return "", false
	}
	return u.value()
}

// Each LotM library tactic makes the same decisions as the Go policy it
// replaces: every built-in lotm scenario, with every Go policy swapped for
// its library tactic, gives identical tallies at a fixed seed.
func TestLotmLibraryMatchesGoPolicies(t *testing.T) {
	checkLibraryMatchesGo(t, builtinScenarios(t, "lotm", 5), lotmLibraryFor, "ambush combo default grapple")
}

// The library tactics no built-in scenario uses against their Go
// policies: every combatant of every lotm scenario given the Go policy,
// then the library tactic.
func TestLotmLibraryOtherPresets(t *testing.T) {
	for _, ns := range builtinScenarios(t, "lotm", 5) {
		name, data := ns.name, ns.data
		sc, err := scenario.Load(name, data, nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if hasTactics(sc) {
			continue // its own tactics decide over any policy: nothing to compare
		}
		for _, variant := range []struct{ policy, tactic string }{
			{"aim", "aim"},
			{"feint", "feint"},
			{"intimidate", "intimidate"},
			{"charge", "charge"},
			{"{name: charge, target: nearest}", "{use: charge, params: {target: nearest}}"},
			{"vital", "vital"},
			{"{name: vital, part: legs, target: strongest}", "{use: vital, params: {part: legs, target: strongest}}"},
			{"{name: grapple, target: first}", "{use: grapple, params: {target: first}}"},
		} {
			var goSets, tacSets []scenario.Set
			for _, side := range sc.Sides {
				for _, cs := range side.Combatants {
					if cs.Tactics != nil {
						continue // its tactics decide in both runs: a policy --set would be ignored
					}
					p := side.Name + "." + cs.Name
					goSets = append(goSets, scenario.Set{Path: p + ".policy", Value: variant.policy})
					tacSets = append(tacSets, scenario.Set{Path: p + ".tactics", Value: variant.tactic})
				}
			}
			checkSameTallies(t, name, data, goSets, tacSets, false, "with "+variant.tactic)
		}
	}
}

// The LotM trace records which rule decided (the ambush round, then from
// hiding; the reaction); the reaction moment counts too.
func TestLotmTacticsTrace(t *testing.T) {
	data, _, _ := scenarios.Read("lotm/tactics-ambush-feint")
	g := load(t, string(data))
	log, ev, tally := traced(g, 1, 1)
	ev.InOrder(t, "rule Shade rule='turn/ambush round' ok=true", "rule Shade rule='turn/from hiding' ok=true")
	if !ev.Has(t, "rule Shade rule='reactions/strike first' ok=true") {
		t.Errorf("strike first never decided; events:\n%s", ev.Dump())
	}
	if moments := ruleMoments(g, tally); !moments["turn"] || !moments["reactions"] {
		t.Errorf("rule counts only at %v", moments)
	}
	if t.Failed() {
		t.Log(log)
	}
}

// LotM tactics allocate nothing per encounter.
func TestLotmTacticsAllocs(t *testing.T) {
	data, _, _ := scenarios.Read("lotm/tactics-ambush-feint")
	checkNoAllocs(t, load(t, string(data)))
}

func hasTactics(sc *scenario.Scenario) bool {
	for _, side := range sc.Sides {
		if side.Tactics != nil {
			return true
		}
		for _, cs := range side.Combatants {
			if cs.Tactics != nil {
				return true
			}
		}
	}
	return false
}
