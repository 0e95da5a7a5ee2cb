package d20_test

import (
	"fmt"
	"math"
	"testing"
)

// 4. A ranged duel (issue 24 item 15), by dynamic programming as the melee
// duel: an archer (longbow: two shots a round, no reloading) against a
// heavy crossbowman (a shot, then a full-round reload: a shot every other
// round), 250 ft apart. Both are in range and never move: 250 ft is three
// increments of 100 (longbow) and of 120 (crossbow), -4 to hit for both.
// Initiative is rolled (exactFirst), both start flat-footed (dex_ac). The
// wrong readings checked for power: no range penalty, a heavy crossbow that
// fires every round, a bow limited to one shot a round.

var (
	rangedArcher = duelist{name: "Archer", hp: 14, ac: 15, dexAC: 3, init: 2,
		attacks: []int{6, 1}, damage: "1d8", threatFrom: 20, mult: 3}
	rangedXbow = duelist{name: "Xbow", hp: 16, ac: 14, dexAC: 2, init: 1,
		attacks: []int{5}, damage: "1d10", threatFrom: 19, mult: 2}
)

const rangedDistance = 250

func rangedDuelYAML() string {
	return fmt.Sprintf(`name: exact ranged duel
ruleset: d20
max_rounds: %d
distance: %d
sides:
  - name: bows
    combatants:
      - {name: Archer, hp: 14, ac: 15, dex_ac: 3, init: 2, attacks: [0], damage: 1, speed: 30, ranged: {bonus: [6, 1], damage: 1d8, crit: 20/x3, increment: 100}}
  - name: crossbows
    combatants:
      - {name: Xbow, hp: 16, ac: 14, dex_ac: 2, init: 1, attacks: [0], damage: 1, speed: 30, ranged: {bonus: 5, damage: 1d10, crit: 19-20/x2, increment: 120, reload: full}}
`, duelRounds, rangedDistance)
}

// rangedReading is what a model of the duel assumes.
type rangedReading struct {
	rangePenalty bool // -2 per increment beyond the first
	xbowEvery    bool // WRONG: the heavy crossbow fires every round
	bowOneShot   bool // WRONG: the bow shoots once a round
}

func rangedOutcome(rd rangedReading) (win [2]float64, draw float64) {
	pen := func(incr int) int {
		if !rd.rangePenalty {
			return 0
		}
		return -2 * ((rangedDistance+incr-1)/incr - 1)
	}
	turn := func(a, round int) []int {
		if a == 0 {
			out := []int{}
			for k, b := range rangedArcher.attacks {
				if k > 0 && rd.bowOneShot {
					break
				}
				out = append(out, b+pen(100))
			}
			return out
		}
		if round%2 == 0 && !rd.xbowEvery {
			return nil // reloading: a full-round action
		}
		return []int{rangedXbow.attacks[0] + pen(120)}
	}
	f := [2]duelist{rangedArcher, rangedXbow}
	pFirst := exactFirst([]initiant{{f[0].name, f[0].init, 0}, {f[1].name, f[1].init, 0}}, srdTies)
	for first := 0; first < 2; first++ {
		w, d := duelExactShots(f, first, duelRounds, srdRules, turn)
		win[0] += pFirst[first] * w[0]
		win[1] += pFirst[first] * w[1]
		draw += pFirst[first] * d
	}
	return win, draw
}

func TestExactRangedDuel(t *testing.T) {
	n := encounters(300_000)
	g := compileYAML(t, "ranged duel", rangedDuelYAML())
	tally := runGame(t, g, n)
	srd := rangedReading{rangePenalty: true}
	win, draw := rangedOutcome(srd)
	if s := win[0] + win[1] + draw; math.Abs(s-1) > 1e-9 {
		t.Fatalf("model: probabilities sum to %v", s)
	}
	if draw > 1e-12 {
		t.Fatalf("model: P(draw) = %.3g is not negligible; raise max_rounds", draw)
	}
	checkProb(t, "P(Archer wins)", tally.Wins[0], n, win[0])
	checkProb(t, "P(Xbow wins)", tally.Wins[1], n, win[1])
	if tally.Draws != 0 {
		t.Errorf("%d draws, but P(draw) <= %.3g", tally.Draws, draw)
	}
	for _, w := range []struct {
		name string
		rd   rangedReading
	}{
		{"no range penalty", rangedReading{}},
		{"heavy crossbow fires every round", rangedReading{rangePenalty: true, xbowEvery: true}},
		{"bow shoots once a round", rangedReading{rangePenalty: true, bowOneShot: true}},
	} {
		ww, _ := rangedOutcome(w.rd)
		checkPower(t, w.name, tally.Wins[0], n, ww[0])
	}
}
