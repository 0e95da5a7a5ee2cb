// Package traitrun runs the traits and house rules that sim/traits
// compiles, inside a referee: the part every ruleset's traits.go would
// otherwise repeat (which traits of whom fire at which moment, uses left,
// conditions with their rounds, the counters, the narration). What is a
// ruleset's own stays in its traits.go: its table (traits.Decl), where the
// hooks sit in its round, what each fact reads (Host.Fact) and what a
// condition does to its referee.
//
// All four rulesets run their traits here. A ruleset declares, beside its
// table, how its referee feeds the runner (Binding): the bounds of its
// quantities, the moment's numbers its facts read from Ctx.E, the
// conditions its referee keeps itself.
//
// A Set is built once per compiled game and shared read-only by every
// worker; a Runner is one Table's, reset for each encounter, and fires
// without allocating.
package traitrun

import (
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// MaxQ bounds a ruleset's quantities (Ctx.Q).
const MaxQ = 8

// Inst is one trait on one combatant.
type Inst struct {
	traits.Trait
	Owner   int
	Counter int // Counts.Rules index of "fired"; "added" is Counter+1
	// guard: When is false unless condition guardCond of guardWho is
	// guardHas (lang's Program.Guard on a condition fact), tested first so
	// that the usual miss (target not flat-footed) costs one load.
	guard     bool
	guardWho  traits.Who
	guardCond int
	guardHas  bool
}

// Set is a game's compiled traits and house rules.
type Set struct {
	Decl *traits.Decl
	List []Inst
	// On[m][i] lists the traits of combatant i that fire at moment m, in
	// the order written (house rules first, then the side's, then its own).
	On       [][][]int32
	PerRound []int32 // traits whose uses renew each round
	// Actions[i] lists combatant i's special actions (action: COST),
	// which a tactics rule chooses by name.
	Actions [][]int32
	// Conds: some effect applies a condition (RoundStart counts their
	// rounds down only then).
	Conds bool
	n     int
}

// Registry is where a game registers its rule counters (sim.RuleRegistry).
type Registry interface {
	AddRuleCounter(sim.RuleCounter) int
}

// Lib is a ruleset's trait library.
type Lib struct {
	Find  traits.Library
	Names []string
}

// Read reads the scenario's house rules (rules:) and every side's and
// combatant's traits: against decl. Combatants are numbered as every
// ruleset's Compile numbers them: side by side, entry by entry, copy by
// copy. It returns nil when there are none (the referee's hooks test for
// nil); problems go to sc.Dec. Call it before the tactics compile (a rule
// may choose a special action by name) and Register after them.
func Read(sc *scenario.Scenario, decl *traits.Decl, lib Lib) *Set {
	return ReadAt(sc, decl, lib, nil)
}

// ReadAt is Read for a referee whose combatant entry k's copies are
// numbered from first[k] on (nil: one after another, as Read).
func ReadAt(sc *scenario.Scenario, decl *traits.Decl, lib Lib, first []int) *Set {
	d := sc.Dec
	var sideNames []string
	n := 0
	for _, s := range sc.Sides {
		sideNames = append(sideNames, s.Name)
		for _, cs := range s.Combatants {
			n += cs.Count
		}
	}
	o := traits.Options{Lib: lib.Find, LibNames: lib.Names, Sides: sideNames}
	house := o
	house.House = true
	rules := traits.Read(d, sc.Rules, "rules", decl, house)
	s := &Set{Decl: decl, On: make([][][]int32, len(decl.Moments)), Actions: make([][]int32, n), n: n}
	for m := range s.On {
		s.On[m] = make([][]int32, n)
	}
	add := func(tr traits.Trait, owner int) {
		k := int32(len(s.List))
		inst := Inst{Trait: tr, Owner: owner}
		if tr.When != nil {
			if slot, op, v, ok := tr.When.Guard(); ok && tr.Slots[slot].Kind == traits.RefCondition && (op == "" || op == "==" && v == 0) {
				ref := tr.Slots[slot]
				inst.guard, inst.guardWho, inst.guardCond, inst.guardHas = true, ref.Who, ref.ID, op == ""
			}
		}
		for _, e := range tr.Effects {
			s.Conds = s.Conds || e.Kind == traits.Apply
		}
		s.List = append(s.List, inst)
		if tr.Action != "" {
			s.Actions[owner] = append(s.Actions[owner], k)
		} else {
			s.On[tr.Moment][owner] = append(s.On[tr.Moment][owner], k)
		}
		if tr.PerRound && tr.Uses >= 0 {
			s.PerRound = append(s.PerRound, k)
		}
	}
	i, entry := 0, 0
	for si, side := range sc.Sides {
		st := traits.Read(d, side.Extra["traits"], side.Path+".traits", decl, o)
		for _, cs := range side.Combatants {
			ct := traits.Read(d, cs.Extra["traits"], cs.Path+".traits", decl, o)
			if first != nil {
				i = first[entry]
			}
			entry++
			for range cs.Count {
				for _, r := range rules {
					if r.Side < 0 || r.Side == si {
						add(r, i)
					}
				}
				for _, tr := range st {
					add(tr, i)
				}
				for _, tr := range ct {
					add(tr, i)
				}
				i++
			}
		}
	}
	if len(s.List) == 0 {
		return nil
	}
	return s
}

// Register gives every trait its counters ("fired", "added"), after the
// tactics' (results keep them apart by RuleCounter.Trait). A nil Set has
// none.
func (s *Set) Register(reg Registry) {
	if s == nil {
		return
	}
	for k := range s.List {
		inst := &s.List[k]
		mname := s.Decl.Moments[inst.Moment].Name
		inst.Counter = reg.AddRuleCounter(sim.RuleCounter{Combatant: inst.Owner, Moment: mname, Rule: inst.Name, Event: "fired", Trait: true})
		reg.AddRuleCounter(sim.RuleCounter{Combatant: inst.Owner, Moment: mname, Rule: inst.Name, Event: "added", Trait: true})
	}
}

// Action finds combatant self's special action named name: its index
// (into List), or -1. A nil Set has none.
func (s *Set) Action(self int, name string) int {
	if s == nil {
		return -1
	}
	for _, k := range s.Actions[self] {
		if s.List[k].Name == name {
			return int(k)
		}
	}
	return -1
}

// ActionNames lists combatant self's special actions.
func (s *Set) ActionNames(self int) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, k := range s.Actions[self] {
		out = append(out, s.List[k].Name)
	}
	return out
}

// Any reports whether combatant i has traits at moment m.
func (s *Set) Any(m, i int) bool { return len(s.On[m][i]) > 0 }

// Applies reports whether some trait applies condition cond (to anyone):
// a referee asks it once to know whether it must look for the condition
// at all.
func (s *Set) Applies(cond int) bool {
	for k := range s.List {
		for _, e := range s.List[k].Effects {
			if e.Kind == traits.Apply && e.Cond == cond {
				return true
			}
		}
	}
	return false
}

// Ctx is one moment's numbers, on the referee's stack while its traits
// fire: whose moment it is, the other party (-1: none), the quantities
// (indexed as Decl.Quantities) and the moment's own numbers E, which the
// ruleset's Host.Fact reads by its own convention.
type Ctx struct {
	M, Self, Other int
	Q              [MaxQ]int
	E              [MaxE]int
}

// MaxE bounds a moment's own numbers (Ctx.E).
const MaxE = 8

// Host is the referee a Runner fires in.
type Host interface {
	// Fact is the value of fact id (an index into Decl.Facts) of
	// combatant who, or, with who -1, of the moment (an event fact not
	// read from Ctx.E: the round, say). It takes no Ctx: a Ctx handed to
	// an interface would escape to the heap at every moment.
	Fact(id, who int) float64
	// Name is combatant i's name, for the narration.
	Name(i int) string
}

// CondHost is a Host that keeps some conditions itself (d20's
// flat_footed, which its referee sets and clears): Binding.HostConds.
type CondHost interface {
	Host
	Cond(i, cond int) bool
	SetCond(i, cond int, on bool)
}

// bound keeps what effects leave in a moment's quantity within a range
// (damage taken never below 0): Runner.Bound.
type bound struct {
	on       bool
	min, max int
}

// Binding is how a referee feeds its runner, declared as data beside its
// Decl: what it is made of is what Runner.Bound, FromCtx, FromCtxAt and
// HostCond set one at a time.
type Binding struct {
	Bounds    []Bound
	Events    []EventSlot
	Parties   []PartySlot
	HostConds []int // conditions the referee keeps (its Host is a CondHost)
}

// Bound keeps Quantity of Moment within [Min, Max] after each effect.
type Bound struct{ Moment, Quantity, Min, Max int }

// EventSlot: event fact Fact reads Ctx.E[Slot].
type EventSlot struct{ Fact, Slot int }

// PartySlot: at Moment, fact Fact of Who (the owner or the other party)
// reads Ctx.E[Slot] rather than Host.Fact: a fact of this attack, not of
// the combatant (d20's target.flanked at hit).
type PartySlot struct {
	Moment, Fact int
	Who          traits.Who
	Slot         int
}

// Runner is one Table's trait state: uses left, conditions, the streams.
type Runner struct {
	Set  *Set
	Host Host
	R    *rng.Stream
	C    *sim.Counts
	Log  *sim.Log
	uses []int32 // uses left, by trait (-1: no limit)
	cond []int32 // rounds left of condition c on combatant i at i*nc+c (0: absent)
	nc   int
	lim  [][MaxQ]bound
	ev   []int8 // by fact: the Ctx.E slot an event fact reads, -1: Host.Fact
	// party[m] lists moment m's party facts read from Ctx.E (nil: none).
	party [][]PartySlot
	// hostCond[c]: condition c is the host's (ch's Cond, SetCond).
	hostCond []bool
	ch       CondHost
}

// untilRemoved is a condition applied without a duration.
const untilRemoved = 1 << 30

// NewRunner is a Table's runner for s (nil for a nil s).
func NewRunner(s *Set, h Host) *Runner {
	if s == nil {
		return nil
	}
	nc := len(s.Decl.Conditions)
	r := &Runner{Set: s, Host: h, uses: make([]int32, len(s.List)), cond: make([]int32, s.n*nc), nc: nc,
		lim: make([][MaxQ]bound, len(s.Decl.Moments)), ev: make([]int8, len(s.Decl.Facts))}
	for k := range r.ev {
		r.ev[k] = -1
	}
	return r
}

// FromCtx makes event fact id read Ctx.E[slot].
func (r *Runner) FromCtx(id, slot int) { r.ev[id] = int8(slot) }

// FromCtxAt makes fact id of who read Ctx.E[slot] at moment m.
func (r *Runner) FromCtxAt(m, id int, who traits.Who, slot int) {
	if r.party == nil {
		r.party = make([][]PartySlot, len(r.Set.Decl.Moments))
	}
	r.party[m] = append(r.party[m], PartySlot{Moment: m, Fact: id, Who: who, Slot: slot})
}

// HostCond makes condition cond the host's: read with its Cond, and told
// with its SetCond when an effect or a duration changes it (the runner
// still counts the duration). The Host must be a CondHost.
func (r *Runner) HostCond(cond int) {
	if r.hostCond == nil {
		r.hostCond = make([]bool, r.nc)
	}
	r.hostCond[cond] = true
	r.ch = r.Host.(CondHost)
}

// Bind applies a referee's Binding.
func (r *Runner) Bind(b Binding) {
	if r == nil {
		return
	}
	for _, x := range b.Bounds {
		r.Bound(x.Moment, x.Quantity, x.Min, x.Max)
	}
	for _, x := range b.Events {
		r.FromCtx(x.Fact, x.Slot)
	}
	for _, x := range b.Parties {
		r.FromCtxAt(x.Moment, x.Fact, x.Who, x.Slot)
	}
	for _, c := range b.HostConds {
		r.HostCond(c)
	}
}

// Bound keeps quantity q of moment m within [lo, hi] after each effect.
func (r *Runner) Bound(m, q, lo, hi int) { r.lim[m][q] = bound{true, lo, hi} }

// Start resets the runner for an encounter played with stream rs, counts
// c and log lg.
func (r *Runner) Start(rs *rng.Stream, c *sim.Counts, lg *sim.Log) {
	r.R, r.C, r.Log = rs, c, lg
	for k := range r.Set.List {
		r.uses[k] = int32(r.Set.List[k].Uses)
	}
	clear(r.cond)
}

// Has reports whether combatant i is in condition cond.
func (r *Runner) Has(i, cond int) bool {
	if i < 0 {
		return false
	}
	if r.hostCond != nil && r.hostCond[cond] {
		return r.ch.Cond(i, cond)
	}
	return r.cond[i*r.nc+cond] > 0
}

// setCond gives combatant i condition cond for n round starts (0: none).
func (r *Runner) setCond(i, cond int, n int32) {
	r.cond[i*r.nc+cond] = n
	if r.hostCond != nil && r.hostCond[cond] {
		r.ch.SetCond(i, cond, n > 0)
	}
}

// RoundStart renews the per-round uses and counts the conditions' rounds
// down (one applied "for N rounds" lasts N round starts).
func (r *Runner) RoundStart() {
	for _, k := range r.Set.PerRound {
		r.uses[k] = int32(r.Set.List[k].Uses)
	}
	if !r.Set.Conds {
		return
	}
	for x, n := range r.cond {
		if n > 0 && n < untilRemoved {
			if n == 1 {
				r.setCond(x/r.nc, x%r.nc, 0)
				if r.Log != nil {
					r.Log.Printf("  %s is no longer %s", r.Host.Name(x/r.nc), r.Set.Decl.Conditions[x%r.nc].Name)
				}
			} else {
				r.cond[x] = n - 1
			}
		}
	}
}

// Fire runs the traits of c.Self at moment c.M, in order.
func (r *Runner) Fire(c *Ctx) {
	s := r.Set
	for _, k := range s.On[c.M][c.Self] {
		inst := &s.List[k]
		if r.uses[k] == 0 {
			continue
		}
		if inst.guard {
			who := c.Self
			if inst.guardWho == traits.Other {
				who = c.Other
			}
			if who < 0 || r.Has(who, inst.guardCond) != inst.guardHas {
				continue
			}
		}
		if inst.When != nil && !inst.When.EvalFunc(func(x int) float64 { return r.value(inst.Slots[x], c) }) {
			continue
		}
		if r.uses[k] > 0 {
			r.uses[k]--
		}
		r.C.Rule(inst.Counter)
		for e := range inst.Effects {
			r.effect(inst, &inst.Effects[e], c)
		}
	}
}

// CanTake reports whether special action k can be taken now, in the
// moment c: a use left and its when: holding. Its cost is the referee's
// to check.
func (r *Runner) CanTake(k int, c *Ctx) bool {
	inst := &r.Set.List[k]
	if r.uses[k] == 0 {
		return false
	}
	return inst.When == nil || inst.When.EvalFunc(func(x int) float64 { return r.value(inst.Slots[x], c) })
}

// Take takes special action k in the moment c: a use spent, counted as
// fired, its effects applied (the referee has paid its cost).
func (r *Runner) Take(k int, c *Ctx) {
	inst := &r.Set.List[k]
	if r.uses[k] > 0 {
		r.uses[k]--
	}
	r.C.Rule(inst.Counter)
	for e := range inst.Effects {
		r.effect(inst, &inst.Effects[e], c)
	}
}

// effect applies one effect of inst and counts what it added.
func (r *Runner) effect(inst *Inst, e *traits.Effect, c *Ctx) {
	switch e.Kind {
	case traits.Add, traits.Set:
		var v int
		if e.Num != nil {
			v = int(e.Num.EvalNumberFunc(func(x int) float64 { return r.value(e.Slots[x], c) }))
		} else {
			v = e.Dice.Roll(r.R)
		}
		old := c.Q[e.Q]
		if e.Kind == traits.Set {
			c.Q[e.Q] = v
		} else {
			c.Q[e.Q] += e.Sign * v
		}
		if b := &r.lim[c.M][e.Q]; b.on {
			c.Q[e.Q] = min(max(c.Q[e.Q], b.min), b.max)
		}
		r.C.RuleAdd(inst.Counter+1, int64(c.Q[e.Q]-old))
		if r.Log != nil {
			r.Log.Printf("  %s's %s: %s (%s %d -> %d)", r.Host.Name(inst.Owner), inst.Name, e.Text, r.Set.Decl.Quantities[e.Q].Name, old, c.Q[e.Q])
			r.Log.Event(sim.Event{Kind: sim.EvTrait, Actor: inst.Owner, Target: noOne(c.Other), Roll: old, Amount: c.Q[e.Q], Rule: inst.Name})
		}
	case traits.Apply, traits.Remove:
		who := c.Self
		if e.Who == traits.Other {
			who = c.Other
		}
		if who < 0 {
			return
		}
		n := int32(0)
		if e.Kind == traits.Apply {
			n = untilRemoved
			if e.Rounds > 0 {
				n = int32(e.Rounds)
			}
		}
		r.setCond(who, e.Cond, n)
		if r.Log != nil {
			r.Log.Printf("  %s's %s: %s (%s)", r.Host.Name(inst.Owner), inst.Name, e.Text, r.Host.Name(who))
			r.Log.Event(sim.Event{Kind: sim.EvTrait, Actor: inst.Owner, Target: who, Rule: inst.Name})
		}
	}
}

func noOne(i int) int {
	if i < 0 {
		return sim.NoOne
	}
	return i
}

// value is what slot ref reads at moment c.
func (r *Runner) value(ref traits.Ref, c *Ctx) float64 {
	who := c.Self
	if ref.Who == traits.Other {
		who = c.Other
	}
	switch ref.Kind {
	case traits.RefQuantity:
		return float64(c.Q[ref.ID])
	case traits.RefCondition:
		return b2f(r.Has(who, ref.ID))
	}
	if ref.Who == traits.Event {
		if k := r.ev[ref.ID]; k >= 0 {
			return float64(c.E[k])
		}
		return r.Host.Fact(ref.ID, -1)
	}
	if who < 0 {
		return 0
	}
	if r.party != nil {
		for _, p := range r.party[c.M] {
			if p.Fact == ref.ID && p.Who == ref.Who {
				return float64(c.E[p.Slot])
			}
		}
	}
	return r.Host.Fact(ref.ID, who)
}

// B2F is 1 for true, 0 for false: a boolean fact's value.
func B2F(b bool) float64 { return b2f(b) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
