package cavaliers

import (
	"strings"

	"simctl/sim"
)

// checkItem is one heading of the source (shared/rules/001) and its
// status here. `simctl rules cavaliers` prints the list (as "source:"
// entries under the rules) and docs/cavaliers.md carries the same table;
// checklist_test.go holds both to it and checks that every test named
// exists.
type checkItem struct {
	Heading string
	Status  string // "simulated" or "not simulated", and how or why
	Tests   string // tests that pin the rule, space-separated
}

var checklist = []checkItem{
	{"Initiative (a free roll at the beginning of each fight, or when each combatant enters it)",
		"simulated: one roll a fight, or on entering (then ranked among the others)",
		"TestInitiativeDistributionExact TestEnteringMidFight TestFirstActorAndInOrder"},
	{"Generally, a character only needs to have ranks in one Initiative specialty",
		"simulated: ranks in several specialties (field specialties); one roll of the specialty its policy picks, on that specialty's ladder",
		"TestSeveralSpecialties TestSeveralSpecialtiesErrors TestCavRollPicksTheSpecialty"},
	{"Automatic Competency",
		"not simulated: skill competency levels are outside the excerpt; every combatant rolls the pool it is given, so a player character's automatic competency is in its pool",
		""},
	{"Impulse (Verve specialty)",
		"simulated: ladder Seize 1, Interpose 2, Reprise 3",
		"TestBudgetVersusUnlock TestSeizeOrderAndReturn"},
	{"Vigilance (Affinity specialty)",
		"simulated: ladder Interpose 1, Reprise 2, Seize 3",
		"TestBudgetVersusUnlock TestSeizeNeedsPriceAndSpecialty TestCavGuardProtectsWard"},
	{"Timing (Guile specialty)",
		"simulated: ladder Reprise 1, Seize 2, Interpose 3",
		"TestBudgetVersusUnlock TestReprise"},
	{"Knowledge Rolls (cannot be used to make knowledge rolls)",
		"not simulated: simctl makes no knowledge rolls, so the prohibition has nothing to act on",
		""},
	{"Opposition (automatically successful, ranked by the MJ from highest to lowest)",
		"simulated: totals ranked highest first; equal totals by option init_ties (the source leaves them to the MJ)",
		"TestRankBeforeExact TestTieRules"},
	{"Success table: Time (Free Roll), Opposition (Automatic Success), [+] / [+][+] / [+][+][+]",
		"simulated: [+] by option raise_on; option spend reads the table as a budget or as unlocks; policy param reserve keeps [+] for a higher rung under budget",
		"TestInitiativeDistributionExact TestBudgetVersusUnlock TestCavReserveSavesForAHigherRung"},
	{"Seize the Initiative",
		"simulated: right before someone about to act, for one round; back at its place next round; another may seize before the seizer",
		"TestSeizeOrderAndReturn TestSeizeChain TestSeizeNeedsPriceAndSpecialty TestCavSeizeEnemyExact"},
	{"Interpose",
		"simulated: redirect one attack from an ally in the same Area, or in an adjacent Area with the interposer's Move of the round; or block an opponent leaving the Area; once a round",
		"TestInterposeRedirectOncePerRound TestInterposeWithMove TestInterposeBlock TestInterposeMoveSpendsTheMove TestInterposeMoveNeedsAnUnspentMove"},
	{"Reprise Attack",
		"simulated: after a failed attack roll only, once a round, same target",
		"TestReprise TestRepriseOnlyAfterMiss"},
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
