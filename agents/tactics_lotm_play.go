package agents

import "simctl/rulesets/lotm"

// lotmOffer is the kind of reaction offered.
type lotmOffer uint8

const (
	offerNone   lotmOffer = iota // turn, luck
	offerInsert                  // bring its turn forward (insert, wait)
	offerLimb                    // Limb Block a Vital Strike
	offerBorrow                  // Borrow Strength Against Strength
)

// lotmCtx is what a reaction or a Luck decision is about: the enemy about
// to act or attacking, whether it has already started its Attack or
// Casting action, the offer, and the offer's particulars.
type lotmCtx struct {
	actor     int
	attacking bool
	offer     lotmOffer
	part      lotm.Part // limb block: the part the strike hit
	total     int       // limb block: the strike's check result
	swift     bool      // borrow: the Leg Sweep answer
	target    int       // luck: the one its missed check is against (-1: the initiative roll)
	need      int       // luck: the points that turn it into a hit
}

// first returns the index of the first rule of moment m that decides, or
// -1 (counting fired rules and fall-throughs). Only rules whose condition
// holds are checked for whether they can be carried out; at reactions
// only rules that answer the offer are considered.
func (p *lotmTactic) first(t *lotm.Table, self, m int, ctx lotmCtx) int {
	var answers func(r *lotmRule) bool
	if m == lmReact {
		answers = func(r *lotmRule) bool { return r.answers(ctx.offer) }
	}
	return firstRule(t, self, t.Game().C[self].Name, lotmMoments[m], p.rules[m], p.fallback[m], lotmWhyText[:],
		func(id, arg int) float64 { return lotmFact(t, self, id, arg, ctx) }, answers,
		func(r *lotmRule) int { return r.check(t, self) },
		func(r *lotmRule) string { return r.text })
}

// answers reports whether reaction rule r answers offer o: insert and
// wait the mid-combat ambush, limb_block and borrow their own, pass every
// one.
func (r *lotmRule) answers(o lotmOffer) bool {
	switch r.kind {
	case ldInsert, ldWait:
		return o == offerInsert
	case ldLimbBlock:
		return o == offerLimb
	case ldBorrow:
		return o == offerBorrow
	}
	return true
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
	case ldSpecial:
		if !t.CanTake(self, r.special) {
			return lwNoSpecial
		}
	case ldLimbBlock:
		legs, arms := t.LimbsLeft(self)
		if (r.limb == lotm.Legs && legs == 0) || (r.limb == lotm.Arms && arms == 0) {
			return lwNoLimb
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
		r := &p.rules[lmTurn][k]
		plan := r.pol.Turn(t, self)
		if r.kind == ldSpecial {
			plan.Special = r.special + 1
		}
		return plan
	}
	return lotmBase.Turn(t, self)
}

// Insert implements lotm.Policy: bring the turn forward when a rule says
// insert; no rule: not (the Go default's insert: never).
func (p *lotmTactic) Insert(t *lotm.Table, self, actor int, attacking bool) bool {
	if k := p.first(t, self, lmReact, lotmCtx{actor: actor, attacking: attacking, offer: offerInsert}); k >= 0 {
		return p.rules[lmReact][k].kind == ldInsert
	}
	return false
}

// LimbBlock implements lotm.Reactor: the limb of the rule that answers
// (limb_block without one: the legs while they have a block left, then
// the arms), no block when it passes; no rule: the Go default's legs
// first, then arms.
func (p *lotmTactic) LimbBlock(t *lotm.Table, self, attacker int, part lotm.Part, total int) lotm.Part {
	ctx := lotmCtx{actor: attacker, attacking: true, offer: offerLimb, part: part, total: total}
	limb := lotm.Head
	if k := p.first(t, self, lmReact, ctx); k >= 0 {
		r := &p.rules[lmReact][k]
		if r.kind != ldLimbBlock {
			return part
		}
		limb = r.limb
	}
	if limb == lotm.Head {
		limb = lotm.Legs
		if legs, _ := t.LimbsLeft(self); legs == 0 {
			limb = lotm.Arms
		}
	}
	return limb
}

// Borrow implements lotm.Reactor: willing when the rule that answers says
// borrow, not when it passes; no rule: willing (the Go default).
func (p *lotmTactic) Borrow(t *lotm.Table, self, attacker int, swift bool) bool {
	if k := p.first(t, self, lmReact, lotmCtx{actor: attacker, attacking: true, offer: offerBorrow, swift: swift}); k >= 0 {
		return p.rules[lmReact][k].kind == ldBorrow
	}
	return true
}

// BurnLuck implements lotm.LuckBurner: the luck rule that decides; no
// rule: the Go default's luck: attack (burn on a missed hit check, keep
// it at the initiative roll).
func (p *lotmTactic) BurnLuck(t *lotm.Table, self, target, need int) bool {
	if k := p.first(t, self, lmLuck, lotmCtx{actor: -1, target: target, need: need}); k >= 0 {
		return p.rules[lmLuck][k].kind == ldBurn
	}
	return target >= 0
}

// Luck implements lotm.Policy; the referee asks BurnLuck instead (a
// LuckBurner), so this is only the constant the fallback plays.
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
	case lfSelfLuck:
		return float64(t.Luck(self))
	case lfSelfAgility:
		return float64(t.Agility(self))
	case lfSelfActed:
		return b2f(t.Acted(self))
	case lfSelfLegBlocks, lfSelfArmBlocks:
		if !t.Game().C[self].LimbBlock {
			return 0
		}
		legs, arms := t.LimbsLeft(self)
		if id == lfSelfLegBlocks {
			return float64(legs)
		}
		return float64(arms)
	case lfSelfLegHits:
		legs, _ := t.LimbHits(self)
		return float64(legs)
	case lfSelfArmHits:
		_, arms := t.LimbHits(self)
		return float64(arms)
	case lfReactHP:
		return float64(t.HP(ctx.actor))
	case lfReactHPPct:
		return lotmPct(t, ctx.actor)
	case lfOfferInsert:
		return b2f(ctx.offer == offerInsert)
	case lfOfferLimbBlock:
		return b2f(ctx.offer == offerLimb)
	case lfOfferBorrow:
		return b2f(ctx.offer == offerBorrow)
	case lfStrikeTotal:
		if ctx.offer != offerLimb {
			return 0
		}
		return float64(ctx.total)
	case lfStrikeHead:
		return b2f(ctx.offer == offerLimb && ctx.part == lotm.Head)
	case lfStrikeEyes:
		return b2f(ctx.offer == offerLimb && ctx.part == lotm.Eyes)
	case lfStrikeOrgans:
		return b2f(ctx.offer == offerLimb && ctx.part == lotm.Organs)
	case lfBorrowFlip:
		return b2f(ctx.offer == offerBorrow && t.BorrowFlips(self, ctx.actor))
	case lfBorrowSwift:
		return b2f(ctx.offer == offerBorrow && ctx.swift)
	case lfLuckInitiative:
		return b2f(ctx.target < 0)
	case lfLuckNeeded:
		return float64(ctx.need)
	case lfTargetHP:
		if ctx.target < 0 {
			return 0
		}
		return float64(t.HP(ctx.target))
	case lfTargetHPPct:
		if ctx.target < 0 {
			return 0
		}
		return lotmPct(t, ctx.target)
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
