package cavaliers

import (
	"math/bits"

	"simctl/sim"
)

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
	if t.orderStale {
		t.order = t.order[:len(t.rank)]
		for k, i := range t.rank { // a few: a loop costs less than copy's call
			t.order[k] = i
		}
		t.orderStale = false
	}
	if t.head < 0 && len(t.order) > 0 {
		// The ranking, before any seize: a seize is an action, counted
		// by FirstActor.
		t.head = t.order[0]
	}
	t.acted, t.moved = 0, 0
	t.used = [4]uint64{}
	t.able = [numAbilities]uint64{}
	// can(i, a) with nothing used yet this round, for those present
	// (entered and not out: all of them are in the ranking).
	for m := t.in; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		p := t.f[i].plus
		if p <= 0 {
			continue
		}
		s := ableWith[t.f[i].spec&3][min(p, 3)]
		t.able[Seize] |= uint64(s&1) << uint(i)
		t.able[Interpose] |= uint64(s>>1&1) << uint(i)
		t.able[Reprise] |= uint64(s>>2&1) << uint(i)
	}
	for k := 0; k < len(t.order); k++ {
		// Skip those out of the fight (in the ranking, not present) and
		// those that have acted (seized earlier in the round).
		if (t.in&^t.acted)&(1<<(uint(t.order[k])&63)) == 0 {
			continue
		}
		if t.able[Seize]&^t.acted&^t.used[Seize] != 0 {
			// Someone may seize (seizeBefore's candidates are among
			// these): the offers; else none, and no call.
			t.cur = k // read by seizeBefore, which may put a seizer at k
			t.seizeBefore()
		}
		t.turn(t.order[k])
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
			if (t.able[Seize]&^t.acted)&(1<<(uint(s)&63)) == 0 || !t.can(s, Seize) {
				continue
			}
			if !t.g.C[s].Policy.Seize(t, s, next) {
				continue
			}
			t.pay(s, Seize)
			copy(t.order[t.cur+1:k+1], t.order[t.cur:k])
			t.order[t.cur] = s
			t.orderStale = true
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
	bit := uint64(1) << (uint(i) & 63)
	t.acted |= bit
	f.turns++
	if t.log != nil {
		c := &t.g.C[i]
		t.logf("%s's turn (total %d, hp %d, Area %d, [+] %d)", c.Name, f.total, f.hp, f.area, f.plus)
		t.ev(sim.Event{Kind: sim.EvTurn, Actor: i, Target: sim.NoOne, Roll: f.total, Amount: f.hp, Need: f.area})
	}
	attacks := 1
	if t.tr != nil {
		if attacks = t.traitTurnStart(i); attacks <= 0 {
			return
		}
	}
	if t.std&bit != 0 && attacks == 1 && t.moved&bit == 0 {
		// The common turn of a standard rule without a focus: an enemy
		// in its Area, so no Move, and the one attack at the rule's
		// choice among the enemies there (moveTo, then stdTarget, on
		// the same set). Anything else takes the general path below.
		if s := &t.stdRule[i&63]; s.Focus < 0 {
			if foes := t.FoesIn(i, f.area); foes != 0 {
				var tg int
				if s.Target == TargetWeakest {
					// pick's weakest, written here: no call.
					tg = bits.TrailingZeros64(foes)
					hp := t.f[tg].hp
					for m := foes & (foes - 1); m != 0; m &= m - 1 {
						if j := bits.TrailingZeros64(m); t.f[j].hp < hp {
							tg, hp = j, t.f[j].hp
						}
					}
				} else {
					tg = pick(t.f, foes, s.Target)
				}
				t.tookAction(i)
				f.actions++
				t.attackAction(i, tg)
				return
			}
		}
	}
	c := &t.g.C[i] // the general path: the policy, the name
	if t.moved&bit != 0 {
		if t.log != nil {
			t.logf("%s has spent its Move this round (interposing with a Move)", c.Name)
			t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "move spent interposing"})
		}
	} else if to := t.moveTo(i, c, bit); to >= 0 && to <= MaxArea && abs(to-f.area) == 1 {
		t.tookAction(i)
		t.moved |= bit
		t.move(i, to)
		if f.out {
			return
		}
	}
	// One attack; a trait may grant more (turn_start), each at a target
	// the policy picks then.
	for k := 0; k < attacks && (k == 0 || !f.out && !t.over()); k++ {
		var tg int
		if t.std&bit != 0 {
			// The standard rule: tg is a foe present in its Area, or -1.
			tg = t.stdTarget(i)
		} else {
			tg = c.Policy.Target(t, i)
			if t.choice >= 0 { // a special action in place of the attack
				k := t.choice
				t.choice = -1
				t.takeSpecial(i, k)
				continue
			}
			if tg >= 0 && (tg >= len(t.f) || t.FoesIn(i, f.area)&(1<<(uint(tg)&63)) == 0) {
				tg = -1 // not an enemy present in its Area
			}
		}
		if tg < 0 {
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

// moveTo is the Area combatant i's policy moves it to at the start of its
// turn (bit: i's bit), or -1: by its standard rule if it has one, else
// by Policy.Move.
func (t *Table) moveTo(i int, c *Combatant, bit uint64) int {
	if t.std&bit == 0 {
		return c.Policy.Move(t, i)
	}
	s := &t.stdRule[i]
	if s.Hold {
		return -1
	}
	here := t.f[i].area
	if s.Focus >= 0 && t.Present(s.Focus) {
		return Toward(here, t.f[s.Focus].area)
	}
	if t.FoesIn(i, here) != 0 {
		return -1
	}
	foes := t.FoesPresent(i)
	if foes == 0 {
		return -1
	}
	// The nearest, the first in roster order among equals (lowest bit).
	best := bits.TrailingZeros64(foes)
	bd := abs(t.f[best].area - here)
	for m := foes & (foes - 1); m != 0; m &= m - 1 {
		if j := bits.TrailingZeros64(m); abs(t.f[j].area-here) < bd {
			best, bd = j, abs(t.f[j].area-here)
		}
	}
	return Toward(here, t.f[best].area)
}

// stdTarget is the enemy combatant i attacks by its standard rule, or -1.
func (t *Table) stdTarget(i int) int {
	s := &t.stdRule[i]
	here := t.f[i].area
	if s.Focus >= 0 && t.Present(s.Focus) && t.f[s.Focus].area == here {
		return s.Focus
	}
	foes := t.FoesIn(i, here)
	if foes == 0 {
		return -1
	}
	return pick(t.f, foes, s.Target)
}

// pick is the choice of rule among the combatants of foes (not empty):
// the first in roster order (lowest bit) among equals.
func pick(f []fighter, foes uint64, rule TargetRule) int {
	best := bits.TrailingZeros64(foes)
	m := foes & (foes - 1)
	if m == 0 {
		return best
	}
	switch rule {
	case TargetWeakest:
		hp := f[best].hp
		for ; m != 0; m &= m - 1 {
			if j := bits.TrailingZeros64(m); f[j].hp < hp {
				best, hp = j, f[j].hp
			}
		}
	case TargetStrongest:
		hp := f[best].hp
		for ; m != 0; m &= m - 1 {
			if j := bits.TrailingZeros64(m); f[j].hp > hp {
				best, hp = j, f[j].hp
			}
		}
	}
	return best
}

// Toward is the Area next to from on the way to area, or -1 if there: one
// step of a Move, for the referee's standard rule and the policies alike.
func Toward(from, area int) int {
	switch {
	case area > from:
		return from + 1
	case area < from:
		return from - 1
	}
	return -1
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
