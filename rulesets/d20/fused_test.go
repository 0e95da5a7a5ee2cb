package d20

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/sim/simtest"
)

func init() {
	RegisterPolicy("test-std", "test only: a standard policy (params: rule weakest|strongest|first|nearest, count: true)", makeTestStd)
}

// testStd is a StandardPolicy whose rule, and whether it counts a tactics
// rule, the scenario sets: the fused referee's players.
type testStd struct{ std Standard }

func makeTestStd(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy {
	p := &testStd{std: Standard{Rule: TargetWeakest, Limit: 65, Count: -1}}
	if n := spec.Params["rule"]; n != nil {
		p.std.Rule = map[string]TargetRule{"weakest": TargetWeakest, "strongest": TargetStrongest, "nearest": TargetNearest, "first": TargetFirst}[n.Value]
	}
	if n := spec.Params["count"]; n != nil && n.Value == "true" {
		p.std.Count = g.AddRuleCounter(sim.RuleCounter{Combatant: self, Moment: "turn", Rule: "attack", Event: "fired"})
	}
	return p
}

func (p *testStd) Standard() (Standard, bool) { return p.std, true }

// Turn is never called for a standard policy but when tracing; it makes
// the decision the referee makes.
func (p *testStd) Turn(t *Table, self int, plan *Plan) {
	plan.Target = t.PickTarget(self, p.std.Rule, p.std.Limit, true)
	if p.std.Count >= 0 {
		t.c.Rule(p.std.Count)
	}
}

// fusedScenario is the headline's melee with n fighters against m orcs and
// extra YAML for the sides' policies, options and fields.
func fusedScenario(n, m int, options, heroes, orcs string) string {
	return fmt.Sprintf(`name: fused
ruleset: d20
max_rounds: 100
distance: 0
options: {%s}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, count: %d, hp: 3d10+6, ac: 17, dex_ac: 1, init: 0, attacks: [6, 1], damage: 1d8+3, crit: 19-20/x2, %s}
  - name: orcs
    combatants:
      - {name: Orc, count: %d, hp: 3d8+6, ac: 14, dex_ac: 2, init: 1, attacks: [5], damage: 1d12+3, crit: 20/x3, %s}
`, options, n, heroes, m, orcs)
}

// TestFusedPlaysTheGeneralReferee: for every kind of fight the fused
// referee accepts, it plays exactly the general referee's encounters: the
// same outcomes, side counters, per-combatant figures and tactics counts
// (sim.Tally compared whole), and the same draws (the stream ends where
// the general referee's ends).
func TestFusedPlaysTheGeneralReferee(t *testing.T) {
	const pol = "policy: {name: test-std}"
	cases := []struct {
		name            string
		n, m            int
		opts, hero, orc string
	}{
		{"headline", 4, 4, "", pol, pol},
		{"duel", 1, 1, "", pol, pol},
		{"uneven", 2, 5, "", pol, pol},
		{"flanking two", 4, 4, "flanking: two", pol, pol},
		{"no confirmation", 3, 3, "confirm_crits: false", pol, pol},
		{"uncanny dodge", 4, 4, "", pol, pol + ", uncanny_dodge: true"},
		{"first and nearest", 4, 4, "", "policy: {name: test-std, rule: first}", "policy: {name: test-std, rule: nearest}"},
		{"counted", 3, 4, "", "policy: {name: test-std, count: true}", pol},
		{"big", 20, 24, "", pol, pol},
		{"dice", 3, 3, "", pol, pol},
		{"short", 4, 4, "", pol, pol},
		{"ties", 4, 4, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := fusedScenario(c.n, c.m, c.opts, c.hero, c.orc)
			if c.name == "short" {
				// Hit points of 1 (one blow puts them out),
				// and max_rounds ends some fights in a draw.
				src = `name: fused
ruleset: d20
max_rounds: 2
distance: 0
sides:
  - name: heroes
    combatants:
      - {name: Fighter, count: 4, hp: 1d4, ac: 25, init: 0, attacks: [0], damage: 1d2, policy: {name: test-std}}
  - name: orcs
    combatants:
      - {name: Orc, count: 4, hp: 2d6-1, ac: 25, init: 0, attacks: [0], damage: 1d2, policy: {name: test-std}}
`
			}
			if c.name == "dice" {
				// Damage and hit points not of the form NdM+K (the Expr
				// rolls them), and two dice.
				src = strings.Replace(strings.Replace(src, "damage: 1d8+3", "damage: 1d6+1d4", 1), "damage: 1d12+3", "damage: 2d6", 1)
				src = strings.Replace(src, "hp: 3d10+6", "hp: 2d8+1d6", 1)
			}
			if c.name == "ties" {
				// Equal hit points and small blows: many ties for the
				// weakest, and the first-enemy rule hitting a combatant
				// that is not the weakest while others pick the weakest.
				src = `name: fused
ruleset: d20
max_rounds: 100
distance: 0
sides:
  - name: heroes
    combatants:
      - {name: Fighter, count: 2, hp: 12, ac: 12, init: 0, attacks: [9, 4], damage: 1d3, policy: {name: test-std, rule: first}}
      - {name: Brute, count: 2, hp: 12, ac: 12, init: 0, attacks: [9], damage: 1d3, policy: {name: test-std}}
  - name: orcs
    combatants:
      - {name: Orc, count: 4, hp: 1d4+10, ac: 12, init: 0, attacks: [9, 4], damage: 1d3, policy: {name: test-std}}
`
			}
			fused := compileGame(t, src)
			noFused = true
			general := compileGame(t, src)
			noFused = false
			if fused.fused == nil || general.fused != nil {
				t.Fatalf("fused: %v, general: %v; want the first fused only", fused.fused != nil, general.fused != nil)
			}
			ft, gt := simtest.PlaySame(t, fused, general, 9, 4000) // fused, then general
			if !reflect.DeepEqual(ft, gt) {
				t.Errorf("tallies differ:\nfused   %+v\ngeneral %+v", ft, gt)
			}
			if ft.Draws == 0 && c.name == "short" {
				t.Errorf("no draw at max_rounds: the case does not test them")
			}
		})
	}
}

// TestFusedOnlyWhereItApplies: compileFused leaves to the general referee
// every fight with a rule it does not play.
func TestFusedOnlyWhereItApplies(t *testing.T) {
	const pol = "policy: {name: test-std}"
	for _, c := range []struct {
		name                      string
		opts, hero, orc, distance string
		fused                     bool
	}{
		{"plain", "", pol, pol, "0", true},
		{"distance", "", pol, pol, "30", false},
		{"position", "", pol + ", position: 5", pol, "0", false},
		{"srd dying", "dying: srd", pol, pol, "0", false},
		{"strongest", "", "policy: {name: test-std, rule: strongest}", pol, "0", false},
		{"sneak attack", "", pol + ", sneak_attack: 2d6", pol, "0", false},
		{"trait", "", pol + ", traits: [{name: T, on: hit, do: damage += 1}]", pol, "0", false},
		{"ranged", "", pol + ", ranged: {increment: 60, damage: 1d8, bonus: 4}", pol, "0", false},
		{"surprise", "", pol + ", aware: false", pol, "0", false},
		{"pinned initiative", "", pol + ", initiative_roll: 10", pol, "0", false},
		{"initiative dice", "", pol + ", initiative_dice: 2d20kh1", pol, "0", false},
		{"scripted", "", "policy: {name: test-script}", pol, "0", false},
	} {
		src := fusedScenario(2, 2, c.opts, c.hero, c.orc)
		src = "distance: " + c.distance + "\n" + removeLine(src, "distance: 0")
		g := compileGame(t, src)
		if (g.fused != nil) != c.fused {
			t.Errorf("%s: fused %v, want %v", c.name, g.fused != nil, c.fused)
		}
	}
}

func removeLine(s, line string) string {
	return strings.Replace(s, line+"\n", "", 1)
}

// TestHitGate: the gate's table of a trait's when: is its truth table over
// the hit facts, and a when: reading anything else is never gated.
func TestHitGate(t *testing.T) {
	g := compileGame(t, fusedScenario(1, 1, "", `policy: {name: test-std}, traits: [
        {name: S, on: hit, when: (target.flat_footed and not target.uncanny_dodge) or target.flanked, do: damage += 2d6},
        {name: H, on: hit, when: target.hp < 5, do: damage += 1}]`, "policy: {name: test-std}"))
	want := uint64(0)
	for k := 0; k < 1<<numHitFacts; k++ {
		if k&hfFlatFooted != 0 && k&hfUncannyDodge == 0 || k&hfFlanking != 0 {
			want |= 1 << uint(k)
		}
	}
	ts := g.traits
	if got := hitFactsFiring(&ts.list[ts.on[mHit][0][0]].Trait); got != want {
		t.Errorf("sneak attack's gate %064b, want %064b", got, want)
	}
	if got := hitFactsFiring(&ts.list[ts.on[mHit][0][1]].Trait); got != 1<<(1<<numHitFacts)-1 {
		t.Errorf("a when: on target.hp is gated: %064b", got)
	}
}
