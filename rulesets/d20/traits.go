package d20

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// Traits and house rules (DESIGN.md "Traits and house rules"): named rules
// a designer writes as data, firing at the moments below and changing the
// numbers the referee uses. This file is the whole of d20's side: the one
// table of moments, quantities, conditions and facts (TraitDecl), the
// compiled traits a Game carries, and the hooks the referee calls at each
// moment. Each hook is called behind `t.g.traits != nil`, so a scenario
// without traits pays one nil check per moment and nothing else.

// Moments, by index in TraitDecl.Moments.
const (
	mInitiative = iota
	mRoundStart
	mTurnStart
	mTurnEnd
	mAttackRoll
	mAttacked
	mHit
	mHitTaken
	mDamageDealt
	mDamageTaken
	mReadyTriggered
	mDelayTaken
	mAction // a special action written as data (action: COST), chosen by tactics
	numMoments
)

// Quantities, by index in TraitDecl.Quantities.
const (
	qInit = iota
	qCount
	qActions
	qAttack
	qAC
	qDamage
	numQuantities
)

// Conditions, by index in TraitDecl.Conditions.
const (
	cFlatFooted = iota
	cShaken
	cDazed
	numConditions
)

// Trait facts, by index in TraitDecl.Facts.
const (
	tfHP = iota
	tfHPPct
	tfAC
	tfDexAC
	tfInit
	tfCount
	tfEngaged
	tfCharged
	tfUncannyDodge
	tfRound
	tfSurprise
	tfCrit
	tfMult
	tfRanged
	tfCharging
	tfIntoMelee
	tfAmount
)

var (
	attackMoments = []string{"attack_roll", "attacked", "hit", "hit_taken"}
	hitMoments    = []string{"hit", "hit_taken"}
)

// TraitDecl is d20's table for traits: its moments (in the order of the
// book's round: initiative, then each round's turns, attacks and damage,
// and the special initiative actions), what each exposes, its conditions
// and the facts a when: reads.
var TraitDecl = &traits.Decl{
	Ruleset:     "d20",
	ActionCosts: []string{"standard", "full_round"},
	Moments: []traits.Moment{
		mInitiative:     {Name: "initiative", Doc: "its initiative check is rolled: init is the modifier (it also breaks ties), count the result", Quantities: []string{"init", "count"}},
		mRoundStart:     {Name: "round_start", Doc: "a round begins (the surprise round too); a changed count moves it in the order from this round on", Quantities: []string{"count"}},
		mTurnStart:      {Name: "turn_start", Doc: "its turn begins (after flat-footed ends): actions is the number of times it acts this turn (1; 0 loses the turn)", Quantities: []string{"actions", "count"}},
		mTurnEnd:        {Name: "turn_end", Doc: "its turn ends; a changed count moves it in the order from the next round", Quantities: []string{"count"}},
		mAttackRoll:     {Name: "attack_roll", Doc: "it makes an attack roll at target: attack is its bonus, ac the target's AC for this roll", Other: "target", Quantities: []string{"attack", "ac"}},
		mAttacked:       {Name: "attacked", Doc: "an attack roll is made at it by attacker: attack and ac as at attack_roll", Other: "attacker", Quantities: []string{"attack", "ac"}},
		mHit:            {Name: "hit", Doc: "its attack hits target: damage is the weapon's roll (times the multiplier on a critical); what traits add here is not multiplied; a hit deals at least 1 after them", Other: "target", Quantities: []string{"damage"}},
		mHitTaken:       {Name: "hit_taken", Doc: "it is hit by attacker: damage after the attacker's traits and the minimum of 1; never below 0 after these (damage reduction)", Other: "attacker", Quantities: []string{"damage"}},
		mDamageDealt:    {Name: "damage_dealt", Doc: "it dealt damage (amount, more than 0) to target, by weapon or spell", Other: "target"},
		mDamageTaken:    {Name: "damage_taken", Doc: "it took damage (amount, more than 0) from attacker", Other: "attacker"},
		mReadyTriggered: {Name: "ready_triggered", Doc: "its readied action goes off, set off by trigger; count is its new count (just ahead of trigger)", Other: "trigger", Quantities: []string{"count"}},
		mDelayTaken:     {Name: "delay_taken", Doc: "it takes its delayed action; count is its new count", Quantities: []string{"count"}},
		mAction:         {Name: "action", Doc: "a special action written as data (action: standard or full_round) is taken on its turn: its when: says when it can be, its do: what it does; count changes its place in the order from the next round", Quantities: []string{"count"}, Action: true},
	},
	Quantities: []traits.Quantity{
		qInit:    {Name: "init", Doc: "the initiative modifier (adds to the count and breaks ties)", Dice: true},
		qCount:   {Name: "count", Doc: "the initiative count", Dice: true},
		qActions: {Name: "actions", Doc: "times it acts this turn (grant action, spend action)"},
		qAttack:  {Name: "attack", Doc: "the attack bonus of this roll", Dice: true},
		qAC:      {Name: "ac", Doc: "the AC this roll is made against", Dice: true},
		qDamage:  {Name: "damage", Doc: "the damage of this hit", Dice: true},
	},
	Conditions: []traits.Condition{
		cFlatFooted: {Name: "flat_footed", Doc: "the referee's flat-footed: AC without dex_ac (unless uncanny_dodge), no attacks of opportunity"},
		cShaken:     {Name: "shaken", Doc: "-2 on attack rolls (SRD: Shaken)"},
		cDazed:      {Name: "dazed", Doc: "takes no actions: its turn is lost (SRD: Dazed)"},
	},
	Facts: []traits.Fact{
		tfHP:           {Name: "hp", Type: lang.Number, Doc: "current hit points"},
		tfHPPct:        {Name: "hp_pct", Type: lang.Number, Doc: "hit points as a fraction of those at the start"},
		tfAC:           {Name: "ac", Type: lang.Number, Doc: "armour class now (flat-footed, after a charge)"},
		tfDexAC:        {Name: "dex_ac", Type: lang.Number, Doc: "the part of AC lost while flat-footed"},
		tfInit:         {Name: "init", Type: lang.Number, Doc: "initiative modifier"},
		tfCount:        {Name: "count", Type: lang.Number, Doc: "initiative count"},
		tfEngaged:      {Name: "engaged", Type: lang.Bool, Doc: "an enemy in the fight is within its reach"},
		tfCharged:      {Name: "charged", Type: lang.Bool, Doc: "it charged on its last turn (-2 AC until its next)"},
		tfUncannyDodge: {Name: "uncanny_dodge", Type: lang.Bool, Doc: "it has uncanny_dodge"},
		tfRound:        {Name: "round", Type: lang.Number, Event: true, Doc: "the round (0: the surprise round)"},
		tfSurprise:     {Name: "surprise_round", Type: lang.Bool, Event: true, Doc: "this is the surprise round"},
		tfCrit:         {Name: "crit", Type: lang.Bool, Event: true, Moments: hitMoments, Doc: "the hit is a confirmed critical"},
		tfMult:         {Name: "mult", Type: lang.Number, Event: true, Moments: hitMoments, Doc: "the damage multiplier of the hit (1, or the critical's)"},
		tfRanged:       {Name: "ranged", Type: lang.Bool, Event: true, Moments: attackMoments, Doc: "the attack is a shot with the ranged weapon"},
		tfCharging:     {Name: "charging", Type: lang.Bool, Event: true, Moments: attackMoments, Doc: "the attack ends a charge"},
		tfIntoMelee:    {Name: "into_melee", Type: lang.Bool, Event: true, Moments: []string{"attack_roll", "attacked"}, Doc: "a shot at a target engaged in melee with one of the shooter's allies"},
		tfAmount:       {Name: "amount", Type: lang.Number, Event: true, Moments: []string{"damage_dealt", "damage_taken"}, Doc: "the damage dealt"},
	},
}

// traitSet is a Game's compiled traits and house rules.
type traitSet struct {
	list []traitInst
	// on[m][i] lists the traits of combatant i that fire at moment m, in
	// the order written (house rules first, then the side's, then its own).
	on [numMoments][][]int32
	// turns[i]: i's turn goes through traitTurn (it has turn traits, or a
	// trait somewhere can daze).
	turns []bool
	// perRound lists the traits whose uses renew each round.
	perRound []int32
	// actions[i] lists combatant i's special actions (action: COST).
	actions [][]int32
	// has[i] has bit m set when combatant i has a trait at moment m: the
	// hooks' first test, one load and a mask.
	has []uint16
	// conds: some effect applies a condition (durations count down at
	// round starts); shaken: some effect can shake; roundStart: some trait
	// fires at round_start.
	conds, shaken, roundStart bool
}

type traitInst struct {
	traits.Trait
	owner   int
	counter int // Counts.Rules index of "fired"; "added" is counter+1
	// guard: When is false unless condition guardCond of guardWho is
	// guardHas (lang's Program.Guard on a condition fact), tested first so
	// that the usual miss (target not flat-footed) costs one load.
	guard     bool
	guardWho  traits.Who
	guardCond int
	guardHas  bool
}

// The trait library: d20 traits written in the trait form, embedded so
// `traits: [sneak_attack]` and simctl traits work anywhere.
//
//go:embed traitlib
var traitLibFS embed.FS

// TraitLibrary lists the library traits, sorted.
func TraitLibrary() []string {
	entries, _ := fs.ReadDir(traitLibFS, "traitlib")
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// TraitSource is a library trait's YAML text.
func TraitSource(name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, false
	}
	data, err := traitLibFS.ReadFile(path.Join("traitlib", name+".yaml"))
	return data, err == nil
}

func traitLib(name string) (*yaml.Node, bool) {
	data, ok := TraitSource(name)
	if !ok {
		return nil, false
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil, false
	}
	return doc.Content[0], true
}

// readTraits reads the house rules and every side's and combatant's
// traits into g.traits (left nil when there are none), before the policies
// compile: a tactics rule may choose an action written as data (do:
// Refocus). first[k] is the roster index of combatant entry k's first copy.
func readTraits(sc *scenario.Scenario, g *Game, first []int) {
	d := sc.Dec
	var sideNames []string
	for _, s := range sc.Sides {
		sideNames = append(sideNames, s.Name)
	}
	lib := traits.Options{Lib: traitLib, LibNames: TraitLibrary(), Sides: sideNames}
	house := lib
	house.House = true
	rules := traits.Read(d, sc.Rules, "rules", TraitDecl, house)
	ts := &traitSet{turns: make([]bool, len(g.C)), actions: make([][]int32, len(g.C)), has: make([]uint16, len(g.C))}
	for m := range ts.on {
		ts.on[m] = make([][]int32, len(g.C))
	}
	add := func(tr traits.Trait, owner int) {
		k := int32(len(ts.list))
		inst := traitInst{Trait: tr, owner: owner}
		if tr.When != nil {
			if slot, op, v, ok := tr.When.Guard(); ok && tr.Slots[slot].Kind == traits.RefCondition && (op == "" || op == "==" && v == 0) {
				ref := tr.Slots[slot]
				inst.guard, inst.guardWho, inst.guardCond, inst.guardHas = true, ref.Who, ref.ID, op == ""
			}
		}
		ts.list = append(ts.list, inst)
		if tr.Action != "" {
			ts.actions[owner] = append(ts.actions[owner], k)
		} else {
			ts.on[tr.Moment][owner] = append(ts.on[tr.Moment][owner], k)
			ts.has[owner] |= 1 << tr.Moment
		}
		if tr.Moment == mTurnStart || tr.Moment == mTurnEnd {
			ts.turns[owner] = true
		}
		if tr.PerRound && tr.Uses >= 0 {
			ts.perRound = append(ts.perRound, k)
		}
	}
	k := 0
	for s, side := range sc.Sides {
		st := traits.Read(d, side.Extra["traits"], side.Path+".traits", TraitDecl, lib)
		for _, cs := range side.Combatants {
			ct := traits.Read(d, cs.Extra["traits"], cs.Path+".traits", TraitDecl, lib)
			for j := range cs.Count {
				i := first[k] + j
				for _, r := range rules {
					if r.Side < 0 || r.Side == s {
						add(r, i)
					}
				}
				for _, tr := range st {
					add(tr, i)
				}
				for _, tr := range ct {
					add(tr, i)
				}
			}
			k++
		}
	}
	if len(ts.list) == 0 {
		return
	}
	// A trait that can daze takes every turn through traitTurn, where a
	// dazed combatant loses it.
	for _, inst := range ts.list {
		ts.roundStart = ts.roundStart || inst.Moment == mRoundStart
		for _, e := range inst.Effects {
			if e.Kind != traits.Apply {
				continue
			}
			ts.conds = true
			ts.shaken = ts.shaken || e.Cond == cShaken
			if e.Cond == cDazed {
				for i := range ts.turns {
					ts.turns[i] = true
				}
			}
		}
	}
	if ts.shaken {
		// Every attack roll goes through traitAttackRoll, where a shaken
		// attacker takes -2.
		for i := range ts.has {
			ts.has[i] |= 1 << mAttackRoll
		}
	}
	g.traits = ts
}

// registerTraits gives every trait its counters ("fired", "added"), after
// the tactics' (results keep them apart by RuleCounter.Trait).
func registerTraits(g *Game) {
	if g.traits == nil {
		return
	}
	for k := range g.traits.list {
		inst := &g.traits.list[k]
		mname := TraitDecl.Moments[inst.Moment].Name
		inst.counter = g.AddRuleCounter(sim.RuleCounter{Combatant: inst.owner, Moment: mname, Rule: inst.Name, Event: "fired", Trait: true})
		g.AddRuleCounter(sim.RuleCounter{Combatant: inst.owner, Moment: mname, Rule: inst.Name, Event: "added", Trait: true})
	}
}

// Action finds combatant self's special action named name (written as
// data: action: COST): its index for Plan.Special, or -1.
func (g *Game) Action(self int, name string) int {
	if g.traits == nil {
		return -1
	}
	for _, k := range g.traits.actions[self] {
		if g.traits.list[k].Name == name {
			return int(k)
		}
	}
	return -1
}

// ActionName is the name of special action k.
func (g *Game) ActionName(k int) string { return g.traits.list[k].Name }

// Actions lists combatant self's special actions' names.
func (g *Game) Actions(self int) []string {
	var out []string
	if g.traits != nil {
		for _, k := range g.traits.actions[self] {
			out = append(out, g.traits.list[k].Name)
		}
	}
	return out
}

// CanTake reports whether self can take special action k now: a use left,
// its when: holding, and a full-round action outside the surprise round.
func (t *Table) CanTake(self, k int) bool {
	inst := &t.g.traits.list[k]
	if t.ts.uses[k] == 0 || inst.Action == "full_round" && t.stdOne {
		return false
	}
	c := tctx{m: mAction, self: self, other: -1}
	c.q[qCount] = t.f[self].count
	return inst.When == nil || inst.When.EvalFunc(func(s int) float64 { return t.traitValue(inst.Slots[s], &c) })
}

// special takes self's special action k (a plan's Special): an action in
// the economy (it ends flat-footedness, counts as an action), whose
// effects apply as a trait's do.
func (t *Table) special(self, k int) {
	inst := &t.g.traits.list[k]
	t.acts(self)
	t.firstAction(self)
	t.c.Inc(t.side(self), sim.Actions)
	if t.ts.uses[k] > 0 {
		t.ts.uses[k]--
	}
	t.c.Rule(inst.counter)
	if t.log != nil {
		t.logf("%s takes %s (%s action)", t.name(self), inst.Name, inst.Action)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: self, Target: sim.NoOne, Rule: inst.Name})
	}
	c := tctx{m: mAction, self: self, other: -1}
	c.q[qCount] = t.f[self].count
	for e := range inst.Effects {
		t.effect(inst, &inst.Effects[e], &c)
	}
	t.setCount(self, c.q[qCount])
}

// at reports whether a has traits at moment ma, or d (>= 0) at md: the
// hooks' test, small enough to be inlined at their call sites, false
// without traits.
func (ts *traitSet) at(a, ma, d, md int) bool {
	return ts != nil && (ts.has[a]&(1<<ma) != 0 || d >= 0 && ts.has[d]&(1<<md) != 0)
}

// tctx is one moment's numbers, on the referee's stack while its traits
// fire.
type tctx struct {
	q           [numQuantities]int
	m           int
	self, other int
	mult        int
	amount      int
	crit        bool
	ranged      bool
	charging    bool
	intoMelee   bool
}

// traitState is a Table's per-encounter trait state (nil without traits).
type traitState struct {
	uses    []int32 // uses left, by trait (-1: no limit)
	cond    []int32 // rounds left of condition c on combatant i at i*numConditions+c (0: absent; untilRemoved)
	reorder bool    // a count changed: the order is sorted again at the next round start
}

const untilRemoved = 1 << 30

func newTraitState(g *Game) *traitState {
	return &traitState{uses: make([]int32, len(g.traits.list)), cond: make([]int32, len(g.C)*numConditions)}
}

// traitSetup resets the trait state for an encounter.
func (t *Table) traitSetup() {
	ts := t.ts
	for k := range t.g.traits.list {
		ts.uses[k] = int32(t.g.traits.list[k].Uses) // -1: no limit
	}
	clear(ts.cond)
	ts.reorder = false
}

// fire runs the traits of c.self at moment c.m, in order.
func (t *Table) fire(c *tctx) {
	ts := t.g.traits
	for _, k := range ts.on[c.m][c.self] {
		inst := &ts.list[k]
		if t.ts.uses[k] == 0 {
			continue
		}
		if inst.guard {
			who := c.self
			if inst.guardWho == traits.Other {
				who = c.other
			}
			if who < 0 || t.hasCond(who, inst.guardCond) != inst.guardHas {
				continue
			}
		}
		if inst.When != nil && !inst.When.EvalFunc(func(s int) float64 { return t.traitValue(inst.Slots[s], c) }) {
			continue
		}
		if t.ts.uses[k] > 0 {
			t.ts.uses[k]--
		}
		t.c.Rule(inst.counter)
		for e := range inst.Effects {
			t.effect(inst, &inst.Effects[e], c)
		}
	}
}

// effect applies one effect of inst and counts what it added.
func (t *Table) effect(inst *traitInst, e *traits.Effect, c *tctx) {
	switch e.Kind {
	case traits.Add, traits.Set:
		var v int
		if e.Num != nil {
			v = int(e.Num.EvalNumberFunc(func(s int) float64 { return t.traitValue(e.Slots[s], c) }))
		} else {
			v = e.Dice.Roll(t.r)
		}
		old := c.q[e.Q]
		if e.Kind == traits.Set {
			c.q[e.Q] = v
		} else {
			c.q[e.Q] += e.Sign * v
		}
		if c.m == mHitTaken && e.Q == qDamage && !damageBelowZero {
			c.q[qDamage] = max(c.q[qDamage], 0) // damage never goes below 0
		}
		t.c.RuleAdd(inst.counter+1, int64(c.q[e.Q]-old))
		if t.log != nil {
			t.logf("  %s's %s: %s (%s %d -> %d)", t.name(inst.owner), inst.Name, e.Text, TraitDecl.Quantities[e.Q].Name, old, c.q[e.Q])
			t.ev(sim.Event{Kind: sim.EvTrait, Actor: inst.owner, Target: c.otherOrNoOne(), Roll: old, Amount: c.q[e.Q], Rule: inst.Name})
		}
	case traits.Apply, traits.Remove:
		who := c.self
		if e.Who == traits.Other {
			who = c.other
		}
		if who < 0 {
			return
		}
		if e.Kind == traits.Apply {
			n := int32(untilRemoved)
			if e.Rounds > 0 {
				n = int32(e.Rounds)
			}
			t.setCond(who, e.Cond, n)
		} else {
			t.setCond(who, e.Cond, 0)
		}
		if t.log != nil {
			t.logf("  %s's %s: %s (%s)", t.name(inst.owner), inst.Name, e.Text, t.name(who))
			t.ev(sim.Event{Kind: sim.EvTrait, Actor: inst.owner, Target: who, Rule: inst.Name})
		}
	}
}

func (c *tctx) otherOrNoOne() int {
	if c.other < 0 {
		return sim.NoOne
	}
	return c.other
}

func (t *Table) setCond(i, cond int, rounds int32) {
	t.ts.cond[i*numConditions+cond] = rounds
	if cond == cFlatFooted {
		t.f[i].flatFooted = rounds > 0
	}
}

func (t *Table) hasCond(i, cond int) bool {
	if cond == cFlatFooted {
		return t.f[i].flatFooted
	}
	return t.ts.cond[i*numConditions+cond] > 0
}

// traitValue is what slot ref reads at moment c.
func (t *Table) traitValue(ref traits.Ref, c *tctx) float64 {
	who := c.self
	if ref.Who == traits.Other {
		who = c.other
	}
	if ref.Kind == traits.RefCondition {
		// The usual when: (target.flat_footed), first.
		if ref.ID == cFlatFooted && who >= 0 {
			return b2f(t.f[who].flatFooted)
		}
		return b2f(who >= 0 && t.hasCond(who, ref.ID))
	}
	if ref.Kind == traits.RefQuantity {
		return float64(c.q[ref.ID])
	}
	switch ref.ID {
	case tfRound:
		return float64(t.round)
	case tfSurprise:
		return b2f(t.stdOne)
	case tfCrit:
		return b2f(c.crit)
	case tfMult:
		return float64(c.mult)
	case tfRanged:
		return b2f(c.ranged)
	case tfCharging:
		return b2f(c.charging)
	case tfIntoMelee:
		return b2f(c.intoMelee)
	case tfAmount:
		return float64(c.amount)
	}
	if who < 0 {
		return 0
	}
	f := &t.f[who]
	switch ref.ID {
	case tfHP:
		return float64(f.hp)
	case tfHPPct:
		return float64(f.hp) / float64(max(f.maxHP, 1))
	case tfAC:
		return float64(t.ac(who))
	case tfDexAC:
		return float64(t.g.C[who].DexAC)
	case tfInit:
		return float64(t.g.C[who].Init)
	case tfCount:
		return float64(f.count)
	case tfEngaged:
		return b2f(t.Engaged(who))
	case tfCharged:
		return b2f(f.chargeAC)
	case tfUncannyDodge:
		return b2f(t.g.C[who].UncannyDodge)
	}
	return 0
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// traitInitiative fires i's initiative traits on its rolled check and
// returns the modifier the tie-break uses.
func (t *Table) traitInitiative(i, die int) int {
	c := tctx{m: mInitiative, self: i, other: -1}
	c.q[qInit] = t.g.C[i].Init
	c.q[qCount] = t.f[i].count
	t.fire(&c)
	init := min(max(c.q[qInit], -128), 383) // what initKey packs
	// The count follows a changed modifier, then any change of its own.
	t.f[i].count = c.q[qCount] + init - t.g.C[i].Init
	return init
}

// traitRoundStart renews per-round uses, counts down conditions, sorts
// the order again if a count changed, and fires round_start traits.
func (t *Table) traitRoundStart() {
	ts := t.g.traits
	for _, k := range ts.perRound {
		t.ts.uses[k] = int32(ts.list[k].Uses)
	}
	for i := 0; ts.conds && i < len(t.f); i++ {
		for cond := range numConditions {
			if n := t.ts.cond[i*numConditions+cond]; n > 0 && n < untilRemoved {
				if n == 1 {
					t.setCond(i, cond, 0)
					if t.log != nil {
						t.logf("  %s is no longer %s", t.name(i), TraitDecl.Conditions[cond].Name)
					}
				} else {
					t.ts.cond[i*numConditions+cond] = n - 1
				}
			}
		}
	}
	for i := 0; ts.roundStart && i < len(t.f); i++ {
		if t.f[i].out || len(ts.on[mRoundStart][i]) == 0 {
			continue
		}
		c := tctx{m: mRoundStart, self: i, other: -1}
		c.q[qCount] = t.f[i].count
		t.fire(&c)
		t.setCount(i, c.q[qCount])
	}
	if t.ts.reorder {
		t.ts.reorder = false
		t.sortByCount()
	}
}

// setCount gives i a new initiative count; its place in the order follows
// at the next round start.
func (t *Table) setCount(i, count int) {
	if t.f[i].count != count {
		t.f[i].count = count
		t.ts.reorder = true
	}
}

// sortByCount orders t.order by count, highest first, keeping the present
// order among equal counts (an insertion sort: no allocation).
func (t *Table) sortByCount() {
	o := t.order
	for a := 1; a < len(o); a++ {
		for b := a; b > 0 && t.f[o[b]].count > t.f[o[b-1]].count; b-- {
			o[b], o[b-1] = o[b-1], o[b]
		}
	}
	if t.log != nil {
		t.logf("  the order follows the new counts: %s", t.names(t.order))
	}
}

// traitTurn is i's turn with turn traits: turn_start sets how many times
// it acts (a dazed combatant none), each a decision carried out, then
// turn_end.
func (t *Table) traitTurn(i int) {
	c := tctx{m: mTurnStart, self: i, other: -1}
	c.q[qActions] = 1
	c.q[qCount] = t.f[i].count
	t.fire(&c)
	t.setCount(i, c.q[qCount])
	n := c.q[qActions]
	if t.hasCond(i, cDazed) {
		n = 0
	}
	if n <= 0 {
		t.c.Lost(t.side(i), i)
		if t.log != nil {
			t.logf("%s takes no action this turn", t.name(i))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "trait"})
		}
	}
	plan := &t.plan
	for k := 0; k < n && !t.f[i].out && !t.over(); k++ {
		t.decide(i, plan)
		t.carryOut(i, plan)
		if plan.Do == Delay || plan.Do == Ready {
			break
		}
	}
	if t.f[i].out || len(t.g.traits.on[mTurnEnd][i]) == 0 {
		return
	}
	c = tctx{m: mTurnEnd, self: i, other: -1}
	c.q[qCount] = t.f[i].count
	t.fire(&c)
	t.setCount(i, c.q[qCount])
}

// traitAttackRoll fires the attack_roll traits of a and the attacked
// traits of d on one attack roll, returning the bonus and AC it is made
// with.
func (t *Table) traitAttackRoll(a, d, bonus, ac int, ranged bool) (int, int) {
	ts := t.g.traits
	if ts.shaken && t.hasCond(a, cShaken) {
		bonus -= 2
	}
	c := tctx{m: mAttackRoll, self: a, other: d, ranged: ranged, charging: t.f[a].charging}
	c.intoMelee = ranged && t.intoMelee(a, d)
	c.q[qAttack], c.q[qAC] = bonus, ac
	t.fire(&c)
	c.m, c.self, c.other = mAttacked, d, a
	t.fire(&c)
	return c.q[qAttack], c.q[qAC]
}

// traitHit fires a's hit traits (what they add is not multiplied by a
// critical: the weapon's dice were), applies the minimum of 1, then d's
// hit_taken traits (damage reduction; never below 0). It returns the
// damage dealt.
func (t *Table) traitHit(a, d, dmg, mult int, crit, ranged bool) int {
	ts := t.g.traits
	hit, taken := ts.has[a]&(1<<mHit) != 0, ts.has[d]&(1<<mHitTaken) != 0
	c := tctx{m: mHit, self: a, other: d, crit: crit, mult: mult, ranged: ranged, charging: t.f[a].charging}
	c.q[qDamage] = dmg
	if hit {
		t.fire(&c)
	}
	if critMultipliesTraits { // the wrong reading, for the tests only
		c.q[qDamage] = dmg + (c.q[qDamage]-dmg)*mult
	}
	c.q[qDamage] = max(c.q[qDamage], 1)
	if taken {
		c.m, c.self, c.other = mHitTaken, d, a
		t.fire(&c)
	}
	return c.q[qDamage]
}

// traitDamage fires damage_dealt for a and damage_taken for d.
func (t *Table) traitDamage(a, d, dmg int) {
	ts := t.g.traits
	if ts.has[a]&(1<<mDamageDealt) != 0 {
		c := tctx{m: mDamageDealt, self: a, other: d, amount: dmg}
		t.fire(&c)
	}
	if ts.has[d]&(1<<mDamageTaken) != 0 {
		c := tctx{m: mDamageTaken, self: d, other: a, amount: dmg}
		t.fire(&c)
	}
}

// traitCount fires moment m (ready_triggered, delay_taken) for i, whose
// count may change.
func (t *Table) traitCount(m, i, other int) {
	if len(t.g.traits.on[m][i]) == 0 {
		return
	}
	c := tctx{m: m, self: i, other: other}
	c.q[qCount] = t.f[i].count
	t.fire(&c)
	t.setCount(i, c.q[qCount])
}

// Wrong readings of the book's modifier rules, switched on only by tests
// (export_test.go) to show that the exact tests catch them: extra damage
// multiplied on a critical, damage reduction that lets damage go below 0.
var critMultipliesTraits, damageBelowZero bool

// traitMomentDocs documents the moments for simctl rules d20: what each
// is, whose facts it offers besides self's, what it lets effects change.
func traitMomentDocs() []sim.Field {
	var out []sim.Field
	for _, m := range TraitDecl.Moments {
		doc := m.Doc
		if m.Other != "" {
			doc += "; the other party: " + m.Other
		}
		if len(m.Quantities) > 0 {
			doc += "; changes: " + strings.Join(m.Quantities, ", ")
		}
		out = append(out, sim.Field{Name: m.Name, Doc: doc})
	}
	return out
}

func traitQuantityDocs() []sim.Field {
	var out []sim.Field
	for _, q := range TraitDecl.Quantities {
		out = append(out, sim.Field{Name: q.Name, Doc: q.Doc})
	}
	return out
}

func traitConditionDocs() []sim.Field {
	var out []sim.Field
	for _, c := range TraitDecl.Conditions {
		out = append(out, sim.Field{Name: c.Name, Doc: c.Doc})
	}
	return out
}

// traitLibraryDocs lists the library traits: their description, moment
// and parameters' defaults.
func traitLibraryDocs() []sim.Field {
	var out []sim.Field
	for _, name := range TraitLibrary() {
		n, _ := traitLib(name)
		on := scalarOf(n, "on")
		if n.Kind == yaml.SequenceNode { // several traits: the first describes them
			for _, e := range n.Content[1:] {
				on += ", " + scalarOf(e, "on")
			}
			n = n.Content[0]
			on = scalarOf(n, "on") + on
		}
		doc := scalarOf(n, "description") + " (on: " + on
		if p := scenario.Value(n, "params"); p != nil && p.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(p.Content); i += 2 {
				doc += "; $" + p.Content[i].Value + ": " + p.Content[i+1].Value
			}
		}
		out = append(out, sim.Field{Name: name, Doc: doc + ")"})
	}
	return out
}

func scalarOf(n *yaml.Node, key string) string {
	if v := scenario.Value(n, key); v != nil {
		return v.Value
	}
	return ""
}
