package agents

import "simctl/rulesets/cavaliers"

// cavCtx is what a reaction is about: the kind of offer and who it
// concerns (-1 where it does not apply).
type cavCtx struct {
	offer    cavDoKind // cdSeize, cdInterpose, cdBlock, cdReprise; cdAdvance outside reactions
	next     int       // seize: the one about to act
	attacked int       // interpose: the attacked ally
	attacker int       // interpose: the one attacking it
	to       int       // block: the Area the mover goes to
	target   int       // reprise: the one it failed to hit
}

var noCavCtx = cavCtx{offer: cdAdvance, next: -1, attacked: -1, attacker: -1, to: -1, target: -1}

// cavFallback is the Go default with its default parameters: what a moment
// does when no rule decides, and the specialty a combatant with several
// rolls (its main one).
var cavFallback = &cavPolicy{target: "weakest", focus: -1, move: "advance", seize: cavEnemy, wounded: 50,
	interpose: cavWeakest, block: cavAlways, reprise: true, ward: -1, reserve: -1}

// applies reports whether rule r answers the offer in ctx: at reactions
// each decision answers its own kind of offer (pass answers every one),
// and "interpose for NAME" / "block for NAME" only an offer about NAME.
func (r *cavRule) applies(t *cavaliers.Table, ctx cavCtx) bool {
	switch r.do.kind {
	case cdSeize, cdReprise:
		return ctx.offer == r.do.kind
	case cdInterpose:
		return ctx.offer == cdInterpose && (r.do.who < 0 || r.do.who == ctx.attacked)
	case cdBlock:
		return ctx.offer == cdBlock && (r.do.who < 0 || t.Present(r.do.who) && t.Area(r.do.who) == ctx.to)
	}
	return true
}

// first returns the index of the first rule of moment m that decides, or
// -1 (counting fired rules, fall-throughs and the fallback). apply tries
// a rule's decision and returns why it cannot be carried out (-1: it can).
func (p *cavTactic) first(t *cavaliers.Table, self, m int, ctx cavCtx, apply func(r *cavRule) int) int {
	return firstRule(t, self, t.Game().C[self].Name, cavMoments[m], p.rules[m], p.fallback[m], cavWhyText[:],
		func(id, arg int) float64 { return cavFact(t, self, id, arg, ctx) },
		func(r *cavRule) bool { return r.applies(t, ctx) }, apply,
		func(r *cavRule) string { return r.do.text(t.Game()) })
}

// Roll implements cavaliers.Policy: the first enter rule that decides
// names the specialty; no rule: the main one (index 0). Asked once, as the
// combatant enters the fight, before its Initiative roll.
func (p *cavTactic) Roll(t *cavaliers.Table, self int) int {
	roll := 0
	p.first(t, self, cmEnter, noCavCtx, func(r *cavRule) int {
		roll = r.do.who
		return -1
	})
	return roll
}

// Move implements cavaliers.Policy.
func (p *cavTactic) Move(t *cavaliers.Table, self int) int {
	to := -1
	k := p.first(t, self, cmMove, noCavCtx, func(r *cavRule) int {
		switch r.do.kind {
		case cdAdvance:
			to = cavFallback.Move(t, self)
		case cdAdvanceTo, cdFollow:
			if !t.Present(r.do.who) {
				return cwNotInFight
			}
			to = cavaliers.Toward(t.Area(self), t.Area(r.do.who))
		default:
			to = -1
		}
		return -1
	})
	if k < 0 {
		return cavFallback.Move(t, self)
	}
	return to
}

// Target implements cavaliers.Policy: the attack moment.
func (p *cavTactic) Target(t *cavaliers.Table, self int) int {
	tg := -1
	k := p.first(t, self, cmAttack, noCavCtx, func(r *cavRule) int {
		if r.do.kind == cdNothing {
			tg = -1
			return -1
		}
		if r.do.kind == cdSpecial {
			if !t.CanTake(self, r.do.who) {
				return cwNoSpecial
			}
			t.Choose(self, r.do.who)
			tg = -1
			return -1
		}
		if n := r.target.named; n >= 0 {
			if !t.Present(n) || t.Area(n) != t.Area(self) {
				return cwNotHere
			}
			tg = n
			return -1
		}
		tg = r.sel.Target(t, self)
		return -1
	})
	if k < 0 {
		return cavFallback.Target(t, self)
	}
	return tg
}

// react runs the reactions for one offer: true when a rule takes it.
func (p *cavTactic) react(t *cavaliers.Table, self int, ctx cavCtx) (take, decided bool) {
	k := p.first(t, self, cmReact, ctx, func(r *cavRule) int {
		take = r.do.kind != cdPass
		return -1
	})
	return take, k >= 0
}

// Seize implements cavaliers.Policy.
func (p *cavTactic) Seize(t *cavaliers.Table, self, next int) bool {
	ctx := noCavCtx
	ctx.offer, ctx.next = cdSeize, next
	take, ok := p.react(t, self, ctx)
	if !ok {
		return cavFallback.Seize(t, self, next)
	}
	return take
}

// Interpose implements cavaliers.Policy.
func (p *cavTactic) Interpose(t *cavaliers.Table, self, attacker, target int) bool {
	ctx := noCavCtx
	ctx.offer, ctx.attacked, ctx.attacker = cdInterpose, target, attacker
	take, ok := p.react(t, self, ctx)
	if !ok {
		return cavFallback.Interpose(t, self, attacker, target)
	}
	return take
}

// Block implements cavaliers.Policy.
func (p *cavTactic) Block(t *cavaliers.Table, self, mover, to int) bool {
	ctx := noCavCtx
	ctx.offer, ctx.to = cdBlock, to
	take, ok := p.react(t, self, ctx)
	if !ok {
		return cavFallback.Block(t, self, mover, to)
	}
	return take
}

// Reprise implements cavaliers.Policy.
func (p *cavTactic) Reprise(t *cavaliers.Table, self, target int) bool {
	ctx := noCavCtx
	ctx.offer, ctx.target = cdReprise, target
	take, ok := p.react(t, self, ctx)
	if !ok {
		return cavFallback.Reprise(t, self, target)
	}
	return take
}

func cavPct(t *cavaliers.Table, i int) float64 {
	if m := t.MaxHP(i); m > 0 {
		return float64(t.HP(i)) / float64(m)
	}
	return 0
}

func cavFact(t *cavaliers.Table, self, id, arg int, ctx cavCtx) float64 {
	g := t.Game()
	switch id {
	case cfRound:
		return float64(t.Round())
	case cfSelfHP:
		return float64(t.HP(self))
	case cfSelfHPPct:
		return cavPct(t, self)
	case cfSelfArea:
		return float64(t.Area(self))
	case cfSelfMoved:
		return b2f(t.Moved(self))
	case cfSelfPosition:
		return float64(t.Rank(self) + 1)
	case cfSelfTotal:
		return float64(t.Total(self))
	case cfSelfRaises:
		return float64(t.Raises(self))
	case cfSelfPlus:
		return float64(t.Plus(self))
	case cfSelfPriceSeize:
		return float64(cavaliers.Price(t.Specialty(self), cavaliers.Seize))
	case cfSelfPriceInterpose:
		return float64(cavaliers.Price(t.Specialty(self), cavaliers.Interpose))
	case cfSelfPriceReprise:
		return float64(cavaliers.Price(t.Specialty(self), cavaliers.Reprise))
	case cfUnlock:
		return b2f(g.Opt.Spend == cavaliers.Unlock)
	case cfAllyActed, cfEnemyActed:
		return b2f(t.Acted(arg))
	case cfAllyDown, cfEnemyDown:
		return b2f(t.Out(arg))
	case cfAllyHP, cfEnemyHP:
		return float64(t.HP(arg))
	case cfAllyHPPct, cfEnemyHPPct:
		return cavPct(t, arg)
	case cfAllyDistance, cfEnemyDistance:
		return float64(cavAbs(t.Area(arg) - t.Area(self)))
	case cfOfferSeize:
		return b2f(ctx.offer == cdSeize)
	case cfOfferInterpose:
		return b2f(ctx.offer == cdInterpose)
	case cfOfferBlock:
		return b2f(ctx.offer == cdBlock)
	case cfOfferReprise:
		return b2f(ctx.offer == cdReprise)
	case cfOfferPrice:
		switch ctx.offer {
		case cdSeize:
			return float64(cavaliers.Price(t.Specialty(self), cavaliers.Seize))
		case cdInterpose, cdBlock:
			return float64(cavaliers.Price(t.Specialty(self), cavaliers.Interpose))
		case cdReprise:
			return float64(cavaliers.Price(t.Specialty(self), cavaliers.Reprise))
		}
		return 0
	case cfNextIsEnemy:
		return b2f(ctx.next >= 0 && t.Side(ctx.next) != t.Side(self))
	case cfNextDistance:
		if ctx.next < 0 {
			return 0
		}
		return float64(cavAbs(t.Area(ctx.next) - t.Area(self)))
	case cfNextWoundedNear:
		low := 1.0
		if ctx.next < 0 {
			return low
		}
		for j := 0; j < t.N(); j++ {
			if t.Present(j) && t.Side(j) == t.Side(self) && cavAbs(t.Area(j)-t.Area(ctx.next)) <= 1 {
				low = min(low, cavPct(t, j))
			}
		}
		return low
	case cfAttackedHP:
		if ctx.attacked < 0 {
			return 0
		}
		return float64(t.HP(ctx.attacked))
	case cfAttackedHPPct:
		if ctx.attacked < 0 {
			return 0
		}
		return cavPct(t, ctx.attacked)
	case cfAttackedWeakest:
		if ctx.attacked < 0 {
			return 0
		}
		for j := 0; j < t.N(); j++ {
			if j != self && t.Present(j) && t.Side(j) == t.Side(self) && t.HP(j) < t.HP(ctx.attacked) {
				return 0
			}
		}
		return 1
	case cfAttackedDistance:
		if ctx.attacked < 0 {
			return 0
		}
		return float64(cavAbs(t.Area(ctx.attacked) - t.Area(self)))
	case cfMoverTo:
		return float64(ctx.to)
	case cfTargetHP:
		if ctx.target < 0 {
			return 0
		}
		return float64(t.HP(ctx.target))
	case cfAllyNext, cfEnemyNext:
		return b2f(ctx.next >= 0 && ctx.next == arg)
	case cfEnemyAttacking:
		return b2f(ctx.attacker >= 0 && ctx.attacker == arg)
	case cfAttackerHP, cfAttackerHPPct, cfAttackerDistance:
		switch {
		case ctx.attacker < 0:
			return 0
		case id == cfAttackerHP:
			return float64(t.HP(ctx.attacker))
		case id == cfAttackerHPPct:
			return cavPct(t, ctx.attacker)
		}
		return float64(cavAbs(t.Area(ctx.attacker) - t.Area(self)))
	}
	n := 0
	for j := 0; j < t.N(); j++ {
		if j == self {
			continue
		}
		if !t.Present(j) {
			if id == cfAlliesDown && t.Out(j) && t.Side(j) == t.Side(self) {
				n++
			}
			continue
		}
		enemy := t.Side(j) != t.Side(self)
		d := cavAbs(t.Area(j) - t.Area(self))
		switch id {
		case cfEnemiesCount:
			n += ib(enemy)
		case cfEnemiesHere:
			n += ib(enemy && d == 0)
		case cfEnemiesNear:
			n += ib(enemy && d <= 1)
		case cfAlliesCount:
			n += ib(!enemy)
		case cfAlliesHere:
			n += ib(!enemy && d == 0)
		}
	}
	return float64(n)
}

// text names a decision for traces.
func (do *cavDo) text(g *cavaliers.Game) string {
	switch do.kind {
	case cdAdvance:
		return "advance"
	case cdAdvanceTo:
		return "advance to " + g.C[do.who].Name
	case cdFollow:
		return "follow " + g.C[do.who].Name
	case cdHold:
		return "hold"
	case cdAttack:
		return "attack"
	case cdNothing:
		return "nothing"
	case cdSeize:
		return "seize"
	case cdInterpose, cdBlock:
		s := "interpose"
		if do.kind == cdBlock {
			s = "block"
		}
		if do.who >= 0 {
			s += " for " + g.C[do.who].Name
		}
		return s
	case cdReprise:
		return "reprise"
	case cdSpecial:
		return g.ActionName(do.who)
	}
	return "pass"
}
