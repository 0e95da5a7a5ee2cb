package lotm_test

// Issue 24 item 16: the decisions the source leaves to the player (Limb
// Block's limb, "if the enemy is willing" to Borrow Strength, the use of
// Luck) made by tactics rules, with pinned dice. Each case plays the same
// dice with and without the rule: the rule changes what happens, and a
// block that says nothing plays the Go default.

import (
	"slices"
	"strings"
	"testing"

	_ "simctl/agents" // the tactics compiler
	"simctl/rulesets/lotm"
	"simctl/sim/simtest"
)

func inOrder(t *testing.T, log simtest.Events, text string, pats ...string) {
	t.Helper()
	if !log.InOrder(t, pats...) {
		t.Fatalf("log:\n%s", text)
	}
}

func notIn(t *testing.T, log simtest.Events, text string, pats ...string) {
	t.Helper()
	for _, p := range pats {
		if log.Any(p) {
			t.Fatalf("unexpected %q; log:\n%s", p, text)
		}
	}
}

// A Vital Strikes T's head every round (check 10 + 20 - 10 = 20); T, with
// limb_block, blocks on 17 (17 + 3 = 20, a tie to the blocker) and
// attacks on its turn.
const limbScene = `name: limb choice
ruleset: lotm
max_rounds: ROUNDS
sides:
  - name: a
    combatants:
      - {name: A, hp: 40, ac: 10, attacks: [20], damage: 1, initiative_roll: 20, policy: {name: vital, part: head}}
  - name: b
    combatants:
      - {name: T, hp: 60, ac: 10, dodge: 2, agility: 3, attacks: [0], damage: 1, initiative_roll: 1, limb_block: true, tactics: TACTICS}
`

func limbGame(t *testing.T, rounds, tactics string) *lotm.Game {
	return lotm.CompileForTest(t, strings.NewReplacer("ROUNDS", rounds, "TACTICS", tactics).Replace(limbScene))
}

func TestTacticsLimbBlockChoice(t *testing.T) {
	// No reaction rule: the Go default, the legs.
	log, text, _ := lotm.PlayForTest(t, limbGame(t, "1", "{turn: [{do: attack}]}"), false, 10, 17, 8)
	inOrder(t, log, text, "check T A die=17 roll=20 need=20 ok=true rule='limb block'", "damage A T amount=1 rule='vital strike: legs'", "attack T A die=8 rule^='attack'")
	// limb_block arms: the same dice hit the arm instead.
	log, text, _ = lotm.PlayForTest(t, limbGame(t, "1", "{reactions: [{when: offer.limb_block and strike.head, do: limb_block arms}]}"), false, 10, 17, 8)
	inOrder(t, log, text, "check T A die=17 roll=20 need=20 ok=true rule='limb block'", "damage A T amount=1 rule='vital strike: arms'", "attack T A die=8 rule^='attack'")
	// pass when the strike's result is out of reach of d20 + agility on a
	// middling roll (20 > 3 + 15): no block, no Swift action, no roll; the
	// head is hit and T loses its turn.
	log, text, _ = lotm.PlayForTest(t, limbGame(t, "1", "{reactions: [{when: offer.limb_block and strike.total > self.agility + 15, do: pass}]}"), true, 10)
	notIn(t, log, text, "check rule='limb block'")
	inOrder(t, log, text, "damage A T rule='vital strike: head'", "lost T rule=stunned")
	// The threshold read from the facts: 20 > 3 + 17 is false, so it blocks.
	log, text, _ = lotm.PlayForTest(t, limbGame(t, "1", "{reactions: [{when: offer.limb_block and strike.total > self.agility + 17, do: pass}]}"), false, 10, 17, 8)
	inOrder(t, log, text, "damage A T amount=1 rule='vital strike: legs'")
	// limb_block legs falls through once both legs have blocked: the next
	// rule passes, so the third strike hits the head (the Go default would
	// block it with an arm).
	const legsOnly = "{reactions: [{when: offer.limb_block, do: limb_block legs}, {when: offer.limb_block and self.leg_blocks == 0 and self.arm_blocks == 2, do: pass}]}"
	log, text, _ = lotm.PlayForTest(t, limbGame(t, "3", legsOnly), true, 10, 17, 8, 10, 17, 8, 10)
	inOrder(t, log, text, "damage A T rule='vital strike: legs'", "damage A T rule='vital strike: legs'", "damage A T rule='vital strike: head'", "lost T rule=stunned")
	if !strings.Contains(text, "falls through: that limb has no block left") {
		t.Errorf("no fall-through narrated; log:\n%s", text)
	}
	log, text, _ = lotm.PlayForTest(t, limbGame(t, "3", "{turn: [{do: attack}]}"), false, 10, 17, 8, 10, 17, 8, 10, 17, 8)
	inOrder(t, log, text, "damage A T rule='vital strike: legs'", "damage A T rule='vital strike: legs'", "damage A T rule='vital strike: arms'")
}

// A (Strength 4) attacks T (Strength 2, strength_damage 2,
// borrow_strength): a natural 1 offers T Borrow Strength, paid with its
// Attack action of the round.
const borrowScene = `name: borrow choice
ruleset: lotm
max_rounds: 1
sides:
  - name: a
    policy: test
    combatants:
      - {name: A, hp: 40, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, strength: 4}
  - name: b
    combatants:
      - {name: T, hp: 40, ac: 10, attacks: [0], damage: 1, initiative_roll: 1, strength: STR, strength_damage: 2, borrow_strength: true, tactics: TACTICS}
`

func borrowGame(t *testing.T, str, tactics string) *lotm.Game {
	return lotm.CompileForTest(t, strings.NewReplacer("STR", str, "TACTICS", tactics).Replace(borrowScene))
}

func TestTacticsBorrowChoice(t *testing.T) {
	// No reaction rule: willing (the Go default). T flips A (A's Agility
	// check 5: Off-Balance) and has no Attack action left on its turn.
	log, text, count := lotm.PlayForTest(t, borrowGame(t, "2", "{turn: [{do: attack}]}"), true, 1, 5)
	inOrder(t, log, text, "attack A T die=1 ok=false rule^='attack'", "interrupt T A rule='borrow strength: flip'", "check A die=5 rule='leg sweep balance'", "turn T rule=")
	notIn(t, log, text, "attack T A rule^=attack")
	if count(1, lotm.Borrows) != 1 {
		t.Errorf("borrows %d, want 1", count(1, lotm.Borrows))
	}
	// Unwilling while its own turn is still to come: A's natural 1 is a
	// plain miss and T keeps its Attack action (die 9).
	const keep = "{reactions: [{when: offer.borrow and not borrow.swift and not self.acted, do: pass}]}"
	log, text, count = lotm.PlayForTest(t, borrowGame(t, "2", keep), false, 1, 9)
	notIn(t, log, text, "interrupt rule^='borrow strength'")
	inOrder(t, log, text, "attack A T die=1 ok=false rule^='attack'", "attack T A die=9 rule^='attack'")
	if count(1, lotm.Borrows) != 0 {
		t.Errorf("borrows %d, want 0", count(1, lotm.Borrows))
	}
	// borrow.flip: willing only when it flips. Strength 2 flips (borrows);
	// Strength 1 (3 below A's) would only make an Attack action (passes).
	const flipOnly = "{reactions: [{when: offer.borrow and not borrow.flip, do: pass}, {when: offer.borrow, do: borrow}]}"
	log, text, _ = lotm.PlayForTest(t, borrowGame(t, "2", flipOnly), true, 1, 5)
	inOrder(t, log, text, "interrupt T A rule='borrow strength: flip'")
	log, text, _ = lotm.PlayForTest(t, borrowGame(t, "1", flipOnly), false, 1, 9)
	notIn(t, log, text, "interrupt rule^='borrow strength'")
	inOrder(t, log, text, "attack T A die=9 rule^='attack'")
	// Without the rule, Strength 1 borrows: an Attack action that hits.
	log, text, _ = lotm.PlayForTest(t, borrowGame(t, "1", "{turn: [{do: attack}]}"), false, 1)
	inOrder(t, log, text, "interrupt T A rule='borrow strength: attack'", "damage * A amount=1")
}

// A (attack +3, Luck 3) attacks T (Physical Defense 15).
const luckScene = `name: luck choice
ruleset: lotm
max_rounds: 1
options: {burn_luck_initiative: true}
sides:
  - name: a
    combatants:
      - {name: A, hp: 20, ac: 10, attacks: [3], damage: 1, initiative_roll: 20, luck: 3, tactics: ATACTICS}
  - name: b
    combatants:
      - {name: T, hp: 20, ac: 10, dodge: 2, agility: 3, attacks: [0], damage: 1, initiative_roll: 16, luck: 4, tactics: TTACTICS}
`

func luckGame(t *testing.T, a, tt string) *lotm.Game {
	return lotm.CompileForTest(t, strings.NewReplacer("ATACTICS", a, "TTACTICS", tt).Replace(luckScene))
}

func TestTacticsBurnLuckChoice(t *testing.T) {
	const plain = "{turn: [{do: attack}]}"
	// No luck rule: the Go default (luck: attack): 10 + 3 = 13 misses 15
	// by 2, A burns 2 and hits; T keeps its Luck at the initiative roll
	// (16 + 3 < 20), so A acts first.
	log, text, count := lotm.PlayForTest(t, luckGame(t, plain, plain), false, 10, 10)
	inOrder(t, log, text, "attack A T die=10 roll=15 need=15 ok=true rule^='attack'")
	if turns := strings.Fields(log.Turns()); slices.Index(turns, "A") > slices.Index(turns, "T") {
		t.Errorf("T burned its Luck on the initiative roll: turns %v", turns)
	}
	if count(0, lotm.LuckBurned) != 2 {
		t.Errorf("luck burned %d, want 2", count(0, lotm.LuckBurned))
	}
	// keep when more than 1 point is needed: the same die misses.
	const thrifty = "{luck: [{when: luck.needed > 1, do: keep}]}"
	log, text, count = lotm.PlayForTest(t, luckGame(t, thrifty, plain), false, 10, 10)
	inOrder(t, log, text, "attack A T die=10 roll=13 need=15 ok=false rule^='attack'")
	if count(0, lotm.LuckBurned) != 0 {
		t.Errorf("luck burned %d, want 0", count(0, lotm.LuckBurned))
	}
	// ... and burns when 1 is (11 + 3 = 14: the fallback burns).
	log, text, _ = lotm.PlayForTest(t, luckGame(t, thrifty, plain), false, 11, 10)
	inOrder(t, log, text, "attack A T die=11 roll=15 need=15 ok=true rule^='attack'")
	// T burns all its Luck on the initiative roll: 16 + 3 + 4 = 23 beats
	// A's 20, so T acts first.
	log, text, _ = lotm.PlayForTest(t, luckGame(t, plain, "{luck: [{when: luck.initiative and self.luck >= 2, do: burn}]}"), false, 10, 10)
	if turns := strings.Fields(log.Turns()); slices.Index(turns, "T") > slices.Index(turns, "A") {
		t.Errorf("T did not burn its Luck on the initiative roll: turns %v; log:\n%s", turns, text)
	}
	inOrder(t, log, text, "initiative T roll=23 amount=4")
}
