package cavaliers

import (
	"testing"

	"simctl/sim/dice"
	"simctl/sim/rng"
)

// TestPlainDiceMatchesExpr: the plain form rolls the same totals with the
// same draws as Expr.Roll, and only NdM+K expressions get one.
func TestPlainDiceMatchesExpr(t *testing.T) {
	for _, c := range []struct {
		src   string
		plain bool
	}{
		{"2d6", true}, {"2d6+1", true}, {"1d8-2", true}, {"d20", true}, {"3d1+4", true},
		{"7", true}, {"0", true}, {"-3", true},
		{"2d6+1d4", false}, {"2d20kh1", false}, {"4d6kl3+2", false}, {"1d6-1d4", false}, {"-1d6", false},
	} {
		e := dice.MustParse(c.src)
		p := plainOf(e)
		if p.ok != c.plain {
			t.Errorf("%s: plain %v, want %v", c.src, p.ok, c.plain)
			continue
		}
		a, b := rng.New(7, 1), rng.New(7, 1)
		for k := 0; k < 2000; k++ {
			if x, y := e.Roll(a), rollPlain(b, &e, &p); x != y {
				t.Fatalf("%s roll %d: Expr %d, plain %d", c.src, k, x, y)
			}
		}
		if a.Draws() != b.Draws() {
			t.Errorf("%s: %d draws through Expr, %d plain", c.src, a.Draws(), b.Draws())
		}
	}
}
