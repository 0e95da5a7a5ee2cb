package d20

// Rule tests of readied actions, movement, counterspells and the
// initiative roll (the third referee audit), pinned rolls
// (initiative_roll; bonuses that make a roll's outcome certain).

import (
	"strings"
	"testing"

	"simctl/sim"
)

// Item 1: "If you take your readied action in the next round, before your
// regular turn comes up ... you do not get your regular action that round":
// the readied action is that round's action, so the once-per-round attack
// of opportunity comes back with it, as it does with a turn. Guard (10)
// readies for Buddy (20); the adjacent Mage (5) casts in rounds 1 and 2.
func TestReadiedActionRestoresAttackOfOpportunity(t *testing.T) {
	src := `
name: aoo
ruleset: d20
max_rounds: 2
sides:
  - name: a
    combatants:
      - {name: Buddy, ` + tough + `, initiative_roll: 20, policy: {name: test-script, target: Mage}}
      - {name: Guard, ` + tough + `, initiative_roll: 10, policy: {name: test-script, do: ready, trigger: ally_acts, ally: Buddy, rounds: [1]}}
  - name: b
    combatants:
      - {name: Mage, ` + tough + `, initiative_roll: 5, concentration: 100, spells: [{name: bolt, damage: 1, level: 0, uses: 2}], policy: {name: test-script, do: cast, spell: bolt, target: Buddy}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "ready Guard rule^=attack/", "spell Mage", "interrupt Guard rule='attack of opportunity'")
	r.inOrder(r.round(2), "interrupt Guard Buddy rule=attack/acts", "spell Mage", "interrupt Guard rule='attack of opportunity'")
	if got := r.turnOrder(2); got != "Buddy Mage" {
		t.Errorf("round 2 turns %q, want Buddy Mage (the Guard's readied action replaced its turn)", got)
	}
	if k := r.get(0, AttacksOfOpportunity); k != 4 {
		t.Errorf("side a attacks of opportunity %d, want 4 (Buddy and Guard, rounds 1 and 2)\n%s", k, r.dump())
	}
	// Still one a round: a second cast in the same round after the readied
	// action (none here) would find it used; covered by TestProvokeOffGrid's
	// opportunity checks.
}

// Item 2: "when the spellcaster starts a spell, you get a chance to
// identify it": a failed Spellcraft check spends the readied counterspell.
// It does not stay readied for the second caster of the round (the old code
// rolled again for E2) and is not then reported "never triggered".
func TestFailedCounterspellIsSpent(t *testing.T) {
	src := `
name: counter
ruleset: d20
max_rounds: 2
sides:
  - name: a
    combatants:
      - {name: R, ` + tough + `, initiative_roll: 20, spellcraft: -20, spells: [{name: bolt, damage: 3, level: 2, uses: 9}], policy: {name: test-script, do: ready, trigger: enemy_casts, action: counterspell, rounds: [1]}}
  - name: b
    combatants:
      - {name: E1, ` + tough + `, initiative_roll: 10, concentration: 100, spells: [{name: bolt, damage: 1, level: 2, uses: 9}], policy: {name: test-script, do: cast, spell: bolt}}
      - {name: E2, ` + tough + `, initiative_roll: 5, concentration: 100, spells: [{name: bolt, damage: 1, level: 2, uses: 9}], policy: {name: test-script, do: cast, spell: bolt}}
`
	r := play(t, g(t, src), 1)
	if got := r.grep(r.round(1), "check rule=spellcraft"); len(got) != 1 || got[0].OK {
		t.Errorf("round 1 Spellcraft checks %+v, want one, spending the counterspell\n%s", got, r.dump())
	}
	r.inOrder(r.round(1), "ready R rule^=counterspell/", "spell E1", "check * * rule=spellcraft ok=false", "initiative R E1 roll=10 rule=ready",
		"damage E1 rule=bolt", "spell E2", "damage E2 rule=bolt")
	if got := r.grep(r.ev, "lost rule=ready"); len(got) != 0 {
		t.Errorf("a spent counterspell reported as never triggered: %+v", got)
	}
	if r.get(0, sim.ReadiesTriggered) != 1 || r.get(0, sim.ReadiesWasted) != 0 || r.get(0, Counterspells) != 0 || r.get(0, sim.Interrupts) != 0 {
		t.Errorf("triggered %d wasted %d counterspells %d interrupts %d, want 1 0 0 0", r.get(0, sim.ReadiesTriggered),
			r.get(0, sim.ReadiesWasted), r.get(0, Counterspells), r.get(0, sim.Interrupts))
	}
	if r.get(0, sim.ActionsLost) != 1 {
		t.Errorf("actions lost %d, want 1 (the counterspell came to nothing)", r.get(0, sim.ActionsLost))
	}
}

// Item 4 (last part): initiative_roll pins a result of the combatant's
// initiative_dice, whatever their range (the old bound was a d20's 1-20
// even with initiative_dice: 1d30); without dice it is a d20's.
func TestInitiativeRollBoundByDice(t *testing.T) {
	src := func(field string) string {
		return `
name: roll
ruleset: d20
max_rounds: 1
sides:
  - name: a
    combatants:
      - {name: A, ` + tough + `, ` + field + `}
  - name: b
    combatants:
      - {name: B, ` + tough + `}
`
	}
	r := play(t, g(t, src("initiative_dice: 1d30, initiative_roll: 25")), 1)
	r.inOrder(r.ev, "initiative A die=25 roll=25 rule=dice")
	_, err := loadAndCompile(src("initiative_roll: 21"))
	if err == nil || !strings.Contains(err.Error(), "rules_test.yaml:8:") || !strings.Contains(err.Error(), "initiative_roll: 21 is out of range; expected a whole number from 1 to 20") {
		t.Errorf("initiative_roll 21 without dice: %v", err)
	}
}

// Item 3: no one moves through an enemy's square. Blocker (speed 10) walks
// 20 ft out of the line at 40 ft; A, sent at Far behind it, would once have
// charged through Blocker's square to Far; now its way ends at Blocker,
// and it engages Blocker.
func TestMoverStopsAtFirstEnemy(t *testing.T) {
	src := `
name: block
ruleset: d20
max_rounds: 1
distance: 40
sides:
  - name: a
    combatants:
      - {name: A, ` + tough + `, speed: 30, initiative_roll: 10, policy: {name: test-script, target: Far}}
  - name: b
    combatants:
      - {name: Blocker, ` + tough + `, speed: 10, initiative_roll: 20, policy: {name: test-script}}
      - {name: Far, ` + tough + `, speed: 30, initiative_roll: 5, policy: {name: test-script, do: idle}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "move Blocker amount=20 rule=", "move A Blocker rule=blocked", "move A Blocker amount=15 rule=", "attack A Blocker")
	if got := r.grep(r.round(1), "attack A Far"); len(got) != 0 || r.get(0, Charges) != 0 {
		t.Errorf("A reached Far through Blocker's square: %+v, charges %d\n%s", got, r.get(0, Charges), r.dump())
	}
	if x := r.tb.f[r.idx("A")].x; x != 15 {
		t.Errorf("A at %d ft, want 15 (in front of Blocker at 20)", x)
	}
}

// Item 3: a readied 5-foot step cannot end on an enemy's square. E steps up
// next to R (at 5 ft); R readies an attack for Buddy, whose reach takes T
// at 10 ft. R's step toward T would end on E's square: it is not taken,
// so the readied attack cannot go at T.
func TestReadiedStepNotOntoEnemy(t *testing.T) {
	src := `
name: step
ruleset: d20
max_rounds: 1
distance: 10
sides:
  - name: a
    combatants:
      - {name: R, ` + tough + `, initiative_roll: 15, policy: {name: test-script, do: ready, trigger: ally_acts, ally: Buddy}}
      - {name: Buddy, ` + tough + `, reach: 10, initiative_roll: 10, policy: {name: test-script, target: T}}
  - name: b
    combatants:
      - {name: E, ` + tough + `, initiative_roll: 20, policy: {name: test-script, target: R}}
      - {name: T, ` + tough + `, initiative_roll: 5, policy: {name: test-script, do: idle}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "move E rule='5-foot step'", "ready R rule^=attack/", "attack Buddy T")
	if got := r.grep(r.round(1), "move R rule='5-foot step'"); len(got) != 0 {
		t.Errorf("R stepped onto E's square: %+v\n%s", got, r.dump())
	}
	if r.get(0, sim.ReadiesTriggered) != 0 {
		t.Errorf("readies triggered %d, want 0\n%s", r.get(0, sim.ReadiesTriggered), r.dump())
	}
}

// Item 16: "move, then ready" (a move action, then the ready) and a readied
// move action. A (speed 30) advances from 60 ft to just outside M's reach
// (10 ft: reach 5 + 5) and readies an attack for M coming on; M steps in and
// A's readied attack goes. Then a readied move: R readies to move when the
// caster K starts casting, closes on it, and threatens it as the casting
// goes on: the casting provokes R's attack of opportunity.
func TestMoveThenReady(t *testing.T) {
	src := `
name: advance
ruleset: d20
max_rounds: 1
distance: 40
sides:
  - name: a
    combatants:
      - {name: A, ` + tough + `, speed: 30, initiative_roll: 20, policy: {name: test-script, do: ready, trigger: enemy_in_reach, advance: true}}
  - name: b
    combatants:
      - {name: M, ` + tough + `, speed: 30, initiative_roll: 10, policy: {name: test-script}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "move A M rule='advance before readying'", "move A M amount=30 rule=", "ready A rule^=attack/",
		"turn M", "interrupt A M rule=attack/reach amount=5", "attack A M", "attack M A")
}

func TestReadiedMove(t *testing.T) {
	src := `
name: readied-move
ruleset: d20
max_rounds: 1
distance: 30
sides:
  - name: a
    combatants:
      - {name: R, ` + tough + `, speed: 30, initiative_roll: 20, policy: {name: test-script, do: ready, trigger: enemy_casts, action: move}}
  - name: b
    combatants:
      - {name: K, ` + tough + `, initiative_roll: 10, concentration: 100, spells: [{name: bolt, damage: 1, level: 1}], policy: {name: test-script, do: cast, spell: bolt, target: R}}
`
	r := play(t, g(t, src), 1)
	r.inOrder(r.round(1), "ready R rule^=move/", "spell K rule=bolt", "interrupt R K rule=move/casts", "initiative R K roll=10 rule=ready",
		"move R K amount=25 rule=", "interrupt R rule='attack of opportunity'", "attack R K", "damage K R rule=bolt amount=1")
	if r.get(0, sim.ReadiesTriggered) != 1 || r.get(0, AttacksOfOpportunity) != 1 {
		t.Errorf("triggered %d, attacks of opportunity %d; want 1 1\n%s", r.get(0, sim.ReadiesTriggered), r.get(0, AttacksOfOpportunity), r.dump())
	}
}
