// Package sim is the table every ruleset plays on: the contracts between a
// ruleset and the runner (Ruleset, Game, Table), the per-encounter outcome,
// the counters a referee records (per side, and per combatant through
// Counts.Hit/Down/Turn/Lost/End in combatants.go), the mergeable tally of a
// run, and the parallel runner.
//
// Concurrency: a Game is compiled once from a scenario and is read-only, so
// all workers share it. Each worker owns one Table (the mutable state of an
// encounter, reused by Reset-style replay instead of allocation), one
// rng.Stream and one Tally; tallies merge after the workers finish. Every
// figure in a Tally is an integer count or sum, so the merged result is the
// same whatever the number of workers or the order of merging.
package sim

import (
	"sync/atomic"

	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// Ruleset is one book's referee, registered by name (see package rulesets).
type Ruleset interface {
	Name() string
	// Schema is what the ruleset adds to the scenario contract.
	Schema() scenario.Schema
	// Doc describes options, fields, policies and special actions for
	// `simctl rules NAME`.
	Doc() RulesDoc
	// Compile validates the scenario's ruleset fields, options and policies
	// and builds the immutable game. Problems are scenario.Errors.
	Compile(sc *scenario.Scenario) (Game, error)
}

// Game is a compiled scenario: immutable, shared by all workers.
type Game interface {
	// Roster names every combatant after count expansion, with its side.
	Roster() []Entrant
	// Counters names the action-economy counters the referee records per
	// side; the first NumBase are the common ones (Base).
	Counters() []string
	// MaxRounds bounds an encounter; reaching it is a draw.
	MaxRounds() int
	// NewTable allocates a worker's mutable encounter state.
	NewTable() Table
}

// Table plays encounters. Not safe for concurrent use.
type Table interface {
	// Play plays one whole encounter drawing only from r, adding its counters
	// to c, and narrating to log when log is non-nil. It asks c.Stopped()
	// once per round and returns at once when it says yes.
	Play(r *rng.Stream, c *Counts, log *Log) Outcome
}

// Entrant is one combatant of the expanded roster.
type Entrant struct {
	Name string // "Fighter", or "Orc#2" for copies
	Side int
}

// Outcome is what one encounter decided.
type Outcome struct {
	Winner    int    // side index, or -1 for a draw
	Rounds    int    // regular rounds played (a surprise or ambush round not included)
	Survivors [2]int // combatants of each side still in the fight
	// FirstActor is the roster index of the first combatant to take an
	// action, -1 if nobody did. Deciding to delay or to ready is not an
	// action; the delayed or readied action, when taken, is (so is an
	// attack of opportunity, an interrupt or a surprise/ambush-round action).
	FirstActor int
	// FirstInOrder is the roster index of the combatant first in the
	// initiative order of the first round in which anyone had a turn (the
	// surprise or ambush round when there is one), -1 if nobody had one.
	FirstInOrder int
	// Draw says why an encounter without a winner ended (DrawNone when a
	// side won).
	Draw DrawCause
}

// DrawCause is why an encounter ended without a winner.
type DrawCause uint8

// Draw causes.
const (
	DrawNone      DrawCause = iota // a side won
	DrawMaxRounds                  // max_rounds reached with both sides still fighting
	DrawAllGone                    // no combatant of either side is left fighting: both sides fled or routed, or fell together
)

// DrawCauseNames are the JSON names of the draw causes, by value.
var DrawCauseNames = []string{"", "max_rounds", "all_gone"}

// Base counters every ruleset records (the JSON action_economy contract).
// A ruleset appends its own after these.
const (
	Turns = iota
	Actions
	Delays
	Readies
	ReadiesTriggered
	ReadiesWasted
	Interrupts
	// OptionSlots is the first of four slots the contract reports for
	// every ruleset (seizes, interposes, reprises, ambushes, in that order
	// in BaseCounters): initiative options only some books have. The
	// ruleset whose book has one declares its index in its own package
	// (cavaliers.Seizes = sim.OptionSlots); the others leave it at 0.
	OptionSlots
	ActionsLost = iota + 3 // after the four option slots
	DamageDealt = iota + 3
	NumBase     = iota + 3
)

// BaseCounters are the JSON names of the base counters, by index.
var BaseCounters = []string{
	"turns", "actions", "delays", "readies", "readies_triggered", "readies_wasted",
	"interrupts", "seizes", "interposes", "reprises", "ambushes", "actions_lost",
	"damage_dealt",
}

// Counts is a flat per-side counter table: index side*NumCounters+counter.
type Counts struct {
	PerSide int     // counters per side
	Sides   []int64 // side s's counter k at s*PerSide+k (JSON: "counts")
	// Combatants holds per-combatant totals by roster index (see
	// combatants.go); nil when the Counts records none (NewCounts).
	Combatants []Combatant
	enc        []ending // the encounter in progress, by roster index
	ended      int      // End calls in the encounter in progress
	// Rules counts tactics rule events (RuleGame.RuleCounters), separate
	// from the per-side counters; nil when the game has no tactics.
	Rules []int64
	stop  *atomic.Bool // set when the run is stopping (Watch); nil: never
	cut   bool         // Stopped said yes during this encounter
}

// Watch makes Stopped follow stop: a runner sets it when the run is
// cancelled, so that long encounters end within a round.
func (c *Counts) Watch(stop *atomic.Bool) { c.stop = stop }

// Stopped reports whether the run is stopping. A referee asks once per
// round (an atomic load) and, on true, returns from Play at once with any
// Outcome: the encounter is abandoned, and the runner drops it and every
// counter it touched (Cut), so it counts neither in the tally nor as played
// (a resume plays it again).
func (c *Counts) Stopped() bool {
	if c.stop == nil || !c.stop.Load() {
		return false
	}
	c.cut = true
	return true
}

// Cut reports whether the encounter just played was abandoned (Stopped
// said yes); Reset clears it.
func (c *Counts) Cut() bool { return c.cut }

// NewCounts allocates counters for two sides.
func NewCounts(perSide int) Counts { return Counts{PerSide: perSide, Sides: make([]int64, 2*perSide)} }

// Add adds v to counter k of side s.
func (c *Counts) Add(s, k int, v int64) { c.Sides[s*c.PerSide+k] += v }

// Inc adds one to counter k of side s.
func (c *Counts) Inc(s, k int) { c.Sides[s*c.PerSide+k]++ }

// Get returns counter k of side s.
func (c *Counts) Get(s, k int) int64 { return c.Sides[s*c.PerSide+k] }

// Reset zeroes every counter.
func (c *Counts) Reset() {
	clear(c.Sides)
	clear(c.Combatants)
	clear(c.enc)
	clear(c.Rules)
	c.ended, c.cut = 0, false
}

// Rule adds one to tactics counter k (an index into RuleCounters).
func (c *Counts) Rule(k int) {
	if k < len(c.Rules) {
		c.Rules[k]++
	}
}

// RuleAdd adds v to counter k (an index into RuleCounters): a trait's
// "added" counter.
func (c *Counts) RuleAdd(k int, v int64) {
	if k < len(c.Rules) {
		c.Rules[k] += v
	}
}

// RulesDoc is the self-description printed by `simctl rules NAME`.
type RulesDoc struct {
	Name     string
	Title    string
	Source   string // the book and section, as a reader can look it up
	Summary  string
	Options  []Option
	Fields   []Field // ruleset-specific scenario fields
	Policies []Field // policy names and their parameters
	Actions  []Field // special actions and rules implemented
	Counters []Field // action-economy counters beyond the base
	// What traits and house rules may use (docs/traits.md): the moments
	// (with what each exposes), the quantities effects change, the
	// conditions, and the library traits; empty for a ruleset without.
	Moments    []Field
	Quantities []Field
	Conditions []Field
	Traits     []Field
}

// Option is a ruleset option with its default and valid values.
type Option struct {
	Name, Default, Valid, Doc string
}

// Field documents a scenario field, policy or action.
type Field struct {
	Name, Doc string
}

// FieldNames are the fields' names, in order (a ruleset's counter names
// from the table that documents them).
func FieldNames(fs []Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// RosterIndex finds a combatant in a roster by its roster name ("Orc#2"),
// or by its template name ("Fighter") when that has a single copy; ok is
// false when the name is unknown or names several copies.
func RosterIndex(roster []Entrant, name string) (i int, ok bool) {
	found := -1
	for i, e := range roster {
		if e.Name == name {
			return i, true
		}
		if len(e.Name) > len(name) && e.Name[:len(name)+1] == name+"#" {
			if found >= 0 {
				return -1, false
			}
			found = i
		}
	}
	return found, found >= 0
}
