// Package cavaliers is the referee for The Queen's Cavaliers' Initiative
// skill and its three specialties (shared/rules/001_fa9ef02979d59328.txt;
// digest: shared/RULES.md §3).
//
// The package reads like the skill's chapter, one file per rule:
//
//	pool.go        the Initiative pool: attribute die + skill dice, the [+]
//	specialty.go   Impulse, Vigilance, Timing: the price ladders, spend budget|unlock
//	initiative.go  the free roll at the start or on entering, ranked highest first, ties
//	round.go       the encounter and its rounds; Seize the Initiative
//	areas.go       Areas (zones) on a row, the Move between adjacent Areas
//	interpose.go   Interpose: redirect one attack, or block a Move out of the Area
//	attack.go      the simple combat resolution; Reprise Attack after a failed attack
//
// Decisions (where to move, whom to attack, whether to seize, interpose,
// block or reprise) are made by a Policy (policy.go); the scripted policies
// live in package agents (agents/cavaliers.go).
//
// Concurrency: a *Game is immutable after Compile and shared by all
// workers; each worker owns its *Table.
package cavaliers

import (
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

func init() { rulesets.Register(Ruleset{}) }

// Ruleset is The Queen's Cavaliers referee.
type Ruleset struct{}

// Name implements sim.Ruleset.
func (Ruleset) Name() string { return "cavaliers" }

// Schema implements sim.Ruleset.
func (Ruleset) Schema() scenario.Schema {
	return scenario.Schema{
		CombatantFields: []string{"specialty", "attribute", "pool", "initiative_dice", "specialties",
			"attack", "defence", "area", "enters", "traits"},
		SideFields: []string{"traits"},
		Traits:     true,
		// initiative_roll is rejected by Compile (a pool has several dice;
		// pin them with initiative_dice); the bound only keeps the core's
		// check from refusing a value before Compile can explain.
		InitDie: 1000,
	}
}

// The contract's initiative-option slots Cavaliers counts (sim.OptionSlots).
const (
	Seizes     = sim.OptionSlots + iota // Seize the Initiative taken
	Interposes                          // Interposes made
	Reprises                            // Reprises made
)

// Extra counters cavaliers records beyond sim's base counters.
const (
	Blocks = sim.NumBase + iota
	InterposeMoves
	Attacks
	Hits
	RepriseHits
	Raises
	RaisesSpent
	Moves
	MovesBlocked
	Entered
	numCounters
)

// counterTable names and documents the extra counters, indexed by
// constant - sim.NumBase: the one place a counter is named and documented
// (the JSON names and simctl rules cavaliers follow it; its length is the
// constants', and TestCounterTable checks that no entry is left out).
var counterTable = [numCounters - sim.NumBase]sim.Field{
	Blocks - sim.NumBase:         {Name: "blocks", Doc: "Interposes that stopped an opponent leaving the Area"},
	InterposeMoves - sim.NumBase: {Name: "interpose_moves", Doc: "redirecting Interposes that Moved into an adjacent Area"},
	Attacks - sim.NumBase:        {Name: "attacks", Doc: "attack rolls, reprises included"},
	Hits - sim.NumBase:           {Name: "hits", Doc: "attack rolls that hit"},
	RepriseHits - sim.NumBase:    {Name: "reprise_hits", Doc: "reprised attacks that hit"},
	Raises - sim.NumBase:         {Name: "raises", Doc: "[+] rolled on initiative"},
	RaisesSpent - sim.NumBase:    {Name: "raises_spent", Doc: "[+] spent on abilities (spend: budget; always 0 under unlock)"},
	Moves - sim.NumBase:          {Name: "moves", Doc: "Moves from one Area to the next, interposing Moves included"},
	MovesBlocked - sim.NumBase:   {Name: "moves_blocked", Doc: "this side's Moves stopped by an opponent's Interpose"},
	Entered - sim.NumBase:        {Name: "entered", Doc: "combatants that entered after round 1"},
}

var counterNames = append(append([]string(nil), sim.BaseCounters...), sim.FieldNames(counterTable[:])...)

// Spend is the reading of the success table (option spend).
type Spend uint8

// The two readings of the success table.
const (
	// Budget: the [+] rolled are a pool for the fight; each use pays its
	// price out of it.
	Budget Spend = iota
	// Unlock: having at least the price unlocks the ability for the whole
	// fight, within its per-round limit; nothing is spent.
	Unlock
)

// Ties is how combatants with the same initiative total are ranked
// (option init_ties; the source leaves it to the MJ).
type Ties uint8

// Tie rules.
const (
	TiesRandom    Ties = iota // a uniformly random order among the tied
	TiesAttribute             // the larger attribute die first, then random
	TiesRaises                // more [+] first, then random
)

// Options of the ruleset (scenario `options:`).
type Options struct {
	RaiseOn    int // a die showing this or more is one [+]
	Spend      Spend
	Ties       Ties
	AttackTies bool // true: attack == defence hits
}

var optionNames = []string{"raise_on", "spend", "init_ties", "attack_ties"}

var optionDocs = []sim.Option{
	{Name: "raise_on", Default: "6", Valid: "1-1000",
		Doc: "success points: every die of the initiative pool (attribute die and skill dice) showing this or more is one [+]. The source does not give the arithmetic (RULES.md §3 names this option)"},
	{Name: "spend", Default: "budget", Valid: "budget | unlock",
		Doc: "budget: the [+] rolled form a pool for the whole fight and each use of an ability pays its price from it. unlock: having at least an ability's price in [+] unlocks it for the whole fight, usable within its once-per-round limit; nothing is spent"},
	{Name: "init_ties", Default: "random", Valid: "random | attribute | raises",
		Doc: "equal initiative totals (the source leaves the ranking to the MJ): random, a uniformly random order among the tied; attribute, the larger attribute die first, then random; raises, more [+] first, then random. A combatant entering mid-fight is ranked among the others by the same rule"},
	{Name: "attack_ties", Default: "hit", Valid: "hit | miss",
		Doc: "an attack whose total equals the defence: hit (meets or beats) or miss (must beat)"},
}
