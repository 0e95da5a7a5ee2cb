package agents_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"simctl/rulesets"
	_ "simctl/rulesets/acks2"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// acksLibraryFor is the ACKS library tactic that replaces a Go policy, as
// a --set value; ok is false for parameters the library does not carry.
func acksLibraryFor(p scenario.PolicySpec) (string, bool) {
	params := map[string]string{}
	for k, n := range p.Params {
		params[k] = n.Value
	}
	use := p.Name
	if use == "" {
		use = "default"
	}
	var kv []string
	take := func(keys ...string) {
		for _, k := range keys {
			if v, ok := params[k]; ok {
				kv = append(kv, k+": "+v)
				delete(params, k)
			}
		}
	}
	switch use {
	case "default":
		if _, ok := params["prefer"]; ok {
			use = "prefer"
		}
		take("prefer", "target", "withdraw_below")
	case "delay":
		take("until", "target")
	case "ready":
		if params["when"] == "always" {
			kv = append(kv, "always: 1")
		}
		delete(params, "when")
		take("target")
	case "receive":
		take("target")
	default:
		return "", false
	}
	if len(params) > 0 {
		return "", false
	}
	return fmt.Sprintf("{use: %s, params: {%s}}", use, strings.Join(kv, ", ")), true
}

// Each ACKS II library tactic makes the same decisions as the Go policy it
// replaces: every built-in acks2 scenario, with every Go policy swapped for
// its library tactic, gives identical tallies at a fixed seed.
func TestAcksLibraryMatchesGoPolicies(t *testing.T) {
	used := map[string]bool{}
	n := 0
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "acks2/") {
			continue
		}
		n++
		data, _, _ := scenarios.Read(name)
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			sc, err := scenario.Load(name, data, nil, rulesets.Schema)
			if err != nil {
				t.Fatal(err)
			}
			var sets []scenario.Set
			for _, side := range sc.Sides {
				for _, cs := range side.Combatants {
					if cs.Tactics != nil || side.Tactics != nil {
						continue
					}
					spec := side.Policy
					if cs.Policy.Name != "" {
						spec = cs.Policy
					}
					v, ok := acksLibraryFor(spec)
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
	if n < 4 {
		t.Fatalf("only %d acks2 scenarios", n)
	}
	var names []string
	for u := range used {
		names = append(names, u)
	}
	sort.Strings(names)
	if want := "default prefer receive"; strings.Join(names, " ") != want {
		t.Errorf("library tactics exercised: %v, want %s", names, want)
	}
}

// The library tactics no built-in scenario uses (ready, delay) against
// their Go policies: every combatant of every acks2 scenario given the Go
// policy, then the library tactic.
func TestAcksLibraryReadyDelay(t *testing.T) {
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "acks2/") {
			continue
		}
		data, _, _ := scenarios.Read(name)
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
					p := side.Name + "." + cs.Name
					goSets = append(goSets, scenario.Set{Path: p + ".policy", Value: strings.ReplaceAll(variant.policy, "%s", other)})
					tacSets = append(tacSets, scenario.Set{Path: p + ".tactics", Value: strings.ReplaceAll(variant.tactic, "%s", other)})
				}
			}
			goT := run(t, name, data, goSets)
			tacT := run(t, name, data, append(goSets, tacSets...))
			tacT.Counts.Rules, goT.Counts.Rules = nil, nil
			if !reflect.DeepEqual(goT, tacT) {
				t.Errorf("%s with %s: tactics differ from the Go policy:\ngo      %+v\ntactics %+v", name, variant.tactic, goT, tacT)
			}
		}
	}
}

// The ACKS trace says which rule decided at each moment and the values
// that made its condition true; rule counts cover every moment.
func TestAcksTacticsTrace(t *testing.T) {
	data, _, _ := scenarios.Read("acks2/tactics-shieldwall")
	g := load(t, string(data))
	var log strings.Builder
	_, tally := sim.Replay(g, 1, 1, &sim.Log{W: &log})
	for _, line := range []string{
		"Spearman#1: tactics rule nothing at before_initiative (always) decides: nothing",
		"tactics rule receive at turn (when round == 1 and self.round1_ready and not self.resuming and enemies.attackable == 0: round=1, self.round1_ready=1, self.resuming=0, enemies.attackable=0) decides: delay to floor",
		"tactics rule stab any charger at reactions (always) decides: strike",
	} {
		if !strings.Contains(log.String(), line) {
			t.Errorf("trace lacks %q", line)
		}
	}
	moments := map[string]bool{}
	for k, rc := range g.(sim.RuleGame).RuleCounters() {
		if tally.Counts.Rules[k] > 0 {
			moments[rc.Moment] = true
		}
	}
	if len(moments) < 3 {
		t.Errorf("rule counts only at %v", moments)
	}
}

// ACKS tactics allocate nothing per encounter.
func TestAcksTacticsAllocs(t *testing.T) {
	data, _, _ := scenarios.Read("acks2/tactics-shieldwall")
	g := load(t, string(data))
	table := g.NewTable()
	tally := sim.NewTally(g)
	var r rng.Stream
	i := 0
	if n := testing.AllocsPerRun(200, func() {
		r.Seed(1, uint64(i))
		i++
		tally.Record(table.Play(&r, &tally.Counts, nil))
	}); n != 0 {
		t.Errorf("%v allocations per encounter", n)
	}
}
