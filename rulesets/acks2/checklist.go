package acks2

import (
	"strings"

	"simctl/sim"
)

// checkItem is one heading of the source (shared/rules/004, Russian) and
// its status here. `simctl rules acks2` prints the list (as "source:"
// entries under the rules) and docs/acks2.md carries the same table;
// checklist_test.go holds both to it and checks that every test named
// exists.
type checkItem struct {
	Heading string // the source's heading, with an English gloss
	Status  string // "simulated" or "not simulated", and how or why
	Tests   string // tests that pin the rule, space-separated
}

var checklist = []checkItem{
	{"Заявления перед инициативой (declarations before initiative)",
		"simulated: spells, withdrawal and retreat are declared before the dice, in public; the source gives no order, so declarations are simultaneous (no declarer hears another's of the same round; never the file's order), or one side first in the open (option declare_first); the declared action is the segment's",
		"TestDeclaredCasterDisrupted TestWithdrawAndRetreat TestAcksTargetsDeclaredCasters TestAcksDeclarationsIgnoreFileOrder"},
	{"Броски инициативы (initiative rolls)",
		"simulated: 1d6 + init every round; option group_initiative for groups of identical monsters",
		"TestInitiativeEveryRound TestExactDuel"},
	{"Подсчет инициатив (the initiative count)",
		"simulated: the count from 10 down to -10, each combatant on its number",
		"TestDelayLostAtLimit TestSameNumber TestFirstInOrderSameNumber"},
	{"Мораль (morale)",
		"simulated: after the count; the trigger and the check are not in the excerpt (options morale_trigger, morale_repeat, morale_flee_at); a side all out ends the fight, both sides out at once is an all_gone draw",
		"TestMoraleFlightIsOutNotDead TestMoraleHalfHPOnce TestDrawCauses"},
	{"Acting Before Initiative Number: Готовность к атаке (readied attack)",
		"simulated: only when it began the round readied (ready_same_round: false, the default), at the end of the triggering enemy's movement, before its combat action; the readier still acts on its number. \"The last point where the enemy would leave its sight\" is not simulated: there is no line of sight",
		"TestReadiedAttackBeganRound TestReadySameRoundDefaultsToSource TestReadiedAttackSameRound TestReadiedAttackDroppedWhenActing"},
	{"Приготовленное дальнобойное оружие в первом раунде (round-1 missile weapon)",
		"simulated: not engaged, aware, missile weapon: shoots a charger before its attack on the charger's number, loses its own number, cleaves on a kill",
		"TestRound1MissileInterruptsAndCleaves TestRound1MissileOnlyOnce TestRound1MissileNotAvailable TestFirstActorChargerBeforeItsInterrupter"},
	{"Приготовил длинное оружие ближнего боя в первом раунде (round-1 long melee weapon)",
		"simulated: as the missile case, never against a larger charger or one with a long weapon; the trace reports a refused interrupt only when the policy wanted it",
		"TestRound1LongWeapon TestRound1LongWeaponReportsOnlyWantedInterrupts TestAcksLongWeaponAtSelf"},
	{"Во всех трех случаях... (losing readiness: damage, failed save, forced move)",
		"simulated: damage, a failed saving throw or a spell's push before the ready action is used takes it away. Stated reading: \"теряет возможность действовать\" (loses the ability to act) is read as losing the ready action (the readied attack or the round-1 readiness), not the segment: the combatant still acts on its number",
		"TestReadinessLost TestRound1LostOnDamage"},
	{"ПРИМЕР: Огилар... (the worked example)",
		"simulated: scenario acks2/worked-example replays the book's round 1",
		"TestGoldenWorkedExample"},
	{"Примечание дизайнера (designer's note)",
		"no rule: it explains why the round-1 readiness rules exist",
		""},
	{"Engagement Связанность боем (engagement)",
		"simulated: within 5 feet, engaged combatants stop and cannot charge, march or move except by a declared withdrawal or retreat; flyers are not engaged by non-flyers. Not simulated: facing and turning to face, attacks from the rear, sneaking and Sanctuary — positions are a line with everyone facing the enemy",
		"TestEngagement TestEngagedCannotMove TestWithdrawAndRetreat"},
	{"Связывание боем более мелких или более крупных существ (optional: engaging smaller or larger creatures)",
		"simulated with option size_engagement and field engaged_by (the size table itself is not in the excerpt)",
		"TestEngagement"},
	{"Delaying Actions Заготовленные действия (delay)",
		"simulated: to a lower count down to minus its number, or until a named combatant has acted (then right after it); not taken by the limit, the action is lost; start-of-segment effects at the original number, end-of-segment ones when it acts or at round's end; a delay is not an action (first actor). Stated reading: in this section the source calls the delaying combatant \"боец с заготовленным действием\" (with a readied action), the word of the readied attack; it is read as Delay, the section's subject",
		"TestDelayToCountClampedToLimit TestDelayUntilNamedActsRightAfter TestDelayLostAtLimit TestDelayNonPositiveNumber TestDelayForOneWhoActed TestStartOfSegmentAtOriginalNumber TestEndOfSegmentEffects TestFirstActorIsNotADelayOrAReady"},
	{"Simultaneous Initiative Одновременная инициатива (same number)",
		"simulated: one after another; a side orders its own; opposite sides: the side with fewer combatants chooses before or after, equal numbers the referee's side",
		"TestSameNumber TestFirstInOrderSameNumber"},
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
