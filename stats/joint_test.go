package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestJointMatchesDirect checks every figure of Joint against the same
// figure computed directly from the raw observations (two-pass
// covariance), and Joint.Paired against a Paired fed the same pairs.
func TestJointMatchesDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const k, n = 4, 5000
	j := NewJoint(k)
	var obs [][]int64
	var p Paired
	for i := 0; i < n; i++ {
		x := make([]int64, k)
		base := r.IntN(2)
		for c := range x {
			// correlated 0/1 outcomes, and a count-valued one
			x[c] = int64(base)
			if r.IntN(4) == 0 {
				x[c] = 1 - x[c]
			}
		}
		x[3] = int64(r.IntN(30) - 10)
		j.Add(x)
		p.Add(x[1], x[0])
		obs = append(obs, x)
	}
	mean := make([]float64, k)
	for _, x := range obs {
		for c := range x {
			mean[c] += float64(x[c]) / n
		}
	}
	for a := 0; a < k; a++ {
		if got := j.Mean(a); math.Abs(got-mean[a]) > 1e-12 {
			t.Errorf("Mean(%d) = %v, want %v", a, got, mean[a])
		}
		for b := 0; b < k; b++ {
			want := 0.0
			for _, x := range obs {
				want += (float64(x[a]) - mean[a]) * (float64(x[b]) - mean[b])
			}
			want /= n - 1
			if got := j.Cov(a, b); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("Cov(%d,%d) = %v, want %v", a, b, got, want)
			}
		}
	}
	if got := j.Paired(1, 0); got != p {
		t.Errorf("Paired(1,0) = %+v, want %+v", got, p)
	}
	// A contrast's variance is the variance of the per-observation contrast.
	c := []float64{1, -2, 1, 0.5}
	var vals []float64
	for _, x := range obs {
		v := 0.0
		for i := range x {
			v += c[i] * float64(x[i])
		}
		vals = append(vals, v)
	}
	vm := 0.0
	for _, v := range vals {
		vm += v / n
	}
	vv := 0.0
	for _, v := range vals {
		vv += (v - vm) * (v - vm) / (n - 1)
	}
	if got, want := j.Contrast(c), vm; math.Abs(got-want) > 1e-12 {
		t.Errorf("Contrast = %v, want %v", got, want)
	}
	if got, want := j.ContrastCov(c, c), vv/n; math.Abs(got-want) > 1e-12 {
		t.Errorf("ContrastCov(c,c) = %v, want %v", got, want)
	}
}

// TestJointMergeExact: shards merged in any order equal one accumulator.
func TestJointMergeExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	whole := NewJoint(3)
	parts := []Joint{NewJoint(3), NewJoint(3), NewJoint(3)}
	for i := 0; i < 3000; i++ {
		x := []int64{int64(r.IntN(2)), int64(r.IntN(2)), int64(r.IntN(7))}
		whole.Add(x)
		parts[i%3].Add(x)
	}
	merged := NewJoint(3)
	for _, i := range []int{2, 0, 1} {
		merged.Merge(&parts[i])
	}
	if merged.N != whole.N {
		t.Fatalf("N %d, want %d", merged.N, whole.N)
	}
	for i := range whole.Sum {
		if merged.Sum[i] != whole.Sum[i] {
			t.Errorf("Sum[%d] %d, want %d", i, merged.Sum[i], whole.Sum[i])
		}
	}
	for i := range whole.Cross {
		if merged.Cross[i] != whole.Cross[i] {
			t.Errorf("Cross[%d] %d, want %d", i, merged.Cross[i], whole.Cross[i])
		}
	}
}

func TestFiellerRatio(t *testing.T) {
	// Precise estimates: the set hugs a/b.
	r := FiellerRatio(2, 1, 1e-8, 1e-8, 0, 0.95)
	if !r.Bounded || math.Abs(r.Value-2) > 1e-12 || r.Lo > 2 || r.Hi < 2 || r.Hi-r.Lo > 1e-3 {
		t.Errorf("precise: %+v", r)
	}
	// b indistinguishable from 0: no finite interval.
	if r := FiellerRatio(1, 0.01, 0.01, 0.01, 0, 0.95); r.Bounded {
		t.Errorf("b ~ 0 gave a bounded set %+v", r)
	}
	// The endpoints solve the defining quadratic.
	a, b, vaa, vbb, vab := 0.3, 0.1, 0.0004, 0.0001, 0.00005
	r = FiellerRatio(a, b, vaa, vbb, vab, 0.95)
	z2 := Z(0.95) * Z(0.95)
	for _, rho := range []float64{r.Lo, r.Hi} {
		lhs := (a - rho*b) * (a - rho*b)
		rhs := z2 * (vaa - 2*rho*vab + rho*rho*vbb)
		if math.Abs(lhs-rhs) > 1e-12 {
			t.Errorf("endpoint %v: (a-ρb)² = %v, z²·var = %v", rho, lhs, rhs)
		}
	}
}

// TestFiellerCoverage: over many replications of correlated normal
// estimates with a known true ratio, the 95% set covers it 95% of the
// time (binomial tolerance: 4 SE at 4000 replications is ±1.4 points). The
// delta method's symmetric interval, a plausible wrong choice, covers
// visibly less when the denominator is imprecise; that is asserted too.
func TestFiellerCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const reps = 4000
	trueA, trueB := 0.3, 0.1
	sa, sb, rho := 0.06, 0.035, 0.5 // b is ~2.9 SE from 0
	vab := rho * sa * sb
	covered, deltaCovered := 0, 0
	for i := 0; i < reps; i++ {
		z1, z2 := r.NormFloat64(), r.NormFloat64()
		a := trueA + sa*z1
		b := trueB + sb*(rho*z1+math.Sqrt(1-rho*rho)*z2)
		f := FiellerRatio(a, b, sa*sa, sb*sb, vab, 0.95)
		if f.Contains(trueA / trueB) {
			covered++
		}
		q := a / b
		se := math.Sqrt(sa*sa-2*q*vab+q*q*sb*sb) / math.Abs(b)
		if math.Abs(q-trueA/trueB) <= 1.959964*se {
			deltaCovered++
		}
	}
	cov := float64(covered) / reps
	se := math.Sqrt(0.95 * 0.05 / reps)
	t.Logf("Fieller coverage %.4f, delta method %.4f (SE %.4f)", cov, float64(deltaCovered)/reps, se)
	if math.Abs(cov-0.95) > 4*se {
		t.Errorf("Fieller coverage %.4f, want 0.95 ± %.4f", cov, 4*se)
	}
	if d := float64(deltaCovered) / reps; 0.95-d < 4*se {
		t.Errorf("delta-method coverage %.4f is not visibly below 0.95: the test cannot tell the two apart", d)
	}
}
