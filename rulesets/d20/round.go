package d20

import "simctl/sim"

// playRound walks the initiative order once. Entries move while the round
// runs (a readied action moves its combatant just ahead of the trigger, a
// delayed one just after where it acts), so the walk follows t.cur, which
// place keeps on the combatant whose turn is in progress.
func (t *Table) playRound() {
	t.acted, t.movedMask = 0, 0
	for t.cur = 0; t.cur < len(t.order); t.cur++ {
		i := t.order[t.cur]
		// Delay: a combatant waiting for a count acts before the first
		// combatant whose count is lower.
		if t.delayCount != 0 && t.resumeDelayedAtCount(i) { // delayCount: see resumeDelayedAtCount
			if t.over() {
				return
			}
			i = t.order[t.cur]
		}
		if (t.upMask[0]|t.upMask[1])&(1<<uint(i)) == 0 || (t.stdOne && !t.g.C[i].Aware) { // out of the fight (upMask is !out)
			continue
		}
		t.turn(i)
		if t.over() {
			return
		}
		// Delay: combatants waiting for a combatant that acted in this turn
		// (usually i) act right after it.
		if t.delayWait != 0 {
			t.resumeWaiters(i)
			if t.over() {
				return
			}
		} else if t.tactics && t.order[t.cur] != i {
			t.cur = t.index(i) // what resumeWaiters does when no one waits
		}
	}
	if t.tactics {
		t.resumeDelayedAtEnd()
	}
}

// turn is combatant i's regular turn in the order.
func (t *Table) turn(i int) {
	f := &t.f[i]
	c := &t.g.C[i]
	if t.head < 0 {
		t.head = i
	}
	t.actor = i  // playRound has t.cur on i already
	t.turns[i]++ // Counts.Turn, at the encounter's end (flushCounts)
	if t.log != nil {
		t.logf("%s's turn (count %d, hp %d)", c.Name, f.count, f.hp)
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: i, Target: sim.NoOne, Roll: f.count, Amount: f.hp})
	}
	// "If you come to your next action and have not yet performed" the
	// delayed or readied action, it is lost.
	if f.delayed {
		t.undelay(i)
		t.c.Lost(c.Side, i)
		if t.log != nil {
			t.logf("%s never took its delayed action: lost", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "delay"})
		}
	}
	if f.readied {
		t.unready(i)
		t.c.Inc(c.Side, sim.ReadiesWasted)
		t.c.Lost(c.Side, i)
		if t.log != nil {
			t.logf("%s's readied action was never triggered: lost", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "ready"})
		}
	}
	// Flat-footed ends at the first regular turn (the surprise round is not
	// one unless the option says so).
	if !t.stdOne || t.g.Opt.SurpriseEndsFlatFooted {
		f.flatFooted = false
	}
	f.chargeAC = false
	f.aooLeft = f.aooMax
	if t.g.traits != nil && t.g.traits.turns[i] {
		t.traitTurn(i)
		t.actor = -1
		return
	}
	plan := &t.plan
	if c.std && !t.tactics && !t.stdOne && (t.log == nil || c.stdRule.Count < 0) && (c.stdRule.Guard == nil || !c.stdRule.Guard(t, i)) {
		// The usual turn: a standard policy's target already in reach, and
		// nobody delaying or readied. What act does with that plan, without
		// building it: weapons, no movement.
		tg := t.PickTarget(i, c.stdRule.Rule, c.stdRule.Limit, true)
		if tg >= 0 && abs(f.x-t.f[tg].x) <= c.Reach {
			if c.stdRule.Count >= 0 {
				t.c.Rule(c.stdRule.Count)
			}
			t.acts(i)
			if len(c.Attacks) == 1 {
				t.attackAction(i, tg)
			} else {
				t.fullAttack(i, tg)
			}
			t.actor = -1
			return
		}
		// Out of reach: the plan decide would make, with the target just
		// picked (decide would pick it again with the same arguments: no
		// surprise round here).
		*plan = NoPlan
		t.standardPlan(i, plan, tg)
	} else {
		t.decide(i, plan)
	}
	t.carryOut(i, plan)
	t.actor = -1
}

// carryOut carries out the plan of i's turn: a delay, a ready (after the
// advance it may start with), or an act.
func (t *Table) carryOut(i int, plan *Plan) {
	switch plan.Do {
	case Delay:
		t.startDelay(i, plan)
	case Ready:
		if plan.Advance && !t.stdOne {
			t.advance(i, plan.Target)
			if t.f[i].out {
				break
			}
		}
		t.startReady(i, plan)
	default:
		if plan.Special > 0 {
			t.special(i, plan.Special-1)
			return
		}
		t.act(i, plan)
	}
}

// act carries out an Act plan: a spell, or weapons after whatever movement
// the distance needs. In the surprise round only one standard action.
func (t *Table) act(i int, p *Plan) {
	c := &t.g.C[i]
	f := &t.f[i]
	t.acts(i)
	if p.Target < 0 || t.f[p.Target].out {
		// A spent turn is not an action for FirstActor.
		if t.log != nil {
			t.logf("%s has no one to act against", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "no target"})
		}
		return
	}
	t.allyActs(i, p.Target)
	if f.out {
		return
	}
	if p.Spell >= 0 && t.cold[i].uses[p.Spell] > 0 {
		t.cast(i, p.Target, p.Spell)
		return
	}
	tg := p.Target
	if p.Shoot && c.Ranged.Increment > 0 {
		t.shootTurn(i, p, tg)
		return
	}
	need := t.Dist(i, tg) - c.Reach // feet to close before tg is in reach
	if need > 0 {
		// The way to tg may pass an enemy's square: the mover engages that
		// enemy instead (movement.go).
		if b := t.blocker(i, tg); b >= 0 {
			if t.log != nil {
				t.logf("%s's way to %s is blocked by %s: it engages %s", c.Name, t.name(tg), t.name(b), t.name(b))
				t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: b, Rule: "blocked"})
			}
			tg = b
			need = t.Dist(i, tg) - c.Reach
		}
	}
	switch {
	case need <= 0:
		if t.stdOne || len(c.Attacks) == 1 {
			t.attackAction(i, tg)
		} else {
			t.fullAttack(i, tg)
		}
	case need <= 5 && !t.stdOne:
		// A 5-foot step is the one movement a full attack allows, and it
		// provokes no attack of opportunity where a move would.
		t.step(i, tg)
		switch {
		case f.out || t.f[tg].out:
		case len(c.Attacks) > 1:
			t.fullAttack(i, tg)
		default:
			t.attackAction(i, tg)
		}
	case need <= 5 && t.stdOne:
		// Surprise round: the single standard action may come with a
		// 5-foot step, as in any round with no other movement.
		t.step(i, tg)
		if !f.out && !t.f[tg].out && t.InReach(i, tg) {
			t.attackAction(i, tg)
		}
	case !p.NoCharge && t.canCharge(i, need, p.Charge):
		t.charge(i, tg)
	case need <= c.Speed && !t.stdOne:
		t.move(i, tg, need)
		if !f.out && !t.f[tg].out {
			t.attackAction(i, tg)
		}
	default:
		moves := 2
		if t.stdOne {
			moves = 1
		}
		t.move(i, tg, min(need, moves*c.Speed))
	}
}

// canCharge: a charge needs at least 10 feet of movement and at most twice
// speed (only speed when the turn allows a single standard action). The
// policy asks for it (Charge) or it is the only way to attack this turn.
func (t *Table) canCharge(i, need int, want bool) bool {
	c := &t.g.C[i]
	limit := 2 * c.Speed
	if t.stdOne {
		limit = c.Speed
	}
	if need < 10 || need > limit {
		return false
	}
	return want || need > c.Speed || t.stdOne
}

// endOfRound runs the SRD dying rule when that option is on.
func (t *Table) endOfRound() {
	if t.g.srdDying {
		t.bleed()
	}
}
