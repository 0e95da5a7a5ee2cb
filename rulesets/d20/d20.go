// Package d20 is the referee for d20 SRD 3.5 combat around initiative
// (shared/rules/003_…txt; the Korean 000_…txt is the same Delay/Ready text).
//
// The package reads like the book's combat chapter, one file per rule:
//
//	initiative.go  initiative checks, both tie-break steps, flat-footed
//	round.go       the encounter: surprise round, regular rounds, the count
//	delay.go       Delay: acting later, the new count, the lost action
//	ready.go       Ready: triggers, interrupting, the new count, the 5-foot step
//	attack.go      attack rolls, threats and confirmation, damage, charge, brace
//	spells.go      casting, Concentration, counterspelling
//	movement.go    positions on a line, reach, attacks of opportunity
//	dying.go       option dying: out at 0, or the SRD's disabled/dying/dead
//	targets.go     whom a policy can attack: per-side standing lists and the
//	               weakest of each side, kept as the fight goes (no scans)
//
// Decisions (whom to attack, whether to delay or ready and for what) are
// made by a Policy (policy.go); the scripted policies live in package agents.
// A policy fills the table's plan in place; one whose every turn is a single
// target rule (StandardPolicy) has the referee apply that rule itself.
//
// Concurrency: a *Game is immutable after Compile and shared by all
// workers; each worker owns its *Table.
package d20

import (
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

func init() { rulesets.Register(Ruleset{}) }

// Ruleset is the d20 referee.
type Ruleset struct{}

// Name implements sim.Ruleset.
func (Ruleset) Name() string { return "d20" }

// Schema implements sim.Ruleset.
func (Ruleset) Schema() scenario.Schema {
	return scenario.Schema{
		CombatantFields: []string{"dex_ac", "crit", "uncanny_dodge", "reach", "brace",
			"concentration", "spellcraft", "save", "spells", "initiative_dice", "ranged", "precise_shot", "sneak_attack", "traits", "position"},
		SideFields: []string{"traits"},
		Traits:     true,
		// initiative_roll is bounded by the combatant's initiative_dice
		// (compileInitDice), by a d20's 1-20 without them (compileFields).
		InitDie: 1000,
	}
}

// Extra counters d20 records beyond sim's base counters.
const (
	AttacksOfOpportunity = sim.NumBase + iota
	Criticals
	Charges
	ConcentrationFailures
	Counterspells
	SpellsCast
	Deaths
	numCounters
)

// counterTable names and documents the extra counters, indexed by
// constant - sim.NumBase: the one place a counter is named and documented
// (the JSON names and simctl rules d20 follow it; its length is the
// constants', and TestCounterTable checks that no entry is left out).
var counterTable = [numCounters - sim.NumBase]sim.Field{
	AttacksOfOpportunity - sim.NumBase:  {Name: "attacks_of_opportunity", Doc: "attacks of opportunity made"},
	Criticals - sim.NumBase:             {Name: "criticals", Doc: "confirmed critical hits"},
	Charges - sim.NumBase:               {Name: "charges", Doc: "charges made"},
	ConcentrationFailures - sim.NumBase: {Name: "concentration_failures", Doc: "spells this side lost to damage while casting"},
	Counterspells - sim.NumBase:         {Name: "counterspells", Doc: "enemy spells this side countered"},
	SpellsCast - sim.NumBase:            {Name: "spells_cast", Doc: "spells this side completed"},
	Deaths - sim.NumBase:                {Name: "deaths", Doc: "combatants of this side dead (option dying: srd counts only HP <= -10; out-at-0 counts every drop)"},
}

var counterNames = func() []string {
	out := append([]string(nil), sim.BaseCounters...)
	for _, f := range counterTable {
		out = append(out, f.Name)
	}
	return out
}()

// Options of the ruleset (scenario `options:`).
type Options struct {
	Dying                  string // "out-at-0" | "srd"
	SurpriseEndsFlatFooted bool
	ConfirmCrits           bool
	TableRange             bool // range_penalty: table
	FlankTwo               bool // flanking: two
}

var optionDocs = []sim.Option{
	{Name: "dying", Default: "out-at-0", Valid: "out-at-0 | srd",
		Doc: "out-at-0: out of the fight at HP <= 0. srd: disabled at 0, dying below 0 (loses 1 HP a round, 10% a round to stabilise), dead at -10; disabled and dying are out of the fight but counted as deaths only at -10"},
	{Name: "surprise_ends_flat_footed", Default: "false", Valid: "true | false",
		Doc: "false (the source): flat-footed until the first regular turn, even after acting in the surprise round. true (common table reading): any action ends it"},
	{Name: "confirm_crits", Default: "true", Valid: "true | false",
		Doc: "true: a threat is a critical only if a second attack roll also hits (SRD 3.5). false: every threat that hits is a critical"},
	{Name: "range_penalty", Default: "srd", Valid: "srd | table",
		Doc: "srd (the text read literally: \"Any attack at less than this distance is not penalized for range. However, each full range increment imposes a cumulative -2 penalty\"): -2 per full increment of distance, so a target at exactly one increment takes -2, at two -4, at ten -20. table (the common table reading: no penalty up to and including one increment): -2 per started increment beyond the first, so exactly one increment is 0, two -2, ten -18. Between the multiples both agree"},
	{Name: "flanking", Default: "line", Valid: "line | two",
		Doc: "the SRD's flanking (+2 on a melee attack when an ally of the attacker threatens the defender from its opposite border) read on the line: line (the source's geometry): the attacker and an ally that threatens the defender stand on opposite sides of it along the line; no one passes an enemy on the line, so this happens only where a side stands on both sides of an enemy (none of the built-in scenarios). two (the common table reading \"threatened by two or more\", as if the second attacker stepped round to the far side on a grid): the defender is flanked when the attacker and at least one of its allies threaten it"},
}
