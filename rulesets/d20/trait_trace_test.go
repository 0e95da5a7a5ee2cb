package d20

import (
	"regexp"
	"strings"
	"testing"
)

// TestTraitTraceNamesParams: a trace line of a trait whose effect takes
// a parameter names the value this trait played (damage += 2d6), not the
// library's placeholder ($dice): sneak attack's dice, power attack's
// trade in its expression, and a scenario trait's own params:. The Rogue acts first, so the Orc is flat-footed
// and every hit of round 1 sneak-attacks; each effect's change is checked
// against the value it names.
func TestTraitTraceNamesParams(t *testing.T) {
	const yaml = `
name: params
ruleset: d20
max_rounds: 1
sides:
  - name: a
    combatants:
      - {name: Rogue, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 20, policy: {name: test-script}, ROGUE}
  - name: b
    combatants:
      - {name: Orc, hp: 1000, ac: 10, attacks: [30], damage: 1, crit: none, initiative_roll: 10, policy: {name: test-script}}
`
	hit := regexp.MustCompile(`Rogue attacks Orc: .*: hit`)
	for _, tc := range []struct {
		rogue string
		want  []string // lines of the trace, as regular expressions
	}{
		{"traits: [{use: sneak_attack, params: {dice: 5}}]", []string{`Rogue's Sneak Attack: damage \+= 5 \(damage 1 -> 6\)`}},
		{"traits: [{use: sneak_attack, params: {dice: 2d6}}]", []string{`Rogue's Sneak Attack: damage \+= 2d6 \(damage 1 -> (\d+)\)`}},
		{"traits: [{use: power_attack, params: {trade: 2, factor: 2}}]", []string{
			`Rogue's Power Attack: attack -= 2 \(attack 30 -> 28\)`,
			`Rogue's Power Attack damage: damage \+= 2 \* 2 \* mult \(damage 1 -> 5\)`,
		}},
		{"traits: [{name: Bash, on: hit, params: {extra: 4, twice: 2}, do: [damage += $extra, damage += $twice * $extra + $twice]}]", []string{
			`Rogue's Bash: damage \+= 4 \(damage 1 -> 5\)`,
			`Rogue's Bash: damage \+= 2 \* 4 \+ 2 \(damage 5 -> 15\)`,
		}},
	} {
		// The first seed whose round 1 has the Rogue hit (a natural 1
		// misses).
		gm := g(t, strings.Replace(yaml, "ROGUE", tc.rogue, 1))
		var trace string
		for seed := uint64(1); trace == "" && seed < 100; seed++ {
			if d := play(t, gm, seed).dump(); hit.MatchString(d) {
				trace = d
			}
		}
		if trace == "" {
			t.Fatalf("%s: the Rogue never hits", tc.rogue)
		}
		for _, w := range tc.want {
			m := regexp.MustCompile(w).FindStringSubmatch(trace)
			if m == nil {
				t.Errorf("%s: no line %q in the trace:\n%s", tc.rogue, w, trace)
				continue
			}
			if len(m) > 1 && (atoi(m[1]) < 1+2 || atoi(m[1]) > 1+12) {
				t.Errorf("%s: %q adds %d, not 2d6", tc.rogue, m[0], atoi(m[1])-1)
			}
		}
		if strings.Contains(trace, "$") {
			t.Errorf("%s: a parameter is left unresolved in the trace:\n%s", tc.rogue, trace)
		}
	}
}
