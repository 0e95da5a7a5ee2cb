package cavaliers

import (
	"strconv"
	"strings"

	"simctl/sim/dice"
	"simctl/sim/rng"
)

// plainDice is a dice expression of the form NdM+K (one kind of die added
// up, plus a constant; N = 0 for a constant), taken apart once so that an
// attack rolls its dice in a plain loop instead of through the general
// evaluator. It draws exactly what Expr.Roll draws, in the same order (one
// r.Die(M) per die), and adds the same total.
type plainDice struct {
	n, sides, k int
	ok          bool // false: not of that form; roll the Expr
}

// plainOf takes e apart through its canonical form (Expr.String: "2d6+1",
// "1d8-2", "3d6", "7"), as pool.go does for initiative pools; anything else
// (several terms, keep-highest, a subtracted term) is left to Expr.Roll.
func plainOf(e dice.Expr) plainDice {
	src := e.String()
	if e.IsConst() {
		k, err := strconv.Atoi(src)
		return plainDice{k: k, ok: err == nil && e.Min() == k}
	}
	cnt, rest, found := strings.Cut(src, "d")
	if !found {
		return plainDice{}
	}
	n, err := strconv.Atoi(cnt)
	if err != nil {
		return plainDice{}
	}
	sides, k := rest, 0
	if at := strings.IndexAny(rest, "+-"); at >= 0 {
		sides = rest[:at]
		if k, err = strconv.Atoi(rest[at:]); err != nil {
			return plainDice{}
		}
	}
	m, err := strconv.Atoi(sides)
	if err != nil || n < 1 || m < 1 || e.NumDice() != n || e.Min() != n+k || e.Max() != n*m+k {
		return plainDice{}
	}
	return plainDice{n: n, sides: m, k: k, ok: true}
}

// diceKit holds a combatant's attack, defence and damage dice taken apart.
type diceKit struct{ attack, defence, damage plainDice }

// rollPlain rolls e, through its plain form p when it has one.
func rollPlain(r *rng.Stream, e *dice.Expr, p *plainDice) int {
	if !p.ok {
		return e.Roll(r)
	}
	v := p.k
	for range p.n {
		v += r.Die(p.sides)
	}
	return v
}
