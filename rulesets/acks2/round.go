package acks2

import (
	"math/bits"

	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// Play implements sim.Table. Every round runs the book's steps:
//
//  1. declarations: who casts a spell, withdraws or retreats (before
//     initiative, in public);
//  2. initiative: 1d6 + init for every combatant, re-rolled every round;
//  3. the count: the referee calls 10, 9, ... down to -10; each combatant
//     takes its segment on its number (delaying, readied attacks and the
//     round-1 weapons change that);
//  4. morale, after the count.
//
// The encounter ends as soon as a side is all out (killed or fled); the
// rest of that round's count is not played. max_rounds reached with both
// sides standing is a draw.
func (t *Table) Play(r *rng.Stream, c *sim.Counts, log *sim.Log) sim.Outcome {
	t.r, t.c, t.log = r, c, log
	t.setup()
	rounds := 0
	for round := 1; round <= t.g.Maxround && !t.over(); round++ {
		if t.c.Stopped() { // the run is stopping: abandoned, not counted
			return sim.Outcome{}
		}
		t.round, rounds = round, round
		if t.log != nil {
			t.logf("-- round %d", round)
			t.ev(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: round})
		}
		if t.tr != nil {
			t.traitRoundStart()
		}
		t.declarations()
		t.rollInitiative()
		t.countDown()
		if t.over() {
			break
		}
		if !t.noFx {
			t.endOfRound()
		}
		if !t.over() {
			t.morale()
		}
	}
	out := sim.Outcome{Winner: t.winner(), Rounds: rounds, FirstActor: t.first, FirstInOrder: t.firstOrder}
	if out.Winner < 0 {
		// Both sides all out (fled together in one morale step, or the
		// last of each fell to the same end-of-round effects), or
		// max_rounds reached with both standing.
		out.Draw = sim.DrawMaxRounds
		if t.alive(0) == 0 && t.alive(1) == 0 {
			out.Draw = sim.DrawAllGone
		}
	}
	for i := range t.f {
		if !t.f[i].out {
			out.Survivors[t.g.C[i].Side]++
		}
	}
	t.recordEnds()
	if t.log != nil {
		if out.Winner < 0 {
			t.logf("== draw (%s) after %d rounds", msg.New(drawWords[out.Draw]), rounds)
			t.ev(sim.Event{Kind: sim.EvEnd, Actor: sim.NoOne, Target: sim.NoOne, Amount: rounds, Rule: drawWords[out.Draw]})
		} else {
			t.logf("== %s win after %d rounds (survivors %d vs %d)", t.g.SideNames[out.Winner], rounds, out.Survivors[0], out.Survivors[1])
			t.ev(sim.Event{Kind: sim.EvEnd, Actor: out.Winner, Target: sim.NoOne, Amount: rounds})
		}
	}
	return out
}

// declarations resets the per-round state and asks every combatant in the
// fight for its declaration: "Combatants who wish to cast spells or take a
// defensive movement action (retreat or withdraw) in the coming round must
// announce it to the referee before initiative dice are rolled. Other
// actions need not be announced."
//
// The source says the declarations are public and gives no order, so the
// file's roster order must not decide who hears whom: every declarer is
// asked before any declaration of the round is heard (simultaneous), or,
// with option declare_first, the named side's declarations are heard
// before the other side is asked.
func (t *Table) declarations() {
	for i := range t.f {
		f := &t.f[i]
		f.startDone, f.endDone, f.segDone, f.numberLost = false, false, false, false
		f.castLost, f.charging, f.delaying, f.r1 = false, false, false, false
		f.queued = false
		f.cleaves = 0
		f.delayAfter = -1
		f.decl = Declaration{}
	}
	if t.declarers == 0 {
		// No policy can declare anything (Steady): asking would change
		// nothing.
		return
	}
	if first := t.g.Opt.DeclareFirst; first >= 0 {
		t.declareSide(first)
		t.declareSide(1 - first)
		return
	}
	t.declareSide(-1)
}

// declareSide asks every combatant in the fight of side s (-1: of both
// sides) for its declaration, and only then makes them public.
func (t *Table) declareSide(s int) {
	for i := range t.f {
		t.declared[i] = Declaration{}
		if t.f[i].out || (s >= 0 && t.g.C[i].Side != s) || t.quiet[i] {
			continue
		}
		t.declared[i] = t.g.C[i].Policy.Declare(t, i)
	}
	for i := range t.f {
		if t.f[i].out || (s >= 0 && t.g.C[i].Side != s) {
			continue
		}
		f, c, d := &t.f[i], &t.g.C[i], t.declared[i]
		switch d.Kind {
		case DeclareSpell:
			if d.Spell < 0 || d.Spell >= len(c.Spells) || f.uses[d.Spell] <= 0 {
				continue // nothing left to cast: the declaration is void
			}
		case DeclareWithdraw, DeclareRetreat:
		default:
			continue
		}
		f.decl = d
		if t.log != nil {
			what := msg.New(declNames[d.Kind])
			if d.Kind == DeclareSpell {
				what = msg.New("%s (%s)", what, c.Spells[d.Spell].Name)
			}
			t.logf("%s declares %s", c.Name, what)
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "declare " + what.String()})
		}
	}
}

// countDown calls the counts from 10 to -10. "The count continues until
// the characters have acted, or until it reaches -10."
//
// Counts on which nothing can happen are skipped: the count starts at the
// highest number and stops once every number has come and no one delays.
func (t *Table) countDown() {
	top := -10
	for b, m := range t.byNum {
		if m != 0 {
			top = 10 - b
			break
		}
	}
	t.toStart, t.delayers = t.alive(0)+t.alive(1), 0
	for n := min(top, 10); n >= -10 && (t.toStart > 0 || t.delayers > 0); n-- {
		t.now = n
		t.callNumber(n)
		if t.over() {
			return
		}
		t.expireDelays(n)
		if t.over() {
			return
		}
	}
}

// callNumber plays count n: the combatants whose number is n (for their
// start-of-segment effects even when they delay or gave their number) and
// those delaying to n, in the order of the same-number rule.
func (t *Table) callNumber(n int) {
	if t.delayers == 0 && t.plainOrder && t.log == nil {
		t.callMasked(n) // shortcuts.go: the same order without a sort
		return
	}
	ids := t.slots[:0]
	if t.delayers == 0 {
		// Nobody delays: those called are the ones whose number is n,
		// marked by rollInitiative, in roster order as the scan below
		// would find them.
		for m := t.byNum[10-n]; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			if f := &t.f[i]; !f.out && !f.startDone {
				ids = append(ids, i)
			}
		}
	} else {
		for i := range t.f {
			f := &t.f[i]
			switch {
			case f.out:
			case f.number == n && !f.startDone:
				ids = append(ids, i)
			case f.delaying && f.delayAfter < 0 && f.delayTo == n:
				ids = append(ids, i)
			}
		}
	}
	if len(ids) == 0 {
		return
	}
	t.orderSame(ids)
	if t.firstOrder < 0 {
		// The first number called in round 1: everyone in the fight has
		// a segment in round 1, so this is the head of its order.
		t.firstOrder = ids[0]
	}
	if t.log != nil {
		t.logf("count %d: %s", n, t.list(ids))
		for _, i := range ids {
			t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Roll: n, Rule: "called"})
		}
	}
	for _, i := range ids {
		if t.callOne(i, n) {
			return
		}
	}
}

// callOne plays i's part of count n: its segment on its number, or its
// delayed action. It reports whether the encounter is over.
func (t *Table) callOne(i, n int) bool {
	f := &t.f[i]
	if f.out {
		return false
	}
	if f.number == n && !f.startDone {
		t.startOfSegment(i)
		if t.over() {
			return true
		}
		if f.out {
			return false
		}
		if f.numberLost {
			if t.log != nil {
				t.logf("%s has no segment: it gave its number for a round-1 attack", t.name(i))
				t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Rule: "number given for round 1"})
			}
		} else {
			t.segment(i)
		}
	} else if f.delaying && f.delayAfter < 0 && f.delayTo == n {
		t.resume(i)
	}
	if t.over() {
		return true
	}
	t.afterSegment()
	return t.over()
}

// afterSegment lets the combatants waiting for a named combatant act,
// "immediately after that character, on the same number", once it has
// acted (or can no longer act: it is out, gave its number or lost its
// action). Several released at once follow the same-number rule among
// themselves; each may release others in turn.
func (t *Table) afterSegment() {
	if t.delayers == 0 {
		return // nobody waits (t.delayers counts the delaying, waiters included)
	}
	var buf [scenario.MaxCombatants]int
	ids := buf[:0]
	for w := range t.f {
		if t.waitOver(w) && !t.f[w].queued {
			ids = append(ids, w)
			t.f[w].queued = true
		}
	}
	if len(ids) == 0 {
		return
	}
	t.orderSame(ids)
	for k, w := range ids {
		t.f[w].queued = false
		if !t.waitOver(w) {
			continue
		}
		t.resume(w)
		if !t.over() {
			// Those waiting for w go right after it, before the rest
			// of this batch (still queued).
			t.afterSegment()
		}
		if t.over() {
			for _, q := range ids[k+1:] {
				t.f[q].queued = false
			}
			return
		}
	}
}

// waitOver reports whether w is waiting for a named combatant that has
// now acted or will not act this round.
func (t *Table) waitOver(w int) bool {
	f := &t.f[w]
	if f.out || !f.delaying || f.delayAfter < 0 {
		return false
	}
	x := &t.f[f.delayAfter]
	return x.out || (x.segDone && !x.delaying)
}

// expireDelays: "If the character does not take its initiative segment by
// then [the negative of its number], it loses the opportunity to act this
// round." Run after count n, for the delayers whose limit is n.
func (t *Table) expireDelays(n int) {
	if t.delayers == 0 {
		return
	}
	lost := false
	for i := range t.f {
		f := &t.f[i]
		if f.out || !f.delaying || f.floor < n {
			continue
		}
		t.stopDelay(i)
		f.segDone = true
		t.c.Lost(t.side(i), i)
		lost = true
		if t.log != nil {
			if f.delayAfter >= 0 {
				t.logf("%s waited for %s past count %d (-%d): its action is lost this round", t.name(i), t.name(f.delayAfter), f.floor, abs(f.number))
				t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: f.delayAfter, Need: f.floor, Rule: "delay ran out"})
			} else {
				t.logf("%s's delay ran out at count %d: its action is lost this round", t.name(i), f.floor)
				t.ev(sim.Event{Kind: sim.EvLost, Actor: i, Target: sim.NoOne, Need: f.floor, Rule: "delay ran out"})
			}
		}
	}
	if lost {
		t.afterSegment()
	}
}

// endOfRound: "Effects that trigger at the end of a character's segment
// happen at the end of its segment, or at the end of the round if it never
// acted."
func (t *Table) endOfRound() {
	for i := range t.f {
		if !t.f[i].out && !t.f[i].endDone {
			t.endOfSegment(i)
			if t.over() {
				return
			}
		}
	}
}

// list names the combatants of ids in order, for the log.
func (t *Table) list(ids []int) msg.Text {
	var s msg.Text
	for k, i := range ids {
		item := msg.New("%s", t.name(i))
		if t.f[i].delaying {
			item = msg.New("%s (delayed)", t.name(i))
		}
		if k > 0 {
			item = msg.New("%s, %s", s, item)
		}
		s = item
	}
	return s
}

var drawWords = [...]string{sim.DrawMaxRounds: "max_rounds reached", sim.DrawAllGone: "both sides are out"}

// recordEnds reports where each combatant ended (per-combatant results):
// killed is Down, fled on a failed morale check is Gone.
func (t *Table) recordEnds() {
	for i := range t.f {
		f := &t.f[i]
		st := sim.Standing
		switch {
		case f.out && f.fled:
			st = sim.Gone
		case f.out:
			st = sim.Down
		}
		t.c.End(i, f.hp, st)
	}
}
