package d20

// move walks the squares on which nothing can happen at once (no action
// readied against movement, the square left beyond every enemy's reach),
// blocker answers from the enemies' span when it can, and enteredReadied
// returns when no readier's reach was just entered; noMoveSkip and
// noEnterSkip make them walk square by square and scan. Both must play the
// same encounters and leave the same state at every decision.

import (
	"fmt"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// moveTrail is what test-moves saw at each decision: positions, the
// farthest points each side has held, the crossing flag and who has moved.
var moveTrail []string

func init() {
	RegisterPolicy("test-moves", "test only: test-masks, recording the movement state every decision", func(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy {
		return movesPolicy{}
	})
}

type movesPolicy struct{ masksPolicy }

func (p movesPolicy) Turn(t *Table, self int, pl *Plan) {
	s := fmt.Sprint(t.round, self, t.far, t.crossed)
	for i := range t.f {
		s += fmt.Sprint(" ", t.f[i].x, t.hasMoved(i), t.f[i].out)
	}
	moveTrail = append(moveTrail, s)
	p.masksPolicy.Turn(t, self, pl)
}

func TestMoveSkipMatchesSquares(t *testing.T) {
	const mixed = `name: moves %[1]d at %[2]d
ruleset: d20
max_rounds: 12
distance: %[2]d
sides:
  - name: a
    combatants:
      - {name: F, count: %[1]d, hp: 2d10+4, ac: 15, dex_ac: 1, init: 1, attacks: [6, 1], damage: 1d8+3, speed: 30, policy: %[3]s}
      - {name: P, hp: 2d8+4, ac: 13, init: 3, attacks: [4], damage: 1d10+3, reach: 10, speed: 20, brace: true, position: 10, policy: {name: ready, trigger: charge}}
      - {name: W, hp: 2d4+4, ac: 12, init: 2, attacks: [1], damage: 1d6, speed: 30, position: 20, policy: %[3]s}
  - name: b
    combatants:
      - {name: O, count: %[1]d, hp: 3d8+2, ac: 14, init: 0, attacks: [5], damage: 1d12+3, speed: 40, policy: {name: default, charge: always}}
      - {name: L, hp: 2d8+2, ac: 14, init: 2, attacks: [4], damage: 2d4, reach: 15, speed: 30, position: 15, policy: %[3]s}
      - {name: S, hp: 2d6+2, ac: 12, init: 1, attacks: [1], damage: 1d4, speed: 20, policy: %[3]s}
`
	walked := 0
	for _, c := range []struct {
		n, distance int
		policy      string
	}{{1, 40, "default"}, {2, 75, "test-moves"}, {3, 120, "test-moves"}, {2, 33, "test-moves"}, {4, 90, "default"}} {
		sc, err := scenario.Load("moves.yaml", []byte(fmt.Sprintf(mixed, c.n, c.distance, c.policy)), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Ruleset{}.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		var tallies [2]*sim.Tally
		var outs [2][]sim.Outcome
		var words [2][]uint64
		var trails [2][]string
		for pass := range tallies {
			noMoveSkip, noEnterSkip = pass == 1, pass == 1
			moveTrail = moveTrail[:0]
			table := g.NewTable()
			tally := sim.NewTally(g)
			var r rng.Stream
			for i := 0; i < 2000; i++ {
				r.Seed(5, uint64(i))
				o := table.Play(&r, &tally.Counts, nil)
				tally.Record(o)
				outs[pass] = append(outs[pass], o)
				words[pass] = append(words[pass], r.Uint64())
			}
			tallies[pass] = tally
			trails[pass] = append([]string(nil), moveTrail...)
		}
		noMoveSkip, noEnterSkip = false, false
		for i := range outs[0] {
			if outs[0][i] != outs[1][i] || words[0][i] != words[1][i] {
				t.Fatalf("%s, encounter %d: %+v skipping squares, %+v square by square (next word %x, %x)", sc.Name, i, outs[0][i], outs[1][i], words[0][i], words[1][i])
			}
		}
		if len(trails[0]) != len(trails[1]) {
			t.Fatalf("%s: %d decisions skipping squares, %d square by square", sc.Name, len(trails[0]), len(trails[1]))
		}
		for k := range trails[0] {
			if trails[0][k] != trails[1][k] {
				t.Fatalf("%s, decision %d: skipping squares\n%s\nsquare by square\n%s", sc.Name, k, trails[0][k], trails[1][k])
			}
		}
		if a, b := fmt.Sprint(tallies[0].Counts), fmt.Sprint(tallies[1].Counts); a != b {
			t.Fatalf("%s: counts skipping squares\n%s\nsquare by square\n%s", sc.Name, a, b)
		}
		c0 := &tallies[0].Counts
		walked += int(c0.Sides[Charges] + c0.Sides[c0.PerSide+Charges] + c0.Sides[AttacksOfOpportunity] + c0.Sides[c0.PerSide+AttacksOfOpportunity])
	}
	if walked < 2000 {
		t.Errorf("only %d charges and attacks of opportunity: the test does not exercise movement", walked)
	}
}
