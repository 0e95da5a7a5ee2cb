package d20

import (
	"math/bits"

	"simctl/sim"
	"simctl/sim/msg"
)

// Ready (SRD "Ready"): a standard action naming an action and a trigger.
// Any time before its next turn the combatant may take the readied action
// when the trigger happens; it resolves just before the triggering action,
// interrupting it, and the interrupted combatant carries on if it still
// can. Its initiative becomes the count on which it acted, immediately ahead
// of the triggering combatant, for the rest of the encounter. If its next
// turn comes first the readied action is lost (turn does that). Taken in the
// next round before its regular turn, its entry moves up and it gets no
// regular action that round. A 5-foot step may go with the readied action
// only if it has not otherwise moved this round.

func (t *Table) startReady(i int, p *Plan) {
	t.tactics = true
	f := &t.f[i]
	if f.readied { // not reached (a turn starts unready), but keeps readyOn exact
		t.unready(i)
	}
	f.readied = true
	t.cold[i].ready = *p
	t.readyOn[p.Trigger&7] |= 1 << uint(i)
	if p.Action == ReadyAttack && p.Shoot {
		t.readyShot |= 1 << uint(i)
	}
	t.cold[i].readyRound = t.round
	t.acts(i)
	t.c.Inc(t.side(i), sim.Readies)
	if t.log != nil {
		what := [...]msg.Text{msg.New("an attack"), msg.New("a spell"), msg.New("a counterspell"), msg.New("a move")}[p.Action]
		if p.Shoot && p.Action == ReadyAttack {
			what = msg.New("a shot")
		}
		who := ""
		if p.Trigger == OnAllyActs || p.Trigger == OnEnemyAttacksAlly {
			who = " (" + t.name(p.Ally) + ")"
		}
		if t.log != nil {
			t.logf("%s readies %s, trigger %s%s", t.name(i), what, TriggerNames[p.Trigger], who)
			ally, act := sim.NoOne, readyNames[p.Action]
			if who != "" {
				ally = p.Ally
			}
			if p.Shoot && p.Action == ReadyAttack {
				act = "shot"
			}
			t.ev(sim.Event{Kind: sim.EvReady, Actor: i, Target: ally, Rule: act + "/" + TriggerNames[p.Trigger]})
		}
	}
}

// readyNames name the readied actions in trace events (the Rule of an
// EvReady is action/trigger).
var readyNames = [...]string{"attack", "spell", "counterspell", "move"}

// readiers calls fire for each combatant with a readied action whose
// trigger is in kinds (a bit per Trigger), in initiative order, until fire
// reports that the triggering action is over (its combatant is out or its
// spell is ruined). Initiative order is how several readied actions set off
// by one event are ordered: the book gives none, and it is the order in
// which the readiers' turns would have come.
func (t *Table) readiers(kinds uint8, src int, fire func(r int) (stop bool)) {
	if !t.tactics {
		return
	}
	// cand: a superset of who may answer, asked before the flags.
	cand := t.readyIn(kinds) &^ (1 << uint(src))
	if cand == 0 {
		return // no one holds such a readied action: the walk would skip everyone
	}
	for n := 0; n < len(t.order); n++ {
		r := t.order[n]
		if cand&(1<<uint(r)) == 0 {
			continue
		}
		f := &t.f[r]
		if !f.readied || f.out || kinds&(1<<t.cold[r].ready.Trigger) == 0 || r == src {
			continue
		}
		if fire(r) || t.f[src].out {
			return
		}
		if !f.readied {
			n = -1 // r's entry moved: walk the new order again
		}
	}
}

// on is the trigger set of readiers holding only k.
func on(k Trigger) uint8 { return 1 << k }

// readyIn is the combatants holding a readied action with a trigger in
// kinds (a superset: see Table.readyOn).
func (t *Table) readyIn(kinds uint8) uint64 {
	var m uint64
	for k := kinds; k != 0; k &= k - 1 {
		m |= t.readyOn[bits.TrailingZeros8(k)]
	}
	return m
}

// readyFor is readyIn(on(k)) without src: whether anyone else may answer
// trigger k. Small enough to inline where each trigger is checked.
func (t *Table) readyFor(k Trigger, src int) bool {
	return t.readyOn[k]&^(1<<uint(src)) != 0
}

// moveReady is readyFor for m's movement (moveTriggers).
func (t *Table) moveReady(m int) bool {
	r := t.readyOn[OnEnemyInReach]
	if t.f[m].charging {
		r |= t.readyOn[OnCharge]
	}
	return r&^(1<<uint(m)) != 0
}

// unready ends i's readied action (taken, lost or out of the fight).
func (t *Table) unready(i int) {
	t.f[i].readied = false
	t.readyOn[t.cold[i].ready.Trigger&7] &^= 1 << uint(i)
	t.readyShot &^= 1 << uint(i)
}

// took records that r took its readied action in response to src and moves
// r's entry immediately ahead of src.
func (t *Table) took(r, src int) { t.takeReadied(r, src, true) }

// takeReadied is took; effect false is a readied action spent with nothing
// to show for it (a counterspell whose Spellcraft check failed): it is
// still the readier's response to the trigger (its initiative moves, it
// ends flat-footedness), but it is an action lost, not an action or an
// interrupt, and it is not the encounter's first action.
func (t *Table) takeReadied(r, src int, effect bool) {
	f := &t.f[r]
	t.unready(r)
	t.acts(r)
	if t.cold[r].readyRound < t.round {
		// Taken in a later round before its regular turn, the readied
		// action is that round's action ("you do not get your regular
		// action that round"): like the turn it replaces, it starts a new
		// round for the one attack of opportunity.
		f.aooLeft = f.aooMax
	}
	s := t.side(r)
	t.c.Inc(s, sim.ReadiesTriggered)
	switch {
	case !effect:
		t.c.Lost(s, r)
	case t.cold[r].ready.Action != ReadyCast:
		// A readied spell is counted by cast: an action, or an action
		// lost when the spell is.
		t.c.Inc(s, sim.Actions)
	}
	if effect {
		t.firstAction(r)
		if t.side(src) != s {
			t.c.Inc(s, sim.Interrupts)
		}
	}
	f.count = t.f[src].count
	t.place(r, src, false)
	if t.log != nil {
		t.logf("%s's initiative becomes %d, just ahead of %s", t.name(r), f.count, t.name(src))
		t.ev(sim.Event{Kind: sim.EvInitiative, Actor: r, Target: src, Roll: f.count, Rule: "ready"})
	}
	if t.g.traits != nil {
		t.traitCount(mReadyTriggered, r, src)
	}
}

// stepInto reports whether r can reach tg for a readied attack, taking the
// 5-foot step if that is what it needs and it has not moved this round (and
// is still in the fight after it).
func (t *Table) stepInto(r, tg int) bool {
	if t.InReach(r, tg) {
		return true
	}
	if !t.hasMoved(r) && t.Dist(r, tg) <= t.g.C[r].Reach+5 && !t.stepBlocked(r, tg) {
		t.step(r, tg)
		// The step is movement: an enemy's readied attack may drop r.
		return !t.f[r].out
	}
	return false
}

// canStepInto is stepInto without moving.
func (t *Table) canStepInto(r, tg int) bool {
	return t.InReach(r, tg) || !t.hasMoved(r) && t.Dist(r, tg) <= t.g.C[r].Reach+5 && !t.stepBlocked(r, tg)
}

// entered: the triggers "an enemy moves into reach" (any movement,
// including a 5-foot step) and "an enemy charges into reach" (a charge
// only), checked on each square the mover enters. A readied attack fires on
// the square where the mover comes into the readier's reach from outside
// it, whatever the distance the mover started from; readiers of both kinds
// set off by the same square go in initiative order.
func (t *Table) entered(m, from int) {
	if t.readyOn[OnEnemyInReach]|t.readyOn[OnCharge] != 0 { // nobody has readied against movement: nothing to trigger (the common case, inlined)
		t.enteredReadied(m, from)
	}
}

func (t *Table) enteredReadied(m, from int) {
	if !t.moveReady(m) {
		return
	}
	kinds := t.moveTriggers(m)
	// Only a standing enemy holding such an action whose reach m has just
	// come into can fire (the test below, first): when there is none, the
	// walk in initiative order would skip everyone (most squares of a
	// charge at the readied spearmen).
	x, none := t.f[m].x, true
	for c := t.readyIn(kinds) & t.upMask[1-t.side(m)]; c != 0; c &= c - 1 {
		r := bits.TrailingZeros64(c)
		if reach := t.g.C[r].Reach; abs(t.f[r].x-from) > reach && abs(t.f[r].x-x) <= reach {
			none = false
			break
		}
	}
	if none && !noEnterSkip {
		return
	}
	t.readiers(kinds, m, func(r int) bool {
		// A readied shot went before the step (approach).
		if t.side(r) == t.side(m) || t.cold[r].ready.Shoot || abs(t.f[r].x-from) <= t.g.C[r].Reach || !t.InReach(r, m) {
			return false
		}
		if !t.canFireAt(r, m) {
			return false
		}
		t.logMove()
		t.fireAt(r, m)
		return false
	})
}

// noEnterSkip makes enteredReadied walk the order even when no readier can
// fire: for the test that compares the two.
var noEnterSkip = false

// approach: a readied shot (SRD: "The action occurs just before the action
// that triggers it") goes before the movement that sets it off, from where
// the shooter stands, so that it does not wait for the mover to stand over
// it (a shot from a threatened square provokes, and a charger with a longer
// reach never comes within the shooter's own). Called before m steps from
// where it stands to next:
//
//   - charge: at the first square of the charge from which m is in range,
//     its start when it is (charge calls this before the -2 AC of the
//     charge applies: the shot comes before the charge); later in the
//     charge the charger has its -2 AC;
//   - enemy_in_reach: before the step that brings m into melee with the
//     shooter, within either's reach (the mover would threaten the shooter,
//     or stand in the shooter's reach), when m is in range then.
//
// A readied melee attack still waits for the mover to enter its reach
// (entered, stopped): it needs the mover within reach to strike.
func (t *Table) approach(m, next int) {
	if t.readyShot != 0 { // nobody has readied a shot: nothing to trigger here (the common case, inlined)
		t.approachReadied(m, next)
	}
}

func (t *Table) approachReadied(m, next int) {
	if !t.moveReady(m) {
		return
	}
	t.readiers(t.moveTriggers(m), m, func(r int) bool {
		rd := &t.cold[r].ready
		if t.side(r) == t.side(m) || rd.Action != ReadyAttack || !rd.Shoot || !t.canShoot(r, m) {
			return false
		}
		if rd.Trigger == OnEnemyInReach {
			band := max(t.g.C[r].Reach, t.g.C[m].Reach)
			if abs(t.f[m].x-t.f[r].x) <= band || abs(next-t.f[r].x) > band {
				return false
			}
		}
		t.logMove()
		if t.log != nil {
			if rd.Trigger == OnCharge {
				t.logf("%s: readied shot as %s charges (%d ft)", t.name(r), t.name(m), t.Dist(r, m))
			} else {
				t.logf("%s: readied shot as %s closes in (%d ft)", t.name(r), t.name(m), t.Dist(r, m))
			}
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: m, Amount: t.Dist(r, m), Rule: "shot/" + TriggerNames[rd.Trigger]})
		}
		t.took(r, m)
		t.readiedAttack(r, m)
		return false
	})
}

// canFireAt reports whether r's readied action can go at the mover m: an
// attack (a shot: with m in range and a loaded weapon), or a spell with a
// use left (a counterspell has no spell to counter).
func (t *Table) canFireAt(r, m int) bool {
	f := &t.cold[r]
	switch f.ready.Action {
	case ReadyAttack:
		return !f.ready.Shoot || t.canShoot(r, m)
	case ReadyCast:
		return f.uses[f.ready.Spell] > 0
	}
	return false
}

// fireAt takes r's readied attack or spell against the mover m.
func (t *Table) fireAt(r, m int) {
	f := &t.cold[r]
	what := "attack"
	if f.ready.Action == ReadyCast {
		what = "spell"
	}
	if t.log != nil {
		t.logf("%s: readied %s as %s comes into reach (%d ft)", t.name(r), msg.New(what), t.name(m), t.Dist(r, m))
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: m, Amount: t.Dist(r, m), Rule: what + "/reach"})
	}
	t.took(r, m)
	if f.ready.Action == ReadyCast {
		t.cast(r, m, f.ready.Spell)
	} else {
		t.readiedAttack(r, m)
	}
}

// stopped: a mover that ends its movement (having come closer) just outside
// a readier's reach, within a 5-foot step of it, sets the same triggers off
// when the readier can still take that step: the readier steps in and
// attacks. (A mover with a longer reach than the readier's stops there.)
func (t *Table) stopped(m, from int) {
	if t.readyOn[OnEnemyInReach]|t.readyOn[OnCharge] != 0 { // nobody has readied against movement: nothing to trigger (the common case, inlined)
		t.stoppedReadied(m, from)
	}
}

func (t *Table) stoppedReadied(m, from int) {
	if !t.moveReady(m) {
		return
	}
	t.readiers(t.moveTriggers(m), m, func(r int) bool {
		// A readied shot needs no step: it fires only on entering reach.
		if t.side(r) == t.side(m) || t.cold[r].ready.Shoot || t.InReach(r, m) || !t.canStepInto(r, m) || abs(t.f[r].x-from) <= t.Dist(r, m) || !t.canFireAt(r, m) {
			return false
		}
		if !t.stepInto(r, m) {
			return false
		}
		t.fireAt(r, m)
		return false
	})
}

// moveTriggers is the trigger set m's movement can set off.
func (t *Table) moveTriggers(m int) uint8 {
	if t.f[m].charging {
		return on(OnEnemyInReach) | on(OnCharge)
	}
	return on(OnEnemyInReach)
}

// allyActs: the trigger "a named ally acts", checked as the ally starts its
// action. The readied attack goes at the ally's target when it can reach it.
func (t *Table) allyActs(a, target int) {
	if t.readyFor(OnAllyActs, a) { // nobody holds such a readied action: nothing to trigger (the common case, inlined)
		t.allyActsReadied(a, target)
	}
}

func (t *Table) allyActsReadied(a, target int) {
	t.readiers(on(OnAllyActs), a, func(r int) bool {
		f := &t.cold[r]
		if f.ready.Ally != a || t.side(r) != t.side(a) {
			return false
		}
		tg := target
		if tg < 0 || t.f[tg].out {
			return false
		}
		switch f.ready.Action {
		case ReadyCast:
			if f.uses[f.ready.Spell] == 0 {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied spell as %s acts", t.name(r), t.name(a))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "spell/acts"})
			}
			t.took(r, a)
			t.cast(r, tg, f.ready.Spell)
		case ReadyAttack:
			if !t.canStrike(r, tg) || !t.getAt(r, tg) {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied attack as %s acts", t.name(r), t.name(a))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "attack/acts"})
			}
			t.took(r, a)
			t.readiedAttack(r, tg)
		case ReadyMove:
			if t.InReach(r, tg) {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied move as %s acts", t.name(r), t.name(a))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "move/acts"})
			}
			t.took(r, a)
			t.readiedMove(r, tg)
		default:
			return false
		}
		return false
	})
}

// enemyAttacks: the trigger "an enemy attacks a named ally", checked before
// the attacker's first attack roll against that ally.
func (t *Table) enemyAttacks(a, victim int) {
	if t.readyFor(OnEnemyAttacksAlly, a) { // nobody holds such a readied action: nothing to trigger (the common case, inlined)
		t.enemyAttacksReadied(a, victim)
	}
}

func (t *Table) enemyAttacksReadied(a, victim int) {
	t.readiers(on(OnEnemyAttacksAlly), a, func(r int) bool {
		f := &t.cold[r]
		if f.ready.Ally != victim || t.side(r) == t.side(a) {
			return false
		}
		switch f.ready.Action {
		case ReadyCast:
			if f.uses[f.ready.Spell] == 0 {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied spell as %s attacks %s", t.name(r), t.name(a), t.name(victim))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "spell/attacks"})
			}
			t.took(r, a)
			t.cast(r, a, f.ready.Spell)
		case ReadyAttack:
			if !t.canStrike(r, a) || !t.getAt(r, a) {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied attack as %s attacks %s", t.name(r), t.name(a), t.name(victim))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "attack/attacks"})
			}
			t.took(r, a)
			t.readiedAttack(r, a)
		case ReadyMove:
			if t.InReach(r, a) {
				return false
			}
			if t.log != nil {
				t.logf("%s: readied move as %s attacks %s", t.name(r), t.name(a), t.name(victim))
				t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: r, Target: a, Rule: "move/attacks"})
			}
			t.took(r, a)
			t.readiedMove(r, a)
		default:
			return false
		}
		return false
	})
}

// canStrike reports whether r's readied attack can go at tg: a readied
// shot when tg is in range and the weapon loaded, a melee attack when tg is
// in reach or a 5-foot step away (stepInto).
func (t *Table) canStrike(r, tg int) bool {
	if t.cold[r].ready.Shoot {
		return t.canShoot(r, tg)
	}
	return t.canStepInto(r, tg)
}

// getAt is canStrike taking the 5-foot step a melee attack needs.
func (t *Table) getAt(r, tg int) bool {
	if t.cold[r].ready.Shoot {
		return t.canShoot(r, tg)
	}
	return t.stepInto(r, tg)
}

// readiedAttack is the readied standard attack (or shot); a braced weapon
// deals double damage to a charging target.
func (t *Table) readiedAttack(r, tg int) int {
	if t.cold[r].ready.Shoot {
		return t.shot(r, tg, t.g.C[r].Ranged.Bonus[0])
	}
	extra := 0
	if t.g.C[r].Brace && t.f[tg].charging {
		extra = 1
		if t.log != nil {
			t.logf("%s's weapon is set against the charge (double damage)", t.name(r))
			t.ev(sim.Event{Kind: sim.EvAction, Actor: r, Target: tg, Rule: "set against charge"})
		}
	}
	return t.attack(r, tg, t.g.C[r].Attacks[0], extra)
}

// readiedMove is a readied move action: toward tg, up to speed, stopping
// where tg is in reach (movement provokes and sets off triggers as any).
// The one it closes on may be behind another enemy: the way ends there.
func (t *Table) readiedMove(r, tg int) {
	if b := t.blocker(r, tg); b >= 0 {
		tg = b
	}
	t.move(r, tg, min(t.Dist(r, tg)-t.g.C[r].Reach, t.g.C[r].Speed))
}

// advance is the move of "move, then ready": a move action toward tg, up
// to speed, stopping just outside tg's reach (and at the first enemy in the
// way), so that the readied action waits for tg to come on.
func (t *Table) advance(i, tg int) {
	if tg < 0 || t.f[tg].out {
		return
	}
	if b := t.blocker(i, tg); b >= 0 {
		tg = b
	}
	stop := max(t.g.C[tg].Reach, t.g.C[i].Reach) + 5
	if need := t.Dist(i, tg) - stop; need > 0 {
		if t.log != nil {
			t.logf("%s advances on %s before readying", t.name(i), t.name(tg))
			t.ev(sim.Event{Kind: sim.EvMove, Actor: i, Target: tg, Rule: "advance before readying"})
		}
		t.move(i, tg, min(need, t.g.C[i].Speed))
	}
}
