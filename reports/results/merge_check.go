package results

import (
	"math/bits"
	"simctl/sim/msg"

	"simctl/sim"
)

// consistent checks the cross-field invariants every result simctl writes
// holds, beyond the sums check verifies: the rounds sum and maximum
// against the rounds histogram, each distribution's count, sum and
// maximum against its bins, the end states against the encounters, and
// the per-combatant totals against their side's counters. A hand-edited
// count (rounds_sum + 10^6, one combatant's damage × 10, counts[0] +
// 12345) breaks one of them, and merge refuses it instead of adding it
// in. Fields absent from results of older versions (zero) are not held
// against them.
// damaged is a consistency check's finding.
func damaged(format string, a ...any) error {
	return msg.Errorf("%s; the file is damaged or was edited", msg.New(format, a...))
}

func (r *Result) consistent() error {
	raw := &r.Raw
	n := raw.Encounters
	// Rounds: the histogram has a bin per round count up to its cap, the
	// encounters beyond it in rounds_over.
	lo, hi, last, ok := binSums(raw.Rounds)
	if !ok {
		return damaged("the rounds histogram overflows")
	}
	capR := int64(len(raw.Rounds) - 1)
	if err := sumWithin(msg.New("rounds"), raw.RoundsSum, raw.RoundsMax, lo, hi, last, capR, raw.RoundsOver, n); err != nil {
		return damaged("%v", err)
	}
	if d := raw.DrawsMaxRounds + raw.DrawsAllGone; d != 0 && (d != raw.Draws || raw.DrawsMaxRounds < 0 || raw.DrawsAllGone < 0) {
		return damaged("draws by cause (%d at max_rounds + %d all gone) do not add up to its %d draws", raw.DrawsMaxRounds, raw.DrawsAllGone, raw.Draws)
	}
	if len(raw.FirstInOrder) > 0 {
		var first int64
		for _, v := range raw.FirstInOrder {
			if v < 0 || first > first+v {
				return damaged("first_in_order has a negative or overflowing count")
			}
			first += v
		}
		if raw.NoOrder < 0 || first+raw.NoOrder != n {
			return damaged("first_in_order counts %d encounters (and %d without an order), not %d", first, raw.NoOrder, n)
		}
	}
	// Survivors: at most every combatant of the side, every encounter.
	var size [2]int64
	for _, s := range raw.RosterSides {
		size[s]++
	}
	for s := 0; s < 2; s++ {
		if len(raw.RosterSides) > 0 && (raw.Survivors[s] > size[s]*n || (size[s] > 0 && raw.Survivors[s]/size[s] > n)) {
			return damaged("side %d has %d survivors in %d encounters of %d combatants", s, raw.Survivors[s], n, size[s])
		}
	}
	// Distributions: one observation per encounter that recorded end states.
	if raw.Ended < 0 || raw.Ended > n {
		return damaged("ended %d of %d encounters", raw.Ended, n)
	}
	var won int64
	for s := 0; s < 2; s++ {
		if raw.AnyDown[s] < 0 || raw.AnyDown[s] > raw.Ended {
			return damaged("any_down of side %d is %d of %d ended encounters", s, raw.AnyDown[s], raw.Ended)
		}
		for _, h := range []struct {
			name string
			h    *HistRaw
		}{{"damage_hist", &raw.Damage[s]}, {"winner_hp_hist", &raw.WinnerHP[s]}} {
			if err := h.h.consistent(); err != nil {
				return damaged("%s of side %d: %v", h.name, s, err)
			}
		}
		if raw.Damage[s].N != 0 && raw.Damage[s].N != raw.Ended {
			return damaged("damage_hist of side %d counts %d encounters, not the %d that ended", s, raw.Damage[s].N, raw.Ended)
		}
		if raw.WinnerHP[s].N > raw.Wins[s] {
			return damaged("winner_hp_hist of side %d counts %d wins of %d", s, raw.WinnerHP[s].N, raw.Wins[s])
		}
		won += raw.WinnerHP[s].N
	}
	if won > raw.Ended {
		return damaged("winner_hp_hist counts %d wins of %d ended encounters", won, raw.Ended)
	}
	// Counters: a per-encounter count is at least 0, so its sum of
	// squares is at most its sum squared.
	for i, sq := range raw.CountsSq {
		if c := raw.Counts[i]; c > 0 {
			if h, l := bits.Mul64(uint64(c), uint64(c)); h == 0 && l < 1<<63 && sq > int64(l) {
				return damaged("the sum of squares of %s (%d) is above its sum squared (%d)", raw.Counters[i%len(raw.Counters)], sq, l)
			}
		} else if sq != 0 {
			return damaged("the sum of squares of %s is %d with a sum of 0", raw.Counters[i%len(raw.Counters)], sq)
		}
	}
	return raw.combatantsConsistent(n)
}

// combatantsConsistent checks the per-combatant totals against their
// sides' counters (sim records both in one call: Counts.Hit, Turn, Lost)
// and the end states against the encounters.
func (raw *Raw) combatantsConsistent(n int64) error {
	if len(raw.Combatants) == 0 || len(raw.RosterSides) != len(raw.Combatants) {
		return nil
	}
	per := len(raw.Counters)
	var dealt, turns, lost, hpWin [2]int64
	var taken int64
	add := func(dst *int64, v int64) bool {
		s, c := bits.Add64(uint64(*dst), uint64(v), 0)
		*dst = int64(s)
		return c == 0 && v >= 0 && int64(s) >= 0
	}
	for i, c := range raw.Combatants {
		s := raw.RosterSides[i]
		if c.EndedDown < 0 || c.EndedGone < 0 || c.EndedDown+c.EndedGone > raw.Ended || c.EndedDown+c.EndedGone < 0 {
			return damaged("%s ended down %d and gone %d times in %d ended encounters", raw.Roster[i], c.EndedDown, c.EndedGone, raw.Ended)
		}
		if c.HPLeftWin < 0 || c.HPLeftWin > c.HPLeft || c.Kills < 0 || c.Downed < 0 {
			return damaged("%s: negative figures, or more hit points left in wins (%d) than in all (%d)", raw.Roster[i], c.HPLeftWin, c.HPLeft)
		}
		if !add(&dealt[s], c.DamageDealt) || !add(&turns[s], c.Turns) || !add(&lost[s], c.ActionsLost) ||
			!add(&hpWin[s], c.HPLeftWin) || !add(&taken, c.DamageTaken) {
			return damaged("%s: negative or overflowing totals", raw.Roster[i])
		}
	}
	var dealtAll int64
	for s := 0; s < 2; s++ {
		for _, f := range []struct {
			name      string
			got, want int64
		}{{"damage_dealt", dealt[s], raw.Counts[s*per+sim.DamageDealt]}, {"turns", turns[s], raw.Counts[s*per+sim.Turns]},
			{"actions_lost", lost[s], raw.Counts[s*per+sim.ActionsLost]}} {
			if f.got != f.want {
				return damaged("side %d's combatants' %s add up to %d, its counter says %d", s, f.name, f.got, f.want)
			}
		}
		// Every encounter ended recorded each side's damage in damage_hist.
		if raw.Ended == n && raw.Damage[s].N == n && raw.Damage[s].Sum != dealt[s] {
			return damaged("damage_hist of side %d sums to %d, its combatants dealt %d", s, raw.Damage[s].Sum, dealt[s])
		}
		if raw.WinnerHP[s].N > 0 && raw.WinnerHP[s].Sum != hpWin[s] {
			return damaged("winner_hp_hist of side %d sums to %d, its combatants kept %d in wins", s, raw.WinnerHP[s].Sum, hpWin[s])
		}
		dealtAll += dealt[s]
	}
	if taken < dealtAll {
		return damaged("the combatants took %d damage but dealt %d", taken, dealtAll)
	}
	return nil
}

// consistent checks a distribution: its bins and overflow count N, and
// its sum and maximum lie where its bins put them.
func (h *HistRaw) consistent() error {
	if h.Cap < 0 || len(h.Counts) > h.Cap+1 {
		return msg.Errorf("%d bins for a cap of %d", len(h.Counts), h.Cap)
	}
	lo, hi, last, ok := binSums(h.Counts)
	if !ok {
		return msg.Errorf("its bins overflow")
	}
	return sumWithin(msg.New("values"), h.Sum, h.Max, lo, hi, last, int64(h.Cap), h.Over, h.N)
}

// binSums is, for a histogram's bins (counts[v] observations of v), the
// number of observations, the sum of their values and the largest value
// observed (-1: none); ok is false on a negative count or an overflow.
func binSums(counts []int64) (n, sum, last int64, ok bool) {
	last = -1
	for v, k := range counts {
		if k < 0 {
			return 0, 0, 0, false
		}
		if k == 0 {
			continue
		}
		hi, lo := bits.Mul64(uint64(k), uint64(v))
		s, c := bits.Add64(uint64(sum), lo, 0)
		m, c2 := bits.Add64(uint64(n), uint64(k), 0)
		if hi != 0 || c != 0 || c2 != 0 || int64(s) < 0 || int64(m) < 0 {
			return 0, 0, 0, false
		}
		sum, n, last = int64(s), int64(m), int64(v)
	}
	return n, sum, last, true
}

// sumWithin checks a histogram's totals: binned observations plus over
// (those above capV) make total; with none over, the sum is exactly the
// bins' and the maximum their last value; with some over, the maximum
// is above capV and the sum lies between the bins' plus over × (capV+1)
// and the bins' plus over × max.
func sumWithin(what msg.Text, sum, maxV, binned, binSum, last, capV, over, total int64) error {
	if over < 0 || binned+over != total || binned+over < 0 {
		return msg.Errorf("its histogram counts %d (%d above its cap), not %d", binned+over, over, total)
	}
	if over == 0 {
		if sum != binSum || maxV != max(last, 0) {
			return msg.Errorf("%s sum %d and max %d, its histogram says %d and %d", what, sum, maxV, binSum, max(last, 0))
		}
		return nil
	}
	loOver, c1 := mulAdd(over, capV+1, binSum)
	hiOver, c2 := mulAdd(over, maxV, binSum)
	if maxV <= capV || sum < binSum || (!c1 && sum < loOver) || (!c2 && sum > hiOver) || (c1 && !c2) {
		return msg.Errorf("%s sum %d and max %d are not what %d values above %d and the histogram's give", what, sum, maxV, over, capV)
	}
	return nil
}

// mulAdd is a·b + c for non-negative operands, and whether it overflows.
func mulAdd(a, b, c int64) (int64, bool) {
	if a < 0 || b < 0 || c < 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	s, carry := bits.Add64(lo, uint64(c), 0)
	return int64(s), hi != 0 || carry != 0 || int64(s) < 0
}

// adder adds counts, noting an overflow (or a negative addend) instead
// of wrapping: four shards with rounds_sum 2^62 would otherwise merge
// into a negative mean.
type adder struct{ bad bool }

func (a *adder) add(dst *int64, v int64) {
	s, c := bits.Add64(uint64(*dst), uint64(v), 0)
	if v < 0 || c != 0 || int64(s) < 0 {
		a.bad = true
	}
	*dst = int64(s)
}

func (a *adder) addAll(dst, src []int64) {
	for i, v := range src {
		a.add(&dst[i], v)
	}
}

func (a *adder) addCombatant(c, o *sim.Combatant) {
	for _, p := range [][2]*int64{{&c.DamageDealt, &o.DamageDealt}, {&c.DamageTaken, &o.DamageTaken}, {&c.Kills, &o.Kills},
		{&c.Downed, &o.Downed}, {&c.Turns, &o.Turns}, {&c.ActionsLost, &o.ActionsLost}, {&c.EndedDown, &o.EndedDown},
		{&c.EndedGone, &o.EndedGone}, {&c.HPLeft, &o.HPLeft}, {&c.HPLeftWin, &o.HPLeftWin}} {
		a.add(p[0], *p[1])
	}
}

func (a *adder) addHist(r *HistRaw, o HistRaw) {
	if len(o.Counts) > len(r.Counts) {
		r.Counts = append(r.Counts, make([]int64, len(o.Counts)-len(r.Counts))...)
	}
	a.addAll(r.Counts, o.Counts)
	a.add(&r.Over, o.Over)
	a.add(&r.N, o.N)
	a.add(&r.Sum, o.Sum)
	r.Max = max(r.Max, o.Max)
}
