// Package rng is the per-encounter random stream every ruleset draws from.
//
// Encounter i of a run with seed s draws all of its randomness from one
// Stream seeded by (s, i). That is what makes a run's counts identical
// whatever the number of workers, and what lets `simctl trace` replay any
// encounter on its own.
//
// The generator is math/rand/v2's PCG (DXSM output), written out in this
// package: a pointer-free value, seeded in a few nanoseconds, so a worker
// reseeds one Stream per encounter instead of allocating. A Stream is not safe for concurrent use: each worker
// owns its own.
package rng

import "math/bits"

// Stream is a seeded PCG stream with the draws the simulator needs.
// The zero value is usable but every zero Stream yields the same numbers;
// call Seed.
//
// The generator is math/rand/v2's PCG (128-bit LCG state, DXSM output),
// written out here so that Uint64 and the common die rolls inline into the
// referees' hot loops; TestMatchesMathRandPCG pins it to rand.PCG word for
// word.
type Stream struct {
	hi, lo   uint64 // the LCG state
	hi0, lo0 uint64 // the state at Seed, from which Draws counts
}

// New returns a Stream seeded for encounter index of a run with seed.
func New(seed, index uint64) *Stream {
	s := &Stream{}
	s.Seed(seed, index)
	return s
}

// splitmix64 is a bijective mixer; it decorrelates adjacent (seed, index)
// pairs before they reach PCG, whose state for seeds differing in a few low
// bits would otherwise start out close.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Seed resets the stream to the start of encounter index of a run with seed.
func (s *Stream) Seed(seed, index uint64) {
	hi := splitmix64(seed)
	lo := splitmix64(index ^ splitmix64(hi^0x5851f42d4c957f2d))
	s.hi, s.lo, s.hi0, s.lo0 = hi, lo, hi, lo
}

// PCG constants (math/rand/v2, after pcg-cpp): the 128-bit multiplier and
// increment of the LCG, and DXSM's 64-bit multiplier.
const (
	mulHi    = 2549297995355413924
	mulLo    = 4865540595714422341
	incHi    = 6364136223846793005
	incLo    = 1442695040888963407
	cheapMul = 0xda942042e4dd58b5
)

// step advances the LCG state: state = state*mul + inc (mod 2^128).
func step(hi0, lo0 uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(lo0, mulLo)
	hi += hi0*mulLo + lo0*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	return hi, lo
}

// Uint64 returns 64 uniformly random bits.
func (s *Stream) Uint64() uint64 {
	hi, lo := step(s.hi, s.lo)
	s.hi, s.lo = hi, lo
	// DXSM "double xorshift multiply" output.
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}

// Draws reports how many 64-bit words were drawn since the last Seed. It
// replays the state from Seed (a step per word drawn), so it is for tests
// and benchmarks, not for hot loops: keeping a counter in Uint64 instead
// kept Uint64 from being inlined.
func (s *Stream) Draws() uint64 {
	hi, lo := s.hi0, s.lo0
	n := uint64(0)
	for hi != s.hi || lo != s.lo {
		hi, lo = step(hi, lo)
		n++
	}
	return n
}

// IntN returns a uniform integer in [0, n). It panics if n <= 0.
// Lemire's multiply-and-reject: unbiased, one draw almost always. The
// common case (no rejection possible: the low word is at least n) is small
// enough to inline; the rest is intNSlow.
func (s *Stream) IntN(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(s.Uint64(), un)
	if lo < un || n <= 0 {
		return s.intNSlow(n, hi, lo)
	}
	return int(hi)
}

// intNSlow finishes IntN when the first draw may be rejected.
func (s *Stream) intNSlow(n int, hi, lo uint64) int {
	if n <= 0 {
		panic("rng: IntN with n <= 0")
	}
	un := uint64(n)
	thresh := -un % un
	for lo < thresh {
		hi, lo = bits.Mul64(s.Uint64(), un)
	}
	return int(hi)
}

// Die rolls one die with the given number of sides: a uniform integer in
// [1, sides].
func (s *Stream) Die(sides int) int { return s.IntN(sides) + 1 }

// D20 rolls one twenty-sided die.
func (s *Stream) D20() int { return s.IntN(20) + 1 }

// Float64 returns a uniform float in [0, 1).
func (s *Stream) Float64() float64 {
	return float64(s.Uint64()>>11) * (1.0 / (1 << 53))
}
