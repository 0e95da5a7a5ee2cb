package d20

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSort8Desc: the network sorts every 0/1 input of 8 (so every input,
// by the 0-1 principle), and random distinct keys, negative ones and
// fewer than 8 included, as rankSort does.
func TestSort8Desc(t *testing.T) {
	for m := 0; m < 256; m++ {
		keys := make([]int64, 8)
		for i := range keys {
			keys[i] = int64(m >> i & 1)
		}
		sort8Desc(keys)
		if !slices.IsSortedFunc(keys, func(a, b int64) int { return int(b - a) }) {
			t.Fatalf("0/1 input %08b: %v", m, keys)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 20000; k++ {
		n := 1 + r.IntN(8)
		keys := make([]int64, 0, n)
		for len(keys) < n {
			v := r.Int64N(1<<20) - 1<<19
			if k%7 == 0 && len(keys) == 0 {
				v = math.MinInt64 + 1 // beside the padding
			}
			if !slices.Contains(keys, v) {
				keys = append(keys, v)
			}
		}
		want := slices.Clone(keys)
		rankSort(want)
		sort8Desc(keys)
		if !slices.Equal(keys, want) {
			t.Fatalf("sort8Desc %v, rankSort %v", keys, want)
		}
	}
}
