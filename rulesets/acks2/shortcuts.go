package acks2

import (
	"math/bits"

	"simctl/rulesets/internal/plain"
	"simctl/sim/dice"
)

// Shortcuts (issue 38): what newTable decides once from the game so that
// the common fight skips work whose result it already knows. Each one is
// exact (the same draws in the same order, the same counts and outcome)
// and each is off when the game is marked general (tests only: SetGeneral),
// so TestShortcutsMatchGeneral can play both ways and compare.
//
//   - noFx: no spell of the game leaves a lingering effect, so start- and
//     end-of-segment effects never happen: the end-of-segment and
//     end-of-round steps, which only tick effects, are skipped.
//   - plainOrder: every policy is Steady and ranks all of a side alike, so
//     the same-number order of a count called with nobody delaying is
//     three bit masks walked in roster order (callMasked): the chooser's
//     "before" combatants, the other side's, the chooser's "after" ones;
//     orderSame would sort them into the same order.
//   - weak: the standing combatant of each side with the fewest HP (the
//     first in roster order on a tie), kept as HP change (only damage
//     changes them) and found again when it goes out. WeakestWithin
//     answers with it at once when it counts as within the limit: it then
//     has the fewest HP of those within, the first on a tie; otherwise it
//     scans as before.
//   - wd: the d20 of an attack throw, the d6 of initiative and morale and
//     the HP and damage dice of the form 1dM+K are written out on the
//     stream's words (the same words and values as rng.Stream.Die and
//     plain.Dice): IntN is not inlined, and a call per draw cost about as
//     much as the draw. When every initiative die is rolled (no pinned
//     dice, no group initiative) and there are no traits, rollAll rolls
//     them in one plain loop over the standing masks.
//   - plain: a combatant whose policy is Plain (the default policy
//     without prefer, withdraw_below or another target than weakest) has
//     its segment's plan made by the referee (Table.WeakestTarget, the
//     same call the policy's Turn makes), without the interface call and
//     the plan's dispatch.
//   - r1Start: without traits nothing happens before round 1's initiative
//     (everyone stands where setup put them and nobody is out), so the
//     round-1 readiness against a charge is the same every encounter:
//     computed on the first and copied after.

// decideShortcuts sets the shortcuts of a new Table (after the Steady
// answers are known).
func (t *Table) decideShortcuts() {
	g := t.g
	if g.general {
		return
	}
	t.noFx = true
	for i := range g.C {
		for s := range g.C[i].Spells {
			if !g.C[i].Spells[s].Ongoing.IsZero() {
				t.noFx = false
			}
		}
	}
	t.plainOrder = true
	var rank [2]int
	var seen [2]bool
	for i := range g.C {
		s := t.sd[i]
		switch {
		case !t.steady[i]:
			t.plainOrder = false
		case !seen[s]:
			seen[s], rank[s] = true, t.rank[i]
		case t.rank[i] != rank[s]:
			t.plainOrder = false
		}
		if t.before[i] {
			t.beforeMask |= 1 << (uint(i) & 63)
		}
	}
	t.r1Cache = t.tr == nil
	t.weakOn = true
	for i := range g.C {
		if p, ok := g.C[i].Policy.(Plain); ok {
			switch charge, ok := p.Plain(); {
			case ok && charge:
				t.plain[i] = plainCharge
			case ok:
				t.plain[i] = plainNoCharge
			}
		}
	}
	t.wd = true
	t.allRolled = true
	for i := range g.C {
		t.allRolled = t.allRolled && t.rolled[i]
	}
	t.hp1, t.dmg1 = make([]oneDie, len(g.C)), make([]oneDie, len(g.C))
	for i := range g.C {
		t.hp1[i], t.dmg1[i] = oneDieOf(g.C[i].HP), oneDieOf(g.C[i].Damage)
	}
}

// Table.plain's values.
const (
	plainCharge   = 1
	plainNoCharge = 2
)

// oneDie is a dice expression 1dM+K taken apart (sides 0: not of that
// form).
type oneDie struct{ sides, k int }

// oneDieOf takes e apart when it is 1dM+K: one die (plain's form, so that
// rolling it draws one word as plain.Dice and dice.Expr do), its fewest
// 1+K and its most M+K.
func oneDieOf(e dice.Expr) oneDie {
	pd := plain.Of(e)
	if n, m, k := pd.Parts(); pd.Plain() && n == 1 {
		return oneDie{sides: m, k: k}
	}
	return oneDie{}
}

// The values of Table.weak that are not a combatant.
const (
	weakNone = -1
	weakOff  = -2
)

// findWeak finds side s's weakest standing combatant (weak).
func (t *Table) findWeak(s int) {
	w := weakNone
	for m := t.standing[s]; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		if w < 0 || t.f[j].hp < t.f[w].hp {
			w = j
		}
	}
	t.weak[s] = w
}

// lowered keeps the weakest of d's side after d took dmg and still
// stands.
func (t *Table) lowered(d, dmg int) {
	s := t.sd[d]
	if t.standing[s]&(1<<(uint(d)&63)) == 0 {
		return
	}
	switch w := t.weak[s]; {
	case w == weakOff:
	case w == d:
		// Still the weakest, unless its HP rose (damage is at least 1 a
		// hit; this is in case a trait's ever is not).
		if dmg < 0 {
			t.findWeak(s)
		}
	case w < 0 || t.f[d].hp < t.f[w].hp || t.f[d].hp == t.f[w].hp && d < w:
		t.weak[s] = d
	}
}

// callMasked is callNumber for a count called with nobody delaying under
// plainOrder (and no trace): the combatants whose number is n, in the
// same-number order, without building and sorting a list.
func (t *Table) callMasked(n int) {
	m := t.byNum[10-n] & (t.standing[0] | t.standing[1])
	if m == 0 {
		return
	}
	// orderSame: when both sides are on the number, the side with fewer in
	// the fight (equal: the referee's) chooses; its combatants go before
	// or after the other side's as each one's policy says; within a group
	// all rank alike, so roster order.
	first, second, third := m, uint64(0), uint64(0)
	if a, b := m&t.start[0], m&t.start[1]; a != 0 && b != 0 {
		a0, a1 := t.up[0], t.up[1]
		chooser := t.g.Referee
		switch {
		case a0 < a1:
			chooser = 0
		case a1 < a0:
			chooser = 1
		}
		mine := m & t.start[chooser]
		first, second, third = mine&t.beforeMask, m&t.start[1-chooser], mine&^t.beforeMask
	}
	if t.firstOrder < 0 {
		if first != 0 {
			t.firstOrder = bits.TrailingZeros64(first)
		} else {
			t.firstOrder = bits.TrailingZeros64(second)
		}
	}
	// The three groups one after another (a loop over an array of them
	// cost more than the calls' bookkeeping).
	for ; first != 0; first &= first - 1 {
		if t.callOne(bits.TrailingZeros64(first), n) {
			return
		}
	}
	for ; second != 0; second &= second - 1 {
		if t.callOne(bits.TrailingZeros64(second), n) {
			return
		}
	}
	for ; third != 0; third &= third - 1 {
		if t.callOne(bits.TrailingZeros64(third), n) {
			return
		}
	}
}
