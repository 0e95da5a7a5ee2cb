// Package acks2 is the referee for ACKS II combat around initiative
// (shared/rules/004_77beaf07114d2a6f.txt, Russian; digest RULES.md §2).
//
// The package reads like the book's round, one file per step or rule:
//
//	round.go       the round: declarations, initiative, the count from 10 to
//	               -10, morale; the encounter ends when a side is all out
//	initiative.go  1d6 + DEX every round, group rolls, the same-number rule
//	segment.go     a combatant's initiative segment: start and end effects,
//	               attacking, charging, marching, withdrawing, retreating
//	delay.go       delaying to a lower number or until a named combatant
//	ready.go       acting before your number: the readied attack and the
//	               round-1 missile and long weapons against a charge
//	engagement.go  positions, engagement within 5 feet, movement, sizes
//	attack.go      attack throws, damage, cleaving
//	spells.go      declared spells, saving throws, lingering effects
//	morale.go      morale checks after the count
//	shortcuts.go   what a Table decides once from the game so that the
//	               common fight skips work whose result it knows (exact)
//
// Decisions (declarations, targets, charge or ready, delays, the
// same-number choice, interrupts, cleave targets) are a Policy's
// (policy.go); the scripted policies live in package agents.
//
// Concurrency: a *Game is immutable after Compile and shared by all
// workers; each worker owns its *Table.
package acks2

import (
	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

func init() { rulesets.Register(Ruleset{}) }

// Ruleset is the ACKS II referee.
type Ruleset struct{}

// Name implements sim.Ruleset.
func (Ruleset) Name() string { return "acks2" }

// Schema implements sim.Ruleset.
func (Ruleset) Schema() scenario.Schema {
	return scenario.Schema{
		CombatantFields: combatantFields,
		SideFields:      []string{"traits"},
		InitDie:         6,
		Traits:          true,
	}
}

var combatantFields = []string{"attack_throw", "weapon", "range", "size", "flies", "engaged_by",
	"morale", "save", "cleaves", "behind", "spells", "initiative_rolls", "traits"}

// Extra counters ACKS II records beyond sim's base counters.
const (
	DeclaredSpellsLost = sim.NumBase + iota
	ReadiedAttacksUsed
	NumbersLost
	MoraleChecks
	Flights
	Cleaves
	Charges
	SpellsCast
	Deaths
	Withdrawals
	Retreats
	numCounters
)

// counterNames are sim's base counters, then ACKS II's, named (and
// documented for simctl rules) in counterDocs, in the order of the
// constants above.
var counterNames = append(append([]string(nil), sim.BaseCounters...), sim.FieldNames(counterDocs)...)

var counterDocs = []sim.Field{
	{Name: "declared_spells_lost", Doc: "declared spells lost because the caster took damage before its segment (option disrupt_declared_casters); the spell is spent and the segment's action lost"},
	{Name: "readied_attacks_used", Doc: "readied attacks taken when an enemy's movement triggered them (the combatant still acts on its own number)"},
	{Name: "numbers_lost", Doc: "initiative numbers given up for a round-1 missile or long-weapon attack against a charger"},
	{Name: "morale_checks", Doc: "morale checks rolled after the count (counted for the side of the combatant checking)"},
	{Name: "flights", Doc: "combatants of this side who failed morale and fled (out of the fight, not killed)"},
	{Name: "cleaves", Doc: "extra attacks after a kill"},
	{Name: "charges", Doc: "charges made"},
	{Name: "spells_cast", Doc: "declared spells that took effect"},
	{Name: "deaths", Doc: "combatants of this side killed (HP <= 0); fled ones are not counted"},
	{Name: "withdrawals", Doc: "declared withdrawals carried out"},
	{Name: "retreats", Doc: "declared retreats carried out"},
}

// Options of the ruleset (scenario `options:`).
type Options struct {
	DisruptDeclaredCasters bool
	GroupInitiative        bool
	MoraleTrigger          MoraleTrigger
	MoraleEveryRound       bool
	MoraleFleeAt           int
	SizeEngagement         bool
	CleaveLimit            int
	ReadySameRound         bool
	ChargeBonus            int
	RetreatFreeAttack      bool
	DescendingAC           bool
	// DeclareFirst is the side (0 or 1) that declares first in the open,
	// or -1: simultaneous declarations (the default).
	DeclareFirst int
}

// MoraleTrigger says who checks morale after the count.
type MoraleTrigger uint8

// Morale triggers.
const (
	MoraleHalfSideOrHalfHP MoraleTrigger = iota
	MoraleHalfSide
	MoraleHalfHP
	MoraleNone
)

var moraleTriggerNames = []string{"half_side_or_half_hp", "half_side", "half_hp", "none"}

func defaultOptions() Options {
	return Options{
		DisruptDeclaredCasters: true,
		MoraleFleeAt:           6,
		CleaveLimit:            1,
		ChargeBonus:            2,
		RetreatFreeAttack:      true,
		DeclareFirst:           -1,
	}
}

var optionDocs = []sim.Option{
	{Name: "disrupt_declared_casters", Default: "true", Valid: "true | false",
		Doc: "a combatant that declared a spell and takes damage before its segment (a start-of-segment effect included) loses the spell: it is spent and the segment's action is lost. The excerpt only requires the declaration; this is ACKS's general rule"},
	{Name: "group_initiative", Default: "false", Valid: "true | false",
		Doc: "true: one 1d6 per group of identical monsters (the copies of one count: N entry on the referee's side) instead of one per combatant; each still adds its own init"},
	{Name: "morale_trigger", Default: "half_side_or_half_hp", Valid: "half_side_or_half_hp | half_side | half_hp | none",
		Doc: "who checks morale after the count: every remaining member of a side that has lost half its starting number (killed or fled), and/or each combatant at or below half its starting HP"},
	{Name: "morale_repeat", Default: "once", Valid: "once | every_round",
		Doc: "once: each trigger makes a combatant check once (the first round it holds); every_round: every round while it holds"},
	{Name: "morale_flee_at", Default: "6", Valid: "0-20",
		Doc: "a morale check is 2d6 + morale; at or below this the combatant flees (out of the fight, counted as fled, not killed)"},
	{Name: "size_engagement", Default: "false", Valid: "true | false",
		Doc: "the optional rule on engaging smaller or larger creatures: a combatant is engaged only when enough opponents stand within 5 feet (field engaged_by); with fewer it moves through them as if they were allies, but may not end its move sharing their space"},
	{Name: "cleave_limit", Default: "1", Valid: "0-100",
		Doc: "extra attacks per round after kills (field cleaves overrides it per combatant)"},
	{Name: "ready_same_round", Default: "false", Valid: "true | false",
		Doc: "false (the source: \"if a combatant begins the round with a readied combat action\"): a readied attack can be taken from the next round on; true (a house rule): also later in the round it was readied in (after the readier's own number, so not 'before its number')"},
	{Name: "charge_bonus", Default: "2", Valid: "-10 to 10",
		Doc: "attack bonus of a charge (the charge itself is defined outside the excerpt: a full-round move of up to twice speed straight at the target, then one attack)"},
	{Name: "retreat_free_attack", Default: "true", Valid: "true | false",
		Doc: "a declared retreat (full speed away) gives every enemy engaged with the retreater one attack before it moves; withdraw (half speed away) never does. The excerpt names both but defines neither"},
	{Name: "declare_first", Default: "none", Valid: "none | the name of a side",
		Doc: "who hears whose declarations. The source has every declaration made \"publicly\" to the referee before the dice and gives no order, so by default declarations are simultaneous: no declarer sees another's declaration of the same round (never the file's order). A side's name: that side declares first in the open and the other side declares knowing it (each side's own members still declare simultaneously)"},
	{Name: "armor_class", Default: "ascending", Valid: "ascending | descending",
		Doc: "ascending (ACKS): hit when d20 + modifiers >= attack_throw + target AC; descending: hit when d20 + target AC + modifiers >= attack_throw (the digest's formula). Either way a natural 20 hits and a natural 1 misses"},
}

// optionNames is the list of valid option keys, in documentation order.
func optionNames() []string {
	out := make([]string, len(optionDocs))
	for i, o := range optionDocs {
		out[i] = o.Name
	}
	return out
}

func compileOptions(sc *scenario.Scenario) Options {
	o := defaultOptions()
	d := sc.Dec
	for name, n := range sc.Options {
		path := "options." + name
		switch name {
		case "disrupt_declared_casters":
			o.DisruptDeclaredCasters = d.Bool(n, path)
		case "group_initiative":
			o.GroupInitiative = d.Bool(n, path)
		case "morale_trigger":
			switch d.Enum(n, path, moraleTriggerNames) {
			case "half_side":
				o.MoraleTrigger = MoraleHalfSide
			case "half_hp":
				o.MoraleTrigger = MoraleHalfHP
			case "none":
				o.MoraleTrigger = MoraleNone
			}
		case "morale_repeat":
			o.MoraleEveryRound = d.Enum(n, path, []string{"once", "every_round"}) == "every_round"
		case "morale_flee_at":
			o.MoraleFleeAt = d.Int(n, path, 0, 20)
		case "size_engagement":
			o.SizeEngagement = d.Bool(n, path)
		case "cleave_limit":
			o.CleaveLimit = d.Int(n, path, 0, 100)
		case "ready_same_round":
			o.ReadySameRound = d.Bool(n, path)
		case "charge_bonus":
			o.ChargeBonus = d.Int(n, path, -10, 10)
		case "retreat_free_attack":
			o.RetreatFreeAttack = d.Bool(n, path)
		case "declare_first":
			o.DeclareFirst = -1
			names := []string{"none"}
			for _, side := range sc.Sides {
				names = append(names, side.Name)
			}
			if v := d.Enum(n, path, names); v != "none" {
				for s, side := range sc.Sides {
					if side.Name == v {
						o.DeclareFirst = s
						break
					}
				}
			}
		case "armor_class":
			o.DescendingAC = d.Enum(n, path, []string{"ascending", "descending"}) == "descending"
		default:
			d.Unknown(sc.OptionKey[name], path, optionNames())
		}
	}
	return o
}
