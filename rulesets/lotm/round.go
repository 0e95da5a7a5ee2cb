package lotm

import (
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/rng"
)

// Play implements sim.Table: initiative, a pre-combat Ambush Round when one
// side is ambushed, then regular rounds in initiative order until one side
// is out or max_rounds is reached. At the start of a round, combatants whose
// joins_round has come join the battle, by an inserted ambush (an Ambush
// Round of their own) unless joins_ambush is false.
func (t *Table) Play(r *rng.Stream, c *sim.Counts, log *sim.Log) sim.Outcome {
	t.r, t.c, t.log = r, c, log
	t.setup()
	t.rollInitiative()
	if s, ambushers, ambushed := t.preCombat(); s >= 0 {
		if t.log != nil {
			t.logf("-- pre-combat ambush: an Ambush Round for side %d", s)
			t.ev(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: 0, Amount: s, Rule: "ambush"})
		}
		t.ambushRound(s, ambushers, ambushed)
	}
	winner := t.winner()
	rounds := 0
	for round := 1; winner < 0 && round <= t.g.Maxround; round++ {
		if t.c.Stopped() { // the run is stopping: abandoned, not counted
			return sim.Outcome{}
		}
		t.round, rounds = round, round
		if t.log != nil {
			t.logf("-- round %d", round)
			t.ev(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: round})
		}
		t.join(round)
		if winner = t.winner(); winner >= 0 {
			break
		}
		if t.tr != nil {
			t.traitRoundStart()
		}
		t.playRound()
		winner = t.winner()
	}
	out := sim.Outcome{Winner: winner, Rounds: rounds, FirstActor: t.first, FirstInOrder: t.firstO}
	for i := range t.f {
		if !t.f[i].out {
			out.Survivors[t.g.C[i].Side]++
		}
	}
	if winner < 0 {
		// No one flees in this ruleset and a side is beaten the moment its
		// last combatant is out, so both sides gone cannot happen today;
		// the check keeps Draw right if that changes.
		out.Draw = sim.DrawMaxRounds
		if out.Survivors[0] == 0 && out.Survivors[1] == 0 {
			out.Draw = sim.DrawAllGone
		}
	}
	t.recordEnds()
	if log != nil {
		t.logOutcome(out)
	}
	return out
}

// newRound gives everyone its round's actions back.
func (t *Table) newRound() {
	for i := range t.f {
		f := &t.f[i]
		f.used = 0
		f.turnDone, f.skipNext = f.skipNext, false
	}
}

// playRound walks the initiative order once.
func (t *Table) playRound() {
	t.newRound()
	if !t.walk(false) {
		t.endRound()
	}
}

// walk plays the turns of one round in initiative order (in an Ambush
// Round, only the ambushers'). Before each turn, enemies of the actor that
// can make a mid-combat ambush may bring their turns forward ahead of it
// (ambush.go). It reports whether the fight ended.
func (t *Table) walk(ambushersOnly bool) bool {
	if t.firstO < 0 {
		// The first round in which anyone has a turn: its first in order.
		for _, i := range t.order {
			if t.present(i) && !t.f[i].turnDone && (!ambushersOnly || t.f[i].ambusher) {
				t.firstO = i
				break
			}
		}
	}
	for t.cur = 0; t.cur < len(t.order); t.cur++ {
		i := t.order[t.cur]
		if !t.present(i) || t.f[i].turnDone || (ambushersOnly && !t.f[i].ambusher) {
			continue
		}
		if mask := t.insertCandidates(i, false); mask != 0 {
			t.runInserts(i, mask)
			if t.over() {
				return true
			}
			t.cur = t.index(i)
			if !t.present(i) {
				continue
			}
		}
		t.turn(i)
		if t.over() {
			return true
		}
		t.cur = t.index(i)
	}
	return false
}

// turn is combatant i's turn: a regular one, one in an Ambush Round, or one
// brought forward by a mid-combat ambush (turnWith).
func (t *Table) turn(i int) { t.turnWith(i, nil) }

// turnWith is i's turn; plan, when not nil, was asked already (an inserted
// turn's, insertTurn).
func (t *Table) turnWith(i int, plan *Plan) {
	f := &t.f[i]
	c := &t.g.C[i]
	f.turnDone = true
	saved := t.actor
	t.actor = i
	t.c.Turn(c.Side, i)
	if t.log != nil {
		t.logf("%s's turn (initiative %d, hp %d)", c.Name, f.count, f.hp)
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: i, Target: sim.NoOne, Roll: f.count, Amount: f.hp})
	}
	// A Half Meditation lasts until the next Swift action paid for it; a
	// Full Meditation ends as the turn comes.
	f.halfMed = false
	if f.meditating {
		f.meditating, f.fullMed = false, true
		if t.log != nil {
			t.logf("  %s ends its Full Meditation: willpower +2, intuition +1", c.Name)
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "full meditation ends"})
		}
	}
	dazed := t.tr != nil && t.traitTurnStart(i)
	if f.stunned {
		// Vital Strike to the head: stunned for 1 round, the turn is lost.
		f.stunned = false
		t.c.Lost(c.Side, i)
		if t.log != nil {
			t.logf("  %s is stunned and loses its turn", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "stunned"})
		}
	} else if dazed {
		t.c.Lost(c.Side, i)
		if t.log != nil {
			t.logf("%s takes no action this turn", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "trait"})
		}
	} else if t.turnTriggers(i) {
		if f.grappledBy >= 0 {
			t.breakFree(i)
		}
		if f.mustFlee >= 0 {
			t.fleeAtTurn(i)
		}
		if t.searchTurn && t.hideBy[1-t.sd[i]] != 0 { // no enemy can ever be hidden: nothing to search for
			t.search(i)
		}
		if plan == nil {
			t.execute(i, c.Policy.Turn(t, i))
		} else {
			t.execute(i, *plan)
		}
	}
	f.aim, f.feintOn, f.ambushOne, f.cogOn, f.disOne, f.cameTo = false, -1, false, -1, false, -1
	t.actor = saved
	t.delaysAfter(i)
}

// execute carries out a plan on i's turn, in this order: let go of a
// grapple, stand up (Off-Balance), hide (HideBefore), the movement ambush,
// the Swift action, moving into reach, the Attack/Casting action, hide
// (HideAfter). An Intimidate needs the target within 1 meter, so it comes
// after the approach when the target is not yet there. Whatever the plan
// asks that the rules do not allow now is skipped (and narrated).
func (t *Table) execute(i int, p Plan) {
	f := &t.f[i]
	if p.Release && f.grappling >= 0 {
		if t.log != nil {
			t.logf("  %s lets go of %s", t.name(i), t.name(f.grappling))
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: f.grappling, Rule: "release"})
		}
		t.endGrapple(i)
	}
	if p.Special > 0 && t.tr != nil {
		t.takeSpecial(i, p.Special-1)
	}
	tg := p.Target
	if tg >= 0 && (!t.Targetable(i, tg) || t.out(tg)) {
		if t.log != nil {
			t.logf("  %s cannot target %s", t.name(i), t.name(tg))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: tg, Rule: "cannot target"})
		}
		tg = -1
	}
	enemy := tg >= 0 && t.side(tg) != t.side(i)
	// A turn brought forward by a mid-combat ambush is that ambush: from
	// invisibility when hidden, else a movement ambush, made first (its Move
	// action is what canInsert required; standing up would spend it).
	if enemy && t.insrt == i && !f.hidden {
		t.teleport(i, tg)
	}
	if f.offBalance && p.Stand && t.canUse(i, KindMove) {
		t.use(i, KindMove)
		f.offBalance = false
		if t.log != nil {
			t.logf("  %s stands up (Move action): no longer Off-Balance", t.name(i))
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "stand up"})
		}
	}
	if p.Hide == HideBefore {
		t.hide(i)
	}
	if p.Cover == CoverItem {
		t.takeCover(i, CoverItem)
	}
	if enemy && p.Teleport {
		t.teleport(i, tg)
	}
	need := enemy && needsReach(&p, &t.g.C[i])
	if p.Swift == SwiftAim && !aimable(&p) {
		// Build-Up Aim goes "alongside any action that ... requires a hit
		// check contesting Physical Defense": with a squeeze, a charge or
		// no attack there is nothing for the +2, and the Swift action is
		// not spent on it.
		p.Swift = SwiftNone
	}
	early := p.Swift != SwiftIntimidate || (tg >= 0 && t.Dist(i, tg) <= Reach)
	// swift does nothing without a Swift action, approach nothing within
	// reach: the common turn skips the calls.
	if early && p.Swift != SwiftNone {
		t.swift(i, p.Swift, tg, false)
	}
	if need && t.Dist(i, tg) > Reach {
		t.approach(i, tg, false)
	}
	if !early {
		if enemy {
			t.approach(i, tg, false)
		}
		t.swift(i, p.Swift, tg, false)
		if need {
			t.approach(i, tg, false)
		}
	}
	switch p.Main {
	case MainNone:
	case MainDelay:
		// Holding an attack, it closes in first, unless what it waits for
		// is an enemy coming within reach.
		if tg >= 0 && p.Delay == KindAttack && p.Trigger != OnEnemyInReach && !t.g.C[i].Ranged {
			t.approach(i, tg, false)
		}
		t.declareDelay(i, p)
	case MainFirstAid:
		t.firstAid(i, p.Patient)
	case MainMeditate:
		t.fullMeditation(i)
	default:
		t.attackAction(i, &p, tg, false)
	}
	// A Delay Action holding the Casting action with casting_slot separate
	// leaves the Attack action, which Also may use.
	if p.Also != MainNone && (p.Main != MainDelay || t.f[i].delayed && t.f[i].delayKind == KindCasting && !t.castShared) && !t.over() {
		t.alsoAction(i, p, tg)
	}
	if p.Hide == HideAfter {
		t.hide(i)
	}
	if p.Cover == CoverObstacle {
		t.takeCover(i, CoverObstacle)
	}
}

func (t *Table) out(i int) bool { return t.f[i].out }

// mainKind is the action a main action is made with.
func mainKind(m Main, cast bool) Kind {
	if m == MainCast || m == MainFirstAid || (m == MainVital && cast) {
		return KindCasting
	}
	return KindAttack
}

// alsoAction is Plan.Also: with casting_slot separate, the turn's other
// main action (a casting after an attack, or an attack after a casting),
// closing in first with the Move action if it is a melee attack out of
// reach. With casting_slot shared there is no other action, and one of the
// same kind as Main has no action left: both are refused and narrated.
func (t *Table) alsoAction(i int, p Plan, tg int) {
	q := p
	q.Main, q.Cast, q.Also = p.Also, false, MainNone
	k := mainKind(q.Main, false)
	var why msg.Text
	switch {
	case q.Main != MainAttack && q.Main != MainDouble && q.Main != MainCast && q.Main != MainFirstAid:
		why = msg.New("only attack, double_strike, cast or first_aid can be a second action")
	case t.slot(KindCasting) == KindAttack:
		why = msg.New("has one Attack/Casting action a turn (casting_slot shared)")
	case k == mainKind(p.Main, p.Cast) && p.Main != MainDelay || !t.canUse(i, k):
		why = msg.New("has no %s action left", KindNames[k])
	}
	if why.Format != "" {
		if t.log != nil {
			t.logf("  %s %s: no %s as well", t.name(i), why, MainNames[q.Main])
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: tg, Rule: "second action: " + why.String()})
		}
		return
	}
	if q.Main == MainFirstAid {
		t.firstAid(i, q.Patient)
		return
	}
	if tg >= 0 && t.side(tg) != t.side(i) && t.present(tg) && needsReach(&q, &t.g.C[i]) {
		t.approach(i, tg, false)
	}
	t.attackAction(i, &q, tg, false)
}

// needsReach: the main action is made in melee (within 1 meter).
func needsReach(p *Plan, c *Combatant) bool {
	switch p.Main {
	case MainGrapple, MainCharge, MainSqueeze, MainPointBlank, MainLegSweep:
		return true
	case MainAttack, MainDouble:
		return !c.Ranged
	case MainVital:
		return !p.Cast && !c.Ranged
	}
	return false
}

// endRound: a delayed action whose trigger did not come this round is
// spent and lost; nothing carries into the next round.
func (t *Table) endRound() {
	if !t.anyDelay {
		return
	}
	t.anyDelay = false
	for i := range t.f {
		f := &t.f[i]
		if !f.delayed {
			continue
		}
		f.delayed = false
		t.c.Lost(t.side(i), i)
		if t.log != nil {
			t.logf("%s's delayed %s never triggered: spent", t.name(i), KindNames[f.delayKind])
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "delay: never triggered"})
		}
	}
}

// recordEnds reports where each combatant ended (per-combatant results):
// out of the fight is always by damage (0 HP or below).
func (t *Table) recordEnds() {
	for i := range t.f {
		st := sim.Standing
		if t.f[i].out {
			st = sim.Down
		}
		t.c.End(i, t.f[i].hp, st)
	}
}
