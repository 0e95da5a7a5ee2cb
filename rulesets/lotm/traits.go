package lotm

import (
	"embed"
	"slices"

	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// Traits and house rules (DESIGN.md "Traits and house rules"): LotM's
// table of moments, quantities, conditions and facts, and the hooks the
// referee calls, each behind `t.tr != nil`, so a fight without traits pays
// one nil check per moment. The moments follow the chapter's combat:
// initiative once for the fight, each round, each turn, the hit check (d20
// + bonus against Physical Defense) and the damage it deals. The running
// of the compiled traits is shared with the other rulesets
// (rulesets/internal/traitrun).

// Moments, by index in TraitDecl.Moments.
const (
	mInitiative = iota
	mRoundStart
	mTurnStart
	mHitCheck
	mHitChecked
	mHit
	mHitTaken
	mAction // a special action written as data (action: COST), chosen by tactics
)

// Quantities, by index in TraitDecl.Quantities.
const (
	qCount = iota
	qAttack
	qDefense
	qDamage
)

// Conditions, by index in TraitDecl.Conditions.
const (
	cDazed = iota
)

// Trait facts, by index in TraitDecl.Facts.
const (
	tfHP = iota
	tfHPPct
	tfAgility
	tfDodge
	tfArmor
	tfLuck
	tfRanged
	tfHidden
	tfGrappled
	tfRound
	tfOffGuard
)

// Ctx.E slots.
const eOffGuard = 0 // hit check moments: the target is Caught Off Guard

var checkMoments = []string{"hit_check", "hit_checked"}

// TraitDecl is LotM's table for traits.
var TraitDecl = &traits.Decl{
	Ruleset: "lotm",
	// A special action costs one of the turn's actions (the source's
	// economy), or all of them (full_round).
	ActionCosts: actionCosts,
	Moments: []traits.Moment{
		mInitiative: {Name: "initiative", Doc: "its initiative is rolled, once for the fight (option initiative, Burn Luck included): count is the total; the order is sorted after everyone's", Quantities: []string{"count"}},
		mRoundStart: {Name: "round_start", Doc: "a regular round begins (after those joining in it have joined), before any turn"},
		mTurnStart:  {Name: "turn_start", Doc: "its turn begins (a dazed combatant then loses it, as a stunned one does)"},
		mHitCheck:   {Name: "hit_check", Doc: "it makes a hit check at target (an attack, casting, Double Strike, Vital Strike, grapple, Leg Sweep or shot): attack is the check's bonus (Build-Up Aim and a flat Advantage are added after), defense the target's Physical Defense for it", Other: "target", Quantities: []string{"attack", "defense"}},
		mHitChecked: {Name: "hit_checked", Doc: "a hit check is made at it by attacker: attack and defense as at hit_check, after the attacker's traits", Other: "attacker", Quantities: []string{"attack", "defense"}},
		mHit:        {Name: "hit", Doc: "it deals damage to target (every damage roll: a hit, a casting, a Vital Strike's extra, a squeeze, a Leg Sweep, Borrow Strength); never below 0 after these", Other: "target", Quantities: []string{"damage"}},
		mHitTaken:   {Name: "hit_taken", Doc: "it takes damage from attacker: damage after the attacker's traits; never below 0 after these", Other: "attacker", Quantities: []string{"damage"}},
		mAction:     {Name: "action", Doc: "a special action written as data (action: free, swift, attack, casting, move or full_round: the action of the turn it costs) taken at the start of its turn's plan when a tactics rule chooses it (do: NAME), if that action is still free; the plan's other actions follow with what is left; its when: says when it can be taken, its do: what it does; a changed count moves it in the initiative order from the next round (ties keep their order)", Quantities: []string{"count"}, Action: true},
	},
	Quantities: []traits.Quantity{
		qCount:   {Name: "count", Doc: "the initiative total", Dice: true},
		qAttack:  {Name: "attack", Doc: "the bonus of this hit check", Dice: true},
		qDefense: {Name: "defense", Doc: "the Physical Defense this hit check is made against", Dice: true},
		qDamage:  {Name: "damage", Doc: "the damage dealt", Dice: true},
	},
	Conditions: []traits.Condition{
		cDazed: {Name: "dazed", Doc: "loses its turns while it lasts, as a stunned combatant does (not in the source: a condition for traits; the source's Stunned, from a Vital Strike to the head, is the referee's own)"},
	},
	Facts: []traits.Fact{
		tfHP:       {Name: "hp", Type: lang.Number, Doc: "current hit points"},
		tfHPPct:    {Name: "hp_pct", Type: lang.Number, Doc: "hit points as a fraction of those at the start"},
		tfAgility:  {Name: "agility", Type: lang.Number, Doc: "Agility now (halved when Off-Balance)"},
		tfDodge:    {Name: "dodge", Type: lang.Number, Doc: "the Dodge part of Physical Defense (field dodge)"},
		tfArmor:    {Name: "armor", Type: lang.Number, Doc: "the Armor part of ac (field armor)"},
		tfLuck:     {Name: "luck", Type: lang.Number, Doc: "Luck points left"},
		tfRanged:   {Name: "ranged", Type: lang.Bool, Doc: "its attacks reach any distance (field ranged)"},
		tfHidden:   {Name: "hidden", Type: lang.Bool, Doc: "it is hidden (invisible)"},
		tfGrappled: {Name: "grappled", Type: lang.Bool, Doc: "it is in a grapple, held or holding"},
		tfRound:    {Name: "round", Type: lang.Number, Event: true, Doc: "the regular round (0: before round 1, the pre-combat Ambush Round)"},
		tfOffGuard: {Name: "caught_off_guard", Type: lang.Bool, Event: true, Moments: checkMoments, Doc: "the target is Caught Off Guard for this check (its defense lacks dodge and agility)"},
	},
}

// The trait library: LotM traits written in the trait form.
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
	t.tr.Bound(mHit, qDamage, 0, 1<<30)
	t.tr.Bound(mHitTaken, qDamage, 0, 1<<30)
	t.tr.FromCtx(tfOffGuard, eOffGuard)
}

// Fact implements traitrun.Host.
func (t *Table) Fact(id, who int) float64 {
	if id == tfRound {
		return float64(t.round)
	}
	f := &t.f[who]
	c := &t.g.C[who]
	switch id {
	case tfHP:
		return float64(f.hp)
	case tfHPPct:
		return float64(f.hp) / float64(max(f.maxHP, 1))
	case tfAgility:
		return float64(t.agility(who))
	case tfDodge:
		return float64(c.Dodge)
	case tfArmor:
		return float64(c.Armor)
	case tfLuck:
		return float64(f.luck)
	case tfRanged:
		return traitrun.B2F(c.Ranged)
	case tfHidden:
		return traitrun.B2F(f.hidden)
	case tfGrappled:
		return traitrun.B2F(f.grappling >= 0 || f.grappledBy >= 0)
	}
	return 0
}

// Name implements traitrun.Host.
func (t *Table) Name(i int) string { return t.name(i) }

// traitInitiative fires i's initiative traits on its total.
func (t *Table) traitInitiative(i int) {
	if !t.g.traits.Any(mInitiative, i) {
		return
	}
	c := traitrun.Ctx{M: mInitiative, Self: i, Other: -1}
	c.Q[qCount] = t.f[i].count
	t.tr.Fire(&c)
	t.f[i].count = c.Q[qCount]
}

// traitRoundStart counts the conditions down and fires round_start for
// everyone in the battle.
func (t *Table) traitRoundStart() {
	t.tr.RoundStart()
	if t.reorder {
		t.reorder = false
		t.sortByCount()
	}
	for i := range t.f {
		if !t.present(i) || !t.g.traits.Any(mRoundStart, i) {
			continue
		}
		c := traitrun.Ctx{M: mRoundStart, Self: i, Other: -1}
		t.tr.Fire(&c)
	}
}

// traitTurnStart fires i's turn_start traits and reports whether it is
// dazed (its turn lost).
func (t *Table) traitTurnStart(i int) bool {
	if t.g.traits.Any(mTurnStart, i) {
		c := traitrun.Ctx{M: mTurnStart, Self: i, Other: -1}
		t.tr.Fire(&c)
	}
	return t.tr.Has(i, cDazed)
}

// traitHitCheck fires a's hit_check traits and d's hit_checked traits,
// returning the check's bonus and the defense it is made against.
func (t *Table) traitHitCheck(a, d, bonus, pd int, off bool) (int, int) {
	ts := t.g.traits
	if !ts.Any(mHitCheck, a) && !ts.Any(mHitChecked, d) {
		return bonus, pd
	}
	c := traitrun.Ctx{M: mHitCheck, Self: a, Other: d}
	c.Q[qAttack], c.Q[qDefense] = bonus, pd
	if off {
		c.E[eOffGuard] = 1
	}
	t.tr.Fire(&c)
	c.M, c.Self, c.Other = mHitChecked, d, a
	t.tr.Fire(&c)
	return c.Q[qAttack], c.Q[qDefense]
}

// traitHit fires a's hit traits, then d's hit_taken traits, and returns
// the damage dealt (never below 0).
func (t *Table) traitHit(a, d, dmg int) int {
	ts := t.g.traits
	if !ts.Any(mHit, a) && !ts.Any(mHitTaken, d) {
		return dmg
	}
	c := traitrun.Ctx{M: mHit, Self: a, Other: d}
	c.Q[qDamage] = dmg
	t.tr.Fire(&c)
	c.M, c.Self, c.Other = mHitTaken, d, a
	t.tr.Fire(&c)
	return c.Q[qDamage]
}

// actionCosts are the costs a special action may have, and the action of
// the turn each one takes (actionKinds).
var (
	actionCosts = []string{"free", "swift", "attack", "casting", "move", "full_round"}
	actionKinds = []Kind{KindFree, KindSwift, KindAttack, KindCasting, KindMove, KindFullRound}
)

// actionKind is the action of the turn special action k costs.
func (t *Table) actionKind(k int) Kind {
	return actionKinds[slices.Index(actionCosts, t.g.traits.List[k].Action)]
}

// Action finds combatant self's special action named name (written as
// data: action: COST): its index for Plan.Special, or -1.
func (g *Game) Action(self int, name string) int { return g.traits.Action(self, name) }

// ActionName is the name of special action k.
func (g *Game) ActionName(k int) string { return g.traits.List[k].Name }

// Actions lists combatant self's special actions' names.
func (g *Game) Actions(self int) []string { return g.traits.ActionNames(self) }

// CanTake reports whether self can take special action k now: the action
// it costs still free this turn, a use left, its when: holding.
func (t *Table) CanTake(self, k int) bool {
	if t.tr == nil || !t.present(self) || !t.canUse(self, t.actionKind(k)) {
		return false
	}
	c := traitrun.Ctx{M: mAction, Self: self, Other: -1}
	c.Q[qCount] = t.f[self].count
	return t.tr.CanTake(k, &c)
}

// takeSpecial takes special action k (a plan's Special) if it still can:
// the action it costs spent, its effects; a changed count re-sorts the
// order at the next round start.
func (t *Table) takeSpecial(i, k int) {
	if !t.CanTake(i, k) {
		return
	}
	inst := &t.g.traits.List[k]
	t.use(i, t.actionKind(k))
	if t.log != nil {
		t.logf("%s takes %s (%s action)", t.name(i), inst.Name, inst.Action)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: inst.Name})
	}
	c := traitrun.Ctx{M: mAction, Self: i, Other: -1}
	c.Q[qCount] = t.f[i].count
	t.tr.Take(k, &c)
	if c.Q[qCount] != t.f[i].count {
		t.f[i].count = c.Q[qCount]
		t.reorder = true
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
		names := ""
		for k, i := range o {
			if k > 0 {
				names += ", "
			}
			names += t.name(i)
		}
		t.logf("  the order follows the new counts: %s", names)
	}
}

// traitDocs lists the moments, quantities, conditions and library for
// simctl rules lotm.
func traitDocs(d *sim.RulesDoc) {
	d.Moments, d.Quantities, d.Conditions = traitrun.Docs(TraitDecl)
	d.Traits = traitLibrary.LibraryDocs()
}
