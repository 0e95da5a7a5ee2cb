package agents_test

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// ally("NAME").charged and enemy("NAME").charged (issue 24): A's rules
// read whether its ally C or the enemy E charged on its last turn (-2 AC
// until its next). C (count CINIT) acts with CDO, E (15) with EDO against
// A, then A (10); 30 ft apart, so a charge reaches.
const d20Charged = `
name: charged
ruleset: d20
max_rounds: 2
distance: 30
sides:
  - name: a
    combatants:
      - {name: C, hp: 1000, ac: 10, attacks: [0], damage: 1, crit: none, speed: 30, initiative_roll: CINIT, tactics: {turn: [{do: CDO, target: E}]}}
      - name: A
        hp: 1000
        ac: 10
        attacks: [0]
        damage: 1
        crit: none
        speed: 30
        initiative_roll: 10
        tactics:
          turn:
            - {name: ally charged, when: 'ally("C").charged', do: attack}
            - {name: enemy charged, when: 'enemy("E").charged', do: attack}
            - {name: none charged, do: attack}
  - name: b
    combatants:
      - {name: E, hp: 1000, ac: 10, attacks: [0], damage: 1, crit: none, speed: 30, initiative_roll: 15, tactics: {turn: [{do: EDO, target: A}]}}
`

func TestD20ChargedFacts(t *testing.T) {
	for _, c := range []struct {
		cinit, cdo, edo string
		round1          string // the rule of A's that decides in round 1
	}{
		{"20", "charge", "attack", "ally charged"}, // C charges E first; E, engaged, attacks
		{"5", "attack", "charge", "enemy charged"}, // E charges A; A acts before C
		{"20", "attack", "attack", "none charged"},
	} {
		src := strings.NewReplacer("CINIT", c.cinit, "CDO", c.cdo, "EDO", c.edo).Replace(d20Charged)
		sc, err := scenario.Load("charged.yaml", []byte(src), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		cnt := sim.NewCounts(len(g.Counters()))
		var sb strings.Builder
		g.NewTable().Play(rng.New(1, 0), &cnt, &sim.Log{W: &sb})
		log := sb.String()
		r2 := strings.Index(log, "-- round 2")
		if r2 < 0 {
			t.Fatalf("no round 2:\n%s", log)
		}
		decides := func(part, rule string) bool {
			return strings.Contains(part, "A: tactics rule "+rule+" (") && strings.Contains(part[strings.Index(part, "A: tactics rule "+rule+" ("):], ") decides")
		}
		if !decides(log[:r2], c.round1) {
			t.Errorf("C %s, E %s: in round 1 A's rule %q does not decide:\n%s", c.cdo, c.edo, c.round1, log)
		}
		// The -2 AC lasts until the charger's next turn: in round 2 neither
		// charges again (already engaged), so no charge is remembered.
		if !decides(log[r2:], "none charged") {
			t.Errorf("C %s, E %s: in round 2 a charge is still remembered:\n%s", c.cdo, c.edo, log)
		}
	}
}
