package d20

import (
	"embed"
	"math"

	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// Traits and house rules (DESIGN.md "Traits and house rules"): named rules
// a designer writes as data, firing at the moments below and changing the
// numbers the referee uses. This file is the whole of d20's side: the one
// table of moments, quantities, conditions and facts (TraitDecl), how the
// referee feeds them (traitBinding), and the hooks the referee calls at
// each moment. Each hook is called behind `t.g.traits != nil`, so a
// scenario without traits pays one nil check per moment and nothing else.
// The running of the compiled traits (which fire, uses, conditions and
// their rounds, counters, narration) is shared with the other rulesets
// (rulesets/internal/traitrun).

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
)

// Quantities, by index in TraitDecl.Quantities.
const (
	qInit = iota
	qCount
	qActions
	qAttack
	qAC
	qDamage
	qAoO
)

// Conditions, by index in TraitDecl.Conditions.
const (
	cFlatFooted = iota
	cShaken
	cDazed
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
	tfFlanked
	tfRound
	tfSurprise
	tfCrit
	tfMult
	tfRanged
	tfCharging
	tfIntoMelee
	tfAmount
)

// Ctx.E slots: the moment's own numbers (traitBinding says which fact
// reads which).
const (
	eCrit = iota
	eMult
	eRanged
	eCharging
	eIntoMelee
	eAmount
	eFlanking // the attack of attack_roll .. hit_taken flanks its target
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
		mRoundStart:     {Name: "round_start", Doc: "a round begins (the surprise round too); a changed count moves it in the order from this round on; aoo is its attacks of opportunity per round, from 1", Quantities: []string{"count", "aoo"}},
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
		qAoO:     {Name: "aoo", Doc: "attacks of opportunity it may make per round (1 each round start; Combat Reflexes adds)"},
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
		tfFlanked:      {Name: "flanked", Type: lang.Bool, Doc: "an enemy threatening it flanks it (SRD: Flanking); at the attack moments, of the one attacked: this melee attack is a flanking one"},
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

// traitBinding is how the referee feeds the runner: damage taken never
// below 0 after hit_taken; the hit's and the attack's own numbers from
// Ctx.E; at the attack moments the one attacked's flanked is this
// attack's (what sneak attack asks), not any enemy's; flat_footed is the
// referee's own state.
var traitBinding = traitrun.Binding{
	Bounds: []traitrun.Bound{{Moment: mHitTaken, Quantity: qDamage, Min: 0, Max: math.MaxInt}},
	Events: []traitrun.EventSlot{
		{Fact: tfCrit, Slot: eCrit}, {Fact: tfMult, Slot: eMult}, {Fact: tfRanged, Slot: eRanged},
		{Fact: tfCharging, Slot: eCharging}, {Fact: tfIntoMelee, Slot: eIntoMelee}, {Fact: tfAmount, Slot: eAmount},
	},
	Parties: []traitrun.PartySlot{
		{Moment: mAttackRoll, Fact: tfFlanked, Who: traits.Other, Slot: eFlanking},
		{Moment: mAttacked, Fact: tfFlanked, Who: traits.Self, Slot: eFlanking},
		{Moment: mHit, Fact: tfFlanked, Who: traits.Other, Slot: eFlanking},
		{Moment: mHitTaken, Fact: tfFlanked, Who: traits.Self, Slot: eFlanking},
	},
	HostConds: []int{cFlatFooted},
}

// traitSet is a Game's compiled traits and house rules, with what the
// referee's hooks test before calling into them.
type traitSet struct {
	*traitrun.Set
	// turns[i]: i's turn goes through traitTurn (it has turn traits, or a
	// trait somewhere can daze).
	turns []bool
	// has[i] has bit m set when combatant i has a trait at moment m: the
	// hooks' first test, one load and a mask.
	has []uint16
	// shaken: some effect can shake; roundStart: some trait fires at
	// round_start.
	shaken, roundStart bool
}

// The trait library: d20 traits written in the trait form, embedded so
// `traits: [sneak_attack]` and simctl traits work anywhere.
//
//go:embed traitlib
var traitLibFS embed.FS

var traitLibrary = traitrun.Library{FS: traitLibFS, Dir: "traitlib"}

// TraitLibrary lists the library traits, sorted.
func TraitLibrary() []string { return traitLibrary.Names() }

// TraitSource is a library trait's YAML text.
func TraitSource(name string) ([]byte, bool) { return traitLibrary.Source(name) }

// readTraits reads the house rules and every side's and combatant's
// traits into g.traits (left nil when there are none), before the policies
// compile: a tactics rule may choose an action written as data (do:
// Refocus). first[k] is the roster index of combatant entry k's first copy.
func readTraits(sc *scenario.Scenario, g *Game, first []int) {
	set := traitrun.ReadAt(sc, TraitDecl, traitLibrary.Lib(), first)
	if set == nil {
		return
	}
	ts := &traitSet{Set: set, turns: make([]bool, len(g.C)), has: make([]uint16, len(g.C))}
	for m := range set.On {
		for i, on := range set.On[m] {
			if len(on) > 0 {
				ts.has[i] |= 1 << m
			}
		}
	}
	for _, inst := range set.List {
		if inst.Action == "" && (inst.Moment == mTurnStart || inst.Moment == mTurnEnd) {
			ts.turns[inst.Owner] = true
		}
		ts.roundStart = ts.roundStart || inst.Action == "" && inst.Moment == mRoundStart
		for _, e := range inst.Effects {
			if e.Kind != traits.Apply {
				continue
			}
			ts.shaken = ts.shaken || e.Cond == cShaken
			if e.Cond == cDazed {
				// A trait that can daze takes every turn through
				// traitTurn, where a dazed combatant loses it.
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
	if g.traits != nil {
		g.traits.Register(g)
	}
}

// Action finds combatant self's special action named name (written as
// data: action: COST): its index for Plan.Special, or -1.
func (g *Game) Action(self int, name string) int {
	if g.traits == nil {
		return -1
	}
	return g.traits.Set.Action(self, name)
}

// ActionName is the name of special action k.
func (g *Game) ActionName(k int) string { return g.traits.List[k].Name }

// Actions lists combatant self's special actions' names.
func (g *Game) Actions(self int) []string {
	if g.traits == nil {
		return nil
	}
	return g.traits.ActionNames(self)
}

// CanTake reports whether self can take special action k now: a use left,
// its when: holding, and a full-round action outside the surprise round.
func (t *Table) CanTake(self, k int) bool {
	if t.g.traits.List[k].Action == "full_round" && t.stdOne {
		return false
	}
	c := traitrun.Ctx{M: mAction, Self: self, Other: -1}
	c.Q[qCount] = t.f[self].count
	return t.ts.CanTake(k, &c)
}

// special takes self's special action k (a plan's Special): an action in
// the economy (it ends flat-footedness, counts as an action), whose
// effects apply as a trait's do.
func (t *Table) special(self, k int) {
	inst := &t.g.traits.List[k]
	t.acts(self)
	t.firstAction(self)
	t.c.Inc(t.side(self), sim.Actions)
	if t.log != nil {
		t.logf("%s takes %s (%s action)", t.name(self), inst.Name, inst.Action)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: self, Target: sim.NoOne, Rule: inst.Name})
	}
	c := traitrun.Ctx{M: mAction, Self: self, Other: -1}
	c.Q[qCount] = t.f[self].count
	t.ts.Take(k, &c)
	t.setCount(self, c.Q[qCount])
}

// at reports whether a has traits at moment ma, or d (>= 0) at md: the
// hooks' test, small enough to be inlined at their call sites, false
// without traits.
func (ts *traitSet) at(a, ma, d, md int) bool {
	return ts != nil && (ts.has[a]&(1<<ma) != 0 || d >= 0 && ts.has[d]&(1<<md) != 0)
}

// traitState is a Table's per-encounter trait state (nil without traits):
// the shared runner, with the Table as its host.
type traitState struct {
	*traitrun.Runner
	reorder bool // a count changed: the order is sorted again at the next round start
}

func newTraitState(g *Game) *traitState {
	return &traitState{Runner: traitrun.NewRunner(g.traits.Set, nil)}
}

// traitSetup resets the trait state for an encounter.
func (t *Table) traitSetup() {
	ts := t.ts
	if ts.Host == nil { // the first encounter: the Table is the host
		ts.Host = t
		ts.Bind(traitBinding)
		if damageBelowZero {
			ts.Bound(mHitTaken, qDamage, math.MinInt, math.MaxInt)
		}
	}
	ts.Start(t.r, t.c, t.log)
	ts.reorder = false
}

// Fact implements traitrun.Host: fact id of combatant who, or (who -1)
// of the moment.
func (t *Table) Fact(id, who int) float64 {
	switch id {
	case tfRound:
		return float64(t.round)
	case tfSurprise:
		return b2f(t.stdOne)
	}
	f := &t.f[who]
	switch id {
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
	case tfFlanked:
		return b2f(t.Flanked(who))
	}
	return 0
}

// Name implements traitrun.Host.
func (t *Table) Name(i int) string { return t.name(i) }

// Cond implements traitrun.CondHost: flat_footed is the referee's.
func (t *Table) Cond(i, cond int) bool { return t.f[i].flatFooted }

// SetCond implements traitrun.CondHost.
func (t *Table) SetCond(i, cond int, on bool) { t.f[i].flatFooted = on }

func b2f(b bool) float64 { return traitrun.B2F(b) }

// traitInitiative fires i's initiative traits on its rolled check and
// returns the modifier the tie-break uses.
func (t *Table) traitInitiative(i, die int) int {
	c := traitrun.Ctx{M: mInitiative, Self: i, Other: -1}
	c.Q[qInit] = t.g.C[i].Init
	c.Q[qCount] = t.f[i].count
	t.ts.Fire(&c)
	init := min(max(c.Q[qInit], -128), 383) // what initKey packs
	// The count follows a changed modifier, then any change of its own.
	t.f[i].count = c.Q[qCount] + init - t.g.C[i].Init
	return init
}

// traitRoundStart renews per-round uses, counts down conditions, sorts
// the order again if a count changed, and fires round_start traits.
func (t *Table) traitRoundStart() {
	ts := t.g.traits
	t.ts.RoundStart()
	for i := 0; ts.roundStart && i < len(t.f); i++ {
		if t.f[i].out || !ts.Any(mRoundStart, i) {
			continue
		}
		c := traitrun.Ctx{M: mRoundStart, Self: i, Other: -1}
		c.Q[qCount] = t.f[i].count
		c.Q[qAoO] = 1
		t.ts.Fire(&c)
		t.setCount(i, c.Q[qCount])
		t.setAoO(i, c.Q[qAoO])
	}
	if t.ts.reorder {
		t.ts.reorder = false
		t.sortByCount()
	}
}

// setAoO gives i n attacks of opportunity per round. Those it has left
// this round follow the change (its round runs from turn to turn, so the
// new number may come in the middle of it): one used of 1 leaves 2 of 3.
func (t *Table) setAoO(i, n int) {
	f := &t.f[i]
	n = min(max(n, 0), 1<<20)
	f.aooLeft = max(f.aooLeft+int32(n)-f.aooMax, 0)
	f.aooMax = int32(n)
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
	c := traitrun.Ctx{M: mTurnStart, Self: i, Other: -1}
	c.Q[qActions] = 1
	c.Q[qCount] = t.f[i].count
	t.ts.Fire(&c)
	t.setCount(i, c.Q[qCount])
	n := c.Q[qActions]
	if t.ts.Has(i, cDazed) {
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
	if t.f[i].out || !t.g.traits.Any(mTurnEnd, i) {
		return
	}
	c = traitrun.Ctx{M: mTurnEnd, Self: i, Other: -1}
	c.Q[qCount] = t.f[i].count
	t.ts.Fire(&c)
	t.setCount(i, c.Q[qCount])
}

// traitAttackRoll fires the attack_roll traits of a and the attacked
// traits of d on one attack roll, returning the bonus and AC it is made
// with.
func (t *Table) traitAttackRoll(a, d, bonus, ac int, ranged, flanking bool) (int, int) {
	if t.g.traits.shaken && t.ts.Has(a, cShaken) {
		bonus -= 2
	}
	c := traitrun.Ctx{M: mAttackRoll, Self: a, Other: d}
	c.E[eRanged], c.E[eCharging], c.E[eFlanking] = b2i(ranged), b2i(t.f[a].charging), b2i(flanking)
	c.E[eIntoMelee] = b2i(ranged && t.intoMelee(a, d))
	c.Q[qAttack], c.Q[qAC] = bonus, ac
	t.ts.Fire(&c)
	c.M, c.Self, c.Other = mAttacked, d, a
	t.ts.Fire(&c)
	return c.Q[qAttack], c.Q[qAC]
}

// traitHit fires a's hit traits (what they add is not multiplied by a
// critical: the weapon's dice were), applies the minimum of 1, then d's
// hit_taken traits (damage reduction; never below 0). It returns the
// damage dealt.
func (t *Table) traitHit(a, d, dmg, mult int, crit, ranged, flanking bool) int {
	ts := t.g.traits
	hit, taken := ts.has[a]&(1<<mHit) != 0, ts.has[d]&(1<<mHitTaken) != 0
	c := traitrun.Ctx{M: mHit, Self: a, Other: d}
	c.E[eCrit], c.E[eMult], c.E[eRanged], c.E[eCharging], c.E[eFlanking] = b2i(crit), mult, b2i(ranged), b2i(t.f[a].charging), b2i(flanking)
	c.Q[qDamage] = dmg
	if hit {
		t.ts.Fire(&c)
	}
	if critMultipliesTraits { // the wrong reading, for the tests only
		c.Q[qDamage] = dmg + (c.Q[qDamage]-dmg)*mult
	}
	c.Q[qDamage] = max(c.Q[qDamage], 1)
	if taken {
		c.M, c.Self, c.Other = mHitTaken, d, a
		t.ts.Fire(&c)
	}
	return c.Q[qDamage]
}

// traitDamage fires damage_dealt for a and damage_taken for d.
func (t *Table) traitDamage(a, d, dmg int) {
	ts := t.g.traits
	if ts.has[a]&(1<<mDamageDealt) != 0 {
		c := traitrun.Ctx{M: mDamageDealt, Self: a, Other: d}
		c.E[eAmount] = dmg
		t.ts.Fire(&c)
	}
	if ts.has[d]&(1<<mDamageTaken) != 0 {
		c := traitrun.Ctx{M: mDamageTaken, Self: d, Other: a}
		c.E[eAmount] = dmg
		t.ts.Fire(&c)
	}
}

// traitCount fires moment m (ready_triggered, delay_taken) for i, whose
// count may change.
func (t *Table) traitCount(m, i, other int) {
	if !t.g.traits.Any(m, i) {
		return
	}
	c := traitrun.Ctx{M: m, Self: i, Other: other}
	c.Q[qCount] = t.f[i].count
	t.ts.Fire(&c)
	t.setCount(i, c.Q[qCount])
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Wrong readings of the book's modifier rules, switched on only by tests
// (export_test.go) to show that the exact tests catch them: extra damage
// multiplied on a critical, damage reduction that lets damage go below 0.
var critMultipliesTraits, damageBelowZero bool

// traitMomentDocs documents the moments for simctl rules d20: what each
// is, whose facts it offers besides self's, what it lets effects change.
func traitMomentDocs() []sim.Field {
	m, _, _ := traitrun.Docs(TraitDecl)
	return m
}

func traitQuantityDocs() []sim.Field {
	_, q, _ := traitrun.Docs(TraitDecl)
	return q
}

func traitConditionDocs() []sim.Field {
	_, _, c := traitrun.Docs(TraitDecl)
	return c
}

// traitLibraryDocs lists the library traits: their description, moment
// and parameters' defaults.
func traitLibraryDocs() []sim.Field { return traitLibrary.LibraryDocs() }
