package acks2_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"simctl/rulesets/acks2"
	"simctl/sim"
	"simctl/sim/rng"
)

// Traits in ACKS II (issue 33): the Go rule charge_bonus written as the
// library trait charge_bonus gives byte-identical counts over 10^6
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

func TestTraitChargeBonusIsTheGoRule(t *testing.T) {
	n := encounters(1_000_000, 300_000)
	if raceEnabled {
		n = 20_000 // the same identity on fewer: the ordinary go test plays the million
	}
	data, err := os.ReadFile("../../scenarios/acks2/spearmen-vs-cavalry.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	const rider = "{name: Wolf Rider, count: 4,"
	if !strings.Contains(src, rider) {
		t.Fatal("spearmen-vs-cavalry.yaml no longer has the Wolf Riders")
	}
	// The riders charge; their charges' +2 comes from the option (the Go
	// rule) or from the trait with the option at 0.
	trait := strings.Replace(src, rider, rider+" traits: [charge_bonus],", 1)
	trait = strings.Replace(trait, "max_rounds: 30", "max_rounds: 30\noptions: {charge_bonus: 0}", 1)
	plain := strings.Replace(src, "max_rounds: 30", "max_rounds: 30\noptions: {charge_bonus: 0}", 1)
	goRule := compileYAML(t, src)
	if reflect.DeepEqual(runGame(t, goRule, 1, 5000).Counts.Sides, runGame(t, compileYAML(t, plain), 1, 5000).Counts.Sides) {
		t.Fatal("the charge bonus changed nothing in this scenario: the test shows nothing")
	}
	a := runGame(t, goRule, 1, n)
	b := runGame(t, compileYAML(t, trait), 1, n)
	sameTally(t, a, b)
	if b.Counts.Rules[0] == 0 {
		t.Errorf("the trait never fired")
	}
	var added int64
	for k := 1; k < len(b.Counts.Rules); k += 2 {
		added += b.Counts.Rules[k] - 2*b.Counts.Rules[k-1]
	}
	if added != 0 {
		t.Errorf("the trait added other than +2 per firing (%d off)", added)
	}
}

// pinned: A (number 6) and B (number 2) in melee; A hits on 11+ against AC
// 0 with attack throw 10: d20 >= 10.
func pinned(a, b, rules string) string {
	return head + "distance: 0\nmax_rounds: 1\n" + rules + `sides:
  - name: a
    combatants:
      - {name: A, hp: 30, ac: 0, initiative_roll: 6, damage: 4, policy: test-script` + a + `}
  - name: b
    combatants:
      - {name: B, hp: 30, ac: 0, initiative_roll: 2, damage: 3, policy: test-script` + b + `}
`
}

func TestTraitHooks(t *testing.T) {
	// The initiative order and who attacks, from the events.
	for _, c := range []struct {
		name, a, b, rules string
		pats              []string
		not               string
	}{
		{name: "initiative", b: ", traits: [{use: combat_reflexes, params: {bonus: 4}}]",
			pats: []string{"trait B rule='Combat Reflexes'", "initiative B roll=6 rule=called", "initiative A roll=6 rule=called"}},
		{name: "segment lost", a: ", traits: [{name: Slow, on: segment, do: spend action}]",
			pats: []string{"lost A rule=trait", "attack B A"}, not: "attack A B"},
		{name: "two actions", a: ", traits: [{name: Fast, on: segment, do: grant action}]",
			pats: []string{"attack A B", "attack A B", "attack B A"}},
		{name: "dazed", b: ", traits: [{name: Stun, on: round_start, do: apply dazed to self for 1 round}]",
			pats: []string{"lost B rule=trait"}, not: "attack B A"},
		{name: "attack throw", a: ", traits: [{name: Sure, on: attack_throw, do: attack += 30}]",
			pats: []string{"attack A B ok=true"}},
		{name: "attacked", b: ", traits: [{name: Plate, on: attacked, do: ac += 30}]",
			pats: []string{"attack A B ok=false"}},
		{name: "house rule for a side", rules: "rules:\n  - {name: Hard, side: b, on: attacked, do: ac += 30}\n",
			pats: []string{"attack A B ok=false"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := compileYAML(t, pinned(c.a, c.b, c.rules))
			log, _, _ := find(t, g, func(r run) bool { return !has(r, "attack * * die=20") && !has(r, "attack * * die=1") })
			inOrder(t, log, c.pats...)
			if c.not != "" {
				absent(t, log, c.not)
			}
		})
	}
}

// Damage: a hit deals at least 1 after the attacker's traits, and damage
// reduction never takes it below 0; morale: the modifier changes.
func TestTraitDamageAndMorale(t *testing.T) {
	g := compileYAML(t, pinned(", traits: [{name: Weak, on: hit, do: damage -= 10}]", ", traits: [{name: DR, on: hit_taken, do: damage -= 1}]", ""))
	log, _, _ := find(t, g, func(r run) bool { return has(r, "attack A B ok=true") })
	if !strings.Contains(log.text, "Weak: damage -= 10 (damage 4 -> -6)") || !strings.Contains(log.text, "DR: damage -= 1 (damage 1 -> 0)") {
		t.Errorf("want 4 -> -6, the minimum 1, then 1 -> 0:\n%s", log)
	}
	src := head + "distance: 0\nmax_rounds: 2\noptions: {morale_trigger: half_hp}\n" + `sides:
  - name: a
    combatants:
      - {name: A, hp: 30, ac: 0, initiative_roll: 6, damage: 20, policy: test-script}
  - name: b
    combatants:
      - {name: B, hp: 30, ac: 0, initiative_roll: 2, damage: 1, policy: test-script, traits: [{use: steadfast, params: {bonus: 100}}]}
`
	g = compileYAML(t, src)
	log, _, _ = find(t, g, func(r run) bool { return has(r, "morale B") })
	inOrder(t, log, "trait B rule=Steadfast", "morale B ok=true")
}

func TestTraitErrors(t *testing.T) {
	for _, c := range []struct{ a, want string }{
		{", traits: [{name: X, on: turn_start, do: damage += 1}]", `acks2 has no moment "turn_start"`},
		{", traits: [{name: X, on: morale, do: damage += 1}]", "damage does not exist at morale"},
		{", traits: [chargebonus]", `did you mean "charge_bonus"?`},
	} {
		err := compileErr(pinned(c.a, "", ""))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.a, err, c.want)
		}
	}
}

func TestTraitsNoAllocs(t *testing.T) {
	g := compileYAML(t, pinned(", traits: [charge_bonus, combat_reflexes, brutal_critical]", ", traits: [steadfast]", "")).(*acks2.Game)
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
