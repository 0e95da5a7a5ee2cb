package agents_test

import (
	"testing"
)

const acksErrScenario = `name: acks-errors
ruleset: acks2
distance: 30
sides:
  - name: heroes
    combatants:
      - name: Fighter
        tactics: %s
        hp: 2d8
        ac: 4
        attack_throw: 9
        damage: 1d8
  - name: monsters
    referee: true
    combatants:
      - {name: Orc, hp: 1d8+1, ac: 2, attack_throw: 10, damage: 1d8}
`

// ACKS II tactics errors: a decision at the wrong moment names the moment
// it belongs to and what this one offers; reaction facts exist only at
// reactions; the exact message a user sees.
func TestAcksTacticsErrors(t *testing.T) {
	cases := []errCase{
		{"{turn: [{do: declare any}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: declare is a decision at before_initiative, not at turn; acks2 offers at turn: attack, attack without charging, delay until NAME, delay to COUNT, delay to floor, ready, SPECIAL_ACTION",
			""},
		{"{before_initiative: [{do: attack}]}",
			"a.yaml:8:44: sides[0].combatants[0].tactics.before_initiative[0].do: attack is a decision at turn, not at before_initiative; acks2 offers at before_initiative: declare SPELL | declare any, withdraw, retreat, nothing",
			""},
		{"{before_initiative: [{do: declare fireball}]}",
			"a.yaml:8:44: sides[0].combatants[0].tactics.before_initiative[0].do: Fighter has no spells to declare",
			""},
		{"{reactions: [{do: before}]}",
			"a.yaml:8:36: sides[0].combatants[0].tactics.reactions[0].do: before is a decision at same_number, not at reactions; acks2 offers at reactions: strike, hold",
			""},
		{"{reactions: [{when: reaction.round1_long and self.declared, do: hold}]}",
			"a.yaml:8:63: sides[0].combatants[0].tactics.reactions[0].when: unknown fact self.declared; acks2 offers at reactions: round, count, self.hp, self.hp_pct, self.engaged, self.missile, self.long, self.spells_left, self.declared_spell, self.declared_move, self.declared_nothing, self.number, self.floor, self.resuming, self.round1_ready, spell(\"NAME\").left, enemies.count, enemies.attackable, enemies.casters, allies.count, allies.down, ally(\"NAME\").acted, ally(\"NAME\").down, ally(\"NAME\").hp_pct, ally(\"NAME\").number, enemy(\"NAME\").acted, enemy(\"NAME\").down, enemy(\"NAME\").hp_pct, enemy(\"NAME\").distance, enemy(\"NAME\").declared_spell, enemy(\"NAME\").attackable, enemy(\"NAME\").number, reaction.readied_attack, reaction.round1_missile, reaction.round1_long, reaction.charge_at_self\n    reaction.round1_long and self.declared\n                             ^",
			""},
		{"{turn: [{when: reaction.round1_long, do: ready}]}",
			"a.yaml:8:33: sides[0].combatants[0].tactics.turn[0].when: unknown fact reaction.round1_long; acks2 offers at turn: round, count, self.hp, self.hp_pct, self.engaged, self.missile, self.long, self.spells_left, self.declared_spell, self.declared_move, self.declared_nothing, self.number, self.floor, self.resuming, self.round1_ready, spell(\"NAME\").left, enemies.count, enemies.attackable, enemies.casters, allies.count, allies.down, ally(\"NAME\").acted, ally(\"NAME\").down, ally(\"NAME\").hp_pct, ally(\"NAME\").number, enemy(\"NAME\").acted, enemy(\"NAME\").down, enemy(\"NAME\").hp_pct, enemy(\"NAME\").distance, enemy(\"NAME\").declared_spell, enemy(\"NAME\").attackable, enemy(\"NAME\").number\n    reaction.round1_long\n    ^",
			""},
		{"{same_number: [{do: first}]}",
			"a.yaml:8:38: sides[0].combatants[0].tactics.same_number[0].do: unknown decision \"first\"; acks2 offers at same_number: before, after",
			""},
		{"{turn: [{do: ready attack}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: ready takes no argument: an ACKS readied action is an attack, taken when an enemy's movement ends in reach",
			""},
		{"{turn: [{do: delay to 12}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: delay to needs a count from -10 to 10 or floor, got \"12\"",
			""},
		{"{turn: [{do: seize}]}",
			"a.yaml:8:31: sides[0].combatants[0].tactics.turn[0].do: seize is a cavaliers decision, not an acks2 one; acks2 offers at turn: attack, attack without charging, delay until NAME, delay to COUNT, delay to floor, ready, SPECIAL_ACTION",
			""},
		{"{turn: [{do: attack, target: weakst}]}",
			"a.yaml:8:47: sides[0].combatants[0].tactics.turn[0].target: unknown target \"weakst\" (did you mean \"weakest\"?); a target is a selector (weakest, strongest, nearest, random, first, casters) or an enemy's name (Orc)",
			""},
		{"{reactions: [{do: strike, target: weakest}]}",
			"a.yaml:8:52: sides[0].combatants[0].tactics.reactions[0].target: this decision has no target; target: goes with attack (and with delay or ready, for the attack they turn into)",
			""},
		{"{turn: [{do: attack}, {do: ready}]}",
			"",
			"a.yaml:8:40: sides[0].combatants[0].tactics.turn[1]: rule #2 can never fire: rule #1 before it has no when: and its decision cannot fall through"},
	}
	checkErrors(t, "a.yaml", acksErrScenario, cases)
}
