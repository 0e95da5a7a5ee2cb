package agents_test

import (
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim/scenario"
)

// errScenario has a tactics block at line 9 (the Fighter's), written with
// flow mappings so each case is one line and its columns are exact.
const errScenario = `name: tactics-errors
ruleset: d20
distance: 30
sides:
  - name: heroes
    combatants:
      - {name: Wizard, hp: 10, ac: 12, attacks: [1], damage: 1d4, spells: [{name: fire bolt, damage: 3d6, level: 2}]}
      - name: Fighter
        tactics: %s
        hp: 20
        ac: 16
        attacks: [5, 0]
        damage: 1d8+2
  - name: orcs
    combatants:
      - {name: Orc, count: 2, hp: 10, ac: 13, attacks: [4], damage: 1d12+3}
      - {name: Shaman, hp: 10, ac: 13, attacks: [4], damage: 1d4, spells: [{name: fire bolt, damage: 3d6, level: 2}]}
`

func compileErr(t *testing.T, block string) (string, string) {
	t.Helper()
	src := strings.Replace(errScenario, "%s", block, 1)
	sc, err := scenario.Load("t.yaml", []byte(src), nil, rulesets.Schema)
	if err != nil {
		return err.Error(), ""
	}
	_, err = rulesets.Compile(sc)
	var warns []string
	for _, w := range sc.Rep.Warns {
		warns = append(warns, w.Error())
	}
	if err == nil {
		return "", strings.Join(warns, "\n")
	}
	return err.Error(), strings.Join(warns, "\n")
}

// Every invalid tactics block gets the exact message a user sees: where
// (file:line:col, pointing into the when: string for expression errors,
// with a caret under the column), which field, what was wrong and what
// would be valid. The last field is the warnings (an unreachable rule).
func TestD20TacticsErrors(t *testing.T) {
	cases := []struct{ block, err, warn string }{
		{"{turn: [{when: self.hp_pc < 0.5, do: attack}]}",
			"t.yaml:9:33: sides[0].combatants[1].tactics.turn[0].when: unknown fact self.hp_pc (did you mean self.hp_pct?); d20 offers at turn: round, surprise_round, self.hp, self.hp_pct, self.ac, self.count, self.position, self.engaged, self.resuming, self.spells_left, spell(\"NAME\").left, enemies.count, enemies.down, enemies.in_reach, enemies.reachable, enemies.nearest, enemies.casters, enemies.acted, allies.count, allies.down, allies.engaged, allies.acted, ally(\"NAME\").acted, ally(\"NAME\").down, ally(\"NAME\").hp, ally(\"NAME\").hp_pct, ally(\"NAME\").engaged, ally(\"NAME\").distance, enemy(\"NAME\").acted, enemy(\"NAME\").down, enemy(\"NAME\").hp, enemy(\"NAME\").hp_pct, enemy(\"NAME\").distance, enemy(\"NAME\").in_reach, enemy(\"NAME\").spells_left, next_actor.exists, next_actor.is_enemy, next_actor.is_ally, self.flat_footed, self.ammo, self.loaded, self.threatened, enemies.in_range, enemies.flat_footed, enemies.readied, ally(\"NAME\").flat_footed, ally(\"NAME\").readied, ally(\"NAME\").delaying, ally(\"NAME\").charged, ally(\"NAME\").count, enemy(\"NAME\").flat_footed, enemy(\"NAME\").readied, enemy(\"NAME\").delaying, enemy(\"NAME\").charged, enemy(\"NAME\").count, enemy(\"NAME\").ac, enemy(\"NAME\").in_range, enemy(\"NAME\").shot_penalty\n    self.hp_pc < 0.5\n    ^",
			""},
		{"{turn: [{when: self.hp_pct < $lo, do: attack}], params: {low: 0.4}}",
			"t.yaml:9:47: sides[0].combatants[1].tactics.turn[0].when: unknown parameter $lo (did you mean $low?); params: $low\n    self.hp_pct < $lo\n                  ^",
			""},
		{"{turn: [{when: self.hp_pct < $low, do: attack}]}",
			"t.yaml:9:47: sides[0].combatants[1].tactics.turn[0].when: unknown parameter $low: this block has no params: (declare it, e.g. params: {low: 0.5})\n    self.hp_pct < $low\n                  ^",
			""},
		{"{turn: [{when: self.hp_pct and round == 1, do: attack}]}",
			"t.yaml:9:33: sides[0].combatants[1].tactics.turn[0].when: and needs true or false on both sides, but self.hp_pct is a number; compare it, e.g. self.hp_pct > 0\n    self.hp_pct and round == 1\n    ^",
			""},
		{"{turn: [{when: self.engaged < 2, do: attack}]}",
			"t.yaml:9:46: sides[0].combatants[1].tactics.turn[0].when: < compares numbers, but self.engaged is true or false\n    self.engaged < 2\n                 ^",
			""},
		{"{turn: [{when: round + self.engaged > 1, do: attack}]}",
			"t.yaml:9:39: sides[0].combatants[1].tactics.turn[0].when: + needs numbers, but self.engaged is true or false\n    round + self.engaged > 1\n          ^",
			""},
		{"{turn: [{when: self.hp_pct, do: attack}]}",
			"t.yaml:9:33: sides[0].combatants[1].tactics.turn[0].when: a condition must be true or false, but this is a number; compare it, e.g. self.hp_pct > 0\n    self.hp_pct\n    ^",
			""},
		{"{turn: [{when: round = 1, do: attack}]}",
			"t.yaml:9:39: sides[0].combatants[1].tactics.turn[0].when: '=' is not a comparison; write '=='\n    round = 1\n          ^",
			""},
		{"{turn: [{when: round == 1 and, do: attack}]}",
			"t.yaml:9:47: sides[0].combatants[1].tactics.turn[0].when: expected a value (a number, a fact such as self.hp_pct, or $param), found the end\n    round == 1 and\n                  ^",
			""},
		{"{turn: [{when: (round == 1, do: attack}]}",
			"t.yaml:9:44: sides[0].combatants[1].tactics.turn[0].when: expected ')' to close the '(' at column 1, found the end\n    (round == 1\n               ^",
			""},
		{"{turn: [{when: round == 1 round, do: attack}]}",
			"t.yaml:9:44: sides[0].combatants[1].tactics.turn[0].when: unexpected 'round' after a complete condition; join conditions with and / or\n    round == 1 round\n               ^",
			""},
		{"{turn: [{when: 'ally(\"Wizzard\").acted', do: attack}]}",
			"t.yaml:9:39: sides[0].combatants[1].tactics.turn[0].when: no ally \"Wizzard\" (did you mean \"Wizard\"?); Fighter's allies: Wizard\n    ally(\"Wizzard\").acted\n         ^",
			""},
		{"{turn: [{when: 'ally(\"Orc#1\").acted', do: attack}]}",
			"t.yaml:9:39: sides[0].combatants[1].tactics.turn[0].when: \"Orc#1\" is not an ally of Fighter; its allies: Wizard\n    ally(\"Orc#1\").acted\n         ^",
			""},
		{"{turn: [{when: 'enemy(\"Fighter\").down', do: attack}]}",
			"t.yaml:9:40: sides[0].combatants[1].tactics.turn[0].when: \"Fighter\" is Fighter itself, not an enemy\n    enemy(\"Fighter\").down\n          ^",
			""},
		{"{turn: [{when: ally.acted, do: attack}]}",
			"t.yaml:9:33: sides[0].combatants[1].tactics.turn[0].when: ally.acted needs a name: ally(\"NAME\").acted\n    ally.acted\n    ^",
			""},
		{"{turn: [{when: 'self(\"x\").hp > 0', do: attack}]}",
			"t.yaml:9:39: sides[0].combatants[1].tactics.turn[0].when: self.hp takes no argument\n    self(\"x\").hp > 0\n         ^",
			""},
		{"{turn: [{when: 'spell(\"fire bolt\").left > 0', do: attack}]}",
			"t.yaml:9:40: sides[0].combatants[1].tactics.turn[0].when: Fighter has no spells\n    spell(\"fire bolt\").left > 0\n          ^",
			""},
		{"{turn: [{when: round < 2 < 3, do: attack}]}",
			"t.yaml:9:43: sides[0].combatants[1].tactics.turn[0].when: comparisons do not chain; write a < b and b < c\n    round < 2 < 3\n              ^",
			""},
		{"{turn: [{when: not round, do: attack}]}",
			"t.yaml:9:33: sides[0].combatants[1].tactics.turn[0].when: not needs true or false, but round is a number\n    not round\n    ^",
			""},
		{"{turn: [{when: round == true, do: attack}]}",
			"t.yaml:9:39: sides[0].combatants[1].tactics.turn[0].when: mismatched types number and bool for ==\n    round == true\n          ^",
			""},
		{"{turn: [{do: seize}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: seize is a cavaliers decision, not a d20 one; d20 offers: attack, charge, full_attack, cast SPELL | cast any, delay until NAME, delay to COUNT, ready attack on TRIGGER [for ALLY], ready cast SPELL|any on TRIGGER [for ALLY], ready counterspell [SPELL] on TRIGGER, counterspell [SPELL], shoot, close_in, keep_distance, ready shoot on TRIGGER [for ALLY], ready move on TRIGGER [for ALLY], advance and ready ACTION on TRIGGER [for ALLY]",
			""},
		{"{turn: [{do: atack}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: unknown decision \"atack\" (did you mean \"attack\"?); d20 offers at turn: attack, charge, full_attack, cast SPELL | cast any, delay until NAME, delay to COUNT, ready attack on TRIGGER [for ALLY], ready cast SPELL|any on TRIGGER [for ALLY], ready counterspell [SPELL] on TRIGGER, counterspell [SPELL], shoot, close_in, keep_distance, ready shoot on TRIGGER [for ALLY], ready move on TRIGGER [for ALLY], advance and ready ACTION on TRIGGER [for ALLY]",
			""},
		{"{turn: [{do: withdraw}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: d20 has no decision \"withdraw\": the d20 referee does not model it; d20 offers: attack, charge, full_attack, cast SPELL | cast any, delay until NAME, delay to COUNT, ready attack on TRIGGER [for ALLY], ready cast SPELL|any on TRIGGER [for ALLY], ready counterspell [SPELL] on TRIGGER, counterspell [SPELL], shoot, close_in, keep_distance, ready shoot on TRIGGER [for ALLY], ready move on TRIGGER [for ALLY], advance and ready ACTION on TRIGGER [for ALLY]",
			""},
		{"{turn: [{do: delay until Wizzard}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: delay until \"Wizzard\": no such combatant (did you mean \"Wizard\"?); combatants: Wizard, Orc#1, Orc#2, Shaman",
			""},
		{"{turn: [{do: delay until Fighter}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: a combatant cannot delay until it has acted itself",
			""},
		{"{turn: [{do: delay to soon}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: delay to needs a count from -100 to 100, got \"soon\"",
			""},
		{"{turn: [{do: delay}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: delay until NAME or delay to COUNT, got \"delay\"",
			""},
		{"{turn: [{do: ready attack on charging}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: unknown trigger \"charging\"; triggers: charge, enemy_in_reach, enemy_casts, ally_acts, enemy_attacks_ally",
			""},
		{"{turn: [{do: ready attack}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: ready ACTION on TRIGGER, e.g. ready attack on charge; triggers: charge, enemy_in_reach, enemy_casts, ally_acts, enemy_attacks_ally",
			""},
		{"{turn: [{do: ready dance on charge}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: cannot ready \"dance\"; a readied action is attack, shoot, move, cast SPELL or counterspell",
			""},
		{"{turn: [{do: ready move on charge}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: a readied move closes on the one the trigger names, and charge brings that one into reach already; use enemy_casts, ally_acts (toward the ally's target) or enemy_attacks_ally",
			""},
		{"{turn: [{do: shoot}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: Fighter has no ranged weapon to shoot with; give it ranged: {bonus, damage, increment, ...}",
			""},
		{"{turn: [{do: ready shoot on enemy_casts}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: Fighter has no ranged weapon to shoot with; give it ranged: {bonus, damage, increment, ...}",
			""},
		{"{turn: [{do: advance ready attack on charge}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: advance and ready ACTION on TRIGGER: a move action toward the target, then the ready; got \"advance ready attack on charge\"",
			""},
		{"{turn: [{do: ready attack on ally_acts}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: trigger ally_acts needs an ally: ready ... on ally_acts for NAME",
			""},
		{"{turn: [{do: ready attack on ally_acts for Orc#1}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: \"Orc#1\" is not an ally of Fighter; its allies: Wizard",
			""},
		{"{turn: [{do: cast fireball}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: Fighter has no spells to cast",
			""},
		{"{turn: [{do: counterspell}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: a counterspell needs the same spell as the caster, and Fighter has no spells",
			""},
		{"{turn: [{do: attack, target: weakst}]}",
			"t.yaml:9:47: sides[0].combatants[1].tactics.turn[0].target: unknown target \"weakst\" (did you mean \"weakest\"?); a target is a selector (weakest, strongest, nearest, lowest_ac, casters_first, random, first), optionally followed by \"in reach\", or an enemy's name (Orc#1, Orc#2, Shaman)",
			""},
		{"{turn: [{do: attack, target: Wizard}]}",
			"t.yaml:9:47: sides[0].combatants[1].tactics.turn[0].target: \"Wizard\" is on Fighter's side; a target is an enemy: a selector (weakest, strongest, nearest, lowest_ac, casters_first, random, first) or an enemy's name (Orc#1, Orc#2, Shaman)",
			""},
		{"{turn: [{do: delay to 5, target: weakest}]}",
			"t.yaml:9:51: sides[0].combatants[1].tactics.turn[0].target: a delay decision has no target (a readied attack strikes whoever sets it off)",
			""},
		{"{turn: [{do: attack Orc#1}]}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: attack takes no argument (choose whom with target:), got \"Orc#1\"",
			""},
		{"{before_initiative: [{do: attack}]}",
			"t.yaml:9:19: sides[0].combatants[1].tactics.before_initiative: d20 has no before_initiative moment (its book offers no such decision); d20 offers: turn",
			""},
		{"{reactions: [{do: attack}]}",
			"t.yaml:9:19: sides[0].combatants[1].tactics.reactions: d20 has no reactions moment (its book offers no such decision); d20 offers: turn",
			""},
		{"{turn: [{when: round == 1}]}",
			"t.yaml:9:26: sides[0].combatants[1].tactics.turn[0].do: missing; every rule needs a decision (do:)",
			""},
		{"{turn: []}",
			"t.yaml:9:25: sides[0].combatants[1].tactics.turn: turn: is a list of rules, e.g. [{when: round == 1, do: attack}]",
			""},
		{"{turn: [{do: attack, when: ''}]}",
			"t.yaml:9:45: sides[0].combatants[1].tactics.turn[0].when: empty condition; leave out when: for a rule that always applies",
			""},
		{"{turn: [attack]}",
			"t.yaml:9:26: sides[0].combatants[1].tactics.turn[0]: a rule is a mapping {name:, when:, do:, target:}",
			""},
		{"{turn: [{do: attack, targte: weakest}]}",
			"t.yaml:9:39: sides[0].combatants[1].tactics.turn[0].targte: unknown field \"targte\" (did you mean \"target\"?); valid fields: do, name, target, when",
			""},
		{"{params: {low: [1]}, turn: [{do: attack}]}",
			"t.yaml:9:33: sides[0].combatants[1].tactics.params.low: a parameter is a number (0.4) or a name (Wizard), got a list",
			""},
		{"{params: {2x: 1}, turn: [{do: attack}]}",
			"t.yaml:9:28: sides[0].combatants[1].tactics.params.2x: parameter name \"2x\": use letters, digits and _ (it is written $2x)",
			""},
		{"delay",
			"t.yaml:9:18: sides[0].combatants[1].tactics: library tactic delay needs params: until, e.g. {use: delay, params: {until: ...}}",
			""},
		{"waitfor",
			"t.yaml:9:18: sides[0].combatants[1].tactics: no library tactic \"waitfor\" for d20; library: charge, counterspell, default, delay, ready (simctl policies d20 lists them)",
			""},
		{"{use: delay}",
			"t.yaml:9:18: sides[0].combatants[1].tactics: library tactic delay needs params: until, e.g. {use: delay, params: {until: ...}}",
			""},
		{"{use: delay, params: {untl: Wizard}}",
			"t.yaml:9:18: sides[0].combatants[1].tactics: library tactic delay needs params: until, e.g. {use: delay, params: {until: ...}}\nt.yaml:9:40: sides[0].combatants[1].tactics.params.untl: library tactic delay has no parameter \"untl\" (did you mean \"until\"?); its params: until, target",
			""},
		{"{use: delay, params: {until: Wizrd}}",
			"t.yaml:9:18: sides[0].combatants[1].tactics (library tactic delay, rule wait): delay until \"Wizrd\": no such combatant (did you mean \"Wizard\"?); combatants: Wizard, Orc#1, Orc#2, Shaman",
			""},
		{"{use: delay, params: {until: Wizard}, turn: [{do: attack}]}",
			"t.yaml:9:56: sides[0].combatants[1].tactics.turn: a tactics block with use: takes only params: (to change the library tactic's parameters); copy the library tactic to edit its rules",
			""},
		{"[attack]",
			"t.yaml:9:18: sides[0].combatants[1].tactics: a tactics block is a mapping (params:, turn:) or the name of a library tactic, got a list",
			""},
		{"{turn: [{do: attack}, {do: charge}]}",
			"",
			"t.yaml:9:40: sides[0].combatants[1].tactics.turn[1]: rule #2 can never fire: rule #1 before it has no when: and its decision cannot fall through"},
		{"{turn: [{do: 'cast $spell'}], params: {low: 1}}",
			"t.yaml:9:31: sides[0].combatants[1].tactics.turn[0].do: unknown parameter $spell; params: low",
			""},
		{"{turn: [{do: attack, when: $x > 1}]}",
			"t.yaml:9:45: sides[0].combatants[1].tactics.turn[0].when: unknown parameter $x: this block has no params: (declare it, e.g. params: {x: 0.5})\n    $x > 1\n    ^",
			""},
	}
	if len(cases) < 25 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		err, warn := compileErr(t, c.block)
		if err != c.err {
			t.Errorf("tactics: %s\n got: %s\nwant: %s", c.block, err, c.err)
		}
		if warn != c.warn {
			t.Errorf("tactics: %s\n got warning: %s\nwant warning: %s", c.block, warn, c.warn)
		}
	}
}
