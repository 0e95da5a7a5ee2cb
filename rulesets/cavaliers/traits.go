package cavaliers

import (
	"embed"
	"strconv"

	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/lang"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// Traits and house rules (DESIGN.md "Traits and house rules"): Cavaliers'
// table of moments, quantities, conditions and facts, and the hooks the
// referee calls, each behind `t.tr != nil`, so a fight without traits pays
// one nil check per moment. The moments follow the skill's chapter: the
// free Initiative roll (the total ranks, the [+] buy abilities), each
// round, each turn (a Move and one attack), the attack roll against the
// defence roll, and the hit. The running of the compiled traits is shared
// with the other rulesets (rulesets/internal/traitrun).

// Moments, by index in TraitDecl.Moments.
const (
	mInitiative = iota
	mRoundStart
	mTurnStart
	mAttack
	mAttacked
	mHit
	mHitTaken
	mAction // a special action written as data (action: PRICE), chosen by tactics
)

// Quantities, by index in TraitDecl.Quantities.
const (
	qTotal = iota
	qPlus
	qActions
	qAttack
	qDefence
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
	tfTotal
	tfPlus
	tfRaises
	tfArea
	tfAlone
	tfRound
	tfReprise
)

// Ctx.E slots of the attack moments.
const eReprise = 0

var attackMoments = []string{"attack", "attacked", "hit", "hit_taken"}

// TraitDecl is Cavaliers' table for traits.
var TraitDecl = &traits.Decl{
	Ruleset: "cavaliers",
	// A special action's cost is its price in [+], as the specialties'
	// ladders price Seize, Interpose and Reprise.
	ActionCosts: []string{"1", "2", "3"},
	Moments: []traits.Moment{
		mInitiative: {Name: "initiative", Doc: "its Initiative pool is rolled (at the start, or as it enters): total ranks it for the fight, plus is the [+] it may use (the [+] rolled, counted in raises, stay as rolled)", Quantities: []string{"total", "plus"}},
		mRoundStart: {Name: "round_start", Doc: "a round begins (after those entering have rolled), before anyone may seize: plus is its [+] left", Quantities: []string{"plus"}},
		mTurnStart:  {Name: "turn_start", Doc: "its turn begins: actions is the number of attacks it makes this turn after its Move (1; 0 loses the whole turn, Move included; each more is another attack, at a target its policy picks)", Quantities: []string{"actions"}},
		mAttack:     {Name: "attack", Doc: "it has rolled an attack at target (a reprise too): attack is its roll, defence the target's roll; it hits when attack reaches defence (option attack_ties)", Other: "target", Quantities: []string{"attack", "defence"}},
		mAttacked:   {Name: "attacked", Doc: "an attack has been rolled at it by attacker: attack and defence as at attack, after the attacker's traits", Other: "attacker", Quantities: []string{"attack", "defence"}},
		mHit:        {Name: "hit", Doc: "its attack hits target: damage is its damage roll, at least 0", Other: "target", Quantities: []string{"damage"}},
		mHitTaken:   {Name: "hit_taken", Doc: "it is hit by attacker: damage after the attacker's traits; never below 0 after these", Other: "attacker", Quantities: []string{"damage"}},
		mAction:     {Name: "action", Doc: "a special action written as data (action: PRICE, its price in [+]: 1, 2 or 3) taken on its turn in place of its attack, after its Move, when a tactics rule chooses it (do: NAME): it needs plus of at least its price (under spend: budget the price is paid), its when: says when it can be taken, its do: what it does; a changed total moves it in the ranking from the next round", Quantities: []string{"total", "plus"}, Action: true},
	},
	Quantities: []traits.Quantity{
		qTotal:   {Name: "total", Doc: "the initiative total, which ranks it (a changed total moves it in the ranking)", Dice: true},
		qPlus:    {Name: "plus", Doc: "the [+] it may use: unspent (spend: budget) or rolled (spend: unlock); never below 0", Dice: true},
		qActions: {Name: "actions", Doc: "attacks it makes this turn (grant action, spend action)"},
		qAttack:  {Name: "attack", Doc: "the attack roll", Dice: true},
		qDefence: {Name: "defence", Doc: "the defence roll this attack is made against", Dice: true},
		qDamage:  {Name: "damage", Doc: "the damage of this hit", Dice: true},
	},
	Conditions: []traits.Condition{
		cDazed: {Name: "dazed", Doc: "loses its turns (no Move, no attack) while it lasts; it may still seize, interpose and reprise with its [+] (not in the source: a condition for traits)"},
	},
	Facts: []traits.Fact{
		tfHP:      {Name: "hp", Type: lang.Number, Doc: "current hit points"},
		tfHPPct:   {Name: "hp_pct", Type: lang.Number, Doc: "hit points as a fraction of those at the start"},
		tfTotal:   {Name: "total", Type: lang.Number, Doc: "initiative total"},
		tfPlus:    {Name: "plus", Type: lang.Number, Doc: "the [+] it may use now"},
		tfRaises:  {Name: "raises", Type: lang.Number, Doc: "the [+] it rolled"},
		tfArea:    {Name: "area", Type: lang.Number, Doc: "the Area it stands in"},
		tfAlone:   {Name: "alone", Type: lang.Bool, Doc: "no ally of its stands in its Area"},
		tfRound:   {Name: "round", Type: lang.Number, Event: true, Doc: "the round (from 1)"},
		tfReprise: {Name: "reprise", Type: lang.Bool, Event: true, Moments: attackMoments, Doc: "the attack is a Reprise Attack"},
	},
}

// The trait library: Cavaliers traits written in the trait form.
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

// newTraitRunner is a Table's runner (nil without traits).
func (t *Table) newTraitRunner() {
	t.tr = traitrun.NewRunner(t.g.traits, t)
	if t.tr != nil {
		t.tr.Bound(mInitiative, qPlus, 0, 1<<20)
		t.tr.Bound(mRoundStart, qPlus, 0, 1<<20)
		t.tr.Bound(mHit, qDamage, 0, 1<<30)
		t.tr.Bound(mHitTaken, qDamage, 0, 1<<30)
		t.tr.FromCtx(tfReprise, eReprise)
	}
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
	case tfTotal:
		return float64(f.total)
	case tfPlus:
		return float64(f.plus)
	case tfRaises:
		return float64(f.raises)
	case tfArea:
		return float64(f.area)
	case tfAlone:
		for _, j := range t.team[t.sd[who]] {
			if j != who && t.Present(j) && t.f[j].area == f.area {
				return 0
			}
		}
		return 1
	}
	return 0
}

// Name implements traitrun.Host.
func (t *Table) Name(i int) string { return t.name(i) }

// traitInitiative fires i's initiative traits on its rolled total and [+].
func (t *Table) traitInitiative(i int) {
	if !t.g.traits.Any(mInitiative, i) {
		return
	}
	f := &t.f[i]
	c := traitrun.Ctx{M: mInitiative, Self: i, Other: -1}
	c.Q[qTotal], c.Q[qPlus] = f.total, f.plus
	t.tr.Fire(&c)
	f.total, f.plus = c.Q[qTotal], c.Q[qPlus]
}

// traitRoundStart counts the conditions down and fires round_start for
// everyone present.
func (t *Table) traitRoundStart() {
	t.tr.RoundStart()
	for i := range t.f {
		if !t.Present(i) || !t.g.traits.Any(mRoundStart, i) {
			continue
		}
		c := traitrun.Ctx{M: mRoundStart, Self: i, Other: -1}
		c.Q[qPlus] = t.f[i].plus
		t.tr.Fire(&c)
		t.f[i].plus = c.Q[qPlus]
	}
}

// traitTurnStart fires i's turn_start traits and returns how many attacks
// it makes this turn (0: the turn is lost).
func (t *Table) traitTurnStart(i int) int {
	n := 1
	if t.g.traits.Any(mTurnStart, i) {
		c := traitrun.Ctx{M: mTurnStart, Self: i, Other: -1}
		c.Q[qActions] = 1
		t.tr.Fire(&c)
		n = c.Q[qActions]
	}
	if t.tr.Has(i, cDazed) {
		n = 0
	}
	if n <= 0 {
		t.c.Lost(t.side(i), i)
		if t.log != nil {
			t.logf("%s takes no action this turn", t.name(i))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "trait"})
		}
	}
	return n
}

// traitAttack fires a's attack traits and d's attacked traits on the
// rolled attack and defence, returning them.
func (t *Table) traitAttack(a, d, roll, def int) (int, int) {
	ts := t.g.traits
	if !ts.Any(mAttack, a) && !ts.Any(mAttacked, d) {
		return roll, def
	}
	c := traitrun.Ctx{M: mAttack, Self: a, Other: d}
	c.Q[qAttack], c.Q[qDefence] = roll, def
	if t.reprising {
		c.E[eReprise] = 1
	}
	t.tr.Fire(&c)
	c.M, c.Self, c.Other = mAttacked, d, a
	t.tr.Fire(&c)
	return c.Q[qAttack], c.Q[qDefence]
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
	if t.reprising {
		c.E[eReprise] = 1
	}
	t.tr.Fire(&c)
	c.M, c.Self, c.Other = mHitTaken, d, a
	t.tr.Fire(&c)
	return c.Q[qDamage]
}

// Action finds combatant self's special action named name (written as
// data: action: PRICE): its index for Table.Choose, or -1.
func (g *Game) Action(self int, name string) int { return g.traits.Action(self, name) }

// ActionName is the name of special action k.
func (g *Game) ActionName(k int) string { return g.traits.List[k].Name }

// Actions lists combatant self's special actions' names.
func (g *Game) Actions(self int) []string { return g.traits.ActionNames(self) }

// price is special action k's price in [+].
func (t *Table) price(k int) int {
	p, _ := strconv.Atoi(t.g.traits.List[k].Action) // one of ActionCosts
	return p
}

// actionCtx is the moment of a special action of self.
func (t *Table) actionCtx(self int) traitrun.Ctx {
	c := traitrun.Ctx{M: mAction, Self: self, Other: -1}
	c.Q[qTotal], c.Q[qPlus] = t.f[self].total, t.f[self].plus
	return c
}

// CanTake reports whether self can take special action k now: its price
// within its [+], a use left, its when: holding.
func (t *Table) CanTake(self, k int) bool {
	if t.tr == nil || t.f[self].plus < t.price(k) || !t.Present(self) {
		return false
	}
	c := t.actionCtx(self)
	return t.tr.CanTake(k, &c)
}

// Choose makes self's attack this turn special action k instead (a
// tactics rule's decision at the attack moment, after CanTake).
func (t *Table) Choose(self, k int) { t.choice = k }

// takeSpecial takes self's special action k in place of its attack: an
// action (it can be the first actor), its price paid under spend: budget,
// its effects; a changed total re-ranks it for the next round.
func (t *Table) takeSpecial(self, k int) {
	inst := &t.g.traits.List[k]
	f := &t.f[self]
	p := t.price(k)
	t.tookAction(self)
	t.c.Inc(t.side(self), sim.Actions)
	if t.g.Opt.Spend == Budget {
		f.plus -= p
		t.c.Add(t.side(self), RaisesSpent, int64(p))
	}
	if t.log != nil {
		t.logf("%s takes %s (%d [+])", t.name(self), inst.Name, p)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: self, Target: sim.NoOne, Amount: p, Rule: inst.Name})
	}
	c := t.actionCtx(self)
	c.Q[qPlus] = f.plus
	t.tr.Take(k, &c)
	f.plus = max(c.Q[qPlus], 0)
	if c.Q[qTotal] != f.total {
		f.total = c.Q[qTotal]
		if r := t.Rank(self); r >= 0 {
			t.rank = append(t.rank[:r], t.rank[r+1:]...)
			t.insert(self)
			if t.log != nil {
				t.logRanking()
			}
		}
	}
}

// traitDocs lists the moments, quantities, conditions and library for
// simctl rules cavaliers.
func traitDocs(d *sim.RulesDoc) {
	d.Moments, d.Quantities, d.Conditions = traitrun.Docs(TraitDecl)
	d.Traits = traitLibrary.LibraryDocs()
}
