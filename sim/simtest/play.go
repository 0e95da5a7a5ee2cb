package simtest

import (
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// PlaySame plays encounters 0..n-1 of seed through games a and b (a
// shortcut and the computation it replaces), each on its own stream
// seeded alike, and returns their tallies. It fails at the first
// encounter whose outcome differs or after which the two streams' next
// words differ (one drew more or other words), so the caller compares the
// tallies (reflect.DeepEqual) for what the outcomes do not show.
func PlaySame(tb testing.TB, a, b sim.Game, seed uint64, n int) (ta, tb2 *sim.Tally) {
	tb.Helper()
	ta, tb2 = sim.NewTally(a), sim.NewTally(b)
	at, bt := a.NewTable(), b.NewTable()
	var ar, br rng.Stream
	for i := 0; i < n; i++ {
		ar.Seed(seed, uint64(i))
		br.Seed(seed, uint64(i))
		ao, bo := at.Play(&ar, &ta.Counts, nil), bt.Play(&br, &tb2.Counts, nil)
		if ao != bo {
			tb.Fatalf("encounter %d: %+v, then %+v", i, ao, bo)
		}
		if ar.Uint64() != br.Uint64() {
			tb.Fatalf("encounter %d: the streams part: different draws", i)
		}
		ta.Record(ao)
		tb2.Record(bo)
	}
	return ta, tb2
}
