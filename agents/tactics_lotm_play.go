package agents

import "simctl/rulesets/lotm"

// lotmCtx is what a reaction is about: the enemy about to act, and
// whether it has already started its Attack or Casting action.
type lotmCtx struct {
	actor     int
	attacking bool
}

// first returns the index of the first rule of moment m that decides, or
// -1 (counting fired rules and fall-throughs). Only rules whose condition
// holds are checked for whether they can be carried out.
func (p *lotmTactic) first(t *lotm.Table, self, m int, ctx lotmCtx) int {
	return firstRule(t, self, t.Game().C[self].Name, lotmMoments[m], p.rules[m], p.fallback[m], lotmWhyText[:],
		func(id, arg int) float64 { return lotmFact(t, self, id, arg, ctx) }, nil,
		func(r *lotmRule) int { return r.check(t, self) },
		func(r *lotmRule) string { return r.text })
}

// check returns why the rule's decision cannot be carried out now (-1: it
// can). Each reason is exactly the case in which the Go policy with the
// rule's configuration would do something else instead (lotmPolicy.turn
// and main), so the next rule can say what.
func (r *lotmRule) check(t *lotm.Table, self int) int {
	switch r.kind {
	case ldCast:
		if t.CastUses(self) == 0 {
			return lwNoCasts
		}
	case ldGrapple:
		if tg := r.pol.target1(t, self); tg >= 0 && (t.GrappledBy(tg) >= 0 || t.Grappling(tg) >= 0) {
			return lwInGrapple
		}
	case ldCharge:
		if tg := r.pol.target1(t, self); tg >= 0 && t.OffBalance(tg) {
			return lwOffBalance
		}
	case ldFirstAid:
		if t.Resuming(self) {
			return lwResuming
		}
		me := &t.Game().C[self]
		for j := 0; j < t.N(); j++ {
			if t.Present(j) && t.Side(j) == me.Side && t.Effects(j) > 0 && t.Dist(self, j) <= lotm.Reach {
				return -1
			}
		}
		return lwNoPatient
	case ldDelay:
		if t.Resuming(self) {
			return lwResuming
		}
		if tg := r.pol.target1(t, self); tg >= 0 && !r.pol.shouldDelay(t, self, tg) {
			return lwNoWait
		}
	}
	return -1
}

// target1 is the enemy the Go policy's turn acts against: the one it
// holds, else the one holding it when that only stops its moving, else
// its pick.
func (p *lotmPolicy) target1(t *lotm.Table, self int) int {
	if held := t.Grappling(self); held >= 0 {
		return held
	}
	if by := t.GrappledBy(self); by >= 0 && !t.HeldFromAttacks(self) {
		return by
	}
	return p.pick(t, self)
}

// Turn implements lotm.Policy: the deciding rule's configuration plays
// the turn as the Go policy would; no rule: the Go default.
func (p *lotmTactic) Turn(t *lotm.Table, self int) lotm.Plan {
	if k := p.first(t, self, lmTurn, lotmCtx{actor: -1}); k >= 0 {
		return p.rules[lmTurn][k].pol.Turn(t, self)
	}
	return lotmBase.Turn(t, self)
}

// Insert implements lotm.Policy: bring the turn forward when a rule says
// insert; no rule: not (the Go default's insert: never).
func (p *lotmTactic) Insert(t *lotm.Table, self, actor int, attacking bool) bool {
	if k := p.first(t, self, lmReact, lotmCtx{actor: actor, attacking: attacking}); k >= 0 {
		return p.rules[lmReact][k].kind == ldInsert
	}
	return false
}

// Luck implements lotm.Policy: tactics burn Luck on a missed hit check, as
// the Go default does (a per-encounter constant, not a decision a rule
// could make from the state of the fight).
func (p *lotmTactic) Luck() lotm.LuckUse { return lotm.LuckAttack }

func lotmFact(t *lotm.Table, self, id, arg int, ctx lotmCtx) float64 {
	switch id {
	case lfRound:
		return float64(t.Round())
	case lfAmbushRound:
		return b2f(t.AmbushRound())
	case lfSelfHP:
		return float64(t.HP(self))
	case lfSelfHPPct:
		return lotmPct(t, self)
	case lfSelfHidden:
		return b2f(t.Hidden(self))
	case lfSelfTeleports:
		return float64(t.Teleports(self))
	case lfSelfCastsLeft:
		return float64(t.CastUses(self))
	case lfSelfSwiftLeft:
		return b2f(t.CanUse(self, lotm.KindSwift))
	case lfSelfMoveLeft:
		return b2f(t.CanUse(self, lotm.KindMove))
	case lfSelfGrappling:
		return b2f(t.Grappling(self) >= 0)
	case lfSelfGrappled:
		return b2f(t.GrappledBy(self) >= 0)
	case lfSelfOffBalance:
		return b2f(t.OffBalance(self))
	case lfSelfEffects:
		return float64(t.Effects(self))
	case lfSelfResuming:
		return b2f(t.Resuming(self))
	case lfAllyActed:
		return b2f(t.Acted(arg))
	case lfAllyDown, lfEnemyDown:
		return b2f(t.Out(arg))
	case lfAllyHPPct, lfEnemyHPPct:
		return lotmPct(t, arg)
	case lfAllyGrappling:
		return b2f(t.Grappling(arg) >= 0)
	case lfEnemyDistance:
		return float64(t.Dist(self, arg))
	case lfEnemyHeld:
		return b2f(t.GrappledBy(arg) >= 0)
	case lfEnemyOffBalance:
		return b2f(t.OffBalance(arg))
	case lfReactAttacking:
		return b2f(ctx.attacking)
	case lfReactDistance:
		return float64(t.Dist(self, ctx.actor))
	case lfReactHidden:
		return b2f(t.HiddenFrom(ctx.actor, self))
	case lfReactActed:
		return b2f(!t.CanUse(ctx.actor, lotm.KindFullRound))
	case lfEnemyActing:
		return b2f(arg == ctx.actor)
	case lfSelfCovered:
		return b2f(t.Covered(self))
	}
	n := 0
	for j := 0; j < t.N(); j++ {
		if j == self {
			continue
		}
		ally := t.Side(j) == t.Side(self)
		if !t.Present(j) {
			n += ib(id == lfAlliesDown && ally && t.Out(j))
			continue
		}
		switch id {
		case lfEnemiesCount:
			n += ib(!ally)
		case lfEnemiesInReach:
			n += ib(!ally && t.Targetable(self, j) && t.InReach(self, j))
		case lfEnemiesHeld:
			n += ib(!ally && t.GrappledBy(j) >= 0)
		case lfAlliesCount:
			n += ib(ally)
		case lfAlliesActed:
			n += ib(ally && t.Acted(j))
		}
	}
	return float64(n)
}

func lotmPct(t *lotm.Table, i int) float64 {
	if m := t.MaxHP(i); m > 0 {
		return float64(t.HP(i)) / float64(m)
	}
	return 0
}
