package acks2

import (
	"simctl/sim"
	"simctl/sim/msg"
)

// segment is combatant i's initiative segment on its own number (its
// start-of-segment effects have just been applied).
func (t *Table) segment(i int) {
	f := &t.f[i]
	c := &t.g.C[i]
	t.c.Turn(c.Side, i)
	if t.log != nil {
		t.logf("%s's segment (number %d, hp %d)", c.Name, f.number, f.hp)
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: i, Target: sim.NoOne, Roll: f.number, Amount: f.hp})
	}
	if f.castLost {
		t.loseSegment(i)
		return
	}
	if t.tr != nil && !t.traitSegment(i) {
		return
	}
	t.actor = i
	if t.plain[i] != 0 {
		// shortcuts.go: the policy's Turn is always this plan; an Act
		// plan is plan's act, extra attacks and finish.
		t.act(i, Plan{Target: t.WeakestTarget(i), Charge: t.plain[i] == plainCharge, DelayAfter: -1})
		if t.tr != nil && t.extra[i] > 0 {
			t.traitExtra(i)
		}
		t.finishSegment(i)
	} else {
		t.plan(i, c.Policy.Turn(t, i))
	}
	t.actor = -1
}

// resume: a delaying combatant's wait is over and it takes its segment's
// action now (it may delay again, within its limit).
func (t *Table) resume(i int) {
	f := &t.f[i]
	t.stopDelay(i)
	if t.log != nil {
		t.logf("%s takes its delayed segment at count %d", t.name(i), t.now)
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: i, Target: sim.NoOne, Roll: t.now, Amount: f.hp, Rule: "delayed"})
	}
	if f.castLost {
		t.loseSegment(i)
		return
	}
	t.resumer = i
	p := t.g.C[i].Policy.Turn(t, i)
	t.resumer = -1
	t.actor = i
	t.plan(i, p)
	t.actor = -1
}

// loseSegment: a declared caster whose spell was disrupted before its
// segment spent the segment casting; its action is lost (so it is not an
// action for Outcome.FirstActor).
func (t *Table) loseSegment(i int) {
	t.c.Lost(t.side(i), i)
	if t.log != nil {
		t.logf("%s's declared spell was disrupted: no action this segment", t.name(i))
		t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "spell disrupted"})
	}
	t.finishSegment(i)
}

// plan carries out a policy's plan for i's segment. A declared spell,
// withdrawal or retreat is the segment's action: it can be delayed but not
// replaced by a readied attack.
func (t *Table) plan(i int, p Plan) {
	f := &t.f[i]
	switch p.Do {
	case Delay:
		if t.startDelay(i, p) {
			return
		}
	case Ready:
		if f.decl.Kind == DeclareNothing {
			t.startReady(i)
			t.finishSegment(i)
			return
		}
	}
	t.act(i, p)
	if t.tr != nil && t.extra[i] > 0 {
		t.traitExtra(i)
	}
	t.finishSegment(i)
}

// finishSegment ends i's segment: its round-1 readiness is gone (it has
// used its number) and its end-of-segment effects happen now.
func (t *Table) finishSegment(i int) {
	f := &t.f[i]
	f.segDone = true
	f.r1 = false
	if !f.out && !t.noFx {
		t.endOfSegment(i)
	}
}

// tookAction records i as the encounter's first actor if nobody acted
// before. Deciding to delay or ready is not an action; act (on its number
// or when the delay ends) and the readied and round-1 attacks are. A
// charger whose movement triggers a readied or round-1 attack began its
// action first, so it stays the first actor although the interrupting
// attack lands before its own.
func (t *Table) tookAction(i int) {
	if t.first < 0 {
		t.first = i
	}
}

// act is the segment's action: the declared one, or fighting.
func (t *Table) act(i int, p Plan) {
	f := &t.f[i]
	t.tookAction(i)
	if f.ready {
		// It began the round with a readied attack that nothing triggered
		// and now acts otherwise: the readied attack is gone.
		f.ready = false
		t.c.Inc(t.side(i), sim.ReadiesWasted)
		if t.log != nil {
			t.logf("%s acts on its number: its untriggered readied attack is dropped", t.name(i))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "ready dropped"})
		}
	}
	switch f.decl.Kind {
	case DeclareSpell:
		t.castDeclared(i, p.Target)
	case DeclareWithdraw, DeclareRetreat:
		t.defensiveMove(i, f.decl.Kind == DeclareRetreat)
	default:
		if p.Special > 0 && t.tr != nil {
			t.takeSpecial(i, p.Special-1)
			return
		}
		t.fight(i, p)
	}
}

// fight attacks, charges or closes in on the plan's target.
//
//   - A missile weapon shoots any enemy in range, engaged or not; out of
//     range it first moves up to its speed toward the target.
//   - In melee (within 5 feet) it attacks. Engaged with others, it attacks
//     one of them instead (the weakest it can reach): engaged combatants
//     cannot move.
//   - Otherwise it charges when the plan asks and the target is beyond 5
//     feet but within twice its speed; moves up to its speed and attacks;
//     or, farther still, marches up to twice its speed without attacking.
func (t *Table) fight(i int, p Plan) {
	c := &t.g.C[i]
	tg := p.Target
	if tg < 0 || tg >= len(t.f) || t.f[tg].out || t.side(tg) == c.Side {
		tg = t.nearestEnemy(i)
		if tg < 0 {
			return
		}
	}
	if c.Weapon == Missile {
		if !t.canAttack(i, tg) && !t.engaged(i) {
			t.approach(i, tg, c.Speed)
			if t.f[i].out {
				return
			}
		}
		if !t.canAttack(i, tg) {
			tg = t.weakestAttackable(i)
		}
		if tg >= 0 {
			t.attackAction(i, tg)
		} else if t.log != nil {
			t.logf("%s has no one in range", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "no target"})
		}
		return
	}
	if t.canAttack(i, tg) {
		t.attackAction(i, tg)
		return
	}
	if t.engaged(i) {
		if alt := t.weakestAttackable(i); alt >= 0 {
			if t.log != nil {
				t.logf("%s is engaged and cannot reach %s: it attacks %s", c.Name, t.name(tg), t.name(alt))
				t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: alt, Rule: "engaged: attacks another"})
			}
			t.attackAction(i, alt)
		}
		return
	}
	gap := t.Dist(i, tg) - 5
	switch {
	case p.Charge && gap > 0 && gap <= 2*c.Speed:
		t.charge(i, tg)
	case gap <= c.Speed:
		t.c.Inc(c.Side, sim.Actions)
		t.approach(i, tg, c.Speed)
		if t.f[i].out {
			return
		}
		if !t.canAttack(i, tg) {
			tg = t.weakestAttackable(i)
		}
		if tg >= 0 {
			t.attacks(i, tg)
		}
	default:
		t.c.Inc(c.Side, sim.Actions)
		if t.log != nil {
			t.logf("%s marches toward %s", c.Name, t.name(tg))
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: tg, Rule: "march"})
		}
		t.approach(i, tg, 2*c.Speed)
	}
}

// charge: a full-round action; the charger moves up to twice its speed
// straight at the target and makes one attack with charge_bonus. It cannot
// charge while engaged. At the end of its movement, before its attack,
// enemies with a readied attack or (round 1) a missile or long weapon
// ready may attack it first (ready.go). A screen that engages it on the way
// stops it; it then attacks an enemy it can reach.
func (t *Table) charge(i, tg int) {
	f := &t.f[i]
	c := &t.g.C[i]
	t.c.Inc(c.Side, Charges)
	t.c.Inc(c.Side, sim.Actions)
	if t.log != nil {
		t.logf("%s charges %s (%d ft away)", c.Name, t.name(tg), t.Dist(i, tg))
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: tg, Amount: t.Dist(i, tg), Rule: "charge"})
	}
	f.charging, f.chargeAt = true, tg
	t.approach(i, tg, 2*c.Speed)
	f.charging = false
	if f.out {
		return
	}
	if !t.canAttack(i, tg) {
		tg = t.weakestAttackable(i)
		if tg < 0 {
			return
		}
	}
	if t.attack(i, tg, c.Attacks[0], t.g.Opt.ChargeBonus, "charges into") {
		t.cleave(i)
	}
}

// defensiveMove carries out a declared withdrawal (half speed away from
// the enemy, no attack) or retreat (full speed away; with option
// retreat_free_attack every enemy with a melee or long weapon engaged with
// it first gets one attack).
// Both may be taken while engaged; they are the only movement an engaged
// combatant may make.
func (t *Table) defensiveMove(i int, retreat bool) {
	c := &t.g.C[i]
	t.c.Inc(c.Side, sim.Actions)
	feet := c.Speed / 2
	what := "withdraws"
	if retreat {
		feet = c.Speed
		what = "retreats"
		t.c.Inc(c.Side, Retreats)
	} else {
		t.c.Inc(c.Side, Withdrawals)
	}
	if t.log != nil {
		t.logf("%s %s (up to %d ft)", c.Name, msg.New(what), feet)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Amount: feet, Rule: what})
	}
	if retreat && t.g.Opt.RetreatFreeAttack {
		for e := range t.f {
			if t.f[i].out {
				return
			}
			if t.g.C[e].Weapon != Missile && t.engages(e, i) {
				if t.attack(e, i, t.g.C[e].Attacks[0], 0, "gets a free attack on the retreating") {
					t.cleave(e)
				}
			}
		}
		if t.f[i].out {
			return
		}
	}
	t.moveAway(i, feet)
}

// attackAction is an attack action: one attack with each modifier of
// attacks, at one target. When the target drops the routine ends (a cleave
// may follow).
func (t *Table) attackAction(i, tg int) {
	t.c.Inc(t.side(i), sim.Actions)
	t.attacks(i, tg)
}

func (t *Table) attacks(i, tg int) {
	for _, mod := range t.g.C[i].Attacks {
		if t.f[tg].out || t.f[i].out {
			return
		}
		if t.attack(i, tg, mod, 0, "attacks") {
			if t.g.C[i].Weapon != Missile {
				t.cleave(i)
			}
			return
		}
	}
}

// startOfSegment: "Effects that trigger at the start of a character's
// initiative happen before its delay" — at its own number, whatever it
// then does.
func (t *Table) startOfSegment(i int) {
	t.f[i].startDone = true
	t.toStart--
	if t.f[i].neff > 0 { // lingering effects are rare: skip the call
		t.tick(i, AtStart)
	}
}

// endOfSegment: effects that trigger at the end of its segment happen when
// it finally acts, or at the end of the round if it never does.
func (t *Table) endOfSegment(i int) {
	if t.f[i].endDone {
		return
	}
	t.f[i].endDone = true
	if t.f[i].neff > 0 {
		t.tick(i, AtEnd)
	}
}

// nearestEnemy is the closest enemy in the fight (-1: none).
func (t *Table) nearestEnemy(i int) int {
	best := -1
	for _, j := range t.Foes(i) {
		if t.f[j].out {
			continue
		}
		if best < 0 || t.Dist(i, j) < t.Dist(i, best) {
			best = j
		}
	}
	return best
}

// weakestAttackable is the enemy with the fewest HP that i can attack
// where it stands (-1: none).
func (t *Table) weakestAttackable(i int) int {
	best := -1
	for _, j := range t.Foes(i) {
		if !t.canAttack(i, j) {
			continue
		}
		if best < 0 || t.f[j].hp < t.f[best].hp {
			best = j
		}
	}
	return best
}
