package agents_test

import (
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// traceOf plays encounter (seed, 0) of src narrated.
func traceOf(t *testing.T, src string, seed uint64) string {
	t.Helper()
	g := load(t, src)
	c := sim.NewCounts(len(g.Counters()))
	var sb strings.Builder
	g.NewTable().Play(rng.New(seed, 0), &c, &sim.Log{W: &sb})
	return sb.String()
}

// Issue 24 item 4: facts that lied. In the surprise round the unaware U
// (count 10) gets no turn, so after A (20) the next actor is its ally C
// (5), not U; one standard action reaches a charge of speed (35 ft with
// reach), not twice speed, so U at 50 ft is not reachable; C, aware but
// flat-footed until its first regular turn, has AC 20 - dex_ac 4 = 16.
// In round 1 W, dropped by A's spell, no longer counts toward C's place.
func TestD20FactsTellTheTruth(t *testing.T) {
	src := `
name: facts
ruleset: d20
max_rounds: 1
distance: 50
sides:
  - name: a
    combatants:
      - name: A
        hp: 1000
        ac: 10
        attacks: [30]
        damage: 1
        crit: none
        speed: 30
        initiative_roll: 20
        spells: [{name: bolt, damage: 50, level: 1}]
        tactics:
          turn:
            - {name: look, when: "surprise_round and next_actor.is_ally and not next_actor.is_enemy and enemies.reachable == 0", do: delay to -5}
            - {name: kill, when: "not surprise_round", do: cast bolt, target: W}
      - name: C
        hp: 1000
        ac: 20
        dex_ac: 4
        attacks: [30]
        damage: 1
        crit: none
        initiative_roll: 5
        tactics:
          turn:
            - {name: flat, when: "surprise_round and self.ac == 16", do: delay to -5}
            - {name: third, when: "not surprise_round and self.position == 3", do: attack}
  - name: b
    aware: false
    combatants:
      - {name: U, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 10}
      - {name: W, hp: 1, ac: 10, attacks: [-100], damage: 1, crit: none, initiative_roll: 15}
`
	tr := traceOf(t, src, 1)
	for _, want := range []string{
		"A: tactics rule look (when surprise_round and next_actor.is_ally and not next_actor.is_enemy and enemies.reachable == 0: surprise_round=1, next_actor.is_ally=1, next_actor.is_enemy=0, enemies.reachable=0) decides",
		"C: tactics rule flat (when surprise_round and self.ac == 16: surprise_round=1, self.ac=16) decides",
		"A's bolt deals 50 to W",
		"C: tactics rule third (when not surprise_round and self.position == 3: surprise_round=0, self.position=3) decides",
	} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q\n%s", want, tr)
		}
	}
}
