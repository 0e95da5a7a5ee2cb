package plain

import (
	"testing"

	"simctl/sim/dice"
	"simctl/sim/rng"
)

// TestDiceMatchesExpr: the plain form rolls the same totals with the same
// draws as Expr.Roll, and only NdM+K expressions get one.
func TestDiceMatchesExpr(t *testing.T) {
	for _, c := range []struct {
		src   string
		plain bool
	}{
		{"2d6", true}, {"2d6+1", true}, {"1d8-2", true}, {"d20", true}, {"3d1+4", true},
		{"7", true}, {"0", true}, {"-3", true}, {"1d1000", true},
		{"2d6+1d4", false}, {"2d20kh1", false}, {"4d6kl3+2", false}, {"1d6-1d4", false}, {"-1d6", false},
	} {
		e := dice.MustParse(c.src)
		p := Of(e)
		if p.Plain() != c.plain {
			t.Errorf("%s: plain %v, want %v", c.src, p.Plain(), c.plain)
			continue
		}
		a, b := rng.New(7, 1), rng.New(7, 1)
		for k := 0; k < 2000; k++ {
			if x, y := e.Roll(a), p.Roll(b, &e); x != y {
				t.Fatalf("%s roll %d: Expr %d, plain %d", c.src, k, x, y)
			}
		}
		if a.Draws() != b.Draws() {
			t.Errorf("%s: %d draws through Expr, %d plain", c.src, a.Draws(), b.Draws())
		}
	}
}

// TestRerollMatchesStream: huge dice (beyond what dice.Parse accepts, so
// built by hand), where Lemire's rejection is common, roll what Stream.Die
// rolls, word for word; the test checks that the rejection path was taken.
func TestRerollMatchesStream(t *testing.T) {
	for _, sides := range []int{1<<62 + 1, 3 << 61} {
		p := Dice{n: 2, sides: sides, ok: true}
		var e dice.Expr // not consulted: p is plain
		a, b := rng.New(11, uint64(sides)), rng.New(11, uint64(sides))
		for k := 0; k < 5000; k++ {
			x := a.Die(sides)
			x += a.Die(sides)
			if y := p.Roll(b, &e); x != y {
				t.Fatalf("2d%d roll %d: Stream %d, plain %d", sides, k, x, y)
			}
			if a.Draws() != b.Draws() {
				t.Fatalf("2d%d roll %d: %d draws through Stream, %d plain", sides, k, a.Draws(), b.Draws())
			}
		}
		if a.Draws() == 10000 {
			t.Errorf("2d%d: no rejection in 10000 dice; the test does not reach reroll", sides)
		}
	}
}
