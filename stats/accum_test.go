package stats

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
)

func TestHistQuantiles(t *testing.T) {
	h := NewHist(20)
	for v := 1; v <= 10; v++ {
		h.Add(v)
	}
	if h.N != 10 || h.Sum != 55 || h.Max() != 10 || h.Over != 0 || h.Cap() != 20 {
		t.Fatalf("bad totals: %+v", h)
	}
	near(t, "Mean", h.Mean(), 5.5, 0)
	// F(v) = v/10 for v in 1..10: Q(p) is the smallest v with v/10 >= p.
	for _, c := range []struct {
		p    float64
		want int
	}{
		{0, 1}, {0.05, 1}, {0.1, 1}, {0.11, 2}, {0.25, 3}, {0.5, 5}, {0.51, 6},
		{0.9, 9}, {0.95, 10}, {0.99, 10}, {1, 10},
	} {
		if got := h.Quantile(c.p); got != c.want {
			t.Errorf("Quantile(%v) = %d, want %d", c.p, got, c.want)
		}
	}
	// Repeated values: 0 ×3, 4 ×1, 7 ×6.
	g := NewHist(7)
	for _, v := range []int{7, 0, 7, 4, 7, 0, 7, 7, 0, 7} {
		g.Add(v)
	}
	for _, c := range []struct {
		p    float64
		want int
	}{{0, 0}, {0.3, 0}, {0.31, 4}, {0.4, 4}, {0.41, 7}, {1, 7}} {
		if got := g.Quantile(c.p); got != c.want {
			t.Errorf("Quantile(%v) = %d, want %d", c.p, got, c.want)
		}
	}
	empty := NewHist(5)
	if empty.Quantile(0.5) != 0 || empty.Mean() != 0 || empty.Max() != 0 {
		t.Errorf("empty histogram: Quantile %d Mean %v Max %d", empty.Quantile(0.5), empty.Mean(), empty.Max())
	}
	for _, bad := range []float64{-0.1, 1.1, math.NaN()} {
		wantPanic(t, "Quantile(bad)", "stats: ", func() { h.Quantile(bad) })
	}
	wantPanic(t, "NewHist(-1)", "stats: ", func() { NewHist(-1) })
	wantPanic(t, "Add(-1)", "stats: negative value", func() { h.Add(-1) })
	if h.N != 10 {
		t.Errorf("a rejected value was counted")
	}
}

func TestHistOverflow(t *testing.T) {
	h := NewHist(5)
	for _, v := range []int{0, 1, 2, 3, 4, 5, 9, 7} {
		h.Add(v)
	}
	if h.Over != 2 || h.Max() != 9 || h.N != 8 || h.Sum != 31 {
		t.Fatalf("overflow bookkeeping: %+v", h)
	}
	near(t, "Mean with overflow", h.Mean(), 31.0/8, 0)
	if got := h.Quantile(0.75); got != 5 { // F(5) = 6/8
		t.Errorf("Quantile(0.75) = %d, want 5", got)
	}
	if got := h.Quantile(0.76); got != 9 { // falls in the overflow: MaxSeen
		t.Errorf("Quantile(0.76) = %d, want MaxSeen 9", got)
	}
	if got := h.Quantile(1); got != 9 {
		t.Errorf("Quantile(1) = %d, want 9", got)
	}
	var zero Hist // no bins: everything overflows, still counted
	zero.Add(3)
	zero.Add(1)
	if zero.Over != 2 || zero.Quantile(0.5) != 3 || zero.Max() != 3 {
		t.Errorf("zero Hist: %+v", zero)
	}
}

// TestHistQuantileBruteForce compares Quantile with the inverse ECDF of the
// sorted sample, x_(ceil(pN)) (1-based), on pseudo-random data.
func TestHistQuantileBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	const capV = 40
	for trial := 0; trial < 50; trial++ {
		n := 1 + r.IntN(300)
		h := NewHist(capV)
		xs := make([]int, n)
		for i := range xs {
			xs[i] = r.IntN(50) // about 1 in 5 overflows
			h.Add(xs[i])
		}
		slices.Sort(xs)
		ps := []float64{0, 1, 0.5, 0.1, 0.9, 0.99}
		for j := 0; j <= n; j++ {
			ps = append(ps, float64(j)/float64(n))
		}
		for _, p := range ps {
			idx := max(int(math.Ceil(p*float64(n))), 1) - 1
			want := xs[idx]
			if want > capV {
				want = xs[n-1] // overflow reports MaxSeen
			}
			if got := h.Quantile(p); got != want {
				t.Fatalf("trial %d, n=%d: Quantile(%v) = %d, want %d", trial, n, p, got, want)
			}
		}
		if h.Max() != xs[n-1] {
			t.Fatalf("Max = %d, want %d", h.Max(), xs[n-1])
		}
	}
}

func TestHistMergeReset(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	all, a, b := NewHist(30), NewHist(30), NewHist(30)
	for i := 0; i < 5000; i++ {
		v := r.IntN(40)
		all.Add(v)
		if i%3 == 0 {
			a.Add(v)
		} else {
			b.Add(v)
		}
	}
	ab, ba := a.Clone(), b.Clone()
	ab.Merge(b)
	ba.Merge(a)
	if !reflect.DeepEqual(ab, all) || !reflect.DeepEqual(ba, all) {
		t.Errorf("merge differs from adding everything to one histogram:\n%+v\n%+v\n%+v", ab, ba, all)
	}
	if a.N+b.N != all.N || a.N == 0 {
		t.Errorf("Clone shares memory with the original")
	}
	wantPanic(t, "Merge different caps", "stats: ", func() {
		h := NewHist(29)
		h.Merge(all)
	})
	before := &all.Counts[0]
	all.Reset()
	if !reflect.DeepEqual(all, NewHist(30)) || before != &all.Counts[0] {
		t.Errorf("Reset: %+v (memory kept: %v)", all, before == &all.Counts[0])
	}
	all.Add(3)
	if all.N != 1 || all.Counts[3] != 1 || all.Max() != 3 {
		t.Errorf("Add after Reset: %+v", all)
	}
}

func TestAddDoesNotAllocate(t *testing.T) {
	h := NewHist(100)
	var m Mean
	var p Paired
	allocs := testing.AllocsPerRun(1000, func() {
		h.Add(42)
		h.Add(1000)
		m.Add(7)
		p.Add(1, 0)
	})
	if allocs != 0 {
		t.Errorf("Add allocates %v times", allocs)
	}
}

func TestMean(t *testing.T) {
	var m Mean
	for _, v := range []int64{2, 4, 4, 4, 5, 5, 7, 9} {
		m.Add(v)
	}
	near(t, "Value", m.Value(), 5, 0)
	near(t, "Var", m.Var(), 32.0/7, 1e-15)
	near(t, "SE", m.SE(), math.Sqrt(32.0/7/8), 1e-15)

	// Big values: N·SumSq = 1.6e19 overflows int64 and the naive float
	// formula cancels away every digit; the 128-bit path is exact.
	var big Mean
	for i := int64(0); i < 4; i++ {
		big.Add(1_000_000_000 + i)
	}
	near(t, "Var of 1e9+{0,1,2,3}", big.Var(), 5.0/3, 1e-15)

	var neg Mean
	neg.Add(-3)
	neg.Add(3)
	near(t, "Var of {-3, 3}", neg.Var(), 18, 0)
	near(t, "Value of {-3, 3}", neg.Value(), 0, 0)

	var empty, one Mean
	one.Add(5)
	if empty.Value() != 0 || !math.IsInf(empty.Var(), 1) || !math.IsInf(empty.SE(), 1) {
		t.Errorf("empty Mean: %v %v %v", empty.Value(), empty.Var(), empty.SE())
	}
	if one.Value() != 5 || !math.IsInf(one.Var(), 1) || !math.IsInf(one.SE(), 1) {
		t.Errorf("one-observation Mean: %v %v %v", one.Value(), one.Var(), one.SE())
	}
}

func TestMeanPairedMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var mAll, m1, m2 Mean
	var pAll, p1, p2 Paired
	for i := 0; i < 10000; i++ {
		v := int64(r.IntN(200)) - 50
		a, b := int64(r.IntN(2)), int64(r.IntN(3))
		mAll.Add(v)
		pAll.Add(a, b)
		if i < 3700 {
			m1.Add(v)
			p1.Add(a, b)
		} else {
			m2.Add(v)
			p2.Add(a, b)
		}
	}
	m12, m21 := m1, m2
	m12.Merge(m2)
	m21.Merge(m1)
	if m12 != mAll || m21 != mAll {
		t.Errorf("Mean merge: %+v %+v, want %+v", m12, m21, mAll)
	}
	p12, p21 := p1, p2
	p12.Merge(p2)
	p21.Merge(p1)
	if p12 != pAll || p21 != pAll {
		t.Errorf("Paired merge: %+v %+v, want %+v", p12, p21, pAll)
	}
	if p12.Diff() != pAll.Diff() || p12.SE() != pAll.SE() || p12.VarianceReduction() != pAll.VarianceReduction() {
		t.Errorf("merged results differ")
	}
}

func TestPairedHandComputed(t *testing.T) {
	// d = {1, 1, 1, 0}: mean 0.75, s_d² = (4·3 - 3²)/(4·3) = 0.25,
	// SE = sqrt(0.25/4) = 0.25, z = 3.
	var p Paired
	p.Add(1, 0)
	p.Add(1, 0)
	p.Add(1, 0)
	p.Add(0, 0)
	near(t, "Diff", p.Diff(), 0.75, 0)
	near(t, "SE", p.SE(), 0.25, 0)
	near(t, "PValue", p.PValue(), 0.00269979606326018905330362953519, 1e-17) // P(|Z| >= 3), mpmath
	ci := p.DiffCI(0.95)
	near(t, "DiffCI.Lo", ci.Lo, 0.75-1.959963984540054*0.25, 1e-15)
	near(t, "DiffCI.Hi", ci.Hi, 0.75+1.959963984540054*0.25, 1e-15)
	// s_a² = 0.25, s_b² = 0: independent SE = sqrt(0.25/4), no reduction.
	near(t, "IndependentSE", p.IndependentSE(), 0.25, 0)
	near(t, "VarianceReduction", p.VarianceReduction(), 1, 0)
	if p.A() != (Mean{4, 3, 3}) || p.B() != (Mean{4, 0, 0}) || p.D() != (Mean{4, 3, 3}) {
		t.Errorf("A, B, D: %+v %+v %+v", p.A(), p.B(), p.D())
	}

	// PValue and DiffCI agree: p < 0.05 exactly when 0 is outside the CI.
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		var q Paired
		for i := 0; i < 30; i++ {
			q.Add(int64(r.IntN(2)), int64(r.IntN(2)))
		}
		ci := q.DiffCI(0.95)
		if (q.PValue() < 0.05) != (ci.Lo > 0 || ci.Hi < 0) {
			t.Errorf("PValue %v disagrees with DiffCI %v", q.PValue(), ci)
		}
	}
}

func TestPairedDegenerate(t *testing.T) {
	var empty Paired
	if empty.Diff() != 0 || empty.PValue() != 1 || !math.IsNaN(empty.VarianceReduction()) ||
		!math.IsInf(empty.SE(), 1) || !math.IsInf(empty.IndependentSE(), 1) ||
		empty.DiffCI(0.95) != (Interval{math.Inf(-1), math.Inf(1)}) {
		t.Errorf("empty Paired: %v %v %v %v %v %v", empty.Diff(), empty.PValue(), empty.VarianceReduction(),
			empty.SE(), empty.IndependentSE(), empty.DiffCI(0.95))
	}
	var one Paired
	one.Add(1, 0)
	if one.Diff() != 1 || one.PValue() != 1 || one.DiffCI(0.9).Lo != math.Inf(-1) {
		t.Errorf("one-encounter Paired: %v %v %v", one.Diff(), one.PValue(), one.DiffCI(0.9))
	}

	// Perfectly correlated: the same outcome under A and B on every seed.
	r := rand.New(rand.NewPCG(8, 9))
	var same Paired
	for i := 0; i < 1000; i++ {
		w := int64(r.IntN(2))
		same.Add(w, w)
	}
	if same.SE() != 0 || same.Diff() != 0 || same.PValue() != 1 ||
		same.DiffCI(0.95) != (Interval{0, 0}) || !math.IsInf(same.VarianceReduction(), 1) {
		t.Errorf("a == b: SE %v Diff %v PValue %v CI %v VR %v",
			same.SE(), same.Diff(), same.PValue(), same.DiffCI(0.95), same.VarianceReduction())
	}
	// A constant shift: every d = 1, so the difference is certain.
	var shift Paired
	for i := 0; i < 100; i++ {
		w := int64(r.IntN(6))
		shift.Add(w+1, w)
	}
	if shift.SE() != 0 || shift.Diff() != 1 || shift.PValue() != 0 || !math.IsInf(shift.VarianceReduction(), 1) {
		t.Errorf("a == b+1: SE %v Diff %v PValue %v VR %v", shift.SE(), shift.Diff(), shift.PValue(), shift.VarianceReduction())
	}
	// Nothing varies at all.
	var flat Paired
	flat.Add(1, 1)
	flat.Add(1, 1)
	if flat.VarianceReduction() != 1 || flat.PValue() != 1 {
		t.Errorf("constant a == b: VR %v PValue %v", flat.VarianceReduction(), flat.PValue())
	}
}

func TestPairedIndependentAndCorrelated(t *testing.T) {
	const n = 200_000
	r := rand.New(rand.NewPCG(2024, 1))

	// Independent fair coins. VarianceReduction = (s_a² + s_b²)/s_d² with
	// s_d² = s_a² + s_b² - 2·s_ab, so VR - 1 ≈ 2·s_ab/(s_a² + s_b²) = 4·s_ab,
	// and the sample covariance s_ab of two independent Bernoulli(1/2) has
	// standard deviation σ_a·σ_b/√n = 0.25/√n: SD(VR) ≈ 1/√n = 0.0022 here.
	// The tolerance is 5 such standard deviations. The sequence is fixed by
	// the seed, so the test cannot flake; the tolerance only says what
	// "about 1" means for this n.
	var ind Paired
	for i := 0; i < n; i++ {
		ind.Add(int64(r.IntN(2)), int64(r.IntN(2)))
	}
	tol := 5 / math.Sqrt(n)
	near(t, "independent VarianceReduction", ind.VarianceReduction(), 1, tol)
	near(t, "IndependentSE/SE", ind.IndependentSE()/ind.SE(), 1, tol/2) // sqrt halves the relative error
	near(t, "independent SE", ind.SE(), math.Sqrt(0.5/n), math.Sqrt(0.5/n)*tol)

	// Common random numbers: one uniform u per encounter decides both
	// outcomes, A wins when u < 0.55, B when u < 0.50. Then d = 1 exactly
	// when 0.50 <= u < 0.55: Var(d) = 0.05·0.95 = 0.0475 against
	// Var(a) + Var(b) = 0.2475 + 0.25, a reduction of 0.4975/0.0475 ≈ 10.5.
	var crn Paired
	for i := 0; i < n; i++ {
		u := r.Float64()
		crn.Add(b2i(u < 0.55), b2i(u < 0.50))
	}
	near(t, "CRN Diff", crn.Diff(), 0.05, 5*math.Sqrt(0.0475/n))
	vr := crn.VarianceReduction()
	if vr < 9.5 || vr > 11.5 {
		t.Errorf("CRN VarianceReduction = %v, want ≈ 10.47", vr)
	}
	if crn.PValue() > 1e-12 {
		t.Errorf("CRN PValue = %v for a 0.05 difference at n = %d", crn.PValue(), n)
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestShardedWorkers runs the concurrency pattern the package is built for
// (one accumulator per worker, merged after the workers finish) and checks
// that the result equals a serial run bit for bit. Run with -race.
func TestShardedWorkers(t *testing.T) {
	const workers, perWorker = 4, 5000
	type shard struct {
		h Hist
		m Mean
		p Paired
	}
	feed := func(s *shard, w int) {
		r := rand.New(rand.NewPCG(99, uint64(w)))
		for i := 0; i < perWorker; i++ {
			v := r.IntN(60)
			s.h.Add(v)
			s.m.Add(int64(v))
			s.p.Add(int64(r.IntN(2)), int64(r.IntN(2)))
		}
	}
	shards := make([]shard, workers)
	var wg sync.WaitGroup
	for w := range shards {
		shards[w].h = NewHist(50)
		wg.Add(1)
		go func() {
			defer wg.Done()
			feed(&shards[w], w)
		}()
	}
	wg.Wait()
	total := shard{h: NewHist(50)}
	for w := workers - 1; w >= 0; w-- { // any order
		total.h.Merge(shards[w].h)
		total.m.Merge(shards[w].m)
		total.p.Merge(shards[w].p)
	}
	serial := shard{h: NewHist(50)}
	for w := 0; w < workers; w++ {
		feed(&serial, w)
	}
	if !reflect.DeepEqual(total, serial) {
		t.Errorf("sharded run differs from serial run")
	}
}
