package d20

import (
	"fmt"
	"strings"
	"testing"
)

// SRD Combat Reflexes: "You may make a number of additional attacks of
// opportunity equal to your Dexterity bonus." M threatens three casters,
// each of whose spells provokes it in round 1: without the feat it makes
// one attack of opportunity (the referee's one a round), with Dex +1 two,
// with Dex +5 three (still one per opportunity, and there are three).
// Flat-footed (acting last), it makes none: the feat's attacks while
// flat-footed are not modelled, as the library trait says.
func TestCombatReflexes(t *testing.T) {
	for _, tc := range []struct {
		traits string
		init   int
		want   int
	}{
		{"", 20, 1},
		{"traits: [combat_reflexes],", 20, 2},
		{"traits: [{use: combat_reflexes, params: {dex: 5}}],", 20, 3},
		{"traits: [{name: Slow, on: round_start, do: aoo -= 1}],", 20, 0},
		{"traits: [{use: combat_reflexes, params: {dex: 5}}],", 1, 0},
	} {
		caster := func(n string) string {
			return "      - {name: " + n + ", " + tough + ", initiative_roll: 10, spells: [{name: bolt, damage: 1, level: 1}], policy: {name: test-script, do: cast, spell: bolt, target: M}}\n"
		}
		src := fmt.Sprintf(`
name: reflexes
ruleset: d20
max_rounds: 1
distance: 5
sides:
  - name: a
    combatants:
      - {name: M, %s, %s initiative_roll: %d, policy: {name: test-script, do: idle}}
  - name: b
    combatants:
%s%s%s`, tough, tc.traits, tc.init, caster("K1"), caster("K2"), caster("K3"))
		r := play(t, g(t, src), 1)
		if got := len(r.grep(r.round(1), "interrupt M rule='attack of opportunity'")); got != tc.want {
			t.Errorf("%q init %d: %d attacks of opportunity, want %d\n%s", tc.traits, tc.init, got, tc.want, r.dump())
		}
		if n := strings.Count(r.dump(), "starts casting bolt"); n != 3 {
			t.Errorf("%d casts, want 3 opportunities\n%s", n, r.dump())
		}
	}
}
