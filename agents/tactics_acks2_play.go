package agents

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/acks2"
)

// acksCtx is what a reaction is about (the enemy and the offer).
type acksCtx struct {
	enemy int
	how   acks2.Interrupt
}

// first returns the index of the first rule of moment m that decides, with
// its result, or -1 (counting fired rules and fall-throughs). apply tries a
// rule's decision and returns why it cannot be carried out (-1: it can).
func (p *acksTactic) first(t *acks2.Table, self, m int, ctx acksCtx, apply func(r *acksRule) int) int {
	return firstRule(t, self, t.Game().C[self].Name, acksMoments[m], p.rules[m], p.fallback[m], acksWhyText[:],
		func(id, arg int) float64 { return acksFact(t, self, id, arg, ctx) }, nil, apply,
		func(r *acksRule) string { return r.do.text(t.Game()) })
}

// fallbackPolicy is the Go default with its default parameters: what a
// moment does when no rule decides, and Rank (0) and Cleave (the weakest
// enemy it can attack), which tactics do not cover.
var fallbackPolicy = &acksDefault{prefer: -1, spell: -2, charge: true, before: true}

// Declare implements acks2.Policy.
func (p *acksTactic) Declare(t *acks2.Table, self int) acks2.Declaration {
	var out acks2.Declaration
	k := p.first(t, self, amDeclare, acksCtx{}, func(r *acksRule) int {
		switch r.do.kind {
		case adDeclare:
			s := r.do.spell
			if s < 0 {
				s = fallbackPolicy.chooseSpell(t, self)
			}
			if s < 0 || t.Uses(self, s) == 0 {
				return awNoUses
			}
			out = acks2.Declaration{Kind: acks2.DeclareSpell, Spell: s}
		case adWithdraw:
			out = acks2.Declaration{Kind: acks2.DeclareWithdraw}
		case adRetreat:
			out = acks2.Declaration{Kind: acks2.DeclareRetreat}
		default:
			out = acks2.Declaration{}
		}
		return -1
	})
	if k < 0 {
		return fallbackPolicy.Declare(t, self)
	}
	return out
}

// Turn implements acks2.Policy.
func (p *acksTactic) Turn(t *acks2.Table, self int) acks2.Plan {
	var out acks2.Plan
	k := p.first(t, self, amTurn, acksCtx{}, func(r *acksRule) int {
		tg := r.pick(t, self)
		if tg < 0 && r.target.named >= 0 {
			return awNoTarget
		}
		out = acks2.Plan{Do: acks2.Act, Target: tg, Charge: !r.do.noCharge, DelayAfter: -1}
		switch r.do.kind {
		case adReady:
			if t.Declared(self).Kind != acks2.DeclareNothing {
				return awDeclared
			}
			out.Do = acks2.Ready
		case adSpecial:
			if !t.CanTake(self, r.do.who) {
				return awNoSpecial
			}
			out.Special = r.do.who + 1
		case adDelayUntil:
			switch {
			case t.Resuming(self):
				return awResuming
			case t.Out(r.do.who):
				return awWaitedOut
			case t.Acted(r.do.who):
				return awWaitedActed
			}
			out.Do, out.DelayAfter = acks2.Delay, r.do.who
		case adDelayTo, adDelayFloor:
			to := r.do.count
			if r.do.kind == adDelayFloor {
				to = t.Floor(self)
			}
			if t.Resuming(self) {
				return awResuming
			}
			if to >= t.Count() {
				return awCount
			}
			out.Do, out.DelayTo = acks2.Delay, to
		}
		return -1
	})
	if k < 0 {
		return fallbackPolicy.Turn(t, self)
	}
	return out
}

// pick chooses the rule's target with the Go default's rule (enemies it can
// attack this segment first, then by the selector); a named enemy while it
// is in the fight.
func (r *acksRule) pick(t *acks2.Table, self int) int {
	if r.target.named >= 0 {
		if t.Out(r.target.named) {
			return -1
		}
		return r.target.named
	}
	sel := acksDefault{target: r.target.mode, prefer: -1}
	return sel.pick(t, self)
}

// Interrupt implements acks2.Policy.
func (p *acksTactic) Interrupt(t *acks2.Table, self, enemy int, how acks2.Interrupt) bool {
	strike := false
	k := p.first(t, self, amReact, acksCtx{enemy: enemy, how: how}, func(r *acksRule) int {
		strike = r.do.kind == adStrike
		return -1
	})
	if k < 0 {
		return fallbackPolicy.Interrupt(t, self, enemy, how)
	}
	return strike
}

// ActBefore implements acks2.Policy.
func (p *acksTactic) ActBefore(t *acks2.Table, self int) bool {
	before := true
	if k := p.first(t, self, amSame, acksCtx{}, func(r *acksRule) int {
		before = r.do.kind == adBefore
		return -1
	}); k < 0 {
		return true
	}
	return before
}

// Rank implements acks2.Policy: tactics leave the order within a side on a
// shared number at 0 (roster order).
func (p *acksTactic) Rank(t *acks2.Table, self int) int { return 0 }

// Cleave implements acks2.Policy: the weakest enemy it can attack.
func (p *acksTactic) Cleave(t *acks2.Table, self int) int { return fallbackPolicy.Cleave(t, self) }

func acksFact(t *acks2.Table, self, id, arg int, ctx acksCtx) float64 {
	g := t.Game()
	me := &g.C[self]
	switch id {
	case afRound:
		return float64(t.Round())
	case afCount:
		return float64(t.Count())
	case afSelfHP:
		return float64(t.HP(self))
	case afSelfHPPct:
		return acksPct(t, self)
	case afSelfEngaged:
		return b2f(t.Engaged(self))
	case afSelfMissile:
		return b2f(me.Weapon == acks2.Missile)
	case afSelfLong:
		return b2f(me.Weapon == acks2.Long)
	case afSelfSpellsLeft:
		n := 0
		for s := range me.Spells {
			n += t.Uses(self, s)
		}
		return float64(n)
	case afSelfDeclaredSpell:
		return b2f(t.Declared(self).Kind == acks2.DeclareSpell)
	case afSelfDeclaredMove:
		k := t.Declared(self).Kind
		return b2f(k == acks2.DeclareWithdraw || k == acks2.DeclareRetreat)
	case afSelfDeclaredNothing:
		return b2f(t.Declared(self).Kind == acks2.DeclareNothing)
	case afSelfNumber:
		return float64(t.Number(self))
	case afAllyNumber, afEnemyNumber:
		return float64(t.Number(arg))
	case afSelfFloor:
		return float64(t.Floor(self))
	case afSelfResuming:
		return b2f(t.Resuming(self))
	case afSelfRound1Ready:
		return b2f(t.Round1Ready(self))
	case afSpellLeft:
		return float64(t.Uses(self, arg))
	case afAllyActed, afEnemyActed:
		return b2f(t.Acted(arg))
	case afAllyDown, afEnemyDown:
		return b2f(t.Out(arg))
	case afAllyHPPct, afEnemyHPPct:
		return acksPct(t, arg)
	case afEnemyDistance:
		return float64(t.Dist(self, arg))
	case afEnemyDeclaredSpell:
		return b2f(t.Declared(arg).Kind == acks2.DeclareSpell)
	case afEnemyAttackable:
		return b2f(t.CanAttack(self, arg))
	case afReactReadied:
		return b2f(ctx.how == acks2.ReadiedAttack)
	case afReactMissile:
		return b2f(ctx.how == acks2.Round1Missile)
	case afReactLong:
		return b2f(ctx.how == acks2.Round1Long)
	case afReactChargeAtSelf:
		return b2f(t.ChargeTarget(ctx.enemy) == self)
	}
	n := 0
	for j := 0; j < t.N(); j++ {
		if j == self || t.Out(j) {
			if id == afAlliesDown && j != self && t.Side(j) == t.Side(self) {
				n++
			}
			continue
		}
		enemy := t.Side(j) != t.Side(self)
		switch id {
		case afEnemiesCount:
			n += ib(enemy)
		case afEnemiesAttackable:
			n += ib(enemy && t.CanAttack(self, j))
		case afEnemiesCasters:
			n += ib(enemy && t.Declared(j).Kind == acks2.DeclareSpell)
		case afAlliesCount:
			n += ib(!enemy)
		}
	}
	return float64(n)
}

func acksPct(t *acks2.Table, i int) float64 {
	if m := t.MaxHP(i); m > 0 {
		return float64(t.HP(i)) / float64(m)
	}
	return 0
}

func acksLibrary(name string) (*yaml.Node, bool) { return libraryNode("acks2", name) }

// text names a decision for traces.
func (do *acksDo) text(g *acks2.Game) string {
	switch do.kind {
	case adDeclare:
		if do.spell < 0 {
			return "declare any"
		}
		return "declare " + do.spellName
	case adWithdraw:
		return "withdraw"
	case adRetreat:
		return "retreat"
	case adNothing:
		return "nothing"
	case adAttack:
		if do.noCharge {
			return "attack without charging"
		}
		return "attack"
	case adDelayUntil:
		return "delay until " + g.C[do.who].Name
	case adDelayTo:
		return "delay to " + strconv.Itoa(do.count)
	case adDelayFloor:
		return "delay to floor"
	case adReady:
		return "ready"
	case adStrike:
		return "strike"
	case adHold:
		return "hold"
	case adBefore:
		return "before"
	case adSpecial:
		return g.ActionName(do.who)
	}
	return "after"
}
