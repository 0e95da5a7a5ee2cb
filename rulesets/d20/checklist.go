package d20

import (
	"strings"

	"simctl/sim"
)

// checkItem is one rule of the seed text (SRD 3.5 Combat: Initiative,
// with Delay and Ready) or of the SRD combat chapter simctl uses, with its
// status here: "simulated" (with the tests that pin it), "stated reading"
// (the text leaves a choice; the entry says which), or "not modelled".
// `simctl rules d20` prints the list (as "source:" entries under the
// rules) and docs/d20.md carries the same rows; checklist_test.go holds
// both to it and checks that every test named exists.
type checkItem struct {
	Heading string
	Status  string
	Tests   string // space-separated
}

var checklist = []checkItem{
	{"Initiative Checks", "simulated: d20 + init once per battle, highest first; ties to the higher modifier, then a re-roll", "TestInitiativeOrderAndTies TestExactFirstActor"},
	{"Flat-Footed", "simulated: until the first regular turn (or the first action in the order); no attacks of opportunity; uncanny_dodge keeps dex_ac", "TestFlatFooted TestFlatFootedNoAttackOfOpportunity TestFlatFootedEndsAtDelayedAction"},
	{"Inaction", "simulated: a combatant out of the fight keeps its place in the order (skipped); nothing in simctl takes actions away for a time", "TestInitiativeOrderAndTies"},
	{"Surprise, Determining Awareness", "stated reading: awareness is given by the scenario (aware:), not rolled (no Listen or Spot checks)", ""},
	{"The Surprise Round", "simulated: the aware act, one standard action each (it may come with a 5-foot step; a charge only up to speed)", "TestSurpriseRound TestSurpriseRoundFiveFootStep TestExactDuelSurprise"},
	{"Unaware Combatants", "simulated: no action in the surprise round; flat-footed until their first regular turn", "TestSurpriseRound"},
	{"Delay", "simulated: to a count or until a named combatant has acted; the new count for the rest of the encounter", "TestDelay TestDelayToCountWhenAlreadyLast"},
	{"Initiative Consequences of Delaying", "stated reading: the English text, \"you do not get your regular action that round\"; the Korean translation says standard action (표준 행동) and that delaying removes (제거) the initiative result: the English is the source and the Korean a translation, its next sentence gives the new count, so removed is read as replaced", "TestDelay"},
	{"Ready, Readying an Action", "simulated: just before the triggering action, interrupting it; a readied shot before the charge or the step that sets it off", "TestReady TestReadiedShotBeforeTrigger TestExactReadiedShotBeforeCharge TestReadyFiresOnEnteringReach TestReadiersInInitiativeOrder"},
	{"Ready, the 5-foot step", "stated reading: \"only if you don't otherwise move any distance during the round\" is the global round: a step is allowed while the readier has moved 0 ft since the round began, whether the movement came before or after its readying turn", "TestReadiedStepNotOntoEnemy TestMoveThenReady"},
	{"Initiative Consequences of Readying", "simulated: the count on which it acted, immediately ahead of the trigger; lost at the next turn; taken next round, it replaces that round's turn", "TestReady TestReadiedActionRestoresAttackOfOpportunity"},
	{"Distracting Spellcasters", "simulated: a readied attack on enemy_casts; damage forces Concentration (DC 10 + damage + spell level). Stated reading: readied actions set off by one spell go first (in initiative order), then attacks of opportunity in roster order; once the spell is lost the remaining threatening enemies make none; a shot's attacks of opportunity also go in roster order", "TestReady TestShootingProvokes"},
	{"Readying to Counterspell", "simulated: identify first (Spellcraft DC 15 + spell level), then counter with the same spell; not identified, or identified as a spell it cannot cast, the readied counterspell is spent", "TestReady TestFailedCounterspellIsSpent"},
	{"Readying a Weapon against a Charge", "simulated: brace doubles a readied attack's damage against a charger (multipliers add with a critical)", "TestReady"},
	{"Attack roll, natural 1 and 20, critical hits", "simulated: a threat confirmed by a second roll (option confirm_crits), multipliers add, at least 1 damage", "TestExactDuel TestExactFullAttackDamage"},
	{"Full attack, 5-foot step", "simulated: every bonus only without moving beyond a 5-foot step; a step never provokes", "TestExactFullAttackDamage TestProvokeOffGrid"},
	{"Attacks of opportunity", "simulated: leaving a threatened square, casting, shooting; one per round, more with the library trait combat_reflexes (Combat Reflexes; still one per opportunity); flat-footed combatants make none. Not modelled: standing up, drinking potions and other provoking actions", "TestProvokeOffGrid TestReadyBeforeAttackOfOpportunity TestShootingProvokes TestCombatReflexes"},
	{"Reach, moving through a square", "simulated on the line: reach in feet; no one passes an enemy (only a helpless one, and those out of the fight); allies pass each other. Not modelled: Tumble, overrun, bull rush, squeezing", "TestMoverStopsAtFirstEnemy TestReadiedStepNotOntoEnemy TestPositionRearRank"},
	{"Charge", "simulated: at least 10 ft, up to twice speed, straight; +2 on its single attack only, -2 AC until the next turn", "TestReady TestChargeBonusOnlyOnTheChargeAttack"},
	{"Flanking", "simulated: +2 on a melee attack; option flanking reads \"opposite border\" on the line (line) or as the table's \"threatened by two or more\" (two). Not modelled: improved uncanny dodge, creatures that cannot be flanked", "TestFlankingBonus TestFlankingOnTheLine"},
	{"Range penalty, ranged attacks", "simulated: -2 per full increment of distance (option range_penalty: srd, the text; table: from beyond the first), 10 increments (5 thrown), -4 into melee unless Precise Shot, reloading, ammunition", "TestRangePenalty TestShootIntoMelee TestReload TestExactRangedDuel"},
	{"Casting, Concentration", "simulated: a standard action; provokes in reach; damage while casting forces Concentration", "TestFlatFootedNoAttackOfOpportunity TestReady"},
	{"Dying, disabled, stable", "simulated: option dying (out-at-0, or srd: disabled at 0, dying below, dead at -10, 10% a round to stabilise)", "TestDying"},
	{"Sneak attack", "simulated as data: the library trait sneak_attack (and its Go twin, the field sneak_attack) adds its dice on a hit against a target flat-footed without uncanny dodge or flanked, not multiplied on a critical; improved uncanny dodge is not modelled", "TestExactTraitDuel TestSneakAttackWhenFlanking"},
	{"Feats", "simulated as library traits (rules as data): Power Attack (the trade a parameter), Dodge (against every attacker: the designated opponent is not modelled), Improved Initiative, Weapon Focus, Combat Reflexes (not its attacks while flat-footed), Precise Shot (also a field). Not modelled: Cleave, Mobility, Spring Attack, Point Blank Shot, Rapid Shot, Manyshot, Rapid Reload, Improved Counterspell", "TestTraitPowerAttack TestCombatReflexes TestTraitPreciseShotIsTheGoRule"},
	{"Counterspelling with dispel magic", "not modelled: a readied counterspell counters only with the same spell", ""},
	{"Cover, concealment, invisibility", "not modelled: the line has no cover or lines of sight", ""},
	{"Combat maneuvers", "not modelled: grapple, trip, disarm, bull rush, overrun, sunder, feint, aid another, total defense, fighting defensively, withdraw (the withdraw action)", ""},
	{"Movement in squares, diagonals, facing, area spells", "not modelled: positions are feet on one line; spells have one target", ""},
}

func checklistFields() []sim.Field {
	out := make([]sim.Field, len(checklist))
	for k, c := range checklist {
		doc := c.Status
		if c.Tests != "" {
			doc += " (tests: " + strings.ReplaceAll(c.Tests, " ", ", ") + ")"
		}
		out[k] = sim.Field{Name: "source: " + c.Heading, Doc: doc}
	}
	return out
}
