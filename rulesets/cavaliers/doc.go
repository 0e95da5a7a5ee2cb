package cavaliers

import "simctl/sim"

// Doc implements sim.Ruleset.
func (Ruleset) Doc() sim.RulesDoc {
	d := sim.RulesDoc{
		Name:   "cavaliers",
		Title:  "The Queen's Cavaliers: the Initiative skill, Impulse, Vigilance and Timing",
		Source: "The Queen's Cavaliers, Skills: Initiative (the Impulse, Vigilance and Timing specialties)",
		Summary: "Initiative is a free roll that always succeeds, once at the start of the fight or when a combatant enters it: " +
			"the attribute die of its specialty (Verve for Impulse, Affinity for Vigilance, Guile for Timing) plus its skill dice (pool). " +
			"Totals rank the combatants highest first, the same order every round; every die showing raise_on or more is one [+]. " +
			"The specialty prices the three abilities in [+] (Impulse: Seize 1, Interpose 2, Reprise 3; Vigilance: Interpose 1, Reprise 2, Seize 3; " +
			"Timing: Reprise 1, Seize 2, Interpose 3); option spend says whether [+] are spent (budget) or unlock (unlock). Each ability at most once a round. " +
			"Positions are Areas in a row (area: 0..15); same Area: melee. A turn is an optional Move to an adjacent Area, then one attack on an enemy in the Area. " +
			"Combat resolution: the attacker rolls attack, the defender defence (a constant is a fixed number); attack >= defence hits (option attack_ties); " +
			"a hit takes damage (at least 0) off hp; at 0 hp or below a combatant is out. A side wins when every opponent is out " +
			"(a combatant yet to enter is not out); max_rounds with both sides standing is a draw.",
		Options:  optionDocs,
		Policies: policyDocs(),
		Fields: []sim.Field{
			{Name: "specialty", Doc: "the Initiative specialty: impulse (Verve), vigilance (Affinity), timing (Guile), or none (ranked by the roll, no abilities; not in the source, a baseline). Required"},
			{Name: "attribute", Doc: "the attribute die of the specialty: d6, d8 or d10; the first die of the initiative pool. Required"},
			{Name: "pool", Doc: "the Initiative skill dice added to the attribute die, whole dice such as 2d6 or d8+d6 (no constants, subtraction or keep); default none"},
			{Name: "initiative_dice", Doc: "pins the initiative roll: one result per die, attribute die first, e.g. [8, 6, 1] for attribute d8 and pool 2d6 (replaces the common initiative_roll)"},
			{Name: "specialties", Doc: "ranks in other Initiative specialties besides specialty: a list of {specialty, attribute, pool, initiative_dice}, each specialty once (not none, and not with specialty: none). The combatant still makes one roll: its policy picks which specialty it rolls (default policy param roll), and that roll's total ranks it and its [+] buy on that specialty's ladder only, for the whole fight"},
			{Name: "attack", Doc: "attack roll as dice, e.g. 2d6+1. Required"},
			{Name: "defence", Doc: "a fixed number (7) or dice the defender rolls against each attack (2d6). Required"},
			{Name: "traits", Doc: "traits written as data, on a combatant or a side (side field too): library names, {use: NAME, params: {...}} or {name, on, when, do, uses}; the moments, quantities, conditions and library are listed below, and the scenario's rules: (house rules, for everyone or one side: side:) take the same form"},
			{Name: "area", Doc: "the Area (0..15, in a row; n and n+1 adjacent) it starts in, or enters in; default 0"},
			{Name: "tactics", Doc: "(on a side or a combatant) decisions as data, docs/tactics.md: moments move (the Move at the start of its turn: advance, advance to NAME, follow NAME, hold), " +
				"attack (whom it attacks after the Move: attack with target:, or nothing), reactions (each offer the referee makes: seize, interpose [for NAME], block [for NAME], reprise, pass) and enter (as it enters the fight, before its roll: roll SPECIALTY). " +
				"Readings: the Move and the attack are asked separately, so they are two moments; a reaction rule answers only its own kind of offer (pass answers all); " +
				"keeping [+] for another ability is a condition on self.plus and offer.price, not a decision; with no enter rule deciding, a combatant with tactics rolls its main specialty; " +
				"when no rule decides, the default policy (default parameters) does"},
			{Name: "enters", Doc: "the round it enters the fight and rolls initiative (default 1: from the start); until then its side is not beaten"},
			{Name: "(not used)", Doc: "ac, init, initiative_roll, attacks, speed, distance, aware: false and referee are errors here, each saying what to use instead"},
		},
		Actions: append([]sim.Field{
			{Name: "initiative", Doc: "pool roll at the start (or on entering, then ranked among the others); ties by option init_ties"},
			{Name: "several specialties", Doc: "the source: \"Generally, a character only needs to have ranks in one Initiative specialty\", so several are possible. Reading: a skill roll is a roll of one specialty (its attribute die and skill dice, read on its own table), and Initiative is one free roll a fight, so a combatant with ranks in several rolls one of them, chosen by its policy when it enters; it ranks by that total and buys on that specialty's ladder. The [+] of one roll are never priced on another specialty's ladder (field specialties, policy param roll)"},
			{Name: "move", Doc: "at the start of its turn, to an adjacent Area; an opponent in the Area it leaves may Interpose to stop it (the Move is lost, the turn goes on). One Move a round: an Interpose combined with a Move spends it"},
			{Name: "attack", Doc: "one a turn, on an enemy in the same Area: attack vs defence, damage to hp"},
			{Name: "Seize the Initiative", Doc: "when someone is about to act, a combatant that has not acted this round may jump ahead and take its turn right before it; its normal place this round is spent; next round it acts at its normal place. Others may in turn seize before the seizer; nobody seizes twice a round"},
			{Name: "Interpose", Doc: "once a round: take an attack meant for an ally in the same Area, or in an adjacent Area by Moving there (that Move can itself be blocked); decided before the roll, so the interposer's defence and hp count; or stop an opponent in the same Area from leaving it (blocks the Move, redirects nothing). Reading of \"a combined action with a Move\": the Move is the interposer's Move of the round — one that has Moved this round (even a blocked Move) cannot interpose from an adjacent Area, and one that interposes with a Move before its turn takes that turn without a Move. Which ally interposes is the referee's order, not a choice among them: the attacked one's allies that may (in its Area, or in an adjacent one with their Move unspent; Interpose unspent this round and within their [+]) are offered it in this round's order (the initiative ranking, seizers ahead), and the first whose policy takes it does; the others are not asked. Likewise the opponents in the Area of one leaving it are offered the block in that order"},
			{Name: "Reprise Attack", Doc: "once a round, only after a failed attack roll (never after a hit): roll the attack again against the same target"},
			{Name: "interpose and reprise: whose turn", Doc: "stated reading: an Interpose and a Reprise Attack happen inside another's Move or attack (or the reprising combatant's own attack) and do not use the interposer's or reprising combatant's turn: it still has its Move and attack on its turn; the source limits each to once a round, not to one's own turn"},
			{Name: "spend: budget", Doc: "each use pays its price from the [+] rolled, for the whole fight"},
			{Name: "spend: unlock", Doc: "[+] at least the price unlock the ability for the whole fight, once a round; nothing is spent"},
			{Name: "first in order / first actor", Doc: "first in order: the head of the ranking in the first round anyone is in the fight (a seize does not change it). First actor: the first combatant to Move (even if blocked) or attack on its turn, a seizer's turn included; a turn that neither moves nor attacks is no action; Interposes, blocks and reprises happen inside another's Move or attack, which came first"},
			{Name: "draws", Doc: "max_rounds reached with both sides standing (draw cause max_rounds). A turn puts at most one combatant out and the fight ends right after it, so both sides out at once (all_gone) cannot happen here"},
		}, checklistFields()...),
		// The base counters the initiative options fill, then the table.
		Counters: append([]sim.Field{
			{Name: "seizes, interposes, reprises (base)", Doc: "uses of each ability; interposes counts both redirects and blocks"},
		}, counterTable[:]...),
	}
	traitDocs(&d)
	return d
}
