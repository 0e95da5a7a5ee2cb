package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSeqPairWealthIsTheProduct: the closed form from counts equals the
// bettors' wealth multiplied out observation by observation, in an order
// of observations of our choosing, with the stakes written out here.
func TestSeqPairWealthIsTheProduct(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(400)
		var seq []int
		var p SeqPair
		p.N = int64(n)
		for i := 0; i < n; i++ {
			d := r.IntN(3) - 1
			seq = append(seq, d)
			switch d {
			case 1:
				p.AOnly++
			case -1:
				p.BOnly++
			}
		}
		c := 2*r.Float64() - 1
		if trial%5 == 0 {
			c = 0
		}
		sum := 0.0
		for j := 0; j < 24; j++ {
			lam := 0.9 * math.Pow(2, -float64(j)/2) / (1 + c)
			w := 1.0
			for _, d := range seq {
				w *= 1 + lam*(float64(d)-c)
			}
			sum += w
		}
		want := math.Log(sum / 24)
		if got := p.LogWealth(c); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("%+v, c=%v: LogWealth %v, product %v", p, c, got, want)
		}
	}
}

// TestSeqPairNoDiscordance: two options that never disagreed are never
// separated, however many observations; but their agreement bounds the
// difference, so the indifference test and the interval narrow.
func TestSeqPairNoDiscordance(t *testing.T) {
	for _, n := range []int64{0, 1, 1000, 1e9} {
		p := SeqPair{N: n}
		if p.Greater(0, 0.05) || p.Less(0, 0.05) {
			t.Errorf("N=%d, no discordance: separated", n)
		}
		if cs := p.CS(0.025); !(cs.Lo <= 0 && cs.Hi >= 0) {
			t.Errorf("N=%d, no discordance: CS %v excludes 0", n, cs)
		}
	}
	if !(SeqPair{N: 5000}).Less(0.01, 0.005) {
		t.Error("5000 agreeing pairs do not show Δ < 1 pp")
	}
	if cs := (SeqPair{N: 1e6}).CS(0.025); cs.Hi > 1e-4 || cs.Lo < -1e-4 {
		t.Errorf("10⁶ agreeing pairs: CS %v, want within ±10⁻⁴", cs)
	}
	if (SeqPair{N: 100}).Less(0.01, 0.005) {
		t.Error("100 agreeing pairs show Δ < 1 pp at 0.5% (P(no discordance | Δ = 1 pp) = 37%)")
	}
}

// simulate plays runs sequences of paired differences, +1 with probability
// pUp and -1 with pDown, looking after every step observations up to n,
// and returns the share of runs in which reject was ever true.
func simulate(seed uint64, runs, n, step int, pUp, pDown float64, reject func(SeqPair) bool) float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	hits := 0
	for run := 0; run < runs; run++ {
		var p SeqPair
		for p.N < int64(n) {
			for i := 0; i < step; i++ {
				u := r.Float64()
				switch {
				case u < pUp:
					p.AOnly++
				case u < pUp+pDown:
					p.BOnly++
				}
			}
			p.N += int64(step)
			if reject(p) {
				hits++
				break
			}
		}
	}
	return float64(hits) / float64(runs)
}

// naiveGreater is the plausible wrong procedure: a one-sided paired z-test
// of H0: Δ <= c at level alpha, valid for one look, repeated at every look.
func naiveGreater(p SeqPair, c, alpha float64) bool {
	n := float64(p.N)
	d := p.Diff()
	v := (float64(p.AOnly+p.BOnly)/n - d*d) / n
	return v > 0 && (d-c)/math.Sqrt(v) > Z(1-2*alpha)
}

// naiveLess is the same wrong procedure for H0: Δ >= c.
func naiveLess(p SeqPair, c, alpha float64) bool {
	n := float64(p.N)
	d := p.Diff()
	v := (float64(p.AOnly+p.BOnly)/n - d*d) / n
	return v > 0 && (c-d)/math.Sqrt(v) > Z(1-2*alpha)
}

// TestSeqPairAnytimeLevel: under the null at its boundary (Δ exactly 0, or
// exactly δ for the indifference test), looked at 200 times, the share of
// runs that ever reject stays at most alpha (+3 SE of the share over the
// runs, 0.015). The same runs judged by a fixed-sample z-test at every look
// (the wrong procedure) must exceed that bound: the check can fail.
func TestSeqPairAnytimeLevel(t *testing.T) {
	skipUnderRace(t)
	const runs, n, step, alpha = 1500, 20000, 100, 0.05
	bound := alpha + 3*math.Sqrt(alpha*(1-alpha)/runs)
	for _, c := range []struct {
		name        string
		pUp, pDown  float64
		reject      func(SeqPair) bool
		naiveReject func(SeqPair) bool
	}{
		{"tie, 30% discordant", 0.15, 0.15,
			func(p SeqPair) bool { return p.Greater(0, alpha) },
			func(p SeqPair) bool { return naiveGreater(p, 0, alpha) }},
		{"tie, 2% discordant", 0.01, 0.01,
			func(p SeqPair) bool { return p.Greater(0, alpha) },
			func(p SeqPair) bool { return naiveGreater(p, 0, alpha) }},
		{"Δ = δ = 1pp, 1% discordant", 0.01, 0,
			func(p SeqPair) bool { return p.Less(0.01, alpha) },
			func(p SeqPair) bool { return naiveLess(p, 0.01, alpha) }},
		{"Δ = δ = 1pp, 21% discordant", 0.11, 0.10,
			func(p SeqPair) bool { return p.Less(0.01, alpha) },
			func(p SeqPair) bool { return naiveLess(p, 0.01, alpha) }},
	} {
		got := simulate(11, runs, n, step, c.pUp, c.pDown, c.reject)
		naive := simulate(11, runs, n, step, c.pUp, c.pDown, c.naiveReject)
		t.Logf("%s: ever rejected in %.2f%% of runs (bound %.2f%%); per-look z-test %.2f%%", c.name, 100*got, 100*bound, 100*naive)
		if got > bound {
			t.Errorf("%s: rejected a true null in %.2f%% of runs, more than %.2f%%", c.name, 100*got, 100*bound)
		}
		if naive <= bound {
			t.Errorf("%s: the per-look z-test rejects in %.2f%% only: the check cannot tell it from a valid test", c.name, 100*naive)
		}
	}
}

// TestSeqPairPower: the tests are not vacuous. At the levels a selection
// of six candidates uses (α/60 for elimination, α/10 for indifference),
// a 3 pp difference with 30% discordance is found within 20,000 pairs, and
// two tied options with 20% discordance are shown within 2 pp, in at
// least 95% of runs.
func TestSeqPairPower(t *testing.T) {
	const runs, n, step = 300, 20000, 500
	if got := simulate(3, runs, n, step, 0.165, 0.135, func(p SeqPair) bool { return p.Greater(0, 0.05/60) }); got < 0.95 {
		t.Errorf("a 3 pp difference found in %.1f%% of runs", 100*got)
	}
	if got := simulate(4, runs, n, step, 0.10, 0.10, func(p SeqPair) bool { return p.Less(0.02, 0.05/10) }); got < 0.95 {
		t.Errorf("a tie shown within 2 pp in %.1f%% of runs", 100*got)
	}
}

// TestSeqPairCSCoverage: the confidence sequence holds Δ at every look at
// once in at least 1-2α of runs (+3 SE), where the paired Wald interval at
// the same level, read at every look (the wrong procedure), does not; and
// it is the inversion of the tests: a bound is rejected just outside it
// and not just inside.
func TestSeqPairCSCoverage(t *testing.T) {
	skipUnderRace(t)
	const runs, n, step, alpha = 800, 10000, 500, 0.025
	const pUp, pDown = 0.12, 0.08
	delta := pUp - pDown
	bound := 2*alpha + 3*math.Sqrt(2*alpha*(1-2*alpha)/runs)
	miss := simulate(5, runs, n, step, pUp, pDown, func(p SeqPair) bool {
		cs := p.CS(alpha)
		return cs.Lo > delta || cs.Hi < delta
	})
	naive := simulate(5, runs, n, step, pUp, pDown, func(p SeqPair) bool {
		return naiveGreater(p, delta, alpha) || naiveLess(p, delta, alpha)
	})
	t.Logf("CS missed Δ at some look in %.2f%% of runs (bound %.2f%%); the Wald interval read at every look in %.2f%%", 100*miss, 100*bound, 100*naive)
	if miss > bound {
		t.Errorf("CS missed Δ at some look in %.2f%% of runs, more than %.2f%%", 100*miss, 100*bound)
	}
	if naive <= bound {
		t.Errorf("the Wald interval read at every look missed in %.2f%% only: the check cannot tell it from a valid one", 100*naive)
	}
	p := SeqPair{N: 4000, AOnly: 500, BOnly: 380}
	cs := p.CS(alpha)
	if !(cs.Lo < p.Diff() && p.Diff() < cs.Hi) {
		t.Fatalf("CS %v does not hold the estimate %v", cs, p.Diff())
	}
	for _, e := range []float64{1e-9, 1e-6} {
		if !p.Greater(cs.Lo-e, alpha) || p.Greater(cs.Lo+e, alpha) || !p.Less(cs.Hi+e, alpha) || p.Less(cs.Hi-e, alpha) {
			t.Errorf("CS %v is not the inversion of the tests at ±%g", cs, e)
		}
	}
}

func TestSeqPairPanics(t *testing.T) {
	wantPanic(t, "bad counts", "stats: ", func() { SeqPair{N: 3, AOnly: 2, BOnly: 2}.LogWealth(0) })
	wantPanic(t, "bad threshold", "stats: ", func() { SeqPair{N: 3}.LogWealth(1) })
	wantPanic(t, "bad alpha", "stats: ", func() { SeqPair{N: 3}.Greater(0, 0) })
}

// skipUnderRace skips a coverage test over many simulated sequences under
// -race: nothing here is concurrent, and the ordinary go test runs it.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("statistical coverage: checked by the ordinary go test")
	}
}
