package acks2

import "simctl/sim"

// Doc implements sim.Ruleset.
func (Ruleset) Doc() sim.RulesDoc {
	d := sim.RulesDoc{
		Name:   "acks2",
		Title:  "ACKS II: the round, acting before your number, engagement, delay, same number",
		Source: "Adventurer Conqueror King System II (ACKS II), Combat: the combat round sequence (read in its Russian translation)",
		Summary: "Every round: declarations (spells, withdraw, retreat) before initiative; initiative 1d6 + init re-rolled every round; " +
			"the referee counts from 10 down to -10 and each combatant takes its segment on its number; morale after the count. " +
			"The encounter ends when a side is all out (killed or fled). " +
			"Positions are feet on a line between the sides (distance:, behind:); within 5 feet combatants are engaged and cannot move except by a declared withdrawal or retreat. " +
			"Surprise rounds are not in the excerpt and not simulated: aware: false only takes away the round-1 readiness.",
		Options:  optionDocs,
		Policies: policyDocs(),
		Fields: []sim.Field{
			{Name: "init", Doc: "DEX modifier and specials added to the 1d6 initiative die, -11 to +4 (so every number falls on the count 10 to -10)"},
			{Name: "initiative_roll", Doc: "pins the d6 (1-6) for every round not given by initiative_rolls"},
			{Name: "initiative_rolls", Doc: "pins the d6 round by round: [6, 2] is 6 in round 1, 2 in round 2; later rounds roll (or use initiative_roll)"},
			{Name: "attacks", Doc: "attack modifiers: an attack action makes one attack with each at one target; readied, round-1, charge, free and cleave attacks use the first"},
			{Name: "attack_throw", Doc: "the attack throw (default 10): see option armor_class"},
			{Name: "weapon", Doc: "melee (default) | long (a long melee weapon: spear, polearm, lance) | missile (bow, crossbow, sling)"},
			{Name: "range", Doc: "missile range in feet (default unlimited)"},
			{Name: "size", Doc: "tiny | small | man (default) | large | huge | gigantic | colossal: a long weapon cannot stop a larger charger; sizes count for size_engagement"},
			{Name: "flies", Doc: "true: a flyer, never engaged by non-flyers"},
			{Name: "engaged_by", Doc: "option size_engagement: how many opponents it takes to engage it — a number (opponents of any smaller size; one of its size or larger suffices) or a mapping {man: 4, large: 2}"},
			{Name: "morale", Doc: "morale modifier added to the 2d6 check (default 0)"},
			{Name: "save", Doc: "saving throw target: d20 >= save succeeds (default 15)"},
			{Name: "cleaves", Doc: "extra attacks per round after kills (default: option cleave_limit)"},
			{Name: "behind", Doc: "feet behind its side's front line at the start (default 0): a rear rank a charger must get past"},
			{Name: "traits", Doc: "traits written as data, on a combatant or a side (side field too): library names, {use: NAME, params: {...}} or {name, on, when, do, uses}; the moments, quantities, conditions and library are listed below, and the scenario's rules: (house rules, for everyone or one side: side:) take the same form"},
			{Name: "spells", Doc: "list of {name, damage, uses (default 1), save (none|half|negates), ongoing (DICE), ongoing_at (start|end), ongoing_rounds (default 1), ongoing_save, push (feet)}; declared before initiative, cast in the caster's segment"},
		},
		Actions: append([]sim.Field{
			{Name: "declarations", Doc: "before initiative: a spell, a withdrawal or a retreat (public: policies may target declared casters); simultaneous, so no declarer hears another's declaration of the same round (option declare_first: one side first); the declared action is the segment's action, it may be delayed but not replaced"},
			{Name: "initiative", Doc: "1d6 + init every round; the referee counts 10, 9, ... -10 and each combatant acts on its number; same-number order below"},
			{Name: "attack", Doc: "an attack action at an enemy within 5 feet (melee, long) or in range (missile; allowed while engaged); not engaged, a melee combatant first moves up to its speed, or marches up to twice its speed without attacking"},
			{Name: "charge", Doc: "full round, not while engaged: up to twice speed straight at the target, one attack with charge_bonus; a screen that engages it stops it"},
			{Name: "withdraw / retreat", Doc: "declared defensive movement: withdraw half speed away, retreat full speed away (retreat_free_attack); the only movement allowed while engaged"},
			{Name: "engagement", Doc: "within 5 feet; engaged combatants stop moving and cannot charge or march; flyers are not engaged by non-flyers; option size_engagement with engaged_by"},
			{Name: "readied attack", Doc: "on its segment a combatant readies an attack instead of acting; from the next round (the source: it \"begins the round\" with it; option ready_same_round also allows the same round), when an enemy's own movement ends where it can attack it, it attacks before the enemy's combat action, and still acts on its own number later that round; acting otherwise on its number drops an untriggered one"},
			{Name: "round-1 missile weapon", Doc: "round 1, not engaged at its start, not surprised: shoot a charger on the charger's number, before its attack; loses its own number; cleaves if the shot kills"},
			{Name: "round-1 long weapon", Doc: "the same with a long melee weapon against a charger within 5 feet, except a larger charger or one with a long weapon; loses its own number; cleaves if it kills. The trace says a spearman \"cannot interrupt\" only when its policy wanted to (by default only a charge at itself)"},
			{Name: "losing a ready action", Doc: "damage, a failed saving throw or a forced move (a spell's push) before it is used takes away a readied attack or the round-1 readiness"},
			{Name: "delay", Doc: "on its number: to a lower count down to the negative of its number, or until a named combatant has acted (then right after it, same number); not taken by the limit: the action is lost"},
			{Name: "start / end of segment", Doc: "lingering effects at the start of a segment happen at the original number even when delaying; at the end, when it finally acts, or at the end of the round if it never does"},
			{Name: "same number", Doc: "one after another: a side orders its own (Rank); opposite sides: the side with fewer combatants in the fight chooses, per combatant, before or after the other side (ActBefore); equal numbers: the referee's side (the side with referee: true, the monsters; without one, the second side)"},
			{Name: "cleave", Doc: "a kill with a melee attack (or a round-1 missile shot) allows another attack at an enemy it can reach, up to cleave_limit / cleaves per round"},
			{Name: "declared spells", Doc: "cast in the caster's segment; damage before the segment loses the spell (disrupt_declared_casters)"},
			{Name: "morale", Doc: "after the count, options morale_trigger, morale_repeat, morale_flee_at; fleeing combatants are out, counted as fled"},
			{Name: "first in order / first actor", Doc: "first in order: the first combatant called in round 1's count (highest number, same-number rule applied). First actor: the first combatant whose action began — an attack, charge, march, spell, withdrawal or retreat, on its number or when its delay ends, or a readied or round-1 attack; delaying, readying and a segment lost to a disrupted spell are not actions. A charger whose movement triggers a readied or round-1 attack began its action first, so it is the first actor although the interrupting attack lands before its own"},
			{Name: "draws", Doc: "max_rounds reached with both sides in the fight (draw cause max_rounds), or both sides out at once — they fled in the same morale step, or the last of each fell to the same round's effects (all_gone)"},
		}, checklistFields()...),
		Counters: counterDocs,
	}
	traitDocs(&d)
	return d
}
