package d20_test

// Go rules re-expressed as data (issue 33 item 4): the library traits
// uncanny_dodge and precise_shot give counts byte-identical to the fields
// uncanny_dodge: true and precise_shot: true over 10^6 encounters, so the
// trait path is the referee's own path, not a parallel model.

import (
	"reflect"
	"strings"
	"testing"

	"simctl/sim"
)

// sameTally reports whether two runs counted alike in everything but the
// trait counters (which only the trait form has).
func sameTally(t *testing.T, a, b *sim.Tally) {
	t.Helper()
	x, y := *a, *b
	x.Counts.Rules, y.Counts.Rules = nil, nil
	if !reflect.DeepEqual(x, y) {
		t.Errorf("the Go rule and the trait differ:\n Go:    wins %v draws %d rounds mean %.6f counts %v\n trait: wins %v draws %d rounds mean %.6f counts %v",
			a.Wins, a.Draws, a.Rounds.Mean(), a.Counts.Sides, b.Wins, b.Draws, b.Rounds.Mean(), b.Counts.Sides)
	}
}

func TestTraitUncannyDodgeIsTheGoRule(t *testing.T) {
	n := encounters(1_000_000)
	if raceEnabled {
		n = 20_000 // the same identity on fewer: the ordinary go test plays the million
	}
	orc := drOrc.yaml()
	goRule := strings.Replace(orc, "}", ", uncanny_dodge: true}", 1)
	trait := strings.Replace(orc, "}", ", traits: [uncanny_dodge]}", 1)
	fighter := duelFighter.yaml()
	src := func(o string) string {
		return "name: uncanny\nruleset: d20\nmax_rounds: 200\ndistance: 0\nsides:\n  - name: heroes\n    combatants:\n      - " + fighter +
			"\n  - name: monsters\n    aware: false\n    combatants:\n      - " + o + "\n"
	}
	a := runGame(t, compileYAML(t, "go", src(goRule)), n)
	b := runGame(t, compileYAML(t, "trait", src(trait)), n)
	plain := runGame(t, compileYAML(t, "none", src(orc)), n)
	sameTally(t, a, b)
	if a.Wins == plain.Wins {
		t.Fatalf("uncanny dodge changed nothing in this duel (wins %v): the test shows nothing", a.Wins)
	}
	if fired := b.Counts.Rules[0]; fired == 0 {
		t.Errorf("the trait never fired")
	}
}

// preciseScenario: an archer shoots at an orc engaged with its fighter
// friend (-4 into a melee without Precise Shot); small, so that 10^6
// encounters stay cheap.
const preciseScenario = `name: precise shot
ruleset: d20
max_rounds: 50
distance: 30
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 20, ac: 17, dex_ac: 1, attacks: [5], damage: 1d8+2}
      - {name: Archer, hp: 10, ac: 14, dex_ac: 3, init: 3, attacks: [1], damage: 1d4, precise_shot: true,
         ranged: {bonus: [5, 0], damage: 1d8, crit: 20/x3, increment: 100},
         tactics: {turn: [{name: fire, when: "enemies.in_range > 0", do: shoot}, {name: melee, do: attack}]}}
  - name: orcs
    combatants:
      - {name: Orc, hp: 25, ac: 13, attacks: [5], damage: 1d12+3, crit: 20/x3}
`

func TestTraitPreciseShotIsTheGoRule(t *testing.T) {
	n := encounters(1_000_000)
	if raceEnabled {
		n = 20_000 // the same identity on fewer: the ordinary go test plays the million
	}
	src := preciseScenario
	trait := strings.Replace(src, "precise_shot: true,", "traits: [precise_shot],", 1)
	plain := strings.Replace(src, "precise_shot: true,", "", 1)
	// Without Precise Shot the counts differ already in a few thousand.
	if reflect.DeepEqual(runGame(t, compileYAML(t, "go", src), 5000).Counts.Sides, runGame(t, compileYAML(t, "none", plain), 5000).Counts.Sides) {
		t.Fatalf("Precise Shot changed nothing in this scenario: the test shows nothing")
	}
	a := runGame(t, compileYAML(t, "go", src), n)
	b := runGame(t, compileYAML(t, "trait", trait), n)
	sameTally(t, a, b)
	if fired := b.Counts.Rules[len(b.Counts.Rules)-2]; fired == 0 {
		t.Errorf("the trait never fired")
	}
}
