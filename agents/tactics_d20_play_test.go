package agents_test

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// A pinned fight where every decision is known: Fighter (initiative 20)
// waits for the Wizard (15) in round 1 only; the Wizard casts its one bolt,
// then attacks; the Orc (10, 1000 hp, AC 100 so nothing hits it and it
// never hits) is never in reach of the Wizard's "in reach" rule.
const pinned = `
name: pinned
ruleset: d20
max_rounds: 3
distance: 0
sides:
  - name: heroes
    combatants:
      - name: Fighter
        hp: 40
        ac: 100
        attacks: [0]
        damage: 1
        initiative_roll: 20
        tactics:
          params: {first: 1}
          turn:
            - name: wait
              when: round <= $first and not ally("Wizard").acted
              do: delay until Wizard
            - name: hit
              do: attack
      - name: Wizard
        hp: 40
        ac: 100
        attacks: [0]
        damage: 1
        initiative_roll: 15
        spells: [{name: bolt, damage: 1, level: 1, uses: 1}]
        tactics:
          turn:
            - {name: blast, do: cast bolt}
            - {name: far, when: enemies.nearest > 5, do: attack}
            - {name: poke, do: attack, target: weakest in reach}
  - name: orcs
    combatants:
      - {name: Orc, hp: 1000, ac: 100, attacks: [0], damage: 1, initiative_roll: 10}
`

func load(t *testing.T, src string, sets ...scenario.Set) sim.Game {
	t.Helper()
	sc, err := scenario.Load("pinned.yaml", []byte(src), sets, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func counts(g sim.Game, tally *sim.Tally) map[string]int64 {
	out := map[string]int64{}
	roster := g.Roster()
	for k, rc := range g.(sim.RuleGame).RuleCounters() {
		if n := tally.Counts.Rules[k]; n > 0 {
			out[roster[rc.Combatant].Name+" "+rc.Rule+" "+rc.Event] = n
		}
	}
	return out
}

func TestD20TacticsPinnedCounts(t *testing.T) {
	g := load(t, pinned)
	log, ev, tally := traced(g, 1, 0)
	want := map[string]int64{
		// Round 1: Fighter waits (fired), then resumes after the Wizard:
		// its delayed turn re-asks, and wait falls through (the Wizard
		// has acted, so the condition is false: hit fires).
		"Fighter wait fired": 1,
		"Fighter hit fired":  3, // the delayed action in round 1, rounds 2 and 3
		"Wizard blast fired": 1,
		"Wizard blast fell through: no use of the spell left": 2,
		"Wizard poke fired": 2,
	}
	if got := counts(g, tally); !reflect.DeepEqual(got, want) {
		t.Errorf("rule counts\n got %v\nwant %v\n%s", got, want, log)
	}
	ev.InOrder(t, "rule Fighter rule=turn/wait ok=true round=1", "delay Fighter Wizard",
		"rule Wizard rule=turn/blast ok=true", "spell Wizard Orc rule=bolt",
		"rule Wizard rule=turn/blast ok=false", "rule Wizard rule=turn/poke ok=true", "attack Wizard Orc")
	// The narration's wording, d20's variant of the driver's (one moment,
	// the plan decided): checked here once.
	for _, line := range []string{
		`Fighter: tactics rule wait (when round <= $first and not ally("Wizard").acted: round=1, ally("Wizard").acted=0) decides: delay until Wizard has acted`,
		"Wizard: tactics rule blast (always): cast falls through: no use of the spell left",
	} {
		if !strings.Contains(log, line) {
			t.Errorf("trace lacks %q:\n%s", line, log)
		}
	}
	// The parameter is a --set path: with first=0 the Fighter never waits.
	g = load(t, pinned, scenario.Set{Path: "heroes.Fighter.tactics.params.first", Value: "0"})
	_, tally = sim.Replay(g, 1, 0, nil)
	if got := counts(g, tally); got["Fighter wait fired"] != 0 || got["Fighter hit fired"] != 3 {
		t.Errorf("with first=0: %v", got)
	}
}

// Rule counts are exact integers: the same whatever the worker count, and
// shard results merge into the single-process result.
func TestD20TacticsCountsDeterministic(t *testing.T) {
	data, _, _ := readBuiltin("d20/tactics-combo")
	g := load(t, string(data))
	one, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 3, N: 5000, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	four, _ := sim.Run(context.Background(), g, sim.RunConfig{Seed: 3, N: 5000, Workers: 4})
	if !reflect.DeepEqual(one, four) {
		t.Fatal("rule counts depend on the worker count")
	}
	a, _ := sim.Run(context.Background(), g, sim.RunConfig{Seed: 3, N: 2000, Workers: 2})
	b, _ := sim.Run(context.Background(), g, sim.RunConfig{Seed: 3, Start: 2000, N: 3000, Workers: 3})
	ra := results.New(results.Meta{Scenario: "x", Seed: 3, Shard: &results.Shard{K: 0, Of: 2, Start: 0, N: 2000, Total: 5000}}, g, a)
	rb := results.New(results.Meta{Scenario: "x", Seed: 3, Shard: &results.Shard{K: 1, Of: 2, Start: 2000, N: 3000, Total: 5000}}, g, b)
	m, err := results.Merge([]*results.Result{ra, rb})
	if err != nil {
		t.Fatal(err)
	}
	whole := results.New(results.Meta{Scenario: "x", Seed: 3}, g, one)
	if !reflect.DeepEqual(m.Raw.Tactics, whole.Raw.Tactics) || len(whole.Raw.Tactics) == 0 {
		t.Errorf("merged rule counts differ from the single run:\n%v\n%v", m.Raw.Tactics, whole.Raw.Tactics)
	}
	whole.Sides = []results.SideResult{{Name: "heroes"}, {Name: "raiders"}}
	var text strings.Builder
	reports.WriteResultText(whole, &text, i18n.En)
	if !strings.Contains(text.String(), "\ntactics (per encounter") || !regexp.MustCompile(`Pikeman +turn +set spear +fired +[0-9,]+ +0\.[0-9]{3}`).MatchString(text.String()) {
		t.Errorf("the text table has no tactics section:\n%s", text.String())
	}
}

func readBuiltin(name string) ([]byte, string, bool) { return scenarios.Read(name) }

// A side's block is compiled for each combatant of the side: a rule naming
// one of them is that combatant's own flag (ally("Wizard").acted) or, for
// delay until itself, a rule it skips.
func TestD20SideTactics(t *testing.T) {
	g := load(t, `
ruleset: d20
distance: 20
sides:
  - name: a
    tactics:
      turn:
        - {name: wait, when: 'not ally("Wizard").acted and not ally("Wizard").down', do: delay until Wizard}
        - {name: hit, do: attack}
    combatants:
      - {name: Fighter, hp: 20, ac: 15, attacks: [5], damage: 1d8, initiative_roll: 20}
      - {name: Wizard, hp: 10, ac: 12, attacks: [1], damage: 1d4, initiative_roll: 10}
  - name: b
    combatants:
      - {name: Orc, hp: 1000, ac: 100, attacks: [0], damage: 1, initiative_roll: 1}
`)
	var rules []string
	for _, rc := range g.(sim.RuleGame).RuleCounters() {
		if rc.Event == "fired" {
			rules = append(rules, g.Roster()[rc.Combatant].Name+" "+rc.Rule)
		}
	}
	if want := "Fighter wait, Fighter hit, Fighter fallback, Wizard hit, Wizard fallback"; strings.Join(rules, ", ") != want {
		t.Errorf("rules %v, want %s", rules, want)
	}
	_, tally := sim.Replay(g, 1, 0, nil)
	if got := counts(g, tally); got["Fighter wait fired"] != 1 {
		t.Errorf("counts %v: the Fighter waits once (round 1), then acts after the Wizard", got)
	}
}
