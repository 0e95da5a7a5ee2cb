// Package dice parses, rolls and analyses tabletop dice expressions such as
// "2d6+1d4+3" or "4d6kh3".
//
// Rulesets keep damage, hit points and similar quantities as an Expr: Roll
// draws one outcome from an rng.Stream in the simulator's hot loop, while
// Min, Max, Mean and Dist give exact answers for reports and for policies
// that reason about expected values without sampling.
//
// # Syntax
//
// An expression is one or more terms joined by + or -; the first term may
// carry a sign of its own. A term is one of
//
//	K        an integer constant, e.g. 3
//	NdM      the sum of N dice with M sides, e.g. 2d6; N may be left out
//	         (d20 means 1d20), D is accepted for d, and d% means d100
//	NdMkhK   the sum of the K highest of N dice, e.g. 4d6kh3; NdMkK is the
//	         same as NdMkhK
//	NdMklK   the sum of the K lowest of N dice, e.g. 2d20kl1
//
// Spaces may appear around operators and at either end ("1d8 + 3") but not
// inside a term. Letters may be upper- or lower-case.
//
// String gives a canonical form: dice terms in the order written, each as
// NdM, NdMkhK or NdMklK, followed by all constants folded into one, so
// "3 + d8 - 1" becomes "1d8+2". Parse(e.String()) gives back an equivalent
// expression.
//
// # Limits
//
// Parse rejects, with the column and the limit, any expression with more
// than 100 dice in a term, dice with fewer than 1 or more than 1000 sides, a
// keep count outside 1..N, more than 16 terms, or a constant (or the sum of
// the constants) outside ±1,000,000. A keep-highest or keep-lowest term may
// roll at most 20 dice so that its exact distribution stays cheap.
//
// # Concurrency
//
// An Expr is immutable once made: share it freely between goroutines. Roll
// mutates only the rng.Stream it is given, and a Stream is not safe for
// concurrent use, so each goroutine rolls with its own Stream.
package dice

import (
	"strconv"
	"strings"

	"simctl/sim/rng"
)

// Parser limits; see the package documentation.
const (
	maxDice     = 100       // dice in one term
	maxSides    = 1000      // sides on one die
	maxTerms    = 16        // terms in one expression, constants included
	maxConst    = 1_000_000 // magnitude of a constant and of the constants' sum
	maxKeepDice = 20        // dice in a keep-highest/lowest term
)

// term is one dice term. Constants are not terms: Parse folds them into
// Expr.k, so Roll adds them once.
type term struct {
	n     int  // number of dice, 1..maxDice
	sides int  // 1..maxSides
	keep  int  // 0: sum all n dice; otherwise sum the keep highest (or lowest)
	low   bool // keep the lowest instead of the highest
	neg   bool // the term is subtracted
}

// Expr is a parsed dice expression. It is an immutable value, safe to Roll
// from many goroutines as long as each uses its own rng.Stream. The zero
// value is an unset expression that behaves as the constant 0 (see IsZero).
type Expr struct {
	terms []term // never modified after construction, so copies may share it
	k     int    // sum of all constants
	// Precomputed so that policies may call them per decision at no cost.
	min, max int
	mean     float64
	src      string // canonical form; empty only for the zero value
	// plain: one added NdM term without keep, the usual damage and hit
	// dice; Roll takes a loop without the per-term dispatch for it.
	plain bool
}

// Const returns an expression that always yields k. Parse accepts constants
// only within ±1,000,000, so for larger k String does not parse back.
func Const(k int) Expr {
	return Expr{k: k, min: k, max: k, mean: float64(k), src: strconv.Itoa(k)}
}

// MustParse is like Parse but panics on error; it is meant for tests and
// package-level values whose text is fixed in the source.
func MustParse(s string) Expr {
	e, err := Parse(s)
	if err != nil {
		panic("dice: " + err.Error())
	}
	return e
}

// newExpr fills in the derived fields of an expression made of terms and
// the constant k.
func newExpr(terms []term, k int) Expr {
	e := Expr{terms: terms, k: k, min: k, max: k, mean: float64(k)}
	e.plain = len(terms) == 1 && terms[0].keep == 0 && !terms[0].neg
	var b strings.Builder
	for i, t := range terms {
		lo, hi := t.min(), t.max()
		m := t.meanValue()
		if t.neg {
			lo, hi, m = -hi, -lo, -m
			b.WriteByte('-')
		} else if i > 0 {
			b.WriteByte('+')
		}
		e.min += lo
		e.max += hi
		e.mean += m
		b.WriteString(strconv.Itoa(t.n))
		b.WriteByte('d')
		b.WriteString(strconv.Itoa(t.sides))
		if t.keep > 0 {
			if t.low {
				b.WriteString("kl")
			} else {
				b.WriteString("kh")
			}
			b.WriteString(strconv.Itoa(t.keep))
		}
	}
	switch {
	case len(terms) == 0:
		b.WriteString(strconv.Itoa(k))
	case k > 0:
		b.WriteByte('+')
		b.WriteString(strconv.Itoa(k))
	case k < 0:
		b.WriteString(strconv.Itoa(k))
	}
	e.src = b.String()
	return e
}

// kept is the number of dice a term adds up.
func (t term) kept() int {
	if t.keep > 0 {
		return t.keep
	}
	return t.n
}

func (t term) min() int { return t.kept() }
func (t term) max() int { return t.kept() * t.sides }

// meanValue is the exact mean of the unsigned term.
func (t term) meanValue() float64 {
	if t.keep == 0 || t.keep == t.n {
		return float64(t.n) * float64(t.sides+1) / 2
	}
	hi := meanKeepHigh(t.n, t.sides, t.keep)
	if t.low {
		// The lowest K of X_i are K(M+1) minus the highest K of M+1-X_i,
		// and M+1-X_i has the same distribution as X_i.
		return float64(t.keep)*float64(t.sides+1) - hi
	}
	return hi
}

// meanKeepHigh is E[sum of the k highest of n dice with m sides]. The sum
// of the k highest is sum over v of min(#dice >= v, k), and #dice >= v is
// binomial, so the mean costs O(m*n) instead of a full distribution.
func meanKeepHigh(n, m, k int) float64 {
	total := 0.0
	for v := 1; v <= m; v++ {
		p := float64(m-v+1) / float64(m)
		e := 0.0
		for c := 1; c <= n; c++ {
			pc := binom(n, c) * ipow(p, c) * ipow(1-p, n-c)
			e += float64(min(c, k)) * pc
		}
		total += e
	}
	return total
}

// Roll draws one outcome, one r.Die call per physical die in term order.
// It does not allocate.
func (e *Expr) Roll(r *rng.Stream) int {
	total := e.k
	// NdM+K without the term loop; rulesets/internal/plain is faster still
	// (no Expr indirection) for the rulesets' hot loops, this serves the rest.
	if e.plain {
		t := &e.terms[0]
		for range t.n {
			total += r.IntN(t.sides) + 1
		}
		return total
	}
	for i := range e.terms {
		t := &e.terms[i]
		var s int
		if t.keep == 0 {
			for range t.n {
				s += r.Die(t.sides)
			}
		} else {
			s = rollKeep(r, t)
		}
		if t.neg {
			total -= s
		} else {
			total += s
		}
	}
	return total
}

// rollKeep rolls a keep-highest/lowest term. The dice go into a stack array
// (n <= maxKeepDice) kept sorted by insertion, which for 20 or fewer values
// is cheaper than any general sort and allocates nothing.
func rollKeep(r *rng.Stream, t *term) int {
	var buf [maxKeepDice]int
	n := t.n
	for i := range n {
		v := r.Die(t.sides)
		j := i
		for j > 0 && buf[j-1] > v {
			buf[j] = buf[j-1]
			j--
		}
		buf[j] = v
	}
	kept := buf[n-t.keep : n]
	if t.low {
		kept = buf[:t.keep]
	}
	s := 0
	for _, v := range kept {
		s += v
	}
	return s
}

// Min is the smallest value Roll can return.
func (e Expr) Min() int { return e.min }

// Max is the largest value Roll can return.
func (e Expr) Max() int { return e.max }

// Mean is the exact expected value of Roll.
func (e Expr) Mean() float64 { return e.mean }

// IsConst reports whether the expression rolls no dice.
func (e Expr) IsConst() bool { return len(e.terms) == 0 }

// IsZero reports whether e is the zero value Expr{}, i.e. an unset field.
// Parse("0") and Const(0) are set, so they are not zero.
func (e Expr) IsZero() bool { return e.src == "" && len(e.terms) == 0 && e.k == 0 }

// NumDice is the number of physical dice one Roll rolls (and so the number
// of r.Die calls it makes).
func (e Expr) NumDice() int {
	n := 0
	for _, t := range e.terms {
		n += t.n
	}
	return n
}

// String returns the canonical form, e.g. "2d6+1d4+3". The zero value
// prints as "0", the constant it rolls.
func (e Expr) String() string {
	if e.src == "" {
		return "0"
	}
	return e.src
}

// binom is the binomial coefficient C(n, k) as a float64. Each step yields
// the integer C(n-k+i, i), exact in a float64 for the n <= maxKeepDice used.
func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}

// ipow is x**e for small non-negative e, with 0**0 = 1.
func ipow(x float64, e int) float64 {
	r := 1.0
	for range e {
		r *= x
	}
	return r
}

// Plus returns the expression with k added to its constant: "3d10+6" plus 1
// is "3d10+7". Experiments that step a dice-valued field (hit points,
// damage) up and down use it.
func (e Expr) Plus(k int) Expr { return newExpr(e.terms, e.k+k) }

// RollShown is Roll that also says every die it rolled, in the order
// rolled: "14, 7" for 2d20kh1 (the kept 14 and the dropped 7), so a trace
// of an advantage roll shows both dice, not only the one kept. It draws
// from r exactly as Roll does, so a traced encounter plays as the run did;
// it allocates, and is for narration only.
func (e *Expr) RollShown(r *rng.Stream) (int, string) {
	var dice []string
	total := e.k
	if e.plain {
		t := &e.terms[0]
		for range t.n {
			v := r.IntN(t.sides) + 1
			dice = append(dice, strconv.Itoa(v))
			total += v
		}
		return total, strings.Join(dice, ", ")
	}
	for i := range e.terms {
		t := &e.terms[i]
		var s int
		if t.keep == 0 {
			for range t.n {
				v := r.Die(t.sides)
				dice = append(dice, strconv.Itoa(v))
				s += v
			}
		} else {
			// rollKeep's draws, one r.Die per die, remembered in order.
			var buf [maxKeepDice]int
			rolled := make([]int, 0, t.n)
			for i := range t.n {
				v := r.Die(t.sides)
				rolled = append(rolled, v)
				j := i
				for j > 0 && buf[j-1] > v {
					buf[j] = buf[j-1]
					j--
				}
				buf[j] = v
			}
			kept := buf[t.n-t.keep : t.n]
			if t.low {
				kept = buf[:t.keep]
			}
			for _, v := range kept {
				s += v
			}
			for _, v := range rolled {
				dice = append(dice, strconv.Itoa(v))
			}
		}
		if t.neg {
			total -= s
		} else {
			total += s
		}
	}
	return total, strings.Join(dice, ", ")
}

// PlainParts returns N, M and K of an NdM+K expression (one added term of
// dice, no keep), with ok; ok is false for any other form, constants
// included. A referee that rolls the dice itself on the stream's words
// (one IntN(M)+1 per die, in order, as Roll does) reads them here at each
// roll, so an expression changed after compiling is never read stale.
func (e *Expr) PlainParts() (n, m, k int, ok bool) {
	if !e.plain {
		return 0, 0, 0, false
	}
	return e.terms[0].n, e.terms[0].sides, e.k, true
}
