package d20_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// traitScenario has the Fighter's traits at line 9 (a flow list, so each
// case is one line and its columns are exact) and house rules at line 16.
const traitScenario = `name: trait-errors
ruleset: d20
distance: 0
sides:
  - name: heroes
    combatants:
      - name: Fighter
        hp: 20
        traits: %s
        ac: 16
        attacks: [5, 0]
        damage: 1d8+2
  - name: orcs
    combatants:
      - {name: Orc, hp: 10, ac: 13, attacks: [4], damage: 1d12+3}
rules: %s
`

func traitCompile(t *testing.T, traits, rules string, sets ...scenario.Set) (string, string) {
	t.Helper()
	src := strings.Replace(strings.Replace(traitScenario, "%s", traits, 1), "%s", rules, 1)
	sc, err := scenario.Load("t.yaml", []byte(src), sets, rulesets.Schema)
	if err != nil {
		return err.Error(), ""
	}
	_, err = rulesets.Compile(sc)
	var warns []string
	for _, w := range sc.Rep.Warns {
		warns = append(warns, w.Error())
	}
	if err == nil {
		return "", strings.Join(warns, "\n")
	}
	return err.Error(), strings.Join(warns, "\n")
}

// Every invalid trait or house rule gets the exact message a user sees:
// file:line:col (inside the when: or do: text for expression errors, with
// a caret), the field, what was wrong and what would be valid.
func TestTraitErrors(t *testing.T) {
	for _, c := range []struct{ traits, rules, err, warn string }{
		{"[{name: SA, on: hit, when: target.flat_foted, do: damage += 2d6}]", "[]", "t.yaml:9:44: sides[0].combatants[0].traits[0].when: unknown fact target.flat_foted (did you mean target.flat_footed?); d20 offers at hit: damage, self.hp, target.hp, self.hp_pct, target.hp_pct, self.ac, target.ac, self.dex_ac, target.dex_ac, self.init, target.init, self.count, target.count, self.engaged, target.engaged, self.charged, target.charged, self.uncanny_dodge, target.uncanny_dodge, self.flanked, target.flanked, round, surprise_round, crit, mult, ranged, charging, self.flat_footed, target.flat_footed, self.shaken, target.shaken, self.dazed, target.dazed\n    target.flat_foted\n    ^", ""},
		{"[{name: SA, on: hitt, do: damage += 2d6}]", "[]", "t.yaml:9:33: sides[0].combatants[0].traits[0].on: d20 has no moment \"hitt\" (did you mean \"hit\"?); moments: initiative, round_start, turn_start, turn_end, attack_roll, attacked, hit, hit_taken, damage_dealt, damage_taken, ready_triggered, delay_taken", ""},
		{"[{name: SA, on: initiative, do: damage += 2d6}]", "[]", "t.yaml:9:49: sides[0].combatants[0].traits[0].do: damage does not exist at initiative (it offers: init, count); damage changes at hit, hit_taken\n    damage += 2d6\n    ^", ""},
		{"[{name: SA, on: hit, do: damge += 2d6}]", "[]", "t.yaml:9:42: sides[0].combatants[0].traits[0].do: d20 has no quantity \"damge\" (did you mean \"damage\"?); quantities: init, count, actions, attack, ac, damage, aoo\n    damge += 2d6\n    ^", ""},
		{"[{name: SA, on: hit, do: apply shakn to target}]", "[]", "t.yaml:9:48: sides[0].combatants[0].traits[0].do: d20 has no condition \"shakn\" (did you mean \"shaken\"?); conditions: flat_footed, shaken, dazed\n    apply shakn to target\n          ^", ""},
		{"[{name: SA, on: hit, do: apply shaken to attacker}]", "[]", "t.yaml:9:42: sides[0].combatants[0].traits[0].do: apply to attacker: at hit a condition goes to self or target\n    apply shaken to attacker\n    ^", ""},
		{"[{name: SA, on: turn_start, do: actions += 1d2}]", "[]", "t.yaml:9:60: sides[0].combatants[0].traits[0].do: actions takes a number, not dice (1d2)\n    actions += 1d2\n               ^", ""},
		{"[{name: SA, on: hit, do: damage += $dic, params: {dice: 2d6}}]", "[]", "t.yaml:9:52: sides[0].combatants[0].traits[0].do: unknown parameter $dic (did you mean $dice?); params: $dice\n    damage += $dic\n              ^", ""},
		{"[{name: SA, on: hit, do: damage *= 2}]", "[]", "t.yaml:9:49: sides[0].combatants[0].traits[0].do: expected +=, -= or = after damage\n    damage *= 2\n           ^", ""},
		{"[{name: SA, on: hit, when: false, do: damage += 1}]", "[]", "", "t.yaml:9:44: sides[0].combatants[0].traits[0].when: SA can never fire: its when: is always false"},
		{"[{name: SA, on: hit, uses: 0, do: damage += 1}]", "[]", "", "t.yaml:9:44: sides[0].combatants[0].traits[0].uses: SA can never fire: uses: 0"},
		{"[{name: SA, on: hit, uses: 2/turn, do: damage += 1}]", "[]", "t.yaml:9:44: sides[0].combatants[0].traits[0].uses: uses \"2/turn\": expected a count per fight (2, 2/fight) or per round (1/round), from 0 to 1000", ""},
		{"[sneak_atack]", "[]", "t.yaml:9:18: sides[0].combatants[0].traits[0]: no library trait \"sneak_atack\" for d20 (did you mean \"sneak_attack\"?); library: combat_reflexes, damage_reduction, dodge, improved_initiative, power_attack, precise_shot, sneak_attack, uncanny_dodge, weapon_focus (simctl rules d20 lists them)", ""},
		{"[{use: sneak_attack, params: {die: 3d6}}]", "[]", "t.yaml:9:52: sides[0].combatants[0].traits[0].params.die: library trait sneak_attack has no parameter \"die\" (did you mean \"dice\"?); its params: dice", ""},
		{"[{name: A, on: hit, do: damage += 1}, {name: A, on: hit, do: damage += 2}]", "[]", "t.yaml:9:55: sides[0].combatants[0].traits[1].name: traits \"A\" listed twice; --set addresses them by name", ""},
		{"[]", "[{name: slow, side: orks, on: delay_taken, do: count -= 2}]", "t.yaml:16:28: rules[0].side: no side \"orks\" (did you mean \"orcs\"?); sides: heroes, orcs (leave side: out for everyone)", ""},
		{"[{name: M, on: attack_roll, do: attack += 1 as moral}]", "[]", "t.yaml:9:64: sides[0].combatants[0].traits[0].do: d20 has no bonus type \"moral\" (did you mean \"morale\"?); bonus types: alchemical, armor, circumstance, competence, deflection, dodge, enhancement, insight, luck, morale, natural_armor, profane, racial, resistance, sacred, shield, size (no as: untyped)\n    attack += 1 as moral\n                   ^", ""},
		{"[{name: M, on: attack_roll, do: attack = 1 as morale}]", "[]", "t.yaml:9:63: sides[0].combatants[0].traits[0].do: a bonus type goes with += or -=, not with = (a set value is no bonus)\n    attack = 1 as morale\n                  ^", ""},
		{"[{name: M, on: attack_roll, do: attack += 1 as}]", "[]", "t.yaml:9:63: sides[0].combatants[0].traits[0].do: as needs a bonus type; bonus types: alchemical, armor, circumstance, competence, deflection, dodge, enhancement, insight, luck, morale, natural_armor, profane, racial, resistance, sacred, shield, size\n    attack += 1 as\n                  ^", ""},
		{"[{name: R, on: turn_end, do: count = 20 + self.int}]", "[]", "t.yaml:9:59: sides[0].combatants[0].traits[0].do: unknown fact self.int (did you mean self.init?); d20 offers at turn_end: count, self.hp, self.hp_pct, self.ac, self.dex_ac, self.init, self.count, self.engaged, self.charged, self.uncanny_dodge, self.flanked, round, surprise_round, self.flat_footed, self.shaken, self.dazed\n    count = 20 + self.int\n                 ^", ""},
	} {
		err, warn := traitCompile(t, c.traits, c.rules)
		if err != c.err {
			t.Errorf("traits: %s rules: %s\n got: %s\nwant: %s", c.traits, c.rules, err, c.err)
		}
		if warn != c.warn {
			t.Errorf("traits: %s rules: %s\n got warning: %s\nwant warning: %s", c.traits, c.rules, warn, c.warn)
		}
	}
}

// Parameters and house rules are --set paths: a trait's params by the
// trait's name, a house rule switched off with rules.NAME.enabled=false.
func TestTraitSetPaths(t *testing.T) {
	sneak := "[{name: Sneak Attack, use: sneak_attack}]"
	house := "[{name: Brutal, on: hit, do: damage += 1}]"
	if err, _ := traitCompile(t, sneak, house, scenario.Set{Path: "heroes.Fighter.traits.Sneak Attack.params.dice", Value: "4d6"}, scenario.Set{Path: "rules.Brutal.enabled", Value: "false"}); err != "" {
		t.Fatal(err)
	}
	err, _ := traitCompile(t, sneak, house, scenario.Set{Path: "heroes.Fighter.traits.Sneak Atack.params.dice", Value: "4d6"})
	if want := `--set heroes.Fighter.traits.Sneak Atack.params.dice=4d6: no entry named "Sneak Atack" in the list (did you mean "Sneak Attack"?) (names: Sneak Attack)`; !strings.Contains(err, want) {
		t.Errorf("got %s\nwant it to contain %s", err, want)
	}
	err, _ = traitCompile(t, sneak, house, scenario.Set{Path: "heroes.Fighter.traits.Sneak Attack.params.dice", Value: "lots"})
	if want := `parameter dice: "lots" is neither a number nor dice`; !strings.Contains(err, want) {
		t.Errorf("got %s\nwant it to contain %s", err, want)
	}
}

// The --set values reach the run: 4d6 sneak attack adds more than 2d6, and
// a house rule switched off has no counters.
func TestTraitSetReachesTheRun(t *testing.T) {
	sneak := "[{name: Sneak Attack, use: sneak_attack, params: {dice: 1}}]"
	house := "[{name: Brutal, on: hit, do: damage += 1}]"
	run := func(sets ...scenario.Set) []int64 {
		src := strings.Replace(strings.Replace(traitScenario, "%s", sneak, 1), "%s", house, 1)
		sc, err := scenario.Load("t.yaml", []byte(src+"options: {}\n"), sets, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		sc.Sides[1].Aware = false // the Orc starts flat-footed (surprise round)
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		return runGame(t, g, 2000).Counts.Rules
	}
	base := run()
	if len(base) != 6 { // Brutal (fired, added) for each of two, Sneak Attack for the Fighter
		t.Fatalf("%d trait counters, want 6: %v", len(base), base)
	}
	// Sneak Attack's counters follow the house rule's for the Fighter.
	set := run(scenario.Set{Path: "heroes.Fighter.traits.Sneak Attack.params.dice", Value: "4d6"})
	if base[3] != base[2] || set[3] <= 4*set[2] {
		t.Errorf("params.dice=4d6 did not reach the run: added %d over %d firings (a constant 1 gave %d over %d)", set[3], set[2], base[3], base[2])
	}
	if off := run(scenario.Set{Path: "rules.Brutal.enabled", Value: "false"}); len(off) != 2 {
		t.Errorf("rules.Brutal.enabled=false left %d counters, want Sneak Attack's 2", len(off))
	}
}

// Power Attack is two traits from one library entry: the trade leaves the
// attack bonus and comes back as damage, multiplied by a critical (a flat
// bonus, unlike extra dice); its params: set both.
func TestTraitPowerAttack(t *testing.T) {
	src := `name: pa
ruleset: d20
max_rounds: 1
distance: 0
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 1000, ac: 17, attacks: [6], damage: 0, crit: 20/x3, traits: [{name: Power Attack, use: power_attack, params: {trade: 3}}]}
  - name: monsters
    combatants:
      - {name: Dummy, hp: 1000, ac: 1, attacks: [-20], damage: 1}
`
	sc, err := scenario.Load("pa.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	tally := runGame(t, g, 20000)
	r := tally.Counts.Rules // attack_roll fired, added; hit fired, added
	if len(r) != 4 || r[1] != -3*r[0] {
		t.Fatalf("counters %v: want 4, the attack trait taking 3 each time", r)
	}
	// AC 1: every roll but a natural 1 hits; a natural 20 threatens and
	// confirms unless the confirmation is a 1. Damage 0 +3 (x3 on a
	// critical); per hit the mean added is 3 * (1 + 2 * P(crit | hit)).
	pCrit := (1.0 / 19) * (19.0 / 20)
	mean := float64(r[3]) / float64(r[2])
	if want := 3 * (1 + 2*pCrit); mean < want-0.05 || mean > want+0.05 {
		t.Errorf("Power Attack adds %.3f damage per hit, want %.3f (x3 on a critical)", mean, want)
	}
}

// simctl find reads tactics rules, not traits: a trait's name is no rule
// there (its "added" counter would otherwise read as fall-throughs).
func TestTraitNotAFindRule(t *testing.T) {
	src := strings.Replace(strings.Replace(traitScenario, "%s", "[{name: SA, on: hit, do: damage += 1}]", 1), "%s", "[]", 1)
	sc, err := scenario.Load("t.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	p := experiment.NewProbe(g, [2]string{"heroes", "orcs"})
	if _, err := p.Condition(`rule("SA").fell > 0`); err == nil {
		t.Errorf("find accepts the trait SA as a tactics rule")
	}
}

// A result rebuilds the exact tally it came from (resume), trait counters
// and tactics counters each back at their index.
func TestTraitResultTallyRoundTrip(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/d20/rogue.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := compileYAML(t, "rogue", string(data))
	tally := runGame(t, g, 3000)
	r := results.New(results.Meta{}, g, tally)
	if len(r.Raw.Traits) == 0 || len(r.Raw.Tactics) == 0 {
		t.Fatalf("the rogue has tactics and traits: %d and %d counters", len(r.Raw.Tactics), len(r.Raw.Traits))
	}
	back := r.Tally(g)
	if !reflect.DeepEqual(back.Counts.Rules, tally.Counts.Rules) {
		t.Errorf("rule counters %v, rebuilt %v", tally.Counts.Rules, back.Counts.Rules)
	}
}
