package d20

import (
	"testing"

	"simctl/sim/dice"
	"simctl/sim/rng"
)

// TestDrawsMatchStream: d20 and rollDice draw the same words and give the
// same results as rng.Stream.D20 and dice.Expr.Roll, for plain NdM+K and
// for every other form (which rollDice hands to Roll), including dice
// whose sides make the rejection step likely.
func TestDrawsMatchStream(t *testing.T) {
	a, b := rng.New(3, 9), rng.New(3, 9)
	for k := 0; k < 20000; k++ {
		if x, y := a.D20(), d20(b); x != y {
			t.Fatalf("d20 %d: stream %d, d20 %d", k, x, y)
		}
	}
	if a.Draws() != b.Draws() {
		t.Fatalf("d20: %d words through the stream, %d written out", a.Draws(), b.Draws())
	}
	for _, src := range []string{"1d8+2", "2d4+2", "3d8+6", "d20", "1d12-3", "4d1", "7", "-2", "2d6+1d4", "4d6kh3", "1d6-1d4", "1d4611686018427387905"} {
		e, err := dice.Parse(src)
		if err != nil {
			continue // a form the parser refuses: nothing to compare
		}
		a, b := rng.New(5, uint64(len(src))), rng.New(5, uint64(len(src)))
		for k := 0; k < 5000; k++ {
			if x, y := e.Roll(a), rollDice(b, &e); x != y {
				t.Fatalf("%s roll %d: Expr %d, rollDice %d", src, k, x, y)
			}
		}
		if a.Draws() != b.Draws() {
			t.Fatalf("%s: %d words through Expr, %d through rollDice", src, a.Draws(), b.Draws())
		}
	}
}
