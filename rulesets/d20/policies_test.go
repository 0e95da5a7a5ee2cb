package d20_test

// Tests of the d20 policies of package agents that the referee's rules
// depend on (the internal rule tests cannot import agents).

import (
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	"simctl/rulesets/d20"
	"simctl/sim"
	"simctl/sim/scenario"
)

// The counterspell policy readies only while a counterspell can work: an
// enemy has a use left of a spell the counterspeller can cast too. With one
// bolt against three, it counters once and then acts as default; it never
// readies a counterspell it cannot cast (the referee would never fire it).
func TestCounterspellPolicyNeedsTheSameSpell(t *testing.T) {
	src := `
name: counterspell-policy
ruleset: d20
max_rounds: 4
distance: 100
sides:
  - name: a
    combatants:
      - {name: R, hp: 1000, ac: 10, attacks: [30], damage: 1, initiative_roll: 20, spellcraft: 100, spells: [{name: bolt, damage: 3, level: 2}], policy: counterspell}
      - {name: F, hp: 1000, ac: 10, attacks: [30], damage: 1, initiative_roll: 15, spellcraft: 100, spells: [{name: frost, damage: 3, level: 2}], policy: {name: ready, trigger: enemy_casts, action: counterspell, when: always}}
  - name: b
    combatants:
      - {name: K, hp: 1000, ac: 10, attacks: [30], damage: 1, initiative_roll: 10, spells: [{name: bolt, damage: 3, level: 2, uses: 3}]}
`
	sc, err := scenario.Load("counterspell-policy.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	_, tally := sim.Replay(g, 1, 0, &sim.Log{W: &sb})
	c := &tally.Counts
	if got := c.Get(0, sim.Readies); got != 1 {
		t.Errorf("side a readied %d times, want 1 (R once; F never: it has no bolt)\n%s", got, sb.String())
	}
	if c.Get(0, d20.Counterspells) != 1 || c.Get(0, sim.ReadiesWasted) != 0 {
		t.Errorf("counterspells %d readies_wasted %d, want 1 and 0\n%s", c.Get(0, d20.Counterspells), c.Get(0, sim.ReadiesWasted), sb.String())
	}
}
