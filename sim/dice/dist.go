package dice

// Dist is an exact probability distribution over the integers
// Min, Min+1, ..., Min+len(P)-1: P[i] = P(X == Min+i), and the P sum to 1
// up to rounding. The zero Dist{} has no outcomes and is not a valid
// distribution; every Dist this package returns has len(P) >= 1.
type Dist struct {
	Min int
	P   []float64
}

// Prob is P(X == v).
func (d Dist) Prob(v int) float64 {
	i := v - d.Min
	if i < 0 || i >= len(d.P) {
		return 0
	}
	return d.P[i]
}

// AtMost is P(X <= v).
func (d Dist) AtMost(v int) float64 {
	if v >= d.Max() {
		return 1 // exact rather than a sum that rounds to 1±ε
	}
	s := 0.0
	for i := 0; i <= v-d.Min; i++ {
		s += d.P[i]
	}
	return min(s, 1)
}

// AtLeast is P(X >= v).
func (d Dist) AtLeast(v int) float64 {
	if v <= d.Min {
		return 1
	}
	s := 0.0
	for i := max(v-d.Min, 0); i < len(d.P); i++ {
		s += d.P[i]
	}
	return min(s, 1)
}

// Mean is the expected value.
func (d Dist) Mean() float64 {
	s := 0.0
	for i, p := range d.P {
		s += float64(d.Min+i) * p
	}
	return s
}

// Max is the largest outcome, Min+len(P)-1.
func (d Dist) Max() int { return d.Min + len(d.P) - 1 }

// Die is the uniform distribution over 1..sides. It panics if sides < 1.
func Die(sides int) Dist {
	if sides < 1 {
		panic("dice: Die with sides < 1")
	}
	p := make([]float64, sides)
	for i := range p {
		p[i] = 1 / float64(sides)
	}
	return Dist{Min: 1, P: p}
}

// Convolve is the distribution of the sum of independent a and b. It costs
// O(len(a.P) * len(b.P)). If either has no outcomes the result has none.
func Convolve(a, b Dist) Dist {
	if len(a.P) == 0 || len(b.P) == 0 {
		return Dist{Min: a.Min + b.Min}
	}
	if len(a.P) < len(b.P) {
		a, b = b, a // shorter inner loop
	}
	out := make([]float64, len(a.P)+len(b.P)-1)
	for j, q := range b.P {
		if q == 0 {
			continue
		}
		o := out[j : j+len(a.P)]
		for i, p := range a.P {
			o[i] += p * q
		}
	}
	return Dist{Min: a.Min + b.Min, P: out}
}

// Dist returns the exact distribution of Roll. Plain dice are added one die
// at a time by a sliding window, O(width) per die; keep-highest/lowest terms
// cost O(K^2 M^2) to build and are then convolved in. The zero value gives
// {Min: 0, P: [1]}.
func (e Expr) Dist() Dist {
	d := Dist{Min: e.k, P: []float64{1}}
	for _, t := range e.terms {
		if t.keep == 0 || t.keep == t.n { // keeping all is a plain sum
			lo := 1
			if t.neg {
				lo = -t.sides
			}
			var sc scratch
			var next []float64
			for range t.n {
				next = sc.addUniform(next, d.P, t.sides)
				d, next = Dist{Min: d.Min + lo, P: next}, d.P
			}
			continue
		}
		td := keepHighDist(t.n, t.sides, t.keep)
		if t.low {
			// The lowest K of X_i are K(M+1) minus the highest K of the
			// identically distributed M+1-X_i; over [K, KM] that mirrors P.
			td = reverse(td)
		}
		if t.neg {
			td = reverse(td)
			td.Min = -(t.keep * t.sides)
		}
		d = Convolve(d, td)
	}
	return d
}

// reverse mirrors P, keeping Min; the caller fixes Min if the support moves.
func reverse(d Dist) Dist {
	p := make([]float64, len(d.P))
	for i, v := range d.P {
		p[len(p)-1-i] = v
	}
	return Dist{Min: d.Min, P: p}
}

// scratch holds the cumulative sums addUniform needs, so that the loops in
// keepHighDist and Dist do not allocate per die.
type scratch struct{ pre, suf []float64 }

// addUniform writes into dst (grown as needed) the window sums of p divided
// by m, i.e. the masses of X + U with U uniform over m consecutive values.
//
// Small windows are summed directly. Large ones use a prefix sum where the
// window's mass is in the lower half and a suffix sum in the upper half:
// subtracting two cumulative sums near 1 would wipe out tail probabilities
// (and could even go negative), while near 0 the subtraction is accurate.
func (sc *scratch) addUniform(dst, p []float64, m int) []float64 {
	n := len(p)
	out := grow(dst, n+m-1)
	inv := 1 / float64(m)
	if m <= 16 {
		for x := range out {
			s := 0.0
			for j := max(0, x-m+1); j <= min(n-1, x); j++ {
				s += p[j]
			}
			out[x] = s * inv
		}
		return out
	}
	sc.pre = grow(sc.pre, n+1) // pre[i] = p[0] + ... + p[i-1]
	sc.suf = grow(sc.suf, n+1) // suf[i] = p[i] + ... + p[n-1]
	pre, suf := sc.pre, sc.suf
	pre[0], suf[n] = 0, 0
	for i, v := range p {
		pre[i+1] = pre[i] + v
	}
	for i := n - 1; i >= 0; i-- {
		suf[i] = suf[i+1] + p[i]
	}
	for x := range out {
		a, b := max(0, x-m+1), min(n-1, x)+1 // window p[a:b]
		var s float64
		if pre[b] <= suf[a] {
			s = pre[b] - pre[a]
		} else {
			s = suf[a] - suf[b]
		}
		out[x] = max(s, 0) * inv
	}
	return out
}

// grow returns buf resized to n, reallocating only if its capacity is short.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n, max(n, 2*cap(buf)))
	}
	return buf[:n]
}

// keepHighDist is the exact distribution of the sum of the k highest of n
// dice with m sides, over k..k*m.
//
// It conditions on t, the k-th highest face. Then some a < k dice lie above
// t, b >= k-a dice equal t and the other n-a-b lie below t; the kept sum is
// (sum of the a dice above, each uniform over t+1..m) + (k-a)*t. The
// probability of such a split is the multinomial
// C(n,a) C(n-a,b) ((m-t)/m)^a (1/m)^b ((t-1)/m)^(n-a-b), and the a dice above
// are built up one die at a time by addUniform. Everything stays a
// probability in [0,1], so nothing overflows even for 20 dice of 1000 sides.
func keepHighDist(n, m, k int) Dist {
	out := make([]float64, k*m-k+1)
	fm := float64(m)
	var sc scratch
	cur, next := make([]float64, 1, k*m), make([]float64, 0, k*m)
	for t := 1; t <= m; t++ {
		above := m - t
		pAbove, pAt, pBelow := float64(above)/fm, 1/fm, float64(t-1)/fm
		// s is the sum of the a dice above t; it lives in cur, and each
		// further die is added into next, then the two swap.
		s := Dist{Min: 0, P: cur[:1]}
		s.P[0] = 1
		for a := 0; a < k; a++ {
			if a > 0 {
				if above == 0 {
					break // no face above t: a must be 0
				}
				next = sc.addUniform(next, s.P, above)
				cur, next = next, cur
				s = Dist{Min: s.Min + t + 1, P: cur}
			}
			w := 0.0
			for b := k - a; b <= n-a; b++ {
				w += binom(n-a, b) * ipow(pAt, b) * ipow(pBelow, n-a-b)
			}
			w *= binom(n, a) * ipow(pAbove, a)
			if w == 0 {
				continue
			}
			base := s.Min + (k-a)*t - k // index of s.Min in out
			o := out[base : base+len(s.P)]
			for i, q := range s.P {
				o[i] += w * q
			}
		}
	}
	return Dist{Min: k, P: out}
}
