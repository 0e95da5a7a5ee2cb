package lotm

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// Traits in LotM (issue 33): the Go rule "Physical Defense = ac + dodge +
// agility, Caught Off Guard loses dodge" for the dodge part, written as
// the library trait dodge, gives byte-identical counts over 10^6
// encounters; each hook does what its moment says.

// sameTally reports whether two runs counted alike in everything but the
// trait counters (which only the trait form has).
func sameTally(t *testing.T, a, b *sim.Tally) {
	t.Helper()
	x, y := *a, *b
	x.Counts.Rules, y.Counts.Rules = nil, nil
	if !reflect.DeepEqual(x, y) {
		t.Errorf("the Go rule and the trait differ:\n Go:    wins %v draws %d counts %v\n trait: wins %v draws %d counts %v",
			a.Wins, a.Draws, a.Counts.Sides, b.Wins, b.Draws, b.Counts.Sides)
	}
}

func runTally(t *testing.T, g *Game, n int64) *sim.Tally {
	t.Helper()
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 11, N: n, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

// dodgeFight: the Cultists ambush (the Investigators are Caught Off Guard
// in the Ambush Round), and the Feinter's feints catch its target off
// guard later: the dodge counts only when they are not.
const dodgeFight = `name: dodge
ruleset: lotm
max_rounds: 30
distance: 0
sides:
  - name: heroes
    aware: false
    policy: test
    combatants:
      - {name: Investigator, count: 2, hp: 18, ac: 8, DODGE agility: 3, attacks: [5], damage: 1d8+2, investigation: 1}
  - name: monsters
    policy: test
    combatants:
      - {name: Cultist, hp: 20, ac: 9, dodge: 1, agility: 2, attacks: [4], damage: 1d8+2, stealth: 4}
      - {name: Feinter, hp: 16, ac: 9, agility: 2, attacks: [4], damage: 1d6+1, deception: 4}
`

func dodgeGame(t *testing.T, dodge string) *Game {
	g := compile(t, strings.Replace(dodgeFight, "DODGE", dodge, 1))
	pol(t, g, "Feinter").plan = Plan{Main: MainAttack, Swift: SwiftFeint}
	return g
}

func TestTraitDodgeIsTheGoRule(t *testing.T) {
	n := int64(1_000_000)
	if testing.Short() {
		n /= 3
	}
	if raceEnabled {
		n = 20_000 // the same identity on fewer: the ordinary go test plays the million
	}
	goRule := dodgeGame(t, "dodge: 3,")
	trait := dodgeGame(t, "traits: [{use: dodge, params: {dodge: 3}}],")
	plain := dodgeGame(t, "")
	if reflect.DeepEqual(runTally(t, goRule, 5000).Counts.Sides, runTally(t, plain, 5000).Counts.Sides) {
		t.Fatal("dodge changed nothing in this fight: the test shows nothing")
	}
	a, b := runTally(t, goRule, n), runTally(t, trait, n)
	sameTally(t, a, b)
	// Both Investigators' traits fired, and not at every check made at
	// them: the Caught Off Guard ones lack it.
	if b.Counts.Rules[0] == 0 || b.Counts.Rules[2] == 0 {
		t.Errorf("the trait never fired: %v", b.Counts.Rules)
	}
	if b.Counts.Rules[1] != 3*b.Counts.Rules[0] {
		t.Errorf("added %d over %d firings, want 3 each", b.Counts.Rules[1], b.Counts.Rules[0])
	}
	if a.Counts.Get(1, Feints) == 0 || a.Counts.Get(1, FeintsWon) == 0 {
		t.Errorf("no feint won: the Caught Off Guard case is not exercised")
	}
}

// hooks: A (initiative 20) hits on a d20 of 10 or more against T's
// Physical Defense 10 + its bonus 0; T (initiative 1) never hits A.
const hooksFight = `name: hooks
ruleset: lotm
RULES
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 30, ac: 30, attacks: [0], damage: 4, initiative_roll: 20 A}
  - name: b
    policy: test
    combatants:
      - {name: T, hp: 30, ac: 10, attacks: [0], damage: 3, initiative_roll: 1 T}
`

func hooks(t *testing.T, a, b, rules string) *Game {
	s := strings.Replace(hooksFight, " A}", a+"}", 1)
	s = strings.Replace(s, " T}", b+"}", 1)
	if !strings.Contains(rules, "max_rounds") {
		rules = "max_rounds: 1\n" + rules
	}
	return compile(t, strings.Replace(s, "RULES", rules, 1))
}

func TestTraitHooks(t *testing.T) {
	// The d20s: A's check, T's check (no tie re-roll: 20 and 1 differ).
	p := play(t, hooks(t, "", "", ""), 10, 10)
	inOrder(t, p.log, "attack A T ok=true", "damage A T amount=4", "attack T A ok=false")

	p = play(t, hooks(t, "", ", traits: [{use: alert, params: {bonus: 30}}]", ""), 10, 10)
	inOrder(t, p.log, "trait T rule=Alert", "turn T", "turn A")

	p = play(t, hooks(t, ", traits: [{name: Off, on: hit_check, do: attack -= 1}]", "", ""), 10, 10)
	inOrder(t, p.log, "attack A T ok=false")

	p = play(t, hooks(t, "", ", traits: [{name: Guard, on: hit_checked, do: defense += 1}]", ""), 10, 10)
	inOrder(t, p.log, "attack A T ok=false")

	p = play(t, hooks(t, ", traits: [{name: Heavy, on: hit, do: damage += 2}]", ", traits: [{use: tough, params: {amount: 9}}]", ""), 10, 10)
	inOrder(t, p.log, "trait A rule=Heavy roll=4 amount=6", "trait T rule=Tough roll=6 amount=0", "damage A T amount=0")

	p = play(t, hooks(t, "", ", traits: [{name: Daze, on: hit_checked, do: apply dazed to attacker for 2 rounds}]", "max_rounds: 2"), 10, 10, 10)
	inOrder(t, p.log, "lost A rule=trait")

	// A house rule for side b only.
	p = play(t, hooks(t, "", "", "rules:\n  - {name: Ward, side: b, on: hit_checked, do: defense += 1}"), 10, 10)
	inOrder(t, p.log, "trait T rule=Ward", "attack A T ok=false")
}

func TestTraitErrors(t *testing.T) {
	for _, c := range []struct{ a, want string }{
		{", traits: [{name: X, on: attack, do: damage += 1}]", `lotm has no moment "attack"`},
		{", traits: [{name: X, on: turn_start, do: damage += 1}]", "damage does not exist at turn_start"},
		{", traits: [toughh]", `did you mean "tough"?`},
	} {
		s := strings.Replace(strings.Replace(strings.Replace(hooksFight, " A}", c.a+"}", 1), " T}", "}", 1), "RULES", "max_rounds: 1", 1)
		err := compileErr(t, s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.a, err, c.want)
		}
	}
}

func TestTraitsNoAllocs(t *testing.T) {
	g := dodgeGame(t, "traits: [dodge, alert, tough, marksman],")
	tb := g.NewTable()
	c := sim.NewCounts(len(g.Counters()))
	c.Rules = make([]int64, len(g.RuleCounters()))
	var r rng.Stream
	var seed uint64
	if allocs := testing.AllocsPerRun(200, func() {
		r.Seed(1, seed)
		seed++
		tb.Play(&r, &c, nil)
	}); allocs != 0 {
		t.Errorf("%v allocations per encounter, want 0", allocs)
	}
}
