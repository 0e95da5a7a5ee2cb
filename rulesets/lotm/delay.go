package lotm

import (
	"simctl/sim"
	"simctl/sim/msg"
)

// Delay Action. It is itself the turn's Attack/Casting action ("An
// Attack/Casting Action, but you delay this action"); the combatant chooses
// one action to hold — Swift, Attack, Casting or Move — and declares a
// trigger within this round. Holding a Swift or Move action sets that
// action aside too (it is not used in the turn); holding the Attack (or,
// with casting_slot shared, the Casting) action is the paid action itself.
// When the trigger happens the held action is taken at once; if it does not
// happen this round the action is spent and lost; it is never carried into
// the next round (endRound).
//
// Triggers:
//
//	ally_grapples   the named ally (any ally if none is named) grapples an
//	                enemy: right after its grapple check, the grappled enemy
//	                is the trigger's target (the source's use case: strike
//	                while the teammate's grapple holds, before the enemy's
//	                turn can break it)
//	after_ally      the named ally's turn ends (even a turn it lost)
//	enemy_in_reach  an enemy's move ends within 1 meter of the delayer:
//	                before that enemy's attack (the source's obstacle case)
//	enemy_casts     an enemy starts a Casting action (a casting, a Vital
//	                Strike made with it, First Aid, Full Meditation):
//	                before it takes effect
//	enemy_attacks_ally  an enemy starts an Attack or Casting action at the
//	                named ally (any ally if none is named): before its check
//	enemy_acts      the named enemy (any enemy if none is named) starts its
//	                turn (not a stunned one: it does not act)
//
// The last three are the source's "when the target ... takes a certain
// action"; the enemy concerned is the trigger's target.
//
// A held Attack is taken where the delayer stands (taking it is not a
// Move), and a Swift action still unused may go with it as a Build-Up Aim
// ("if you have an extra Swift Action, the attack can also stack one
// Build-Up Aim"). A Free action is never limited in this simulator (Burn
// Luck, the one Free action, is used when its check comes), so there is
// nothing to hold and it is not offered.

func (t *Table) declareDelay(i int, p Plan) {
	f := &t.f[i]
	ok := p.Trigger >= OnAllyGrapples && p.Trigger <= OnEnemyActs
	switch p.Delay {
	case KindAttack:
		ok = ok && t.canUse(i, KindAttack)
	case KindCasting:
		ok = ok && t.canUse(i, KindCasting) && (t.slot(KindCasting) != KindAttack || t.canUse(i, KindAttack))
	case KindSwift, KindMove:
		ok = ok && t.canUse(i, KindAttack) && t.canUse(i, p.Delay)
	default:
		ok = false
	}
	if !ok {
		if t.log != nil {
			t.logf("  %s cannot delay a %s action (trigger %s)", t.name(i), KindNames[p.Delay], TriggerNames[p.Trigger])
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "delay: " + KindNames[p.Delay] + "/" + TriggerNames[p.Trigger]})
		}
		return
	}
	// The price is "An Attack/Casting Action, but you delay this action":
	// holding the Casting action with casting_slot separate, the held
	// Casting action is the one paid and the Attack action stays;
	// otherwise the Attack (Attack/Casting) action pays.
	if p.Delay != KindCasting || t.slot(KindCasting) == KindAttack {
		t.spend(i, KindAttack)
	}
	t.spend(i, p.Delay)
	f.delayed, f.delayKind, f.delayTrig, f.delayAlly = true, p.Delay, p.Trigger, p.Ally
	t.anyDelay = true
	t.c.Inc(t.side(i), sim.Delays)
	if t.log != nil {
		who := ""
		if p.Ally >= 0 {
			who = " (" + t.name(p.Ally) + ")"
		}
		t.logf("  %s delays its %s action until %s%s", t.name(i), KindNames[p.Delay], TriggerNames[p.Trigger], who)
		t.ev(sim.Event{Kind: sim.EvDelay, Actor: i, Target: p.Ally, Rule: KindNames[p.Delay] + "/" + TriggerNames[p.Trigger]})
	}
}

// delaysOnGrapple: ally_grapples, after a's grapple of tg.
func (t *Table) delaysOnGrapple(a, tg int) {
	if !t.anyDelay {
		return
	}
	for _, d := range t.order {
		f := &t.f[d]
		if f.delayed && f.delayTrig == OnAllyGrapples && d != a && t.side(d) == t.side(a) &&
			(f.delayAlly < 0 || f.delayAlly == a) && t.present(d) {
			if t.log != nil {
				t.logf("  trigger for %s: %s grapples %s", t.name(d), t.name(a), t.name(tg))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: a, Amount: tg, Rule: "trigger: grapples"})
			}
			t.fireDelay(d, tg)
			if t.over() || !t.present(a) {
				return
			}
		}
	}
}

// delaysAfter: after_ally, when a's turn ends.
func (t *Table) delaysAfter(a int) {
	if t.anyDelay { // inlined: no one delayed, nothing to scan
		t.delaysAfterScan(a)
	}
}

func (t *Table) delaysAfterScan(a int) {
	for _, d := range t.order {
		f := &t.f[d]
		if f.delayed && f.delayTrig == OnAfterAlly && d != a && t.side(d) == t.side(a) &&
			(f.delayAlly < 0 || f.delayAlly == a) && t.present(d) {
			if t.log != nil {
				t.logf("  trigger for %s: %s's turn ends", t.name(d), t.name(a))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: a, Rule: "trigger: turn ends"})
			}
			t.fireDelay(d, -1)
			if t.over() {
				return
			}
		}
	}
}

// reachTriggers: enemy_in_reach, when m's move from "from" ends within
// 1 meter of a delayer it was farther from.
func (t *Table) reachTriggers(m, from int) {
	if t.anyDelay { // inlined: no one delayed, nothing to scan
		t.reachTriggersScan(m, from)
	}
}

func (t *Table) reachTriggersScan(m, from int) {
	for _, d := range t.order {
		f := &t.f[d]
		if f.delayed && f.delayTrig == OnEnemyInReach && t.side(d) != t.side(m) && t.present(d) &&
			abs(from-t.x[d]) > Reach && t.Dist(m, d) <= Reach {
			if t.log != nil {
				t.logf("  trigger for %s: %s comes within reach", t.name(d), t.name(m))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: m, Rule: "trigger: within reach"})
			}
			t.fireDelay(d, m)
			if t.over() || !t.present(m) {
				return
			}
		}
	}
}

// fireDelay takes d's held action now; target is the trigger's combatant.
// The policy is asked for the plan (Resuming and TriggerTarget tell it
// why); only the held kind of action is carried out.
//
// A delayer stunned since it declared (a Vital Strike to the head) cannot
// take the held action: it is lost (the stun's lost turn still comes).
func (t *Table) fireDelay(d, target int) {
	f := &t.f[d]
	f.delayed = false
	if f.stunned {
		t.c.Lost(t.side(d), d)
		if t.log != nil {
			t.logf("  %s is stunned: its delayed %s action is lost", t.name(d), KindNames[f.delayKind])
			t.ev(sim.Event{Kind: sim.EvLost, Actor: d, Target: sim.NoOne, Rule: "delay: stunned"})
		}
		return
	}
	t.c.Inc(t.side(d), DelaysFired)
	if t.actor >= 0 && t.side(t.actor) != t.side(d) {
		t.c.Inc(t.side(d), sim.Interrupts)
	}
	sr, st, si, sa := t.resume, t.trigT, t.inner, t.actor
	t.resume, t.trigT, t.inner = d, target, true
	p := t.g.C[d].Policy.Turn(t, d)
	tg := p.Target
	if tg < 0 || !t.Targetable(d, tg) {
		tg = target
	}
	if t.log != nil {
		t.logf("  %s takes its delayed %s action", t.name(d), KindNames[f.delayKind])
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: d, Target: sim.NoOne, Roll: t.f[d].count, Amount: t.f[d].hp, Rule: "delayed " + KindNames[f.delayKind]})
	}
	if f.delayTrig == OnEnemyInReach && (f.delayKind == KindAttack || f.delayKind == KindCasting) && tg == target {
		t.obstacleStrike(d, tg)
	}
	switch f.delayKind {
	case KindAttack:
		if p.Main != MainCast && p.Main != MainFirstAid && p.Main != MainDelay && p.Main != MainNone && p.Main != MainMeditate && !(p.Main == MainVital && p.Cast) {
			if p.Swift == SwiftAim && aimable(&p) {
				t.swift(d, SwiftAim, tg, false)
			}
			t.attackAction(d, &p, tg, true)
		}
	case KindCasting:
		if p.Main == MainCast || (p.Main == MainVital && p.Cast) {
			if p.Swift == SwiftAim {
				t.swift(d, SwiftAim, tg, false)
			}
			t.attackAction(d, &p, tg, true)
		}
	case KindMove:
		t.approach(d, tg, true)
	case KindSwift:
		t.swift(d, p.Swift, tg, true)
	}
	f.aim, f.feintOn, f.ambushOne, f.cogOn, f.disOne = false, -1, false, -1, false
	t.resume, t.trigT, t.inner, t.actor = sr, st, si, sa
}

// actionTriggers: enemy_casts and enemy_attacks_ally, as a starts an
// action of kind k at tg (-1: at no one). It reports whether a is still in
// the battle to carry the action on.
func (t *Table) actionTriggers(a, tg int, k Kind) bool {
	return !t.anyDelay || t.actionTriggersScan(a, tg, k) // inlined: no one delayed, nothing to scan
}

func (t *Table) actionTriggersScan(a, tg int, k Kind) bool {
	for _, d := range t.order {
		f := &t.f[d]
		if !f.delayed || t.side(d) == t.side(a) || !t.present(d) {
			continue
		}
		var why msg.Text
		switch {
		case f.delayTrig == OnEnemyCasts && k == KindCasting:
			why = msg.New("starts a Casting action")
		case f.delayTrig == OnEnemyAttacksAlly && tg >= 0 && tg != d && t.side(tg) == t.side(d) && (f.delayAlly < 0 || f.delayAlly == tg):
			why = msg.New("attacks %s", t.name(tg))
		default:
			continue
		}
		if t.log != nil {
			t.logf("  trigger for %s: %s %s", t.name(d), t.name(a), why)
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: a, Rule: "trigger: " + why.String()})
		}
		t.fireDelay(d, a)
		if t.over() || !t.present(a) {
			return false
		}
	}
	return true
}

// turnTriggers: enemy_acts, as a starts its turn. It reports whether a is
// still in the battle to take it.
func (t *Table) turnTriggers(a int) bool {
	return !t.anyDelay || t.turnTriggersScan(a) // inlined: no one delayed, nothing to scan
}

func (t *Table) turnTriggersScan(a int) bool {
	for _, d := range t.order {
		f := &t.f[d]
		if !f.delayed || f.delayTrig != OnEnemyActs || t.side(d) == t.side(a) || !t.present(d) || (f.delayAlly >= 0 && f.delayAlly != a) {
			continue
		}
		if t.log != nil {
			t.logf("  trigger for %s: %s acts", t.name(d), t.name(a))
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: a, Rule: "trigger: acts"})
		}
		t.fireDelay(d, a)
		if t.over() || !t.present(a) {
			return false
		}
	}
	return true
}
