package agents_test

import (
	"strings"
	"testing"

	"simctl/rulesets"
	_ "simctl/rulesets/acks2"
	"simctl/scenarios"
	"simctl/sim/scenario"
)

// acksLibraryFor is the ACKS library tactic that replaces a Go policy, as
// a --set value; ok is false for parameters the library does not carry.
func acksLibraryFor(p scenario.PolicySpec) (string, bool) {
	u := newLibraryUse(p)
	switch u.use {
	case "default":
		if _, ok := u.params["prefer"]; ok {
			u.use = "prefer"
		}
		u.take("prefer", "target", "withdraw_below")
	case "delay":
		u.take("until", "target")
	case "ready":
		if u.params["when"] == "always" {
			u.kv = append(u.kv, "always: 1")
		}
		delete(u.params, "when")
		u.take("target")
	case "receive":
		u.take("target")
	default:
		return "", false
	}
	return u.value()
}

// Each ACKS II library tactic makes the same decisions as the Go policy it
// replaces: every built-in acks2 scenario, with every Go policy swapped for
// its library tactic, gives identical tallies at a fixed seed.
func TestAcksLibraryMatchesGoPolicies(t *testing.T) {
	checkLibraryMatchesGo(t, builtinScenarios(t, "acks2", 4), acksLibraryFor, "default prefer receive")
}

// The library tactics no built-in scenario uses (ready, delay) against
// their Go policies: every combatant of every acks2 scenario given the Go
// policy, then the library tactic.
func TestAcksLibraryReadyDelay(t *testing.T) {
	for _, ns := range builtinScenarios(t, "acks2", 4) {
		name, data := ns.name, ns.data
		sc, err := scenario.Load(name, data, nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		for _, variant := range []struct{ policy, tactic string }{
			{"{name: ready}", "{use: ready}"},
			{"{name: ready, when: always}", "{use: ready, params: {always: 1}}"},
			{"{name: delay, until: %s}", "{use: delay, params: {until: %s}}"},
		} {
			var goSets, tacSets []scenario.Set
			for s, side := range sc.Sides {
				other := sc.Sides[1-s].Combatants[0].Name
				if sc.Sides[1-s].Combatants[0].Count > 1 {
					other += "#1"
				}
				for _, cs := range side.Combatants {
					if cs.Tactics != nil {
						continue // its tactics decide in both runs: a policy --set would be ignored
					}
					p := side.Name + "." + cs.Name
					goSets = append(goSets, scenario.Set{Path: p + ".policy", Value: strings.ReplaceAll(variant.policy, "%s", other)})
					tacSets = append(tacSets, scenario.Set{Path: p + ".tactics", Value: strings.ReplaceAll(variant.tactic, "%s", other)})
				}
			}
			checkSameTallies(t, name, data, goSets, tacSets, false, "with "+variant.tactic)
		}
	}
}

// The ACKS trace records which rule decided at each moment (and narrates
// the values that made its condition true: the driver's wording, checked
// here once); rule counts cover every moment.
func TestAcksTacticsTrace(t *testing.T) {
	data, _, _ := scenarios.Read("acks2/tactics-shieldwall")
	g := load(t, string(data))
	log, ev, tally := traced(g, 1, 1)
	for _, p := range []string{
		"rule Spearman#1 rule=before_initiative/nothing ok=true",
		"rule Spearman#* rule=turn/receive ok=true",
		"rule Spearman#* rule='reactions/stab any charger' ok=true",
	} {
		if !ev.Has(t, p) {
			t.Errorf("no event %q; events:\n%s", p, ev.Dump())
		}
	}
	if line := "tactics rule receive at turn (when round == 1 and self.round1_ready and not self.resuming and enemies.attackable == 0: round=1, self.round1_ready=1, self.resuming=0, enemies.attackable=0) decides: delay to floor"; !strings.Contains(log, line) {
		t.Errorf("trace lacks %q", line)
	}
	if moments := ruleMoments(g, tally); len(moments) < 3 {
		t.Errorf("rule counts only at %v", moments)
	}
}

// ACKS tactics allocate nothing per encounter.
func TestAcksTacticsAllocs(t *testing.T) {
	data, _, _ := scenarios.Read("acks2/tactics-shieldwall")
	checkNoAllocs(t, load(t, string(data)))
}
