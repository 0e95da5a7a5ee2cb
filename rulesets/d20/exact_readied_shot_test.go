package d20_test

import (
	"fmt"
	"testing"

	"simctl/rulesets/d20"
)

// Issue 34 item 1: a shot readied against a charge (or against an enemy
// coming into reach) goes just before the action that triggers it ("The
// action occurs just before the action that triggers it"), from where the
// archer stands. One round: the Archer (hp 1, init 20) readies its longbow
// shot; the Barbarian (hp 5, init 10) charges from 40 ft. The shot (+0,
// damage 5, no critical) drops the Barbarian when it hits; if it misses the
// Barbarian's charge attack (+30) drops the Archer unless it rolls a 1.
//
//   - trigger charge: the shot goes before the charge, at 40 ft (+0: within
//     one increment of 100 ft), before the charge's -2 AC applies: it hits
//     AC 10 on 10-20, P = 11/20, whatever the Barbarian's reach;
//   - trigger enemy_in_reach: the shot goes before the step that brings the
//     Barbarian within either's reach (5 ft, or 10 with a reach weapon), in
//     the middle of the charge: AC 8, P = 13/20.
//
// Before issue 34 the shot waited for the Barbarian to stand within the
// Archer's 5-ft reach: from a threatened square it provoked, and the
// attack of opportunity (+30, hp 1) came first (P(Archer wins) =
// 1/20 × 13/20); with reach 10 it never went (P = 0).
func TestExactReadiedShotBeforeCharge(t *testing.T) {
	n := encounters(40_000)
	for _, tc := range []struct {
		trigger string
		reach   int
		pWin    float64
		wrong   float64 // the pre-issue-34 timing
	}{
		{"charge", 5, 11.0 / 20, 1.0 / 20 * 13.0 / 20},
		{"charge", 10, 11.0 / 20, 0},
		{"enemy_in_reach", 5, 13.0 / 20, 1.0 / 20 * 13.0 / 20},
		{"enemy_in_reach", 10, 13.0 / 20, 0},
	} {
		t.Run(fmt.Sprintf("%s reach %d", tc.trigger, tc.reach), func(t *testing.T) {
			g := compileYAML(t, "readied shot", fmt.Sprintf(`name: readied shot
ruleset: d20
max_rounds: 1
distance: 40
sides:
  - name: archers
    combatants:
      - {name: Archer, hp: 1, ac: 10, init: 0, initiative_roll: 20, attacks: [0], damage: 1, speed: 30,
         ranged: {bonus: 0, damage: 5, crit: none, increment: 100},
         policy: {name: test-script, do: ready, trigger: %s, shoot: true}}
  - name: barbarians
    combatants:
      - {name: Barbarian, hp: 5, ac: 10, init: 0, initiative_roll: 10, attacks: [30], damage: 1, crit: none, speed: 40, reach: %d,
         policy: {name: test-script, charge: true}}
`, tc.trigger, tc.reach))
			tally := runGame(t, g, n)
			checkProb(t, "P(Archer wins)", tally.Wins[0], n, tc.pWin)
			checkProb(t, "P(Barbarian wins)", tally.Wins[1], n, (1-tc.pWin)*19/20)
			checkPower(t, "the shot from the archer's reach", tally.Wins[0], n, tc.wrong)
			if k := tally.Counts.Get(1, d20.AttacksOfOpportunity); k != 0 {
				t.Errorf("the Barbarian made %d attacks of opportunity; the shot comes before it threatens the Archer", k)
			}
		})
	}
}
