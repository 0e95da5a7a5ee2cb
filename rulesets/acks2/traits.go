package acks2

import (
	"embed"

	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// Traits and house rules (DESIGN.md "Traits and house rules"): ACKS II's
// table of moments, quantities, conditions and facts, and the hooks the
// referee calls, each behind `t.tr != nil`, so a fight without traits pays
// one nil check per moment. The moments follow the book's round: the round
// begins, initiative is rolled (1d6 + init, every round), each combatant's
// segment comes on its number, attack throws and their hits, and morale
// after the count. The running of the compiled traits is shared with the
// other rulesets (rulesets/internal/traitrun).

// Moments, by index in TraitDecl.Moments.
const (
	mRoundStart = iota
	mInitiative
	mSegment
	mAttackThrow
	mAttacked
	mHit
	mHitTaken
	mMorale
	mAction // a special action written as data (action: segment), chosen by tactics
)

// Quantities, by index in TraitDecl.Quantities.
const (
	qNumber = iota
	qActions
	qAttack
	qAC
	qDamage
	qMorale
)

// Conditions, by index in TraitDecl.Conditions.
const (
	cDazed = iota
	cPoised
)

// Trait facts, by index in TraitDecl.Facts.
const (
	tfHP = iota
	tfHPPct
	tfAC
	tfNumber
	tfEngaged
	tfMissile
	tfReady
	tfRound
	tfCharging
	tfNatural
)

// Ctx.E slots.
const (
	eCharging = 0 // attack moments: the throw ends a charge
	eNatural  = 1 // hit moments: the d20
)

var (
	throwMoments = []string{"attack_throw", "attacked", "hit", "hit_taken"}
	hitMoments   = []string{"hit", "hit_taken"}
)

// TraitDecl is ACKS II's table for traits.
var TraitDecl = &traits.Decl{
	Ruleset: "acks2",
	// A special action costs the segment's action (ACKS II's economy: one
	// action on one's number).
	ActionCosts: []string{"segment"},
	Moments: []traits.Moment{
		mRoundStart:  {Name: "round_start", Doc: "a round begins, before declarations"},
		mInitiative:  {Name: "initiative", Doc: "its initiative is rolled for the round (1d6 + init): number is the count it acts on, kept within 10 to -10", Quantities: []string{"number"}},
		mSegment:     {Name: "segment", Doc: "its segment begins on its number (not a delayed segment taken later, nor one given up for a round-1 attack): actions is the actions of the segment (1; 0 loses it; each more is another attack action right after the first, before its end-of-segment effects)", Quantities: []string{"actions"}},
		mAttackThrow: {Name: "attack_throw", Doc: "it makes an attack throw at target (any: a segment's, a charge's, a readied, round-1, cleave or free attack): attack is the throw's modifiers (a charge's bonus included), ac the target's armour class as option armor_class reads it", Other: "target", Quantities: []string{"attack", "ac"}},
		mAttacked:    {Name: "attacked", Doc: "an attack throw is made at it by attacker: attack and ac as at attack_throw, after the attacker's traits", Other: "attacker", Quantities: []string{"attack", "ac"}},
		mHit:         {Name: "hit", Doc: "its attack throw hits target: damage is the weapon's roll; a hit deals at least 1 after these", Other: "target", Quantities: []string{"damage"}},
		mHitTaken:    {Name: "hit_taken", Doc: "it is hit by attacker: damage after the attacker's traits and the minimum of 1; never below 0 after these", Other: "attacker", Quantities: []string{"damage"}},
		mMorale:      {Name: "morale", Doc: "it checks morale after the count: morale is the modifier added to the 2d6", Quantities: []string{"morale"}},
		mAction:      {Name: "action", Doc: "a special action written as data (action: segment) is its segment's action when a tactics rule chooses it (do: NAME), not with a declared action (which is the segment's): its when: says when it can be taken, its do: what it does", Action: true},
	},
	Quantities: []traits.Quantity{
		qNumber:  {Name: "number", Doc: "the initiative number this round", Dice: true},
		qActions: {Name: "actions", Doc: "the actions of this segment (grant action, spend action)"},
		qAttack:  {Name: "attack", Doc: "the modifiers of this attack throw", Dice: true},
		qAC:      {Name: "ac", Doc: "the target's armour class for this throw", Dice: true},
		qDamage:  {Name: "damage", Doc: "the damage of this hit", Dice: true},
		qMorale:  {Name: "morale", Doc: "the morale modifier of this check", Dice: true},
	},
	Conditions: []traits.Condition{
		cDazed:  {Name: "dazed", Doc: "loses the action of its segment (as a disrupted caster does) while it lasts; not in the excerpt: a condition for traits"},
		cPoised: {Name: "poised", Doc: "no rule of its own: a mark traits apply and read (self.poised), such as a special action's effect on a later initiative roll"},
	},
	Facts: []traits.Fact{
		tfHP:       {Name: "hp", Type: lang.Number, Doc: "current hit points"},
		tfHPPct:    {Name: "hp_pct", Type: lang.Number, Doc: "hit points as a fraction of those at the start"},
		tfAC:       {Name: "ac", Type: lang.Number, Doc: "armour class (field ac)"},
		tfNumber:   {Name: "number", Type: lang.Number, Doc: "initiative number this round"},
		tfEngaged:  {Name: "engaged", Type: lang.Bool, Doc: "an enemy engages it (within 5 feet)"},
		tfMissile:  {Name: "missile", Type: lang.Bool, Doc: "it fights with a missile weapon"},
		tfReady:    {Name: "ready", Type: lang.Bool, Doc: "it holds a readied attack"},
		tfRound:    {Name: "round", Type: lang.Number, Event: true, Doc: "the round (from 1)"},
		tfCharging: {Name: "charging", Type: lang.Bool, Event: true, Moments: throwMoments, Doc: "the throw ends a charge"},
		tfNatural:  {Name: "natural", Type: lang.Number, Event: true, Moments: hitMoments, Doc: "the d20 of the throw that hit"},
	},
}

// The trait library: ACKS II traits written in the trait form.
//
//go:embed traitlib
var traitLibFS embed.FS

var traitLibrary = traitrun.Library{FS: traitLibFS, Dir: "traitlib"}

// TraitLibrary lists the library traits, sorted.
func TraitLibrary() []string { return traitLibrary.Names() }

// TraitSource is a library trait's YAML text.
func TraitSource(name string) ([]byte, bool) { return traitLibrary.Source(name) }

// compileTraits reads the house rules and traits into g.traits (nil when
// there are none), before the policies: a tactics rule may choose a
// special action by name. Their counters are registered after the
// tactics' (g.traits.Register).
func compileTraits(sc *scenario.Scenario, g *Game) {
	g.traits = traitrun.Read(sc, TraitDecl, traitLibrary.Lib())
}

// newTraitRunner gives the Table its runner (nil without traits).
func (t *Table) newTraitRunner() {
	t.tr = traitrun.NewRunner(t.g.traits, t)
	if t.tr == nil {
		return
	}
	t.extra = make([]int, len(t.f))
	t.tr.Bound(mInitiative, qNumber, -10, 10)
	t.tr.Bound(mHitTaken, qDamage, 0, 1<<30)
	t.tr.FromCtx(tfCharging, eCharging)
	t.tr.FromCtx(tfNatural, eNatural)
}

// Fact implements traitrun.Host.
func (t *Table) Fact(id, who int) float64 {
	if id == tfRound {
		return float64(t.round)
	}
	f := &t.f[who]
	switch id {
	case tfHP:
		return float64(f.hp)
	case tfHPPct:
		return float64(f.hp) / float64(max(f.maxHP, 1))
	case tfAC:
		return float64(t.g.C[who].AC)
	case tfNumber:
		return float64(f.number)
	case tfEngaged:
		return traitrun.B2F(t.engaged(who))
	case tfMissile:
		return traitrun.B2F(t.g.C[who].Weapon == Missile)
	case tfReady:
		return traitrun.B2F(f.ready)
	}
	return 0
}

// Name implements traitrun.Host.
func (t *Table) Name(i int) string { return t.name(i) }

// traitRoundStart counts the conditions down and fires round_start for
// everyone in the fight.
func (t *Table) traitRoundStart() {
	t.tr.RoundStart()
	clear(t.extra)
	for i := range t.f {
		if t.f[i].out || !t.g.traits.Any(mRoundStart, i) {
			continue
		}
		c := traitrun.Ctx{M: mRoundStart, Self: i, Other: -1}
		t.tr.Fire(&c)
	}
}

// traitInitiative fires i's initiative traits on its number n and returns
// the number (within 10 to -10).
func (t *Table) traitInitiative(i, n int) int {
	if !t.g.traits.Any(mInitiative, i) {
		return n
	}
	c := traitrun.Ctx{M: mInitiative, Self: i, Other: -1}
	c.Q[qNumber] = n
	t.tr.Fire(&c)
	return c.Q[qNumber]
}

// traitSegment fires i's segment traits; it reports false when the
// segment's action is lost (dazed, or no actions), having lost it.
func (t *Table) traitSegment(i int) bool {
	n := 1
	if t.g.traits.Any(mSegment, i) {
		c := traitrun.Ctx{M: mSegment, Self: i, Other: -1}
		c.Q[qActions] = 1
		t.tr.Fire(&c)
		n = c.Q[qActions]
	}
	if t.tr.Has(i, cDazed) {
		n = 0
	}
	t.extra[i] = max(n-1, 0)
	if n > 0 {
		return true
	}
	t.c.Lost(t.side(i), i)
	if t.log != nil {
		t.logf("%s takes no action this turn", t.name(i))
		t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "trait"})
	}
	t.finishSegment(i)
	return false
}

// traitExtra is the extra attack actions a segment trait granted i: each
// asks its policy again and fights (a declared action is the first
// action; the others attack).
func (t *Table) traitExtra(i int) {
	for ; t.extra[i] > 0 && !t.f[i].out && !t.over(); t.extra[i]-- {
		p := t.g.C[i].Policy.Turn(t, i)
		t.fight(i, p)
	}
	t.extra[i] = 0
}

// traitThrow fires a's attack_throw traits and d's attacked traits on one
// throw, returning its modifiers and the AC it is made against.
func (t *Table) traitThrow(a, d, mod, ac int, charging bool) (int, int) {
	ts := t.g.traits
	if !ts.Any(mAttackThrow, a) && !ts.Any(mAttacked, d) {
		return mod, ac
	}
	c := traitrun.Ctx{M: mAttackThrow, Self: a, Other: d}
	c.Q[qAttack], c.Q[qAC] = mod, ac
	if charging {
		c.E[eCharging] = 1
	}
	t.tr.Fire(&c)
	c.M, c.Self, c.Other = mAttacked, d, a
	t.tr.Fire(&c)
	return c.Q[qAttack], c.Q[qAC]
}

// traitHit fires a's hit traits, applies the minimum of 1, then d's
// hit_taken traits (never below 0); it returns the damage dealt.
func (t *Table) traitHit(a, d, dmg, roll int, charging bool) int {
	ts := t.g.traits
	if !ts.Any(mHit, a) && !ts.Any(mHitTaken, d) {
		return dmg
	}
	c := traitrun.Ctx{M: mHit, Self: a, Other: d}
	c.Q[qDamage] = dmg
	c.E[eNatural] = roll
	if charging {
		c.E[eCharging] = 1
	}
	t.tr.Fire(&c)
	c.Q[qDamage] = max(c.Q[qDamage], 1)
	c.M, c.Self, c.Other = mHitTaken, d, a
	t.tr.Fire(&c)
	return c.Q[qDamage]
}

// traitMorale fires i's morale traits and returns the modifier.
func (t *Table) traitMorale(i, mod int) int {
	if !t.g.traits.Any(mMorale, i) {
		return mod
	}
	c := traitrun.Ctx{M: mMorale, Self: i, Other: -1}
	c.Q[qMorale] = mod
	t.tr.Fire(&c)
	return c.Q[qMorale]
}

// Action finds combatant self's special action named name (written as
// data: action: segment): its index for Plan.Special, or -1.
func (g *Game) Action(self int, name string) int { return g.traits.Action(self, name) }

// ActionName is the name of special action k.
func (g *Game) ActionName(k int) string { return g.traits.List[k].Name }

// Actions lists combatant self's special actions' names.
func (g *Game) Actions(self int) []string { return g.traits.ActionNames(self) }

// CanTake reports whether self can take special action k as its
// segment's action now: nothing declared (a declared action is the
// segment's), a use left, its when: holding.
func (t *Table) CanTake(self, k int) bool {
	if t.tr == nil || t.f[self].out || t.f[self].decl.Kind != DeclareNothing {
		return false
	}
	c := traitrun.Ctx{M: mAction, Self: self, Other: -1}
	return t.tr.CanTake(k, &c)
}

// takeSpecial takes special action k as i's segment's action.
func (t *Table) takeSpecial(i, k int) {
	t.c.Inc(t.side(i), sim.Actions)
	if t.log != nil {
		t.logf("%s takes %s (%s action)", t.name(i), t.g.traits.List[k].Name, "segment")
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: t.g.traits.List[k].Name})
	}
	c := traitrun.Ctx{M: mAction, Self: i, Other: -1}
	t.tr.Take(k, &c)
}

// traitDocs lists the moments, quantities, conditions and library for
// simctl rules acks2.
func traitDocs(d *sim.RulesDoc) {
	d.Moments, d.Quantities, d.Conditions = traitrun.Docs(TraitDecl)
	d.Traits = traitLibrary.LibraryDocs()
}
