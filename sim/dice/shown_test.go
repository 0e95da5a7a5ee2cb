package dice

import (
	"strconv"
	"strings"
	"testing"

	"simctl/sim/rng"
)

// TestRollShownDrawsAsRoll: RollShown returns Roll's total from the same
// draws (the stream is where Roll leaves it), and lists every die rolled:
// for 2d20kh1 the kept one is the larger of the two shown.
func TestRollShownDrawsAsRoll(t *testing.T) {
	for _, src := range []string{"2d20kh1", "2d20kl1", "4d6kh3", "3d6+2", "1d20", "1d20-1d4", "2d20kh1+1d6+1"} {
		e := MustParse(src)
		for i := uint64(0); i < 200; i++ {
			a, b := rng.New(7, i), rng.New(7, i)
			want := e.Roll(a)
			got, shown := e.RollShown(b)
			if got != want || a.Uint64() != b.Uint64() {
				t.Fatalf("%s, stream %d: RollShown %d, Roll %d (or the streams part)", src, i, got, want)
			}
			dice := strings.Split(shown, ", ")
			if len(dice) != e.NumDice() {
				t.Fatalf("%s: shown %q, want %d dice", src, shown, e.NumDice())
			}
			if src == "2d20kh1" {
				x, _ := strconv.Atoi(dice[0])
				y, _ := strconv.Atoi(dice[1])
				if got != max(x, y) {
					t.Fatalf("2d20kh1: kept %d of %q", got, shown)
				}
			}
		}
	}
}
