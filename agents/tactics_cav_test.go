package agents_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"simctl/rulesets"
	_ "simctl/rulesets/cavaliers"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

// cavLibraryFor is the Cavaliers library tactic that replaces a Go policy,
// as a --set value; ok is false for parameters the library does not carry.
func cavLibraryFor(p scenario.PolicySpec) (string, bool) {
	u := newLibraryUse(p)
	switch u.params["move"] {
	case "hold":
		u.kv = append(u.kv, "hold: 1")
		delete(u.params, "move")
	case "advance":
		delete(u.params, "move")
	}
	switch u.use {
	case "default":
		if _, ok := u.params["focus"]; ok {
			u.use = "focus"
		}
		u.take("focus", "target")
	case "guard":
		u.take("ward", "target")
	case "none":
		u.take("target")
	default:
		return "", false
	}
	return u.value()
}

// Each Cavaliers library tactic makes the same decisions as the Go policy
// it replaces: every built-in cavaliers scenario, with every Go policy
// swapped for its library tactic, gives identical tallies at a fixed seed.
func TestCavLibraryMatchesGoPolicies(t *testing.T) {
	checkLibraryMatchesGo(t, builtinScenarios(t, "cavaliers", 3), cavLibraryFor, "default focus guard none")
}

// Every library tactic against its Go policy on every combatant of every
// cavaliers scenario (the scenarios give each only some of them): guard
// with the first ally as ward, none, and default with each target.
func TestCavLibraryEveryCombatant(t *testing.T) {
	for _, ns := range builtinScenarios(t, "cavaliers", 3) {
		name, data := ns.name, ns.data
		sc, err := scenario.Load(name, data, nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		for _, variant := range []struct{ policy, tactic string }{
			{"{name: none}", "{use: none}"},
			{"{name: default, target: strongest}", "{use: default, params: {target: strongest}}"},
			{"{name: default, target: random}", "{use: default, params: {target: random}}"},
			{"{name: default, focus: %e}", "{use: focus, params: {focus: %e}}"},
			{"{name: guard, ward: %a}", "{use: guard, params: {ward: %a}}"},
		} {
			var goSets, tacSets []scenario.Set
			for s, side := range sc.Sides {
				for _, cs := range side.Combatants {
					if cs.Tactics != nil || side.Tactics != nil {
						continue // already tactics in both runs
					}
					ally := ""
					for _, o := range side.Combatants {
						if o.Name != cs.Name || o.Count > 1 {
							ally = o.Name
							if o.Count > 1 {
								ally += "#1"
								if o.Name == cs.Name {
									ally = o.Name + "#2"
								}
							}
							break
						}
					}
					if strings.Contains(variant.policy, "%a") && (ally == "" || cs.Count > 1) {
						continue // no ally to guard, or copies that would guard themselves
					}
					enemy := sc.Sides[1-s].Combatants[0].Name
					if sc.Sides[1-s].Combatants[0].Count > 1 {
						enemy += "#1"
					}
					fill := strings.NewReplacer("%a", ally, "%e", enemy)
					p := side.Name + "." + cs.Name
					goSets = append(goSets, scenario.Set{Path: p + ".policy", Value: fill.Replace(variant.policy)})
					tacSets = append(tacSets, scenario.Set{Path: p + ".tactics", Value: fill.Replace(variant.tactic)})
				}
			}
			checkSameTallies(t, name, data, goSets, tacSets, false, "with "+variant.tactic)
		}
	}
}

// The Cavaliers trace records which rule decided at each moment (the
// seize for the envoy, then the seizing); rule counts cover every moment.
func TestCavTacticsTrace(t *testing.T) {
	data, _, _ := scenarios.Read("cavaliers/tactics-ward")
	g := load(t, string(data))
	// the first encounter (seed 1) in which the musketeer seizes for the envoy
	const seize = "rule Musketeer rule='reactions/protect the envoy' ok=true"
	var ev simtest.Events
	moments := map[string]bool{}
	for i := int64(0); i < 500 && (i == 0 || !ev.Any(seize)); i++ {
		var tally *sim.Tally
		_, ev, tally = traced(g, 1, i)
		for m := range ruleMoments(g, tally) {
			moments[m] = true
		}
	}
	ev.InOrder(t, "rule Musketeer rule='move/hold the door' ok=true")
	ev.InOrder(t, seize, "initiative Musketeer Assassin#* rule=seize")
	if len(moments) < 3 {
		t.Errorf("rule counts only at %v", moments)
	}
}

// Cavaliers tactics allocate nothing per encounter.
func TestCavTacticsAllocs(t *testing.T) {
	data, _, _ := scenarios.Read("cavaliers/tactics-ward")
	checkNoAllocs(t, load(t, string(data)))
}

// The Go default's parameters written as rules (docs/tactics.md, the
// Cavaliers section) make the same decisions: the heroes of the duel and
// the melee (Initiative specialists) with each parameter, Go against the
// rules the docs give.
func TestCavGoParamsAsRules(t *testing.T) {
	const (
		head      = `{move: [{do: advance}], attack: [{do: attack}], reactions: [`
		seize     = `{when: next_actor.is_enemy, do: seize}, `
		interpose = `{when: attacked.hp < self.hp and attacked.weakest, do: interpose}, `
		rest      = `{do: block}, {do: reprise}, {do: pass}]}`
		spare     = `(unlock or self.price_interpose == 0 or self.plus < self.price_interpose or self.plus - offer.price >= self.price_interpose)`
	)
	variants := []struct{ policy, tactic string }{
		{"{name: default, seize: protect}", head + `{when: next_actor.is_enemy and next_actor.wounded_near <= 0.5, do: seize}, ` + interpose + rest},
		{"{name: default, seize: protect, wounded: 80}", head + `{when: next_actor.is_enemy and next_actor.wounded_near <= 0.8, do: seize}, ` + interpose + rest},
		{"{name: default, seize: never}", head + interpose + rest},
		{"{name: default, interpose: any}", head + seize + `{when: attacked.hp < self.hp, do: interpose}, ` + rest},
		{"{name: default, reprise: never}", head + seize + interpose + `{do: block}, {do: pass}]}`},
		{"{name: default, reserve: interpose}", head + `{when: next_actor.is_enemy and ` + spare + `, do: seize}, ` + interpose +
			`{do: block}, {when: ` + spare + `, do: reprise}, {do: pass}]}`},
	}
	for _, name := range []string{"cavaliers/duel", "cavaliers/melee"} {
		data, _, _ := scenarios.Read(name)
		for _, v := range variants {
			checkSameTallies(t, name, data, []scenario.Set{{Path: "heroes.policy", Value: v.policy}},
				[]scenario.Set{{Path: "heroes.tactics", Value: v.tactic}}, true, "with "+v.policy+" as "+v.tactic)
		}
	}
}

const cavBlockScenario = `name: block-for
ruleset: cavaliers
options: {raise_on: 4}
sides:
  - name: escort
    combatants:
      - {name: Ward, specialty: none, attribute: d6, pool: d6, hp: 10, attack: 1d6, defence: 2d6, damage: 1d4, area: 0, policy: {name: none, move: hold}}
      - {name: Guard, specialty: vigilance, attribute: d10, pool: 2d6, hp: 18, attack: 2d6, defence: 2d6, damage: 1d6, area: 1, policy: {name: guard, ward: Ward, move: hold}}
      - {name: Other, specialty: none, attribute: d6, pool: d6, hp: 10, attack: 1d6, defence: 2d6, damage: 1d4, area: 2, policy: {name: none, move: hold}}
  - name: raiders
    policy: {name: default, focus: Other}
    combatants:
      - {name: Raider, count: 2, specialty: timing, attribute: d8, pool: d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6, area: 1}
`

// guard blocks only an opponent moving into the ward's Area: raiders in
// the guard's Area leave for another ally's. The library guard equals the
// Go guard there, and a guard that blocks every mover does not (the test
// can fail).
func TestCavGuardBlocksForTheWard(t *testing.T) {
	data := []byte(cavBlockScenario)
	goT := run(t, "block-for.yaml", data, nil)
	lib := []scenario.Set{{Path: "escort.Guard.tactics", Value: "{use: guard, params: {ward: Ward, hold: 1}}"}}
	tacT := run(t, "block-for.yaml", data, lib)
	blockAll := []scenario.Set{{Path: "escort.Guard.tactics", Value: "{move: [{do: hold}], reactions: [{when: next_actor.is_enemy, do: seize}, {do: interpose for Ward}, {do: block}, {do: reprise}, {do: pass}]}"}}
	mutT := run(t, "block-for.yaml", data, blockAll)
	tacT.Counts.Rules, goT.Counts.Rules, mutT.Counts.Rules = nil, nil, nil
	if !reflect.DeepEqual(goT, tacT) {
		t.Errorf("library guard differs from the Go guard:\ngo      %+v\ntactics %+v", goT, tacT)
	}
	if reflect.DeepEqual(goT, mutT) {
		t.Error("a guard that blocks every mover plays like the Go guard: the scenario does not tell block from block for")
	}
}

// Tactics rule counts are exact whatever the worker count.
func TestCavTacticsWorkers(t *testing.T) {
	data, _, _ := scenarios.Read("cavaliers/tactics-ward")
	g := load(t, string(data))
	var tallies []*sim.Tally
	for _, w := range []int{1, 3} {
		tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 5, N: 2000, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		tallies = append(tallies, tally)
	}
	if !reflect.DeepEqual(tallies[0].Counts, tallies[1].Counts) {
		t.Error("tallies differ between 1 and 3 workers")
	}
}
