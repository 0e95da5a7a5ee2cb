// Package lotm is the referee for the Lord of Mysteries TTRPG's special
// actions (shared/rules/002_4bcdc290a22ae1f6.txt; digest RULES.md §4):
// ambushes of four kinds, Delay Action, Flanking/Envelopment, and the
// special attacks a combatant chooses between.
//
// The package reads like the chapter, one file per rule:
//
//	initiative.go  initiative (option initiative), ties, Burn Luck on initiative
//	round.go       the encounter: Ambush Rounds, regular rounds, the turn and its actions
//	checks.go      d20 checks: Advantage/Disadvantage, Physical Defense, Caught Off Guard, contests
//	flanking.go    Flanking/Envelopment: the four conditions and their comparison
//	ambush.go      pre-combat, inserted, mid-combat (movement) and invisibility ambushes
//	actions.go     attack, Double Strike, Vital Strike, Build-Up Aim, Feint,
//	               Intimidate, Charge, casting, First Aid, moving
//	grapple.go     Grapple: Restrained, breaking free, the squeeze, one-handed,
//	               size and Strength differences
//	delay.go       Delay Action: the held action, its trigger, losing it
//	special.go     Spiritual Intuition, Limb Block, Borrow Strength Against
//	               Strength, Point-Blank Shooting and firearms, Leg Sweep
//	cover.go       Improvised Cover and Combat Ambush Using Obstacles
//	doc.go         `simctl rules lotm`, with a checklist of every heading of
//	               the source and its status
//
// The source leaves some numbers out (the Physical Defense formula, what
// Restrained and Blinded do, how a contest's tie goes, ...). Each reading
// taken is written where it is implemented and listed by `simctl rules
// lotm`; the ones a designer may want to vary are options.
//
// Decisions (target, which action, whether to ambush, delay, aim or feint)
// are made by a Policy (policy.go); the scripted policies live in package
// agents.
//
// Concurrency: a *Game is immutable after Compile and shared by all
// workers; each worker owns its *Table.
package lotm

import (
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

func init() { rulesets.Register(Ruleset{}) }

// Ruleset is the Lord of Mysteries referee.
type Ruleset struct{}

// Name implements sim.Ruleset.
func (Ruleset) Name() string { return "lotm" }

// Schema implements sim.Ruleset.
func (Ruleset) Schema() scenario.Schema {
	return scenario.Schema{
		CombatantFields: combatantFields,
		SideFields:      []string{"blocks_exits", "traits"},
		InitDie:         20,
		Traits:          true,
	}
}

var combatantFields = []string{"agility", "dodge", "armor", "strength", "strength_damage",
	"fighting", "brawling", "constitution", "deception", "investigation", "intuition",
	"stealth", "intimidation", "willpower", "luck", "rank", "ranged", "double_strike",
	"fast_dodge", "invisibility", "teleport", "casting", "joins_round", "joins_ambush",
	"limb_block", "borrow_strength", "cover_item", "obstacle", "size", "firearm", "dodge_light", "traits"}

// Ambushes is the contract's ambushes slot (sim.OptionSlots + 3): attacks
// made from hiding or in an ambush round.
const Ambushes = sim.OptionSlots + 3

// Counters LotM records beyond sim's base counters.
const (
	AmbushRounds = sim.NumBase + iota
	AmbushesFoiled
	Insertions
	Aims
	Feints
	FeintsWon
	Intimidations
	IntimidationsWon
	Charges
	ChargesWon
	Grapples
	GrapplesWon
	GrapplesBroken
	Squeezes
	DoubleStrikes
	VitalStrikes
	VitalHits
	Casts
	Hides
	HiddenFound
	LuckBurned
	FirstAids
	DelaysFired
	IntuitionSaves
	LimbBlocks
	Borrows
	Covers
	CoversBroken
	PointBlanks
	LegSweeps
	numCounters
)

// counterTable names and documents the extra counters, in the order
// simctl rules lotm lists them (a counter's place in the counts is its
// constant's): the one place a counter is named and documented (the JSON
// names and simctl rules lotm follow it; TestCounterTable checks that
// every constant has exactly one entry).
var counterTable = []struct {
	id int
	sim.Field
}{
	{AmbushRounds, sim.Field{Name: "ambush_rounds", Doc: "Ambush Rounds this side played as the ambusher (pre-combat or inserted); the base counter ambushes counts each ambusher in them, each teleport, each attack from invisibility that was not found and each won feint"}},
	{AmbushesFoiled, sim.Field{Name: "ambushes_foiled", Doc: "this side's ambushes that were detected (Ambush Round detection, invisibility found)"}},
	{Insertions, sim.Field{Name: "insertions", Doc: "turns this side brought forward by a mid-combat ambush (also counted as interrupts)"}},
	{Aims, sim.Field{Name: "aims", Doc: "Build-Up Aims"}},
	{Feints, sim.Field{Name: "feints", Doc: "feints tried"}},
	{FeintsWon, sim.Field{Name: "feints_won", Doc: "feints won"}},
	{Intimidations, sim.Field{Name: "intimidations", Doc: "Intimidates tried"}},
	{IntimidationsWon, sim.Field{Name: "intimidations_won", Doc: "Intimidates won"}},
	{Charges, sim.Field{Name: "charges", Doc: "charges made"}},
	{ChargesWon, sim.Field{Name: "charges_won", Doc: "charges that put the target Off-Balance"}},
	{Grapples, sim.Field{Name: "grapples", Doc: "grapples tried"}},
	{GrapplesWon, sim.Field{Name: "grapples_won", Doc: "grapples that took hold"}},
	{GrapplesBroken, sim.Field{Name: "grapples_broken", Doc: "times this side broke free"}},
	{Squeezes, sim.Field{Name: "squeezes", Doc: "squeezes tried"}},
	{DoubleStrikes, sim.Field{Name: "double_strikes", Doc: "Double Strikes made"}},
	{VitalStrikes, sim.Field{Name: "vital_strikes", Doc: "Vital Strikes tried"}},
	{VitalHits, sim.Field{Name: "vital_hits", Doc: "Vital Strikes that hit"}},
	{Casts, sim.Field{Name: "casts", Doc: "uses of the casting ability"}},
	{Hides, sim.Field{Name: "hides", Doc: "times this side turned invisible"}},
	{HiddenFound, sim.Field{Name: "hidden_found", Doc: "hidden enemies this side found (search or an ambush check)"}},
	{LuckBurned, sim.Field{Name: "luck_burned", Doc: "Luck points burned"}},
	{FirstAids, sim.Field{Name: "first_aids", Doc: "First Aids given"}},
	{DelaysFired, sim.Field{Name: "delays_fired", Doc: "delayed actions taken (the base delays counts those declared, actions_lost those spent without their trigger or lost to a stun, and stunned turns)"}},
	{IntuitionSaves, sim.Field{Name: "intuition_saves", Doc: "ambushed combatants of this side spared Caught Off Guard by Spiritual Intuition"}},
	{LimbBlocks, sim.Field{Name: "limb_blocks", Doc: "Vital Strikes this side turned onto a limb"}},
	{Borrows, sim.Field{Name: "borrows", Doc: "Borrow Strength Against Strength answers this side made"}},
	{PointBlanks, sim.Field{Name: "point_blanks", Doc: "Point-Blank Shootings made"}},
	{LegSweeps, sim.Field{Name: "leg_sweeps", Doc: "Leg Sweeps made"}},
	{Covers, sim.Field{Name: "covers", Doc: "Improvised Covers this side took (an item or an obstacle)"}},
	{CoversBroken, sim.Field{Name: "covers_broken", Doc: "this side's covers destroyed by a hit"}},
}

var counterNames = func() []string {
	out := make([]string, numCounters)
	copy(out, sim.BaseCounters)
	for _, c := range counterTable {
		out[c.id] = c.Name
	}
	return out
}()

// counterDocs are the extra counters as simctl rules lotm lists them.
func counterDocs() []sim.Field {
	out := make([]sim.Field, len(counterTable))
	for i, c := range counterTable {
		out[i] = c.Field
	}
	return out
}

// Options of the ruleset (scenario `options:`).
type Options struct {
	Initiative   string // "d20+agility" | "d20" | "agility"
	BurnLuckInit bool   // Burn Luck may add to the initiative roll
	Advantage    string // "2d20" | "flat"
	FlatBonus    int    // the ± of advantage: flat
	Naturals     bool   // natural 20 hits, natural 1 misses
	TiesTo       string // "defender" | "attacker": who wins a tied contest
	Detection    string // "side" | "each" | "none": the Ambush Round's Stealth vs Investigation
	InsertOrder  string // "keep" | "move": the initiative place after a mid-combat ambush
	Search       string // "turn" | "none": hidden enemies are searched for at each turn
	CastingSlot  string // "shared" | "separate": one Attack/Casting action, or one of each
	Intuition    bool   // Spiritual Intuition (DC 25) spares an ambushed combatant Caught Off Guard
}

var optionNames = []string{"initiative", "burn_luck_initiative", "advantage", "flat_bonus",
	"naturals", "contest_ties", "ambush_detection", "insert_order", "search", "casting_slot",
	"spiritual_intuition"}

var optionDocs = []sim.Option{
	{Name: "initiative", Default: "d20+agility", Valid: "d20+agility | d20 | agility",
		Doc: "the seed does not give the initiative roll. d20+agility: d20 + agility + init. d20: d20 + init. agility: agility + init, no roll. " +
			"Highest first, the order fixed for the fight; ties go to the higher agility, then a random order among the tied"},
	{Name: "burn_luck_initiative", Default: "false", Valid: "true | false",
		Doc: "the GM note: Burn Luck may be allowed on initiative. true: a combatant whose policy says luck: initiative adds all its Luck to its initiative (its once-per-24-hours burn)"},
	{Name: "advantage", Default: "2d20", Valid: "2d20 | flat",
		Doc: "2d20: Advantage rolls 2d20 and keeps the higher, Disadvantage the lower; the kept die is the natural roll. flat: one d20 with +flat_bonus / -flat_bonus"},
	{Name: "flat_bonus", Default: "5", Valid: "0..20", Doc: "the bonus and penalty of advantage: flat"},
	{Name: "naturals", Default: "true", Valid: "true | false",
		Doc: "true: a natural 20 on a hit check always hits and a natural 1 always misses (the critical success/failure Burn Luck cannot change). false: only the total counts"},
	{Name: "contest_ties", Default: "defender", Valid: "defender | attacker",
		Doc: "the source gives no tie rule for contests: defender (the one resisting keeps the status quo) or attacker. The one resisting is the target of the action (charge, feint, intimidate, squeeze), the blocker of a Limb Block, and in every Stealth vs Investigation contest (Ambush Round detection, obstacle ambush, search, invisibility ambush) the investigator: \"your Stealth opposed by the target's Investigation\". A hit check meets or beats Physical Defense"},
	{Name: "ambush_detection", Default: "side", Valid: "side | each | none",
		Doc: "the Ambush Round's check (\"if the ambushing side is not noticed\"): side: one contest, the ambushing side's lowest stealth against the ambushed side's highest investigation; if the ambushers win, every ambushed combatant is Caught Off Guard until the round ends. " +
			"each: every ambushed combatant rolls investigation against every ambusher's stealth and is Caught Off Guard only against those it did not spot. none: no check, always Caught Off Guard"},
	{Name: "insert_order", Default: "keep", Valid: "keep | move",
		Doc: "a mid-combat ambush brings the ambusher's turn forward, before the current actor. keep: only this round's turn moves; move: its place in the initiative order moves there for the rest of the fight"},
	{Name: "search", Default: "turn", Valid: "turn | none",
		Doc: "turn: at the start of its turn every combatant makes one investigation check against the stealth of each enemy hidden from it (no action); success lets that searcher alone target it (discovery is per observer). none: no search; a hidden combatant is found only by the target of its attack (the invisibility ambush's check) and revealed to everyone when it attacks"},
	{Name: "casting_slot", Default: "shared", Valid: "shared | separate",
		Doc: "shared: one Attack/Casting action per turn (the source prices Delay Action as \"an Attack/Casting Action\"). separate: one Attack action and one Casting action (the source lists them apart among the five actions a Delay may hold): a plan may then make a casting and an attack in one turn (the policies do)"},
	{Name: "spiritual_intuition", Default: "false", Valid: "true | false",
		Doc: "the source's Spiritual Intuition senses danger (a passive INT check, Difficulty 25) but says only that the GM tells the player a vague unease. true (a reading): as an Ambush Round starts, each ambushed combatant that would be Caught Off Guard rolls d20 + intuition; 25 or more and it is not Caught Off Guard in that round (the Advantage/Disadvantage stay). false: not used in combat"},
}

func defaultOptions() Options {
	return Options{Initiative: "d20+agility", Advantage: "2d20", FlatBonus: 5, Naturals: true,
		TiesTo: "defender", Detection: "side", InsertOrder: "keep", Search: "turn", CastingSlot: "shared"}
}
