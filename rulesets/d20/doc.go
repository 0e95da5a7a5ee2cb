package d20

import "simctl/sim"

// Doc implements sim.Ruleset.
func (Ruleset) Doc() sim.RulesDoc {
	return sim.RulesDoc{
		Name:   "d20",
		Title:  "d20 SRD 3.5: initiative, surprise, Delay and Ready",
		Source: "System Reference Document 3.5 (d20 SRD), Combat: Initiative, with Special Initiative Actions (Delay, Ready); also read in its Korean translation",
		Summary: "Initiative is d20 + init once per battle, highest first; ties go to the higher modifier, then a random order. " +
			"Combatants are flat-footed (AC without dex_ac, no attacks of opportunity) until their first turn in the regular order, or their first action in it if that comes earlier (a delayed or readied action carried over from the surprise round), unless uncanny_dodge. " +
			"If some combatants are unaware a surprise round comes first: the aware act with one standard action each, which may come with a 5-foot step. " +
			"Positions are feet on a line between the sides (distance:, and position: behind a side's front line); melee needs the target within reach. " +
			"No one moves through an enemy's square (an opponent's square can be passed only if it is helpless, and those out of the fight are): a mover's path ends at the first enemy in the fight ahead of it, in the square before it, and a mover whose target stands beyond that enemy engages that enemy instead; a 5-foot step, readied or not, never ends on or past an enemy's square. " +
			"First actor (FirstActor) is the first combatant whose action takes effect: a delay or a ready is not an action, the delayed or readied action is, so is an attack of opportunity or a surprise-round action; a readied action or an attack of opportunity that resolves before the action that set it off comes first. " +
			"First in order (FirstInOrder) is the first combatant to have a turn (the surprise round's first aware combatant when there is one). " +
			"A draw is max_rounds reached; no d20 rule takes both sides out at once.",
		Options:  optionDocs,
		Policies: policyDocs(),
		Fields: []sim.Field{
			{Name: "dex_ac", Doc: "the part of AC lost while flat-footed (default 0)"},
			{Name: "crit", Doc: `threat range and multiplier, "19-20/x2", "20/x3", "x3" (20/x3) or "none" (default 20/x2)`},
			{Name: "uncanny_dodge", Doc: "true: keeps dex_ac while flat-footed"},
			{Name: "reach", Doc: "feet the melee weapon reaches (default 5; 10 for reach weapons)"},
			{Name: "brace", Doc: "true: a piercing weapon set against a charge; a readied attack with it deals double damage to a charger"},
			{Name: "concentration", Doc: "Concentration bonus: keep a spell when damaged while casting (DC 10 + damage + spell level)"},
			{Name: "spellcraft", Doc: "Spellcraft bonus: identify a spell to counter it (DC 15 + spell level)"},
			{Name: "save", Doc: "saving throw bonus against spells with a save_dc"},
			{Name: "spells", Doc: "list of {name, damage, level, uses (default 1), save_dc, save_half (default true)}; casting is a standard action, the target takes the damage (a save halves or negates it)"},
			{Name: "initiative_roll", Doc: "pins the die of the initiative check (1-20, and a result initiative_dice can roll); init still adds"},
			{Name: "initiative_dice", Doc: "dice replacing the d20 of the initiative check, a house rule (2d20kh1 for advantage, 1d10, 3d6); init adds and both tie-breaks (higher init, then a random order) are unchanged"},
			{Name: "ranged", Doc: "a ranged weapon {bonus (one or a list: a full attack), damage, crit (default 20/x2), increment (feet), thrown (default false: at most 10 increments; true: 5), reload (none | move: light crossbow | full: heavy crossbow; a crossbow has one bonus), ammo (shots carried; default unlimited, required for thrown weapons)}"},
			{Name: "precise_shot", Doc: "true: no -4 for shooting into a melee"},
			{Name: "sneak_attack", Doc: "dice of extra damage on a hit against a flat-footed target without uncanny_dodge or a flanked one, not multiplied on a critical (the library trait sneak_attack is the same rule as data)"},
			{Name: "position", Doc: "feet behind its side's front line at the start (default 0; side 0's line is at 0, side 1's at distance): a rear rank. No one passes an enemy on the line, so an enemy reaches a combatant behind only past those in front of it (it engages the first it meets); policies and tactics see the distance to each enemy (target rule nearest, enemy(NAME).distance, enemies.nearest)"},
		},
		Actions: append([]sim.Field{
			{Name: "attack", Doc: "standard action: one attack with the first bonus of attacks"},
			{Name: "full attack", Doc: "full-round action: every bonus of attacks; only with no movement beyond a 5-foot step"},
			{Name: "move", Doc: "move action: up to speed toward the target; moving out of a threatened position provokes an attack of opportunity"},
			{Name: "5-foot step", Doc: "when the target is 5 ft beyond reach, the combatant steps (no attack of opportunity) and attacks: a full attack, or the standard attack with a single bonus (a walk of 5 ft could provoke a reach weapon); never onto or past an enemy's square"},
			{Name: "charge", Doc: "full-round: at least 10 ft and up to 2x speed, -2 AC until the next turn, one attack at +2 (the +2 is that attack's only: an attack of opportunity the charger makes on the way has none) (in a surprise round: up to speed)"},
			{Name: "cast", Doc: "standard action: a spell; in an enemy's reach it provokes; damage while casting forces a Concentration check"},
			{Name: "delay", Doc: "take no action, act later: at a count (before the first combatant with a lower count; never above its own), or right after a named combatant's next action (its turn, delayed or readied action; after the turn in progress ends, never interrupting), or right after the turn in which that combatant drops; initiative becomes that count. " +
				"A waiter whose named combatant cannot act before the waiter's next turn (already out, itself delaying, e.g. two waiting for each other, or after the waiter in the order) acts at the end of the round, the latest point the SRD allows, at the round's last count; one whose named combatant comes before it in the order keeps waiting into the next round. " +
				"Lost if the next turn comes first (possible only when the named combatant delays again); acting early next round forfeits that round's regular turn"},
			{Name: "ready", Doc: "standard action: an attack, a shot, a move, a spell or a counterspell with a trigger (charge, enemy_in_reach, enemy_casts, ally_acts, enemy_attacks_ally); resolves just before the trigger, initiative moves just ahead of the triggering combatant; lost at the next turn; 5-foot step only if not otherwise moved this round. " +
				"enemy_in_reach and charge fire on the square where the mover (walking, charging or taking a 5-foot step) enters the readier's reach from outside it, whatever its starting distance, interrupting the move there: before the attack of opportunity the mover provokes by moving on out of that square. " +
				"A mover that stops just outside the reach, closer than it started, sets them off too if the readier can take its 5-foot step in. " +
				"A readied shot goes just before the movement that sets it off, from where the shooter stands: on charge, before the charge (at its start when the charger is in range, before the charge's -2 AC applies), on enemy_in_reach before the step that would bring the mover within either's reach; so the mover does not threaten the shooter yet, and a charger with a longer reach cannot stop out of the trigger's way. " +
				"Several readied actions set off by one event go in initiative order (the book gives none; it is the order their turns would have come in). " +
				"A readied move (enemy_casts, ally_acts, enemy_attacks_ally) goes toward the one the trigger names, up to speed, stopping in reach, provoking as any move; a caster it reaches provokes by casting on. " +
				"Move, then ready: a move action toward a target, up to speed, stopping just outside its reach, then the ready (not in the surprise round, whose one standard action is the ready); the readied action then has no 5-foot step (the readier has moved this round)"},
			{Name: "shoot", Doc: "standard action: one shot with the first ranged bonus; full-round: every ranged bonus, only with no movement beyond a 5-foot step and a weapon that needs no reloading. " +
				"-2 to hit per full range increment of distance (option range_penalty: srd, the text: exactly one increment is already -2; table: per started increment beyond the first, exactly one increment 0), at most 10 increments (5 thrown); -4 at a target engaged in melee with one of the shooter's allies (either threatens the other) unless precise_shot; a shot provokes an attack of opportunity from every enemy threatening the shooter, before it. " +
				"Reloading: a light crossbow takes a move action (a shot and a reload fit one turn, so it fires once a turn), a heavy crossbow a full-round action (a shot every other turn); bows and thrown weapons none (drawing a thrown weapon is the free action of a base attack of +1, taken with the throw). Out of ammo, the weapon is spent. " +
				"A shooter out of range closes in (a move, then the standard action as a second move if still out of range); close_in closes to one increment; keep_distance first takes a 5-foot step back when that leaves every threatening enemy's reach (a full attack may follow), else withdraws up to speed (provoking). " +
				"The default policy (and a tactics block's fallback) shoots whenever no enemy is in its reach and a shot is left, at the enemy its rule picks within range; otherwise it fights in melee. A readied attack may be a shot (ready shoot on TRIGGER): it needs no 5-foot step, the target in range and the weapon loaded, and it provokes like any shot"},
			{Name: "readied action's round", Doc: "a readied action taken in the round after it was readied, before the readier's turn, replaces that turn (\"you do not get your regular action that round\"), and like a turn it starts a new round for the one attack of opportunity"},
			{Name: "counterspell", Doc: "a readied counterspell is set off by any enemy starting a spell: it first rolls Spellcraft (DC 15 + spell level) to identify it (\"you get a chance to identify it\"), then decides. Identified and among its own spells with a use left (the one its plan names, if it names one): the spell is ruined. Not identified, or identified as a spell it cannot cast: nothing to cast, and the readied counterspell is spent (that chance was the readied action; counted as an action lost, its initiative moves ahead of the caster), so a cheaper spell cast first draws it out. Not modelled: dispel magic as a counterspell, and counterspelling with a different spell of the same school (Improved Counterspell)"},
			{Name: "traits and house rules", Doc: "traits: on a combatant or a side and rules: for everyone or one side change the numbers below at the moments below (docs/traits.md). " +
				"The book's modifier rules: damage a trait adds at hit is not multiplied by a critical (only the weapon's dice are), a hit deals at least 1 after the attacker's traits, and damage reduction (hit_taken) never takes it below 0. " +
				"Bonus types (SRD: Magic Overview, Bonus Types): an effect's bonus may name its type (attack += 2 as morale; the types: alchemical, armor, circumstance, competence, deflection, dodge, enhancement, insight, luck, morale, natural_armor, profane, racial, resistance, sacred, shield, size). On one roll (an attack roll's attack and ac, a hit's damage, an initiative check) only the highest bonus of a type applies, and of the penalties of a type (-= 2 as morale) only the worst; dodge, circumstance and racial bonuses stack, and so do bonuses and penalties without a type. A bonus that does not stack adds nothing, and the trace names the one that applies instead. Only traits' bonuses have types: a combatant's fields (attacks, ac, init) are totals, taken as written"},
			{Name: "critical hits", Doc: "a natural 20 always hits and a natural 1 always misses; a threat confirmed by a second roll deals damage mult times; multipliers add (brace x2 on a x3 crit: x4); every hit deals at least 1"},
			{Name: "flanking", Doc: "+2 on a melee attack (an attack of opportunity too) when the defender is flanked: option flanking (line: an ally of the attacker threatens the defender from the other side of it along the line; two: the attacker and one of its allies threaten it). Tactics see it (enemy(NAME).flanked, enemies.flanked, self.flanked)"},
		}, checklistFields()...),
		Counters:   counterTable[:],
		Moments:    traitMomentDocs(),
		Quantities: traitQuantityDocs(),
		Conditions: traitConditionDocs(),
		Traits:     traitLibraryDocs(),
	}
}
