package acks2

import (
	"simctl/sim"
	"simctl/sim/msg"
)

// Acting before your initiative number — the three cases of the source.
//
// Readied attack: "If a combatant begins the round with a readied combat
// action, it may take it when it is triggered, regardless of its
// initiative number. The readied action happens at the end of the movement
// of the enemy that triggers it ... before its combat action. A combatant
// that took its readied action may act normally when its segment comes
// later in the round." A combatant readies an attack on its segment instead
// of acting (Plan Ready); it holds it until it is triggered or lost. The
// trigger is an enemy's own movement ending where the readier can attack it
// (within 5 feet for melee and long weapons, in range for missiles). When
// its number comes with the readied attack still untriggered, it may ready
// again (keeping it) or act, which drops it. Option ready_same_round: it may
// also be taken later in the round it was readied in.
//
// Round-1 missile weapon: "If at the start of the first round a combatant
// was not engaged, had a missile weapon and was not surprised, it may shoot
// a charging enemy on that enemy's initiative number, regardless of its own,
// as if it were ready. Its attack happens immediately before the charger's
// attack. It loses its initiative number whether it hits or not. It may
// cleave after the attack if the attack killed the enemy."
//
// Round-1 long melee weapon: the same with a long melee weapon, except
// "it cannot interrupt the attack of a charging enemy that is larger or
// armed with a long melee weapon."
//
// "In all three cases the ready combatant loses the ability to act if it
// takes damage, fails a saving throw or is moved against its will before it
// uses its ready action" (loseReadiness).
//
// Readings: the round-1 attack needs the combatant not to have taken its
// segment yet (its number is still to come, or it is delaying) and no
// declared spell, withdrawal or retreat (those happen on its own number);
// a long weapon reaches a charger within 5 feet. Line of sight is not
// modelled, so "the last point where the enemy would leave its sight" never
// applies.

// startReady: i readies an attack on its segment.
func (t *Table) startReady(i int) {
	f := &t.f[i]
	t.c.Inc(t.side(i), sim.Readies)
	if f.ready {
		if t.log != nil {
			t.logf("%s keeps its readied attack", t.name(i))
			t.ev(sim.Event{Kind: sim.EvReady, Actor: i, Target: sim.NoOne, Rule: "keep"})
		}
		return
	}
	f.ready = true
	t.readied = true
	f.readyRound = t.round
	if t.log != nil {
		t.logf("%s readies an attack", t.name(i))
		t.ev(sim.Event{Kind: sim.EvReady, Actor: i, Target: sim.NoOne, Rule: "attack"})
	}
}

// readyUsable reports whether i may take its readied attack now.
func (t *Table) readyUsable(i int) bool {
	f := &t.f[i]
	return f.ready && !f.out && (f.readyRound < t.round || t.g.Opt.ReadySameRound)
}

// round1Usable reports whether i may still make its round-1 attack.
func (t *Table) round1Usable(i int) bool {
	f := &t.f[i]
	return t.round == 1 && f.r1 && !f.out && !f.segDone && !f.numberLost && f.decl.Kind == DeclareNothing && t.actor != i
}

// movementEnded runs the triggers at the end of m's own movement, before
// its combat action: readied attacks by its enemies, and in round 1 the
// missile and long weapons against a charger. The ready combatants are all
// on one side, so they go in that side's chosen order (Rank).
func (t *Table) movementEnded(m int) {
	charging := t.f[m].charging && t.round == 1
	if !t.readied && !charging {
		return // no one has readied an attack this encounter, and no round-1 charge
	}
	any := false
	for _, r := range t.Foes(m) {
		if !t.f[r].out && (t.readyUsable(r) || charging && t.round1Usable(r)) {
			any = true
			break
		}
	}
	if !any {
		return // most movements: nobody to interrupt it (no buffer to clear)
	}
	t.interruptMove(m, charging)
}

// interruptMove is the rest of movementEnded, once some enemy of m may
// interrupt its movement.
func (t *Table) interruptMove(m int, charging bool) {
	ids := t.interrupters[:0] // no movement can end during an interrupt: never reentered
	for _, r := range t.Foes(m) {
		if t.f[r].out {
			continue
		}
		if t.readyUsable(r) || charging && t.round1Usable(r) {
			ids = append(ids, r)
		}
	}
	t.orderSame(ids)
	for _, r := range ids {
		if t.f[m].out || t.f[r].out {
			return
		}
		switch {
		case t.readyUsable(r):
			if t.canAttack(r, m) && t.g.C[r].Policy.Interrupt(t, r, m, ReadiedAttack) {
				t.readiedAttack(r, m)
			}
		case charging && t.round1Usable(r):
			how := Round1Missile
			if t.g.C[r].Weapon == Long {
				how = Round1Long
			}
			if !t.canAttack(r, m) || !t.g.C[r].Policy.Interrupt(t, r, m, how) {
				continue
			}
			// The policy is asked before the long-weapon limit so that
			// the trace reports only interrupts the readier would have
			// made (not, say, a charge at someone else it lets pass).
			if how == Round1Long && !t.longCanStop(r, m) {
				continue
			}
			t.round1Attack(r, m, how)
		}
	}
}

// longCanStop: a long weapon "cannot interrupt the attack of a charging
// enemy that is larger or armed with a long melee weapon".
func (t *Table) longCanStop(r, m int) bool {
	rc, mc := &t.g.C[r], &t.g.C[m]
	var why msg.Text
	switch {
	case mc.Size > rc.Size:
		why = msg.New("it is larger (%s against %s)", sizeNames[mc.Size], sizeNames[rc.Size])
	case mc.Weapon == Long:
		why = msg.New("it has a long weapon too")
	}
	if why.Format == "" {
		return true
	}
	if t.log != nil {
		t.logf("%s cannot interrupt %s's charge with its long weapon: %s", rc.Name, mc.Name, why)
		t.ev(sim.Event{Kind: sim.EvLost, Actor: r, Target: m, Rule: "long weapon: " + why.String()})
	}
	return false
}

// readiedAttack: r takes its readied attack at m. It still acts on its own
// number later.
func (t *Table) readiedAttack(r, m int) {
	f := &t.f[r]
	f.ready = false
	s := t.side(r)
	t.c.Inc(s, sim.ReadiesTriggered)
	t.c.Inc(s, ReadiedAttacksUsed)
	t.c.Inc(s, sim.Interrupts)
	t.c.Inc(s, sim.Actions)
	t.tookAction(r)
	if t.log != nil {
		t.logf("%s takes its readied attack as %s's movement ends, before its attack", t.name(r), t.name(m))
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: m, Rule: "readied attack"})
	}
	if t.attack(r, m, t.g.C[r].Attacks[0], 0, "attacks") && t.g.C[r].Weapon != Missile {
		t.cleave(r)
	}
}

// round1Attack: r attacks the charger m on m's number and loses its own.
// A kill allows a cleave (missile weapon included, as the source says).
func (t *Table) round1Attack(r, m int, how Interrupt) {
	f := &t.f[r]
	s := t.side(r)
	f.r1 = false
	f.numberLost = true
	f.segDone = true
	t.stopDelay(r)
	t.c.Inc(s, NumbersLost)
	t.c.Inc(s, sim.Interrupts)
	t.c.Inc(s, sim.Actions)
	t.tookAction(r)
	if t.log != nil {
		t.logf("%s interrupts %s's charge (%s), before its attack; %s loses its own number %d", t.name(r), t.name(m),
			msg.New(interruptNames[how]), t.name(r), f.number)
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: m, Amount: f.number, Rule: "charge: " + interruptNames[how]})
	}
	if t.attack(r, m, t.g.C[r].Attacks[0], 0, "attacks the charging") {
		t.cleave(r)
	}
}

// loseReadiness: damage, a failed saving throw or a forced move before a
// ready combatant uses its ready action takes it away.
func (t *Table) loseReadiness(i int, why string) {
	f := &t.f[i]
	if f.ready {
		f.ready = false
		t.c.Inc(t.side(i), sim.ReadiesWasted)
		t.c.Lost(t.side(i), i)
		if t.log != nil {
			t.logf("%s %s: its readied attack is lost", t.name(i), msg.New(why))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "ready: " + why})
		}
	}
	if f.r1 {
		usable := t.round1Usable(i)
		f.r1 = false
		if usable && t.log != nil {
			t.logf("%s %s: it is no longer ready against a charge", t.name(i), msg.New(why))
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "round 1 readiness: " + why})
		}
	}
}
