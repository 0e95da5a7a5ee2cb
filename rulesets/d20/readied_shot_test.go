package d20

// Issue 34: the d20 defects of the fourth rules pass, pinned by scripted
// encounters (events in order; the exact probabilities are in
// exact_readied_shot_test.go).

import (
	"fmt"
	"testing"

	"simctl/sim"
)

// readiedShotYAML: the Archer (init 20) readies its longbow on trigger;
// the Barbarian (init 10, reach) charges it from 40 ft.
func readiedShotYAML(trigger string, reach int) string {
	return fmt.Sprintf(`
name: readied shot
ruleset: d20
max_rounds: 1
distance: 40
sides:
  - name: a
    combatants:
      - {name: Archer, %s, initiative_roll: 20, ranged: {bonus: 30, damage: 1, crit: none, increment: 100},
         policy: {name: test-script, do: ready, trigger: %s, shoot: true}}
  - name: b
    combatants:
      - {name: Barbarian, %s, speed: 40, reach: %d, initiative_roll: 10, policy: {name: test-script, charge: true}}
`, tough, trigger, tough, reach)
}

// "The action occurs just before the action that triggers it": a shot
// readied against a charge goes before the charger moves, from 40 ft; one
// readied against an enemy coming into reach goes before the step that
// brings the mover within either's reach (15 ft for a reach of 10, 10 ft
// for 5). Either way the mover does not threaten the archer yet: no
// attack of opportunity.
func TestReadiedShotBeforeTrigger(t *testing.T) {
	for _, tc := range []struct {
		trigger string
		reach   int
		at      int // the distance of the shot
		ac      int // the Barbarian's AC against it (the charge's -2 once under way)
	}{
		{"charge", 5, 40, 10},
		{"charge", 10, 40, 10},
		{"enemy_in_reach", 5, 10, 8},
		{"enemy_in_reach", 10, 15, 8},
	} {
		t.Run(fmt.Sprintf("%s reach %d", tc.trigger, tc.reach), func(t *testing.T) {
			gm := g(t, readiedShotYAML(tc.trigger, tc.reach))
			for s := uint64(1); s <= 10; s++ {
				r := play(t, gm, s)
				moved := "move Barbarian amount=" + fmt.Sprint(40-tc.at)
				pats := []string{"ready Archer - rule=shot/" + tc.trigger, "turn Barbarian", "action Barbarian Archer rule=charge"}
				if tc.at != 40 {
					pats = append(pats, moved)
				}
				pats = append(pats, fmt.Sprintf("interrupt Archer Barbarian amount=%d rule=shot/%s", tc.at, tc.trigger),
					"initiative Archer Barbarian roll=10 rule=ready",
					fmt.Sprintf("action Archer Barbarian amount=%d roll=0 rule=shoot", tc.at), "attack Archer Barbarian", "attack Barbarian Archer")
				r.inOrder(r.round(1), pats...)
				if got := r.grep(r.ev, "interrupt rule='attack of opportunity'"); len(got) != 0 {
					t.Errorf("seed %d: attacks of opportunity %v", s, got)
				}
				if sw := swings(r.round(1)); len(sw) != 2 || sw[0].ac != tc.ac || sw[1].bonus != 32 {
					t.Errorf("seed %d: attacks %+v; want the shot vs AC %d, then the charge at +32", s, sw, tc.ac)
				}
				if r.get(0, sim.ReadiesTriggered) != 1 || r.get(0, sim.Interrupts) != 1 {
					t.Errorf("seed %d: counters %v", s, r.c.Sides)
				}
			}
		})
	}
}

// "a single melee attack. You get a +2 bonus on the attack roll": the
// charge's +2 goes to the charge's one attack only. A Caster readies a
// spell for an enemy coming into its reach; the Charger (attack bonus
// +10) charges it, sets the spell off on entering its reach, and the
// casting provokes the Charger's attack of opportunity, mid-charge: +10,
// then the charge's own attack at +12 (main gave the AoO +12 too).
func TestChargeBonusOnlyOnTheChargeAttack(t *testing.T) {
	gm := g(t, `
name: charge bonus
ruleset: d20
max_rounds: 1
distance: 40
sides:
  - name: a
    combatants:
      - {name: Caster, hp: 1000, ac: 10, attacks: [0], damage: 1, crit: none, initiative_roll: 20, concentration: 100,
         spells: [{name: bolt, damage: 1, level: 1}], policy: {name: test-script, do: ready, trigger: enemy_in_reach, action: cast, spell: bolt}}
  - name: b
    combatants:
      - {name: Charger, hp: 1000, ac: 10, attacks: [10], damage: 1, crit: none, speed: 30, initiative_roll: 10, policy: {name: test-script, charge: true}}
`)
	for s := uint64(1); s <= 10; s++ {
		r := play(t, gm, s)
		r.inOrder(r.round(1), "action Charger Caster rule=charge", "interrupt Caster Charger rule=spell/reach", "spell Caster Charger",
			"interrupt Charger Caster rule='attack of opportunity'", "attack Charger Caster", "damage Caster Charger", "attack Charger Caster")
		sw := swings(r.round(1))
		if len(sw) != 2 || sw[0].bonus != 10 || sw[1].bonus != 12 {
			t.Fatalf("seed %d: attacks %+v; want the attack of opportunity at +10, the charge's attack at +12\n%s", s, sw, r.dump())
		}
	}
}
