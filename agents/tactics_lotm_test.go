package agents_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"simctl/rulesets"
	_ "simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// lotmLibraryFor is the LotM library tactic that replaces a Go policy, as
// a --set value; ok is false for parameters the library does not carry.
func lotmLibraryFor(p scenario.PolicySpec) (string, bool) {
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
	case "default", "aim", "feint", "intimidate", "ambush", "grapple", "charge":
		take("target")
	case "vital":
		take("target", "part")
	case "combo":
		take("target", "ally")
	default:
		return "", false
	}
	if len(params) > 0 {
		return "", false
	}
	return fmt.Sprintf("{use: %s, params: {%s}}", use, strings.Join(kv, ", ")), true
}

// Each LotM library tactic makes the same decisions as the Go policy it
// replaces: every built-in lotm scenario, with every Go policy swapped for
// its library tactic, gives identical tallies at a fixed seed.
func TestLotmLibraryMatchesGoPolicies(t *testing.T) {
	used := map[string]bool{}
	n := 0
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "lotm/") {
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
					v, ok := lotmLibraryFor(spec)
					if !ok {
						t.Fatalf("%s: no library tactic for policy %+v", cs.Name, spec)
					}
					used[v[len("{use: "):strings.IndexByte(v, ',')]] = true
					sets = append(sets, scenario.Set{Path: side.Name + "." + cs.Name + ".tactics", Value: v})
				}
			}
			if len(sets) == 0 {
				return
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
	if n < 5 {
		t.Fatalf("only %d lotm scenarios", n)
	}
	var names []string
	for u := range used {
		names = append(names, u)
	}
	sort.Strings(names)
	if want := "ambush combo default grapple"; strings.Join(names, " ") != want {
		t.Errorf("library tactics exercised: %v, want %s", names, want)
	}
}

// The library tactics no built-in scenario uses against their Go
// policies: every combatant of every lotm scenario given the Go policy,
// then the library tactic.
func TestLotmLibraryOtherPresets(t *testing.T) {
	for _, name := range scenarios.Names() {
		if !strings.HasPrefix(name, "lotm/") {
			continue
		}
		data, _, _ := scenarios.Read(name)
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
					p := side.Name + "." + cs.Name
					goSets = append(goSets, scenario.Set{Path: p + ".policy", Value: variant.policy})
					tacSets = append(tacSets, scenario.Set{Path: p + ".tactics", Value: variant.tactic})
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

// The LotM trace says which rule decided and the values that made its
// condition true; the reaction moment counts too.
func TestLotmTacticsTrace(t *testing.T) {
	data, _, _ := scenarios.Read("lotm/tactics-ambush-feint")
	g := load(t, string(data))
	var log strings.Builder
	_, tally := sim.Replay(g, 1, 1, &sim.Log{W: &log})
	for _, line := range []string{
		"Shade: tactics rule ambush round at turn (when ambush_round: ambush_round=1) decides: attack hide after",
		"Shade: tactics rule from hiding at turn (when self.hidden: self.hidden=1) decides: attack hide never",
		"Shade: tactics rule strike first at reactions (when not reaction.attacking and reaction.distance <= 5: reaction.attacking=0, reaction.distance=0) decides: insert",
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
	if !moments["turn"] || !moments["reactions"] {
		t.Errorf("rule counts only at %v", moments)
	}
	if t.Failed() {
		t.Log(log.String())
	}
}

// LotM tactics allocate nothing per encounter.
func TestLotmTacticsAllocs(t *testing.T) {
	data, _, _ := scenarios.Read("lotm/tactics-ambush-feint")
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
