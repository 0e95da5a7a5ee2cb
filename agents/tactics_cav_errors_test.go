package agents_test

import (
	"testing"
)

const cavErrScenario = `name: cav-errors
ruleset: cavaliers
sides:
  - name: escort
    combatants:
      - name: Guard
        tactics: %s
        specialty: impulse
        attribute: d8
        pool: 2d6
        hp: 15
        attack: 2d6
        defence: 2d6
        damage: 1d6
      - {name: Envoy, specialty: none, attribute: d6, pool: d6, hp: 8, attack: 1d6, defence: 2d6, damage: 1d4}
  - name: assassins
    combatants:
      - {name: Assassin, specialty: timing, attribute: d8, pool: d6, hp: 12, attack: 2d6, defence: 2d6, damage: 1d6}
`

// Cavaliers tactics errors: the exact message a user sees for an unknown
// fact or decision (did you mean), a decision of another ruleset or
// moment, an offer fact outside reactions, type errors at the column.
func TestCavTacticsErrors(t *testing.T) {
	cases := []errCase{
		{"{move: [{do: advanse}]}", "c.yaml:7:31: sides[0].combatants[0].tactics.move[0].do: unknown decision \"advanse\" (did you mean \"advance\"?); cavaliers offers at move: advance, advance to NAME, follow NAME, hold",
			""},
		{"{move: [{do: seize}]}", "c.yaml:7:31: sides[0].combatants[0].tactics.move[0].do: seize is a decision at reactions, not at move; cavaliers offers at move: advance, advance to NAME, follow NAME, hold",
			""},
		{"{attack: [{do: advance}]}", "c.yaml:7:33: sides[0].combatants[0].tactics.attack[0].do: advance is a decision at move, not at attack; cavaliers offers at attack: attack, nothing, SPECIAL_ACTION",
			""},
		{"{reactions: [{do: declare any}]}", "c.yaml:7:36: sides[0].combatants[0].tactics.reactions[0].do: declare is an acks2 decision, not a cavaliers one; cavaliers offers at reactions: seize, interpose, interpose for NAME, block, block for NAME, reprise, pass",
			""},
		{"{reactions: [{do: ambush}]}", "c.yaml:7:36: sides[0].combatants[0].tactics.reactions[0].do: ambush is a lotm decision, not a cavaliers one; cavaliers offers at reactions: seize, interpose, interpose for NAME, block, block for NAME, reprise, pass",
			""},
		{"{move: [{do: withdraw}]}", "c.yaml:7:31: sides[0].combatants[0].tactics.move[0].do: cavaliers has no decision \"withdraw\"; cavaliers offers at move: advance, advance to NAME, follow NAME, hold",
			""},
		{"{reactions: [{do: save 2}]}", "c.yaml:7:36: sides[0].combatants[0].tactics.reactions[0].do: cavaliers has no save decision: keep [+] for an ability with a condition on self.plus and offer.price (docs/tactics.md); cavaliers offers at reactions: seize, interpose, interpose for NAME, block, block for NAME, reprise, pass",
			""},
		{"{turn: [{do: attack}]}", "c.yaml:7:19: sides[0].combatants[0].tactics.turn: cavaliers has no turn moment (its book offers no such decision); cavaliers offers: move, attack, reactions, enter",
			""},
		{"{before_initiative: [{do: seize}]}", "c.yaml:7:19: sides[0].combatants[0].tactics.before_initiative: cavaliers has no before_initiative moment (its book offers no such decision); cavaliers offers: move, attack, reactions, enter",
			""},
		{"{move: [{when: offer.seize, do: hold}]}", "c.yaml:7:33: sides[0].combatants[0].tactics.move[0].when: unknown fact offer.seize; cavaliers offers at move: round, self.hp, self.hp_pct, self.area, self.moved, self.position, self.total, self.raises, self.plus, self.price_seize, self.price_interpose, self.price_reprise, unlock, enemies.count, enemies.here, enemies.near, allies.count, allies.down, allies.here, ally(\"NAME\").acted, ally(\"NAME\").down, ally(\"NAME\").hp, ally(\"NAME\").hp_pct, ally(\"NAME\").distance, enemy(\"NAME\").acted, enemy(\"NAME\").down, enemy(\"NAME\").hp, enemy(\"NAME\").hp_pct, enemy(\"NAME\").distance\n    offer.seize\n    ^",
			""},
		{"{reactions: [{when: self.plus >= $keep, do: seize}]}", "c.yaml:7:51: sides[0].combatants[0].tactics.reactions[0].when: unknown parameter $keep: this block has no params: (declare it, e.g. params: {keep: 0.5})\n    self.plus >= $keep\n                 ^",
			""},
		{"{reactions: [{when: self.plus + next_actor.is_enemy > 1, do: seize}]}", "c.yaml:7:48: sides[0].combatants[0].tactics.reactions[0].when: + needs numbers, but next_actor.is_enemy is true or false\n    self.plus + next_actor.is_enemy > 1\n              ^",
			""},
		{"{attack: [{when: self.hp_pcnt < 0.5, do: nothing}]}", "c.yaml:7:35: sides[0].combatants[0].tactics.attack[0].when: unknown fact self.hp_pcnt (did you mean self.hp_pct?); cavaliers offers at attack: round, self.hp, self.hp_pct, self.area, self.moved, self.position, self.total, self.raises, self.plus, self.price_seize, self.price_interpose, self.price_reprise, unlock, enemies.count, enemies.here, enemies.near, allies.count, allies.down, allies.here, ally(\"NAME\").acted, ally(\"NAME\").down, ally(\"NAME\").hp, ally(\"NAME\").hp_pct, ally(\"NAME\").distance, enemy(\"NAME\").acted, enemy(\"NAME\").down, enemy(\"NAME\").hp, enemy(\"NAME\").hp_pct, enemy(\"NAME\").distance\n    self.hp_pcnt < 0.5\n    ^",
			""},
		{"{move: [{when: round, do: hold}]}", "c.yaml:7:33: sides[0].combatants[0].tactics.move[0].when: a condition must be true or false, but this is a number; compare it, e.g. round > 0\n    round\n    ^",
			""},
		{"{move: [{do: follow Assassin}]}", "c.yaml:7:31: sides[0].combatants[0].tactics.move[0].do: follow Assassin: \"Assassin\" is not an ally of Guard; its allies: Envoy",
			""},
		{"{move: [{do: advance to Envoy}]}", "c.yaml:7:31: sides[0].combatants[0].tactics.move[0].do: advance to Envoy: \"Envoy\" is not an enemy of Guard; its enemies: Assassin",
			""},
		{"{reactions: [{do: interpose for Countess}]}", "c.yaml:7:36: sides[0].combatants[0].tactics.reactions[0].do: interpose for Countess: no ally \"Countess\"; Guard's allies: Envoy",
			""},
		{"{reactions: [{do: block Envoy}]}", "c.yaml:7:36: sides[0].combatants[0].tactics.reactions[0].do: block or block for NAME (an ally), got \"block Envoy\"",
			""},
		{"{attack: [{do: attack, target: weakst}]}", "c.yaml:7:49: sides[0].combatants[0].tactics.attack[0].target: unknown target \"weakst\" (did you mean \"weakest\"?); a target is a selector (weakest, strongest, random, first) or an enemy's name (Assassin)",
			""},
		{"{reactions: [{do: reprise, target: weakest}]}", "c.yaml:7:53: sides[0].combatants[0].tactics.reactions[0].target: this decision has no target; target: goes with attack",
			""},
		{"{move: [{do: hold now}]}", "c.yaml:7:31: sides[0].combatants[0].tactics.move[0].do: hold takes no argument, got \"now\"",
			""},
		{"{attack: [{when: ally(\"Assassin\").down, do: nothing}]}", "c.yaml:7:40: sides[0].combatants[0].tactics.attack[0].when: \"Assassin\" is not an ally of Guard; its allies: Envoy\n    ally(\"Assassin\").down\n         ^",
			""},
		{"{reactions: [{do: pass}, {do: seize}]}", "",
			"c.yaml:7:43: sides[0].combatants[0].tactics.reactions[1]: rule #2 can never fire: rule #1 before it has no when: and its decision cannot fall through"},
		{"{attack: [{do: attack, target: Assassin}, {do: attack}, {do: nothing}]}", "",
			"c.yaml:7:74: sides[0].combatants[0].tactics.attack[2]: rule #3 can never fire: rule #2 before it has no when: and its decision cannot fall through"},
	}
	checkErrors(t, "c.yaml", cavErrScenario, cases)
}
