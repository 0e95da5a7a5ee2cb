package acks2

import (
	"math/bits"
	"strconv"

	"simctl/rulesets/internal/plain"
	"simctl/sim"
	"simctl/sim/msg"
)

// rollInitiative: "each combatant rolls 1d6 to determine its initiative
// number. The roll may be adjusted by the combatant's DEX modifier, if any,
// and by some special abilities" (field init) — every round. "In large
// battles the referee may roll 1d6 per group of identical monsters instead
// of per monster" (option group_initiative: the copies of one count: N
// entry on the referee's side share the die).
//
// Pinned dice for tests and worked examples: initiative_rolls gives the die
// for rounds 1, 2, ...; after the list (or without it) initiative_roll pins
// every round; otherwise the die is rolled.
//
// At the start of round 1 the round-1 readiness is set: a combatant that is
// not engaged, holds a missile or long melee weapon and is not surprised
// (aware) may attack a charger before its own number (ready.go).
func (t *Table) rollInitiative() {
	if t.g.Opt.GroupInitiative {
		clear(t.groupDie)
	}
	t.byNum = [21]uint64{}
	if t.allRolled && t.tr == nil {
		t.rollAll()
	} else {
		t.rollEach()
	}
	if t.round == 1 {
		if t.r1Known {
			// shortcuts.go: the same every encounter
			for m := t.r1Start; m != 0; m &= m - 1 {
				t.f[bits.TrailingZeros64(m)].r1 = true
			}
		} else {
			for i := range t.f {
				c := &t.g.C[i]
				r1 := !t.f[i].out && c.Aware && c.Weapon != Melee && !t.engaged(i)
				t.f[i].r1 = r1
				if r1 {
					t.r1Start |= 1 << (uint(i) & 63)
				}
			}
			t.r1Known = t.r1Cache
		}
	}
	if t.log != nil {
		t.logInitiative()
	}
}

// rollEach rolls the initiative of everyone in the fight, each as its
// entry says (pinned, group or rolled dice; traits).
func (t *Table) rollEach() {
	for i := range t.f {
		f := &t.f[i]
		if f.out {
			continue
		}
		var die int
		if t.rolled[i] { // the common case, in one test
			if t.wd { // shortcuts.go: t.r.Die(6) written out
				hi, lo := bits.Mul64(t.r.Uint64(), 6)
				die = int(hi) + 1
				if lo < 6 {
					die = plain.Reroll(t.r, 6, hi, lo)
				}
			} else {
				die = t.r.Die(6)
			}
		} else {
			die = t.fixedDie(i)
		}
		n := die + t.init[i]
		if t.tr != nil {
			n = t.traitInitiative(i, n)
		}
		f.number = n
		// "down to the negative of its initiative number": a number of 0
		// or less has no lower count to delay to (it may still wait for
		// a named combatant acting later on the same number).
		f.floor = min(-n, n)
		t.key[i] = die
		t.byNum[10-n] |= 1 << (uint(i) & 63)
	}
}

// rollAll is rollEach when every die is rolled, written out (shortcuts.go,
// allRolled, and no traits): the combatants in the fight are the standing
// masks' bits, in roster order as rollEach walks them.
func (t *Table) rollAll() {
	for m := t.standing[0] | t.standing[1]; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		hi, lo := bits.Mul64(t.r.Uint64(), 6)
		die := int(hi) + 1
		if lo < 6 {
			die = plain.Reroll(t.r, 6, hi, lo)
		}
		n := die + t.init[i]
		f := &t.f[i]
		f.number, f.floor = n, min(-n, n)
		t.key[i] = die
		t.byNum[10-n] |= 1 << (uint(i) & 63)
	}
}

// fixedDie is i's initiative die when it is not simply rolled: pinned
// (initiative_rolls, initiative_roll) or its group's (group_initiative).
func (t *Table) fixedDie(i int) int {
	c := &t.g.C[i]
	switch {
	case t.round <= len(c.InitRolls):
		return c.InitRolls[t.round-1]
	case c.InitRoll > 0:
		return c.InitRoll
	case t.g.Opt.GroupInitiative && c.Side == t.g.Referee:
		if t.groupDie[c.Group] == 0 {
			t.groupDie[c.Group] = t.r.Die(6)
		}
		return t.groupDie[c.Group]
	}
	return t.r.Die(6)
}

func (t *Table) logInitiative() {
	s := ""
	for n := 10; n >= -10; n-- {
		for i := range t.f {
			f := &t.f[i]
			if f.out || f.number != n {
				continue
			}
			if s != "" {
				s += ", "
			}
			s += t.name(i) + " " + strconv.Itoa(n)
			if init := t.g.C[i].Init; init != 0 {
				s += " (d6 " + strconv.Itoa(t.key[i]) + signed(init) + ")"
			}
		}
	}
	t.logf("initiative: %s", s)
	for i := range t.f {
		if f := &t.f[i]; !f.out {
			die := 0
			if t.g.C[i].Init != 0 {
				die = t.key[i]
			}
			t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Die: die, Roll: f.number})
		}
	}
	if t.round == 1 {
		r := ""
		for i := range t.f {
			if t.f[i].r1 {
				if r != "" {
					r += ", "
				}
				r += t.name(i) + " (" + weaponNames[t.g.C[i].Weapon] + ")"
				t.ev(sim.Event{Kind: sim.EvReady, Actor: i, Target: sim.NoOne, Rule: "round 1 against a charge"})
			}
		}
		if r != "" {
			t.logf("round 1, ready against a charge: %s", r)
		}
	}
}

func signed(v int) string {
	if v >= 0 {
		return "+" + strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

// orderSame orders combatants acting on one number (Simultaneous
// Initiative): "they act one after another, never at once. If both are on
// the same side, they may choose the order of their actions. If they are
// on opposite sides, the side with fewer combatants may make some or all
// of its combatants act before or after the other side. If the sides are
// equal in number, the side the referee controls (the monsters) may."
//
// Fewer combatants means fewer still in the fight now. The choosing side's
// combatants each ask their policy (ActBefore) whether to go before or
// after the other side; within a side, higher Rank first, then roster
// order.
func (t *Table) orderSame(ids []int) {
	if len(ids) < 2 {
		return
	}
	var present [2]bool
	for _, i := range ids {
		present[t.side(i)] = true
	}
	chooser := -1
	if present[0] && present[1] {
		a0, a1 := t.alive(0), t.alive(1)
		switch {
		case a0 < a1:
			chooser = 0
		case a1 < a0:
			chooser = 1
		default:
			chooser = t.g.Referee
		}
	}
	// key = group*2^20 - rank, sorted ascending; group 0: the chooser's
	// "before", 1: the other side, 2: the chooser's "after".
	for _, i := range ids {
		group := 0
		if chooser >= 0 {
			if t.side(i) != chooser {
				group = 1
			} else if !t.actBefore(i) {
				group = 2
			}
		}
		rank := t.rank[i] // a Steady policy's, asked once
		if !t.steady[i] {
			rank = clampRank(t.g.C[i].Policy.Rank(t, i))
		}
		t.key[i] = group<<20 - rank
	}
	// Insertion sort (stable; a few entries at most): by key, then roster.
	for a := 1; a < len(ids); a++ {
		for b := a; b > 0 && t.keyLess(ids[b], ids[b-1]); b-- {
			ids[b], ids[b-1] = ids[b-1], ids[b]
		}
	}
	if t.log != nil && chooser >= 0 {
		why := msg.New("fewer in the fight")
		if t.alive(0) == t.alive(1) {
			why = msg.New("equal numbers, the referee's side")
		}
		t.logf("same number, opposite sides: %s choose (%s): %s", t.g.SideNames[chooser], why, t.list(ids))
		t.ev(sim.Event{Kind: sim.EvInitiative, Actor: sim.NoOne, Target: sim.NoOne, Amount: chooser, Rule: "opposite sides: " + why.String()})
	}
}

// actBefore is i's policy's ActBefore (asked once for a Steady policy).
func (t *Table) actBefore(i int) bool {
	if t.steady[i] {
		return t.before[i]
	}
	return t.g.C[i].Policy.ActBefore(t, i)
}

// clampRank bounds a policy's Rank so that it fits the sort key.
func clampRank(r int) int { return max(min(r, 1<<18), -(1 << 18)) }

func (t *Table) keyLess(i, j int) bool {
	if t.key[i] != t.key[j] {
		return t.key[i] < t.key[j]
	}
	return i < j
}
