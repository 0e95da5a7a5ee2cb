package agents_test

import (
	"testing"
)

const lotmErrScenario = `name: lotm-errors
ruleset: lotm
distance: 30
sides:
  - name: heroes
    combatants:
      - name: Fighter
        tactics: %s
        hp: 20
        ac: 8
        attacks: [5]
        damage: 1d6
  - name: monsters
    combatants:
      - {name: Thug, hp: 16, ac: 9, attacks: [4], damage: 1d8}
`

// LotM tactics errors: the exact message a user sees.
func TestLotmTacticsErrors(t *testing.T) {
	cases := []errCase{
		{"{turn: [{do: atack}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: unknown decision \"atack\" (did you mean \"attack\"?); lotm offers at turn: attack, strike, strike once, double_strike, vital PART, cast, grapple [one_hand|limb], charge, point_blank, leg_sweep, first_aid, meditate, delay KIND on TRIGGER [for ALLY|ENEMY], SPECIAL_ACTION",
			""},
		{"{turn: [{do: seize}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: seize is a cavaliers decision, not a lotm one; lotm offers at turn: attack, strike, strike once, double_strike, vital PART, cast, grapple [one_hand|limb], charge, point_blank, leg_sweep, first_aid, meditate, delay KIND on TRIGGER [for ALLY|ENEMY], SPECIAL_ACTION",
			""},
		{"{turn: [{do: declare any}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: declare is an acks2 decision, not a lotm one; lotm offers at turn: attack, strike, strike once, double_strike, vital PART, cast, grapple [one_hand|limb], charge, point_blank, leg_sweep, first_aid, meditate, delay KIND on TRIGGER [for ALLY|ENEMY], SPECIAL_ACTION",
			""},
		{"{turn: [{do: insert}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: insert is a decision at reactions, not at turn; lotm offers at turn: attack, strike, strike once, double_strike, vital PART, cast, grapple [one_hand|limb], charge, point_blank, leg_sweep, first_aid, meditate, delay KIND on TRIGGER [for ALLY|ENEMY], SPECIAL_ACTION",
			""},
		{"{reactions: [{do: attack}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: attack is a decision at turn, not at reactions; lotm offers at reactions: insert, wait, limb_block [legs|arms], borrow, pass",
			""},
		{"{before_initiative: [{do: attack}]}",
			"a.yaml:8:19: sides[0].combatants[0].tactics.before_initiative: lotm has no before_initiative moment (its book offers no such decision); lotm offers: turn, reactions, luck",
			""},
		{"{turn: [{when: self.swift, do: attack}]}",
			"a.yaml:8:33: sides[0].combatants[0].tactics.turn[0].when: unknown fact self.swift; lotm offers at turn: round, ambush_round, self.hp, self.hp_pct, self.hidden, self.teleports, self.casts_left, self.swift_left, self.move_left, self.grappling, self.grappled, self.off_balance, self.effects, self.resuming, self.covered, self.luck, self.agility, self.acted, self.leg_blocks, self.arm_blocks, self.leg_hits, self.arm_hits, enemies.count, enemies.in_reach, enemies.held, allies.count, allies.down, allies.acted, ally(\"NAME\").acted, ally(\"NAME\").down, ally(\"NAME\").hp_pct, ally(\"NAME\").grappling, enemy(\"NAME\").down, enemy(\"NAME\").hp_pct, enemy(\"NAME\").distance, enemy(\"NAME\").held, enemy(\"NAME\").off_balance\n    self.swift\n    ^",
			""},
		{"{turn: [{when: reaction.attacking, do: attack}]}",
			"a.yaml:8:33: sides[0].combatants[0].tactics.turn[0].when: unknown fact reaction.attacking; lotm offers at turn: round, ambush_round, self.hp, self.hp_pct, self.hidden, self.teleports, self.casts_left, self.swift_left, self.move_left, self.grappling, self.grappled, self.off_balance, self.effects, self.resuming, self.covered, self.luck, self.agility, self.acted, self.leg_blocks, self.arm_blocks, self.leg_hits, self.arm_hits, enemies.count, enemies.in_reach, enemies.held, allies.count, allies.down, allies.acted, ally(\"NAME\").acted, ally(\"NAME\").down, ally(\"NAME\").hp_pct, ally(\"NAME\").grappling, enemy(\"NAME\").down, enemy(\"NAME\").hp_pct, enemy(\"NAME\").distance, enemy(\"NAME\").held, enemy(\"NAME\").off_balance\n    reaction.attacking\n    ^",
			""},
		{"{turn: [{when: self.hp_pct < 0.5 and round, do: attack}]}",
			"a.yaml:8:55: sides[0].combatants[0].tactics.turn[0].when: and needs true or false on both sides, but round is a number; compare it, e.g. round > 0\n    self.hp_pct < 0.5 and round\n                          ^",
			""},
		{"{turn: [{when: enemy(\"Thugg\").down, do: attack}]}",
			"a.yaml:8:39: sides[0].combatants[0].tactics.turn[0].when: no enemy \"Thugg\" (did you mean \"Thug\"?); Fighter's enemies: Thug\n    enemy(\"Thugg\").down\n          ^",
			""},
		{"{turn: [{do: attack with feiny}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: with feiny: valid: with aim|feint|intimidate|meditate (did you mean \"feint\"?)",
			""},
		{"{turn: [{do: feint}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: feint is a Swift action: write it after the turn's action, e.g. attack with feint; lotm offers at turn: attack, strike, strike once, double_strike, vital PART, cast, grapple [one_hand|limb], charge, point_blank, leg_sweep, first_aid, meditate, delay KIND on TRIGGER [for ALLY|ENEMY], SPECIAL_ACTION",
			""},
		{"{turn: [{do: double_strike}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: Fighter cannot Double Strike: give it double_strike: BONUS (fists or a short blade)",
			""},
		{"{turn: [{do: cast}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: Fighter has no casting ability: give it casting: {bonus, damage, uses}",
			""},
		{"{turn: [{do: vital neck}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: vital needs a body part: vital head|eyes|arms|legs|organs, got \"neck\"",
			""},
		{"{turn: [{do: delay attack until Thug}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: delay KIND on TRIGGER [for ALLY|ENEMY]: KIND is swift|attack|casting|move, TRIGGER is ally_grapples|after_ally|enemy_in_reach|enemy_casts|enemy_attacks_ally|enemy_acts; got \"delay attack until Thug\"",
			""},
		{"{turn: [{do: attack hide before}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: hide before: Fighter cannot hide; give it invisibility: swift|move|casting",
			""},
		{"{turn: [{do: attack, target: weakst}]}",
			"a.yaml:8:47: sides[0].combatants[0].tactics.turn[0].target: unknown target \"weakst\" (did you mean \"weakest\"?); a target is weakest, strongest, nearest, first, random (a grappled enemy first, then one it can reach this turn)",
			""},
		{"{reactions: [{do: wait, target: weakest}]}",
			"a.yaml:8:50: sides[0].combatants[0].tactics.reactions[0].target: insert and wait have no target; the inserted turn chooses its own with its turn rules",
			""},
		{"{turn: [{do: attack}, {do: charge}]}",
			"",
			"a.yaml:8:40: sides[0].combatants[0].tactics.turn[1]: rule #2 can never fire: rule #1 before it has no when: and its decision cannot fall through"},
	}
	checkErrors(t, "a.yaml", lotmErrScenario, cases)
}
