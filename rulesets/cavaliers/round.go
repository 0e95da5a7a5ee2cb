package cavaliers

import "simctl/sim"

// A round walks the initiative ranking from the highest total down; each
// combatant present and standing takes one turn: a Move to an adjacent
// Area (areas.go) and one attack on an enemy in its Area (attack.go).
//
// Seize the Initiative (source: "For one round, you jump ahead in the
// Initiative order, before someone else is about to act. The next round,
// you act at your normal place in the Initiative order"): whenever a
// combatant is about to take its turn, each combatant that has not yet
// acted this round and may seize is asked, in ranking order, whether it
// jumps ahead; the first that does takes its turn right before the one
// about to act, which is then asked about again (another may seize before
// the seizer; nobody seizes twice in a round). The seizer's own place
// later in the round is spent: it has had its turn. Each round starts
// again from the ranking, so the next round it acts at its normal place.

// playRound plays one round.
func (t *Table) playRound() {
	t.order = append(t.order[:0], t.rank...)
	if t.head < 0 && len(t.order) > 0 {
		// The ranking, before any seize: a seize is an action, counted
		// by FirstActor.
		t.head = t.order[0]
	}
	t.able = [numAbilities]uint64{}
	for _, i := range t.order {
		t.f[i].acted, t.f[i].moved = false, false
		t.f[i].used = 0
		if f := &t.f[i]; f.plus > 0 && t.Present(i) {
			// can(i, a) with nothing used yet this round.
			pr := &prices[f.spec]
			bit := uint64(1) << uint(i)
			for a, p := range pr {
				if p > 0 && f.plus >= p {
					t.able[a] |= bit
				}
			}
		}
	}
	for t.cur = 0; t.cur < len(t.order); t.cur++ {
		if t.f[t.order[t.cur]].out || t.f[t.order[t.cur]].acted {
			continue
		}
		t.seizeBefore()
		t.turn(t.order[t.cur])
		if t.over() {
			return
		}
	}
}

// seizeBefore offers the combatant about to act (order[cur]) to those who
// could seize the initiative before it; each seizer is moved in this
// round's order to just before it, and the offer repeats for the seizer.
func (t *Table) seizeBefore() {
	for t.able[Seize] != 0 {
		next := t.order[t.cur]
		seized := false
		for k := t.cur + 1; k < len(t.order); k++ {
			s := t.order[k]
			if t.able[Seize]&(1<<(uint(s)&63)) == 0 || t.f[s].acted || !t.can(s, Seize) {
				continue
			}
			if !t.g.C[s].Policy.Seize(t, s, next) {
				continue
			}
			t.pay(s, Seize)
			copy(t.order[t.cur+1:k+1], t.order[t.cur:k])
			t.order[t.cur] = s
			seized = true
			if t.log != nil {
				t.logf("%s seizes the initiative: acts before %s this round", t.name(s), t.name(next))
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: s, Target: next, Rule: "seize"})
			}
			break
		}
		if !seized {
			return
		}
	}
}

// turn is combatant i's turn: a Move if its policy wants one, then one
// attack on an enemy in its Area.
func (t *Table) turn(i int) {
	f := &t.f[i]
	c := &t.g.C[i]
	f.acted = true
	f.turns++
	if t.log != nil {
		t.logf("%s's turn (total %d, hp %d, Area %d, [+] %d)", c.Name, f.total, f.hp, f.area, f.plus)
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: i, Target: sim.NoOne, Roll: f.total, Amount: f.hp, Need: f.area})
	}
	attacks := 1
	if t.tr != nil {
		if attacks = t.traitTurnStart(i); attacks <= 0 {
			return
		}
	}
	if f.moved {
		if t.log != nil {
			t.logf("%s has spent its Move this round (interposing with a Move)", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "move spent interposing"})
		}
	} else if to := c.Policy.Move(t, i); to >= 0 && to <= MaxArea && abs(to-f.area) == 1 {
		t.tookAction(i)
		f.moved = true
		t.move(i, to)
		if f.out {
			return
		}
	}
	// One attack; a trait may grant more (turn_start), each at a target
	// the policy picks then.
	for k := 0; k < attacks && (k == 0 || !f.out && !t.over()); k++ {
		tg := c.Policy.Target(t, i)
		if t.choice >= 0 { // a special action in place of the attack
			k := t.choice
			t.choice = -1
			t.takeSpecial(i, k)
			continue
		}
		if tg < 0 || tg >= len(t.f) || !t.Present(tg) || t.side(tg) == c.Side || t.f[tg].area != f.area {
			if t.log != nil {
				t.logf("%s attacks no one", c.Name)
				t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "no target"})
			}
			return
		}
		t.tookAction(i)
		f.actions++
		t.attackAction(i, tg)
	}
}

// tookAction records i as the first actor if nobody acted before: a Move
// (even one an Interpose blocks) or an attack on its turn. A turn that
// neither moves nor attacks is no action; a seizer acts in the turn it
// seized; Interposes, blocks and reprises happen inside someone's Move or
// attack, so that one acted first.
func (t *Table) tookAction(i int) {
	if t.first < 0 {
		t.first = i
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
