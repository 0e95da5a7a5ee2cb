package stats

import "fmt"

// Hist is an exact histogram of non-negative integers with one bin for each
// value 0..Cap, where Cap = len(Counts)-1, and one overflow count for values
// above Cap, whose largest is still known exactly through MaxSeen. Its size
// is fixed by [NewHist]: memory never grows with the number of observations.
// Merging is exact (see the package doc).
//
// Create one with [NewHist]; the zero Hist has no bins, so every value added
// to it counts as overflow. A Hist holds a slice: copying a Hist value
// shares its counts (use [Hist.Clone]). A Hist is not safe for concurrent
// use.
type Hist struct {
	Counts  []int64 // Counts[v] is the number of observations equal to v, for 0 <= v <= Cap
	Over    int64   // number of observations > Cap
	N       int64   // number of observations
	Sum     int64   // sum of all observations, overflow included
	MaxSeen int64   // largest observation, overflow included; 0 when N == 0
}

// NewHist returns an empty histogram with bins for 0..cap. It panics if
// cap < 0.
func NewHist(cap int) Hist {
	if cap < 0 {
		panic(fmt.Sprintf("stats: histogram cap %d < 0", cap))
	}
	return Hist{Counts: make([]int64, cap+1)}
}

// Cap returns the largest value with its own bin.
func (h *Hist) Cap() int { return len(h.Counts) - 1 }

// Add records one observation v. It panics with "stats: negative value" if
// v < 0. It does not allocate.
func (h *Hist) Add(v int) {
	if v < 0 {
		panic("stats: negative value")
	}
	h.N++
	h.Sum += int64(v)
	if int64(v) > h.MaxSeen {
		h.MaxSeen = int64(v)
	}
	if v < len(h.Counts) {
		h.Counts[v]++
	} else {
		h.Over++
	}
}

// Merge adds the observations of o into h, exactly: the result equals a
// histogram to which both sets of observations were added. It panics if the
// caps differ.
func (h *Hist) Merge(o Hist) {
	if len(h.Counts) != len(o.Counts) {
		panic(fmt.Sprintf("stats: merging histograms with different caps (%d and %d)", h.Cap(), o.Cap()))
	}
	for i, c := range o.Counts {
		h.Counts[i] += c
	}
	h.Over += o.Over
	h.N += o.N
	h.Sum += o.Sum
	h.MaxSeen = max(h.MaxSeen, o.MaxSeen)
}

// Reset empties h, keeping its cap and its memory.
func (h *Hist) Reset() {
	clear(h.Counts)
	h.Over, h.N, h.Sum, h.MaxSeen = 0, 0, 0, 0
}

// Clone returns a deep copy of h that shares no memory with it.
func (h *Hist) Clone() Hist {
	c := *h
	if h.Counts != nil {
		c.Counts = append([]int64(nil), h.Counts...)
	}
	return c
}

// Mean returns the mean of the observations, overflow included
// (Sum/N); 0 when N == 0.
func (h *Hist) Mean() float64 {
	if h.N == 0 {
		return 0
	}
	return float64(h.Sum) / float64(h.N)
}

// Quantile returns the p-quantile of the observations as the inverse of the
// empirical CDF F: the smallest observed v with F(v) = #{x <= v}/N >= p, so
// Quantile(0.5) is the lower median, Quantile(0) the minimum and
// Quantile(1) the maximum. When that v lies above Cap (among the overflow,
// whose individual values are not kept) it returns MaxSeen, an upper bound
// of the true quantile. N == 0 gives 0. It panics unless 0 <= p <= 1.
func (h *Hist) Quantile(p float64) int {
	if !(p >= 0 && p <= 1) { // also catches NaN
		panic(fmt.Sprintf("stats: quantile %v not in [0, 1]", p))
	}
	if h.N == 0 {
		return 0
	}
	// With integer cum, cum >= p·N is cum >= ceil(p·N); cum > 0 makes p = 0
	// return the smallest observation rather than 0.
	target := p * float64(h.N)
	var cum int64
	for v, c := range h.Counts {
		cum += c
		if cum > 0 && float64(cum) >= target {
			return v
		}
	}
	return int(h.MaxSeen)
}

// Max returns the largest observation, overflow included; 0 when N == 0.
func (h *Hist) Max() int { return int(h.MaxSeen) }
