package d20

import (
	"slices"
	"strings"

	"simctl/sim"
	"simctl/sim/msg"
)

// Initiative checks (SRD "Initiative Checks"): once, at the start of the
// battle, each combatant rolls d20 (or its initiative_dice, a house rule)
// + its initiative modifier; the order runs
// from the highest result down and stays the same every round unless Delay
// or Ready changes it.
//
// Ties: the higher total initiative modifier goes first; combatants still
// tied "roll again to determine which one of them goes before the other",
// which is a uniformly random order among them (Fisher-Yates over the tied
// run), never a bias toward list order.
func (t *Table) rollInitiative() {
	t.order = t.order[:0]
	keys := t.keys[:0]
	for i := range t.f {
		c := &t.g.C[i]
		die := c.InitRoll
		shown := "" // every die of initiative_dice, for the trace
		switch {
		case die != 0:
		case c.InitDice.IsZero():
			die = d20(t.r)
		case t.log != nil:
			die, shown = c.InitDice.RollShown(t.r) // the same draws as Roll
		default:
			die = c.InitDice.Roll(t.r)
		}
		t.f[i].count = die + c.Init
		init := c.Init
		if t.g.traits.at(i, mInitiative, -1, 0) {
			init = t.traitInitiative(i, die)
		}
		keys = append(keys, initKey(t.f[i].count, init, i))
		if t.log != nil {
			if c.InitDice.IsZero() {
				t.logf("initiative: %s rolls %d %+d = %d", c.Name, die, c.Init, t.f[i].count)
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Die: die, Roll: t.f[i].count})
			} else {
				if strings.Contains(shown, ",") {
					// 2d20kh1: both dice, the one kept and the one dropped.
					t.logf("initiative: %s rolls %d on %s (dice %s) %+d = %d", c.Name, die, c.InitDice.String(), shown, c.Init, t.f[i].count)
				} else {
					t.logf("initiative: %s rolls %d on %s %+d = %d", c.Name, die, c.InitDice.String(), c.Init, t.f[i].count)
				}
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: i, Target: sim.NoOne, Die: die, Roll: t.f[i].count, Rule: "dice"})
			}
		}
	}
	// One integer key per combatant orders by count, then modifier, then
	// roster order (what a stable sort by count and modifier gives).
	if len(keys) <= rankSortMax {
		rankSort(keys)
	} else {
		t.bucketByCount(keys)
		// Only the entries of one count are out of order now.
		for a := 1; a < len(keys); a++ {
			for b := a; b > 0 && keys[b] > keys[b-1]; b-- {
				keys[b], keys[b-1] = keys[b-1], keys[b]
			}
		}
	}
	for _, k := range keys {
		t.order = append(t.order, keyIndex(k))
	}
	t.keys = keys
	// Still tied (same count and modifier): "roll again", a uniform order
	// among them (Fisher-Yates: for i from the last down, swap with IntN(i+1)).
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi]>>keyIndexBits == keys[lo]>>keyIndexBits {
			hi++
		}
		if hi-lo > 1 {
			run := t.order[lo:hi]
			for i := len(run) - 1; i > 0; i-- {
				j := t.r.IntN(i + 1)
				run[i], run[j] = run[j], run[i]
			}
			if t.log != nil {
				t.logf("initiative: tie at %d broken by a re-roll: %s", t.f[run[0]].count, t.names(run))
				t.ev(sim.Event{Kind: sim.EvInitiative, Actor: sim.NoOne, Target: sim.NoOne, Roll: t.f[run[0]].count, Amount: len(run), Rule: "tie re-roll"})
			}
		}
		lo = hi
	}
}

// rankSortMax is the most keys rankSort sorts.
const rankSortMax = 16

// rankSort sorts a few distinct keys, largest first, by counting for each
// how many are larger: each pair compared once, without a branch on the
// outcome (the smaller of the two gains a rank), where an insertion sort's
// mispredicted branches on random initiative rolls cost more than the
// comparisons themselves.
func rankSort(keys []int64) {
	var rank [rankSortMax]int
	n := min(len(keys), rankSortMax)
	for a := 0; a < n; a++ {
		ka := keys[a]
		for b := a + 1; b < n; b++ {
			lt := 0
			if ka < keys[b] {
				lt = 1
			}
			rank[a] += lt
			rank[b] += 1 - lt
		}
	}
	var out [rankSortMax]int64
	for a := 0; a < n; a++ {
		out[rank[a]&(rankSortMax-1)] = keys[a]
	}
	copy(keys, out[:n])
}

// bucketByCount orders keys by count, highest first (a counting sort over
// the counts' range), leaving each count's entries in any order. A big
// party's sort then costs O(n) and few mispredicted branches instead of
// a comparison sort's O(n log n). Counts spread wider than 4 per entry
// (initiative dice with many sides) fall back to a comparison sort.
func (t *Table) bucketByCount(keys []int64) {
	lo, hi := keys[0]>>keyCountShift, keys[0]>>keyCountShift
	for _, k := range keys[1:] {
		c := k >> keyCountShift
		lo, hi = min(lo, c), max(hi, c)
	}
	span := int(hi-lo) + 1
	if span > 4*len(keys) {
		slices.Sort(keys)
		slices.Reverse(keys)
		return
	}
	start := t.bucket[:span+1] // newTable made room for 4 per entry
	clear(start)
	for _, k := range keys {
		start[hi-k>>keyCountShift+1]++ // bucket 0 is the highest count
	}
	for b := 1; b <= span; b++ {
		start[b] += start[b-1]
	}
	out := t.sorted[:len(keys)]
	for _, k := range keys {
		b := hi - k>>keyCountShift
		out[start[b]] = k
		start[b]++
	}
	copy(keys, out)
}

// initKey packs the initiative order of combatant i into one integer, the
// larger first: count, then modifier (-100..100, the scenario's limit), then
// the lower roster index (at most scenario.MaxCombatants = 64).
func initKey(count, init, i int) int64 {
	return int64(count)<<keyCountShift | int64(init+128)<<keyIndexBits | int64(keyIndexMask-i)
}

func keyIndex(k int64) int { return keyIndexMask - int(k&keyIndexMask) }

const (
	keyIndexBits  = 12
	keyIndexMask  = 1<<keyIndexBits - 1
	keyCountShift = keyIndexBits + 9 // modifier + 128 fits in 9 bits
)

func (t *Table) names(ids []int) msg.Text {
	var s msg.Text
	for k, i := range ids {
		if k == 0 {
			s = msg.New("%s", t.name(i))
		} else {
			s = msg.New("%s before %s", s, t.name(i))
		}
	}
	return s
}

// surpriseRound reports whether some but not all combatants are aware
// (SRD "The Surprise Round"); if no one or everyone is surprised there is
// none.
func (t *Table) surpriseRound() bool {
	aware, unaware := false, false
	for i := range t.g.C {
		if t.g.C[i].Aware {
			aware = true
		} else {
			unaware = true
		}
	}
	return aware && unaware
}

// flatFootedAC is the AC a combatant has right now: without its dex_ac while
// flat-footed (unless it has uncanny dodge), -2 after its own charge.
func (t *Table) ac(i int) int {
	c := &t.g.C[i]
	ac := c.AC
	if t.f[i].flatFooted && !c.UncannyDodge {
		ac -= c.DexAC
	}
	if t.f[i].chargeAC {
		ac -= 2
	}
	return ac
}
