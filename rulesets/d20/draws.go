package d20

import (
	"math/bits"

	"simctl/rulesets/internal/plain"
	"simctl/sim/dice"
	"simctl/sim/rng"
)

// The general referee's draws, written on the stream's words as
// rng.Stream.D20 and dice.Expr.Roll draw them (Lemire's multiply, the rare
// rejection out of line: plain.Reroll), so that a d20 or a die
// costs no call. Same words, same order, same results.

// d20 rolls a d20 (rng.Stream.D20).
func d20(r *rng.Stream) int {
	hi, lo := bits.Mul64(r.Uint64(), 20)
	if lo < 20 {
		return plain.Reroll(r, 20, hi, lo)
	}
	return int(hi) + 1
}

// rollDice rolls e (dice.Expr.Roll): NdM+K die by die here, any other form
// through Roll.
func rollDice(r *rng.Stream, e *dice.Expr) int {
	n, m, k, ok := e.PlainParts()
	if !ok {
		return e.Roll(r)
	}
	un := uint64(m)
	for ; n > 0; n-- {
		hi, lo := bits.Mul64(r.Uint64(), un)
		if lo < un {
			k += plain.Reroll(r, un, hi, lo)
			continue
		}
		k += int(hi) + 1
	}
	return k
}
