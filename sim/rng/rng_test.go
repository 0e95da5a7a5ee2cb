package rng

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestSeedIsReproducible(t *testing.T) {
	a, b := New(7, 12), New(7, 12)
	for i := 0; i < 100; i++ {
		if x, y := a.Uint64(), b.Uint64(); x != y {
			t.Fatalf("draw %d: %d != %d", i, x, y)
		}
	}
	c := New(7, 13)
	same := 0
	a.Seed(7, 12)
	for i := 0; i < 100; i++ {
		if a.Uint64() == c.Uint64() {
			same++
		}
	}
	if same > 0 {
		t.Fatalf("streams for adjacent encounters share %d of 100 draws", same)
	}
}

// TestDieIsUniform checks a d6 by a chi-square test at a fixed seed. With 5
// degrees of freedom the 0.999 quantile is 20.52; a biased die (for example
// one face at 1/5 instead of 1/6) gives a statistic in the hundreds at this N.
func TestDieIsUniform(t *testing.T) {
	s := New(1, 0)
	const n = 600000
	var counts [7]int
	for i := 0; i < n; i++ {
		counts[s.Die(6)]++
	}
	if counts[0] != 0 {
		t.Fatal("Die(6) returned 0")
	}
	chi := 0.0
	exp := float64(n) / 6
	for f := 1; f <= 6; f++ {
		d := float64(counts[f]) - exp
		chi += d * d / exp
	}
	if chi > 20.52 {
		t.Fatalf("chi-square %.2f over 5 df: counts %v", chi, counts[1:])
	}
}

func TestIntNRange(t *testing.T) {
	s := New(3, 3)
	for _, n := range []int{1, 2, 3, 7, 20, 100, 1 << 40} {
		for i := 0; i < 1000; i++ {
			if v := s.IntN(n); v < 0 || v >= n {
				t.Fatalf("IntN(%d) = %d", n, v)
			}
		}
	}
}

// TestStreamPinned pins the first draws of one stream so that a change to the
// seeding, which would silently change every published result, fails here.
func TestStreamPinned(t *testing.T) {
	s := New(42, 0)
	got := [5]int{s.D20(), s.D20(), s.D20(), s.D20(), s.D20()}
	want := [5]int{19, 19, 13, 12, 11}
	if got != want {
		t.Fatalf("seed 42 encounter 0 rolls %v, pinned %v: the stream changed, and with it every published result", got, want)
	}
}

func BenchmarkD20(b *testing.B) {
	s := New(1, 1)
	sum := 0
	for i := 0; i < b.N; i++ {
		sum += s.D20()
	}
	_ = sum
}

// The stream is math/rand/v2's PCG written out: word for word the same as
// rand.PCG seeded with the same state, so no pinned result moved when it
// replaced the library type.
func TestMatchesMathRandPCG(t *testing.T) {
	for _, seed := range [][2]uint64{{1, 0}, {1, 1}, {7, 12}, {^uint64(0), 12345}} {
		var s Stream
		s.Seed(seed[0], seed[1])
		hi := splitmix64(seed[0])
		lo := splitmix64(seed[1] ^ splitmix64(hi^0x5851f42d4c957f2d))
		ref := rand.NewPCG(hi, lo)
		for i := 0; i < 1000; i++ {
			if x, y := s.Uint64(), ref.Uint64(); x != y {
				t.Fatalf("seed %v draw %d: %#x, rand.PCG %#x", seed, i, x, y)
			}
		}
	}
}

// Draws counts the words drawn since Seed, whatever drew them.
func TestDraws(t *testing.T) {
	s := New(3, 4)
	if s.Draws() != 0 {
		t.Fatalf("Draws after Seed = %d", s.Draws())
	}
	for i := 0; i < 50; i++ {
		s.D20()
	}
	s.Uint64()
	s.IntN(3)
	if got := s.Draws(); got < 52 { // a rejected draw adds one
		t.Fatalf("Draws = %d, want at least 52", got)
	}
	n := s.Draws()
	s.Seed(3, 4)
	for i := uint64(0); i < n; i++ {
		s.Uint64()
	}
	if s.Draws() != n {
		t.Fatalf("Draws after %d words = %d", n, s.Draws())
	}
}

// IntN's inlined fast path and its slow path agree with the plain
// multiply-and-reject on every n, including those that reject often.
func TestIntNMatchesLemire(t *testing.T) {
	for _, n := range []int{1, 2, 3, 6, 20, 100, 1 << 62, 3 << 61} {
		a, b := New(9, uint64(n)), New(9, uint64(n))
		for i := 0; i < 2000; i++ {
			want := lemire(b, uint64(n))
			if got := a.IntN(n); got != want {
				t.Fatalf("IntN(%d) draw %d = %d, want %d", n, i, got, want)
			}
		}
	}
}

func lemire(s *Stream, n uint64) int {
	hi, lo := bits.Mul64(s.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(s.Uint64(), n)
		}
	}
	return int(hi)
}
