package dice

import (
	"math"
	"slices"
	"testing"
)

// bruteDist enumerates every outcome of every physical die of e, equally
// likely, and counts the results. It shares no code with Dist or Roll: it
// sorts each term's faces with the standard library and sums the kept ones.
func bruteDist(e Expr) Dist {
	var faces []int // one entry per physical die: its sides
	for _, t := range e.terms {
		for range t.n {
			faces = append(faces, t.sides)
		}
	}
	roll := make([]int, len(faces))
	for i := range roll {
		roll[i] = 1
	}
	counts := map[int]int{}
	total := 0
	for {
		v, off := e.k, 0
		for _, t := range e.terms {
			vals := slices.Clone(roll[off : off+t.n])
			off += t.n
			slices.Sort(vals)
			switch {
			case t.keep == 0:
			case t.low:
				vals = vals[:t.keep]
			default:
				vals = vals[len(vals)-t.keep:]
			}
			s := 0
			for _, x := range vals {
				s += x
			}
			if t.neg {
				s = -s
			}
			v += s
		}
		counts[v]++
		total++
		// Odometer step.
		i := 0
		for ; i < len(roll); i++ {
			if roll[i] < faces[i] {
				roll[i]++
				break
			}
			roll[i] = 1
		}
		if i == len(roll) {
			break
		}
	}
	lo, hi := math.MaxInt, math.MinInt
	for v := range counts {
		lo, hi = min(lo, v), max(hi, v)
	}
	p := make([]float64, hi-lo+1)
	for v, c := range counts {
		p[v-lo] = float64(c) / float64(total)
	}
	return Dist{Min: lo, P: p}
}

func TestDistMatchesBruteForce(t *testing.T) {
	for _, s := range []string{
		"2d6", "3d6", "4d6kh3", "2d20kl1", "2d20kh1", "1d8+1d6+2", "-1d4+3",
		"3d4kl2", "4d6kh4", "5d4kh2", "5d5kl3", "3d6kl1", "2d20kh1-1d4",
		"-3d4kh2+1", "-2d3kl1-2d3", "d%", "1d20+1d20", "6d3kh5", "3d17", "1d1+2d1kh1",
	} {
		e := MustParse(s)
		got, want := e.Dist(), bruteDist(e)
		if got.Min != want.Min || len(got.P) != len(want.P) {
			t.Errorf("%s: Dist support [%d,%d], brute force [%d,%d]", s, got.Min, got.Max(), want.Min, want.Max())
			continue
		}
		for i := range got.P {
			if math.Abs(got.P[i]-want.P[i]) > 1e-12 {
				t.Errorf("%s: P(%d) = %.17g, brute force %.17g", s, got.Min+i, got.P[i], want.P[i])
			}
		}
		if got.Min != e.Min() || got.Max() != e.Max() {
			t.Errorf("%s: Dist [%d,%d] but Min, Max = %d, %d", s, got.Min, got.Max(), e.Min(), e.Max())
		}
	}
}

// TestDistLarge checks sizes too big to enumerate: the distribution sums to
// 1, has no negative entries, spans [Min, Max], and its mean agrees with
// Mean, which is computed independently (closed forms, and for keep terms
// a binomial formula that never builds the distribution).
func TestDistLarge(t *testing.T) {
	for _, s := range []string{
		"1d8+3", "100d1000", "20d100kh10", "20d100kl17", "8d10kh3+2d6-1d12kl1",
		"20d20kh1", "-20d1000kh2+7", "3d6+1d4+4d6kh3-2", "2d%kh1",
	} {
		e := MustParse(s)
		d := e.Dist()
		sum := 0.0
		for i, p := range d.P {
			if p < 0 || math.IsNaN(p) {
				t.Fatalf("%s: P(%d) = %g", s, d.Min+i, p)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: Dist sums to 1%+.3g", s, sum-1)
		}
		if d.Min != e.Min() || d.Max() != e.Max() || d.P[0] == 0 || d.P[len(d.P)-1] == 0 {
			t.Errorf("%s: Dist spans [%d,%d] with end masses %g, %g; want [%d,%d]", s, d.Min, d.Max(), d.P[0], d.P[len(d.P)-1], e.Min(), e.Max())
		}
		if dm := d.Mean(); math.Abs(dm-e.Mean()) > 1e-12*max(1, math.Abs(dm)) {
			t.Errorf("%s: Mean() = %.15g, Dist().Mean() = %.15g", s, e.Mean(), dm)
		}
	}
}

func TestMeanKnownValues(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{
		{"1d8+3", 7.5},
		{"2d6", 7},
		{"-1d4+2", -0.5},
		{"4d6kh3", 15869.0 / 1296},   // the classic 12.2446
		{"2d20kh1", 5530.0 / 400},    // advantage: 13.825
		{"2d20kl1", 2870.0 / 400},    // disadvantage: 7.175
		{"4d6kh3-4d6kh3", 0},         // symmetric
		{"4d6kl1", 2275.0 / 1296},    // lowest of four d6
		{"3d6+1d6kh1", 10.5 + 3.5},   // keeping 1 of 1 is the die
		{"1d6kl1+1d6kh1-2d6kh2", 0},  // all plain
		{"1000000-1000000+1d4", 2.5}, // constants fold to 0
	} {
		if got := MustParse(c.s).Mean(); math.Abs(got-c.want) > 1e-12*max(1, math.Abs(c.want)) {
			t.Errorf("%s: Mean() = %.15g, want %.15g", c.s, got, c.want)
		}
	}
}

func TestDistMethods(t *testing.T) {
	d := MustParse("2d6").Dist()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Prob(7)", d.Prob(7), 6.0 / 36},
		{"Prob(1)", d.Prob(1), 0},
		{"Prob(13)", d.Prob(13), 0},
		{"AtMost(1)", d.AtMost(1), 0},
		{"AtMost(4)", d.AtMost(4), 6.0 / 36},
		{"AtMost(12)", d.AtMost(12), 1},
		{"AtMost(99)", d.AtMost(99), 1},
		{"AtLeast(2)", d.AtLeast(2), 1},
		{"AtLeast(-5)", d.AtLeast(-5), 1},
		{"AtLeast(11)", d.AtLeast(11), 3.0 / 36},
		{"AtLeast(13)", d.AtLeast(13), 0},
		{"Mean", d.Mean(), 7},
	} {
		if math.Abs(c.got-c.want) > 1e-14 {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
	if d.Max() != 12 {
		t.Errorf("Max() = %d", d.Max())
	}
	// Convolve and Die agree with the parser's own distribution.
	c := Convolve(Convolve(Die(6), Die(6)), Dist{Min: 3, P: []float64{1}})
	want := MustParse("2d6+3").Dist()
	if c.Min != want.Min || len(c.P) != len(want.P) {
		t.Fatalf("Convolve support %d+%d, want %d+%d", c.Min, len(c.P), want.Min, len(want.P))
	}
	for i := range c.P {
		if math.Abs(c.P[i]-want.P[i]) > 1e-15 {
			t.Errorf("Convolve P[%d] = %g, want %g", i, c.P[i], want.P[i])
		}
	}
	if e := Convolve(Dist{}, Die(4)); len(e.P) != 0 {
		t.Errorf("Convolve with an empty Dist = %+v, want no outcomes", e)
	}
}
