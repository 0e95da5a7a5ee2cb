package lotm

import (
	"simctl/sim"
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
		}
		t.ambushRound(s, ambushers, ambushed)
	}
	winner := t.winner()
	rounds := 0
	for round := 1; winner < 0 && round <= t.g.Maxround; round++ {
		t.round, rounds = round, round
		if t.log != nil {
			t.logf("-- round %d", round)
		}
		t.join(round)
		if winner = t.winner(); winner >= 0 {
			break
		}
		t.playRound()
		winner = t.winner()
	}
	out := sim.Outcome{Winner: winner, Rounds: rounds, FirstActor: t.first}
	for i := range t.f {
		if !t.f[i].out {
			out.Survivors[t.g.C[i].Side]++
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
// brought forward by a mid-combat ambush.
func (t *Table) turn(i int) {
	f := &t.f[i]
	c := &t.g.C[i]
	f.turnDone = true
	if t.first < 0 {
		t.first = i
	}
	saved := t.actor
	t.actor = i
	t.c.Inc(c.Side, sim.Turns)
	t.c.Turn(i)
	if t.log != nil {
		t.logf("%s's turn (initiative %d, hp %d)", c.Name, f.count, f.hp)
	}
	if f.stunned {
		// Vital Strike to the head: stunned for 1 round, the turn is lost.
		f.stunned = false
		t.c.Inc(c.Side, sim.ActionsLost)
		t.c.Lost(i)
		if t.log != nil {
			t.logf("  %s is stunned and loses its turn", c.Name)
		}
	} else {
		if f.grappledBy >= 0 {
			t.breakFree(i)
		}
		if f.mustFlee >= 0 {
			t.fleeAtTurn(i)
		}
		if t.g.Opt.Search == "turn" {
			t.search(i)
		}
		t.execute(i, c.Policy.Turn(t, i))
	}
	f.aim, f.feintOn, f.ambushOne = false, -1, false
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
		}
		t.endGrapple(i)
	}
	if f.offBalance && p.Stand && t.canUse(i, KindMove) {
		t.use(i, KindMove)
		f.offBalance = false
		if t.log != nil {
			t.logf("  %s stands up (Move action): no longer Off-Balance", t.name(i))
		}
	}
	if p.Hide == HideBefore {
		t.hide(i)
	}
	tg := p.Target
	if tg >= 0 && (!t.Targetable(i, tg) || t.out(tg)) {
		if t.log != nil {
			t.logf("  %s cannot target %s", t.name(i), t.name(tg))
		}
		tg = -1
	}
	enemy := tg >= 0 && t.side(tg) != t.side(i)
	// A turn brought forward by a mid-combat ambush is that ambush: from
	// invisibility when hidden, else a movement ambush.
	if enemy && (p.Teleport || (t.insrt == i && !f.hidden)) {
		t.teleport(i, tg)
	}
	need := enemy && needsReach(p, &t.g.C[i])
	early := p.Swift != SwiftIntimidate || (tg >= 0 && t.Dist(i, tg) <= Reach)
	if early {
		t.swift(i, p.Swift, tg, false)
	}
	if need {
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
	default:
		t.attackAction(i, p, tg, false)
	}
	if p.Hide == HideAfter {
		t.hide(i)
	}
}

func (t *Table) out(i int) bool { return t.f[i].out }

// needsReach: the main action is made in melee (within 1 meter).
func needsReach(p Plan, c *Combatant) bool {
	switch p.Main {
	case MainGrapple, MainCharge, MainSqueeze:
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
	for i := range t.f {
		f := &t.f[i]
		if !f.delayed {
			continue
		}
		f.delayed = false
		t.c.Inc(t.side(i), sim.ActionsLost)
		t.c.Lost(i)
		if t.log != nil {
			t.logf("%s's delayed %s never triggered: spent", t.name(i), KindNames[f.delayKind])
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
