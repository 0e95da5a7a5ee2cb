package d20

import (
	"math"
	"math/bits"

	"simctl/sim/lang"
)

// Tactics conditions on the fused referee (issue 38). A tactics block
// whose standard rule comes after conditional rules has a Guard: the
// general referee asks it every turn and, when some condition holds, calls
// the policy's Turn, which plays the rules in order. The fused referee
// plays those rules itself when the policy describes them (FusedTactic) in
// terms it can carry out: conditions over facts it computes from its own
// arrays (FusedFact), decisions that attack an enemy it can pick, or that
// always fall through in a fused fight. Every fact is computed as the
// general referee's table answers it, in the fights compileFused accepts:
// everyone in one place (every standing enemy in reach, every distance 0),
// no spells, no ranged weapons, no delay, ready or charge ever carried out,
// no surprise round. The facts draw nothing, so asking them changes no
// draw; the rules' counters are counted as Turn counts them.

// FusedFact is a tactics fact the fused referee computes from its own
// state, for self on its turn (Arg: another combatant's roster index).
// Package agents maps its d20 facts to these; a fact it maps to FactNone
// keeps the fight on the general referee.
type FusedFact uint8

// The fused facts.
const (
	FactNone FusedFact = iota // not answered by the fused referee
	// FactZero is 0 in every fight the fused referee plays: the surprise
	// round, resuming, spells left, every distance, the nearest enemy's
	// distance, ammunition and loading (no ranged weapon), enemies in
	// range, readied, delaying and charged (never carried out).
	FactZero
	FactRound
	FactSelfHP
	FactSelfHPPct
	FactEnemiesCount // also enemies.in_reach and enemies.reachable
	FactEnemiesDown
	FactAlliesCount
	FactAlliesDown
	FactSelfAC
	FactSelfCount
	FactSelfPosition      // place in the order among those still in, 1 = first
	FactSelfFlatFooted    //
	FactSelfEngaged       // self.engaged and self.threatened: an enemy stands (everyone is in reach of everyone)
	FactSelfFlanked       // an enemy threatening self flanks it
	FactEnemiesActed      //
	FactEnemiesFlatFooted //
	FactEnemiesFlanked    // standing enemies self's attack would flank
	FactAlliesEngaged     //
	FactAlliesActed       //
	FactActed             // Arg has acted this round
	FactDown              // Arg is out
	FactInReach           // enemy Arg is in the fight (and so within reach)
	FactHP                //
	FactHPPct             //
	FactEngaged           // an enemy of Arg stands (within its reach)
	FactFlatFooted        //
	FactCount             // Arg's initiative count
	FactAC                // Arg's armour class now
	FactFlanked           // self's attack on Arg would flank it
	FactNextExists        // someone still in comes after self in the order this round
	FactNextIsEnemy       //
	FactNextIsAlly        //
	numFusedFacts
)

// FusedSlot is the fact one slot of a condition reads.
type FusedSlot struct {
	Fact FusedFact
	Arg  int
}

// FusedSelect is how a fused rule picks its target among the standing
// enemies (all in reach).
type FusedSelect uint8

// The fused target selectors.
const (
	FusedWeakest   FusedSelect = iota // fewest hit points, ties to the earlier in roster order
	FusedStrongest                    // most hit points, ties to the earlier
	FusedFirst                        // earliest in roster order (and nearest: every distance is 0)
	FusedLowestAC                     // lowest armour class now, ties to fewer hit points, then the earlier
)

// FusedRule is one rule of a tactics block before its standard rule, as
// the fused referee plays it.
type FusedRule struct {
	When  *lang.Program // its condition
	Slots []FusedSlot   // the fact each of When's slots reads
	// Fell >= 0: the decision always falls through in a fused fight (a
	// charge with everyone in one place, a full attack with one attack),
	// counted in Counts.Rules[Fell].
	// Else it attacks the enemy Select picks, counted in Fired.
	Fell   int
	Select FusedSelect
	Fired  int
}

// FusedTactic is an optional ability of a Policy whose Standard has a
// Guard (a tactics block): FusedRules returns the rules before the
// standard one, in order, for the fused referee, or false when one of
// them or of their facts is not one it plays.
type FusedTactic interface {
	FusedRules() ([]FusedRule, bool)
}

// fusedRule is a FusedRule compiled: the condition's decision tree
// (lang.Program.Leaves, nil when it is no such tree), the program, its
// slots' facts, and what the rule does.
type fusedRule struct {
	tree  []lang.Leaf
	when  *lang.Program
	slots []FusedSlot
	fell  int
	sel   FusedSelect
	fired int
}

// fusedLeaf is a leaf of the walk playFused makes over a combatant's
// rules before the standard one: their decision trees in order, one
// program, where a rule's false goes on to the next rule's first leaf.
// A fact the fused state keeps per side (kind < numSideFacts) is a load
// from fusedState.side, tested against the leaf's interval as integer
// bounds (x-lo <= span unsigned: exact, such a fact being a whole
// number); self.hp_pct (kindHPPct) against the interval as floats, their
// bits kept in lo and span. A leaf of kindOther (another fact, or a rule
// that is no tree) ends the walk there: fusedRules plays the rules from
// the leaf's on. next is the leaf's Next by whether the value is in the
// interval (its negation folded in), rebased on the walk: walkNone when
// no rule's condition holds, walkHolds when the leaf's rule's does.
type fusedLeaf struct {
	lo   int64
	span uint64
	next [2]int32
	kind uint8
	rule int32
}

// The ends of a walk.
const (
	walkNone  = -1
	walkHolds = -2
)

// The facts fusedState.side keeps for each side, as self on that side
// asks them on its turn (self stands then): kept as they change (the
// round at its start, the counts when someone goes out), so that asking
// one is a load.
const (
	sideZero         = iota // FactZero
	sideRound               // FactRound
	sideEnemiesCount        // FactEnemiesCount: the other side's standing
	sideEnemiesDown         // FactEnemiesDown: the other side's fallen
	sideAlliesCount         // FactAlliesCount: the side's standing but self
	sideAlliesDown          // FactAlliesDown: the side's fallen (self stands)
	sideEngaged             // FactSelfEngaged: an enemy stands
	numSideFacts
	kindHPPct = numSideFacts     // self.hp_pct, tested as a float
	kindOther = numSideFacts + 1 // asked of fusedFact, tested as a float
)

// sideKind is the kind of a leaf reading fact f.
func sideKind(f FusedFact) uint8 {
	switch f {
	case FactZero:
		return sideZero
	case FactRound:
		return sideRound
	case FactEnemiesCount:
		return sideEnemiesCount
	case FactEnemiesDown:
		return sideEnemiesDown
	case FactAlliesCount:
		return sideAlliesCount
	case FactAlliesDown:
		return sideAlliesDown
	case FactSelfEngaged:
		return sideEngaged
	case FactSelfHPPct:
		return kindHPPct
	}
	return kindOther
}

// maxExact bounds the integer bounds: every whole number up to it is a
// float64, and every fact kept per side is far inside it.
const maxExact = 1 << 53

// intBounds is the interval [lo, hi] of floats as the whole numbers x in
// it with |x| < maxExact, those with x-lo <= span unsigned: ceil(lo) to
// floor(hi), each clamped to ±maxExact, just outside that range; an empty interval
// (lo > hi, or a NaN bound) as one no such x is in.
func intBounds(lo, hi float64) (int64, uint64) {
	if !(lo <= hi) {
		return 2 * maxExact, 0 // x - lo < 0 for every x in range: huge unsigned
	}
	l := math.Ceil(math.Min(math.Max(lo, -maxExact), maxExact))
	h := math.Floor(math.Max(math.Min(hi, maxExact), -maxExact))
	if l > h {
		return 2 * maxExact, 0
	}
	return int64(l), uint64(int64(h) - int64(l))
}

// holdsInt is Holds for a whole number x (|x| < maxExact) as fusedLeaf
// tests it, its negation aside.
func (l *fusedLeaf) holdsInt(x int64) bool { return uint64(x-l.lo) <= l.span }

// holdsFloat is Holds for x as a kindHPPct leaf tests it, its negation
// aside.
func (l *fusedLeaf) holdsFloat(x float64) bool {
	return math.Float64frombits(uint64(l.lo)) <= x && x <= math.Float64frombits(l.span)
}

// compileLeaf compiles leaf l, which reads fact f, for rule r's part of a
// walk (next rebased: see fusedLeaf).
func compileLeaf(l lang.Leaf, f FusedFact, r int32) fusedLeaf {
	fl := fusedLeaf{kind: sideKind(f), rule: r, next: l.Next}
	switch {
	case fl.kind < numSideFacts:
		fl.lo, fl.span = intBounds(l.Lo, l.Hi)
	case fl.kind == kindHPPct:
		fl.lo, fl.span = int64(math.Float64bits(l.Lo)), math.Float64bits(l.Hi)
	}
	if l.Neg {
		fl.next[0], fl.next[1] = l.Next[1], l.Next[0]
	}
	return fl
}

// compileWalk is the walk over rules (see fusedLeaf).
func compileWalk(rules []fusedRule) []fusedLeaf {
	var w []fusedLeaf
	start := make([]int32, len(rules)+1)
	for r, fr := range rules {
		start[r+1] = start[r] + int32(max(len(fr.tree), 1))
	}
	for r, fr := range rules {
		if fr.tree == nil {
			w = append(w, fusedLeaf{kind: kindOther, rule: int32(r)})
			continue
		}
		for _, l := range fr.tree {
			fl := compileLeaf(l, fr.slots[l.Slot].Fact, int32(r))
			for j, nx := range fl.next {
				switch {
				case nx >= 0:
					fl.next[j] = start[r] + nx
				case nx == lang.ResultTrue:
					fl.next[j] = walkHolds
				case r+1 < len(rules):
					fl.next[j] = start[r+1]
				default:
					fl.next[j] = walkNone
				}
			}
			w = append(w, fl)
		}
	}
	return w
}

// compileFusedRule checks r against a game of n combatants and compiles
// it.
func compileFusedRule(r FusedRule, n int) (fusedRule, bool) {
	if r.When == nil || len(r.Slots) != len(r.When.Slots) || r.Select > FusedLowestAC {
		return fusedRule{}, false
	}
	for _, s := range r.Slots {
		if s.Fact == FactNone || s.Fact >= numFusedFacts || s.Fact >= FactActed && s.Fact <= FactFlanked && (s.Arg < 0 || s.Arg >= n) {
			return fusedRule{}, false
		}
	}
	return fusedRule{tree: r.When.Leaves(), when: r.When, slots: r.Slots, fell: r.Fell, sel: r.Select, fired: r.Fired}, true
}

// hpDivOf is fusedState.hpDiv for hit points at the start m.
func hpDivOf(m int32) float64 {
	if m > 0 {
		return float64(m)
	}
	return math.Inf(1)
}

// asksActed reports whether some rule asks who has acted this round
// (fusedFact reads fusedState.acted for those facts alone).
func asksActed(rules []fusedRule) bool {
	for _, fr := range rules {
		for _, sl := range fr.slots {
			switch sl.Fact {
			case FactEnemiesActed, FactAlliesActed, FactActed:
				return true
			}
		}
	}
	return false
}

// fusedRules plays self a's rules from the r-th on, as playFused does (see
// there), on the k-th turn of round round; tg is the standard rule's
// target, es self's enemies' side. It returns the target. Each condition
// is walked as lang.Program.Leaves says, every fact asked of fusedFact,
// or evaluated by fusedEval when it is no tree.
func (t *Table) fusedRules(a, es, k, round, r, tg int) int {
	rules := t.g.fused.tactic[a&63]
	for ; r < len(rules); r++ {
		fr := &rules[r]
		var holds bool
		if tree := fr.tree; tree != nil {
			li := int32(0)
			for {
				l := &tree[li]
				sl := &fr.slots[l.Slot]
				nx := l.Next[b2i(l.Holds(t.fusedFact(sl.Fact, sl.Arg, a, k, round)))]
				if nx < 0 {
					holds = nx == lang.ResultTrue
					break
				}
				li = nx
			}
		} else {
			holds = t.fusedEval(fr, a, k, round)
		}
		if !holds {
			continue
		}
		if fr.fell >= 0 {
			t.c.Rule(fr.fell)
			continue
		}
		t.c.Rule(fr.fired)
		t.fs.ruled[a&63]++
		return t.fusedPick(fr.sel, es)
	}
	return tg
}

// fusedEval evaluates a condition that is no decision tree: the program,
// each fact asked by fusedFact.
func (t *Table) fusedEval(fr *fusedRule, a, k, round int) bool {
	return fr.when.EvalFunc(func(s int) float64 {
		sl := &fr.slots[s]
		return t.fusedFact(sl.Fact, sl.Arg, a, k, round)
	})
}

// fusedPick is the standing enemy of side es that sel picks (PickTarget
// and package agents' selectors, with every enemy in reach).
func (t *Table) fusedPick(sel FusedSelect, es int) int {
	fg, fs := t.g.fused, t.fs
	switch sel {
	case FusedWeakest:
		return fs.weak[es]
	case FusedFirst:
		return bits.TrailingZeros64(fs.up[es])
	}
	best := -1
	for m := fs.up[es]; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m) & 63
		if best < 0 {
			best = j
			continue
		}
		if sel == FusedStrongest {
			if fs.hp[j] > fs.hp[best] {
				best = j
			}
			continue
		}
		if aj, ab := fs.ac(fg, j), fs.ac(fg, best); aj < ab || aj == ab && fs.hp[j] < fs.hp[best] {
			best = j
		}
	}
	return best
}

// ac is j's armour class now (Table.ac: nobody charges in a fused fight).
func (fs *fusedState) ac(fg *fusedGame, j int) int32 {
	if fs.flat&(1<<(uint(j)&63)) != 0 {
		return fg.acFlat[j&63]
	}
	return fg.ac[j&63]
}

// fusedFact computes fact f (argument arg) for self, whose turn is the
// k-th entry of the order in round round, as the general referee's table
// answers it in a fused fight. (playFused's walk reads the facts kept
// per side from fusedState.side instead: the same values.)
func (t *Table) fusedFact(f FusedFact, arg, self, k, round int) float64 {
	fg, fs := t.g.fused, t.fs
	self &= 63
	s := int(fg.side[self])
	es := 1 - s
	me := uint64(1) << uint(self)
	a := arg & 63
	ab := uint64(1) << uint(a)
	switch f {
	case FactRound:
		return float64(round)
	case FactSelfHP:
		return float64(fs.hp[self])
	case FactSelfHPPct:
		return fs.pct(self)
	case FactSelfAC:
		return float64(fs.ac(fg, self))
	case FactSelfCount:
		return float64(t.f[self].count)
	case FactSelfPosition:
		n := 1
		for _, j := range t.order[:k] {
			n += b2i(fs.up[fg.side[j&63]]&(1<<(uint(j)&63)) != 0)
		}
		return float64(n)
	case FactSelfFlatFooted:
		return b2f(fs.flat&me != 0)
	case FactSelfEngaged:
		return b2f(fs.up[es] != 0)
	case FactSelfFlanked:
		// flanking: two: an enemy threatens it and another enemy stands.
		return b2f(fg.flankTwo && bits.OnesCount64(fs.up[es]) >= 2)
	case FactEnemiesCount:
		return float64(bits.OnesCount64(fs.up[es]))
	case FactEnemiesDown:
		return float64(fg.sideSize[es] - bits.OnesCount64(fs.up[es]))
	case FactEnemiesActed:
		return float64(bits.OnesCount64(fs.up[es] & fs.acted))
	case FactEnemiesFlatFooted:
		return float64(bits.OnesCount64(fs.up[es] & fs.flat))
	case FactEnemiesFlanked:
		if fg.flankTwo && fs.up[s]&^me != 0 {
			return float64(bits.OnesCount64(fs.up[es]))
		}
		return 0
	case FactAlliesCount:
		return float64(bits.OnesCount64(fs.up[s] &^ me))
	case FactAlliesDown:
		return float64(fg.sideSize[s] - 1 - bits.OnesCount64(fs.up[s]&^me))
	case FactAlliesEngaged:
		if fs.up[es] != 0 {
			return float64(bits.OnesCount64(fs.up[s] &^ me))
		}
		return 0
	case FactAlliesActed:
		return float64(bits.OnesCount64(fs.up[s] & fs.acted &^ me))
	case FactActed:
		return b2f(fs.acted&ab != 0)
	case FactDown:
		return b2f(fs.up[fg.side[a]]&ab == 0)
	case FactInReach:
		return b2f(fs.up[fg.side[a]]&ab != 0)
	case FactHP:
		return float64(fs.hp[a])
	case FactHPPct:
		return fs.pct(a)
	case FactEngaged:
		return b2f(fs.up[1-fg.side[a]] != 0)
	case FactFlatFooted:
		return b2f(fs.flat&ab != 0)
	case FactCount:
		return float64(t.f[a].count)
	case FactAC:
		return float64(fs.ac(fg, a))
	case FactFlanked:
		return b2f(fg.flankTwo && fs.up[fg.side[a]]&ab != 0 && fs.up[s]&^me != 0)
	case FactNextExists, FactNextIsEnemy, FactNextIsAlly:
		next := -1
		for _, j := range t.order[k+1:] {
			if fs.up[fg.side[j&63]]&(1<<(uint(j)&63)) != 0 {
				next = j
				break
			}
		}
		switch f {
		case FactNextExists:
			return b2f(next >= 0)
		case FactNextIsEnemy:
			return b2f(next >= 0 && int(fg.side[next&63]) != s)
		}
		return b2f(next >= 0 && next != self && int(fg.side[next&63]) == s)
	}
	return 0 // FactZero
}

// pct is i's hit points as a fraction of those at the start (0 when it
// started with none), as package agents computes self.hp_pct.
func (fs *fusedState) pct(i int) float64 {
	if d := fs.hpDiv[i&63]; !math.IsInf(d, 1) {
		return float64(fs.hp[i&63]) / d
	}
	return 0
}
