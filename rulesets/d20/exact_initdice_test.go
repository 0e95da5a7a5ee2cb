package d20_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// Issue 10 item 7: initiative_dice replaces the d20 of the initiative check;
// the modifier and both tie-break steps are unchanged. The exact P(first)
// enumerates every die result of every combatant, with each die's
// distribution counted here from its faces (not from package dice).

type dieCombatant struct {
	name, dice string // dice "" rolls the d20
	mod        int
}

// faces returns P(result) of a dice string used below, by enumerating faces.
func faces(t *testing.T, s string) map[int]float64 {
	p := map[int]float64{}
	switch s {
	case "", "1d20":
		for v := 1; v <= 20; v++ {
			p[v] += 1.0 / 20
		}
	case "1d10":
		for v := 1; v <= 10; v++ {
			p[v] += 1.0 / 10
		}
	case "2d20kh1":
		for a := 1; a <= 20; a++ {
			for b := 1; b <= 20; b++ {
				p[max(a, b)] += 1.0 / 400
			}
		}
	case "3d6":
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				for c := 1; c <= 6; c++ {
					p[a+b+c] += 1.0 / 216
				}
			}
		}
	default:
		t.Fatalf("faces: no enumeration for %q", s)
	}
	return p
}

// exactFirstDice: P(i first): highest total, then highest modifier, then
// uniformly random among those still tied.
func exactFirstDice(t *testing.T, cs []dieCombatant) []float64 {
	out := make([]float64, len(cs))
	ds := make([]map[int]float64, len(cs))
	for i, c := range cs {
		ds[i] = faces(t, c.dice)
	}
	roll := make([]int, len(cs))
	var rec func(k int, w float64)
	rec = func(k int, w float64) {
		if k < len(cs) {
			for v, p := range ds[k] {
				roll[k] = v
				rec(k+1, w*p)
			}
			return
		}
		best, bestMod := math.MinInt, math.MinInt
		for i, c := range cs {
			if tot := roll[i] + c.mod; tot > best || tot == best && c.mod > bestMod {
				best, bestMod = tot, c.mod
			}
		}
		var tied []int
		for i, c := range cs {
			if roll[i]+c.mod == best && c.mod == bestMod {
				tied = append(tied, i)
			}
		}
		for _, i := range tied {
			out[i] += w / float64(len(tied))
		}
	}
	rec(0, 1)
	return out
}

func TestExactInitiativeDice(t *testing.T) {
	cases := []struct {
		name string
		cs   []dieCombatant
	}{
		// Advantage against a better modifier; ties go to B's +1.
		{"A 2d20kh1+0 vs B d20+1", []dieCombatant{{"A", "2d20kh1", 0}, {"B", "", 1}}},
		// B and C tie on modifier (random order between them on equal
		// totals); A's +6 wins every tie on the total.
		{"A 1d10+6 vs B 3d6+4, C d20+4", []dieCombatant{{"A", "1d10", 6}, {"B", "3d6", 4}, {"C", "", 4}}},
	}
	n := encounters(200_000)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("name: initiative-dice\nruleset: d20\nmax_rounds: 1\ndistance: 0\nsides:\n")
			for s, group := range [][]dieCombatant{tc.cs[:1], tc.cs[1:]} {
				fmt.Fprintf(&b, "  - name: side%d\n    combatants:\n", s)
				for _, c := range group {
					fmt.Fprintf(&b, "      - {name: %s, hp: 1000, ac: 10, init: %d, attacks: [0], damage: 1", c.name, c.mod)
					if c.dice != "" {
						fmt.Fprintf(&b, ", initiative_dice: %s", c.dice)
					}
					b.WriteString("}\n")
				}
			}
			tally := runGame(t, compileYAML(t, tc.name, b.String()), n)
			exact := exactFirstDice(t, tc.cs)
			sum := 0.0
			for i, c := range tc.cs {
				checkProb(t, "P("+c.name+" first)", tally.FirstActor[i], n, exact[i])
				sum += exact[i]
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("exact probabilities sum to %v", sum)
			}
			// WRONG: initiative_dice ignored (everyone rolls a d20).
			plain := append([]dieCombatant(nil), tc.cs...)
			for i := range plain {
				plain[i].dice = ""
			}
			wrong := exactFirstDice(t, plain)
			checkPower(t, "dice ignored: P(A first)", tally.FirstActor[0], n, wrong[0])
		})
	}
}
