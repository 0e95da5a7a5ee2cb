package d20_test

// The "Done when" test of issue 33: the two trait fragments of the issue,
// verbatim, on the d20 duel (a Fighter with Sneak Attack against an Orc
// that starts flat-footed, the Orc with DR 2), against win rates computed
// here by dynamic programming; and the same test run on the referee with a
// wrong reading switched on (sneak-attack dice multiplied on a critical;
// damage reduction that lets damage go negative) fails it by many SE.

import (
	"context"
	"fmt"
	"math"
	"testing"

	"simctl/rulesets/d20"
	"simctl/sim"
	"simctl/sim/dice"
)

// The fragments, as written there.
const (
	sneakFragment = `
        traits:
          - name: Sneak Attack
            on: hit                    # this combatant's attack hits; ` + "`target`" + ` is the one hit
            when: target.flat_footed
            do: damage += 2d6`
	drFragment = `
        traits:
          - name: DR 2
            on: hit_taken              # this combatant is hit; ` + "`attacker`" + ` is the one who hit
            do: damage -= 2            # damage never goes below 0`
)

// The duel: the Orc is unaware (the Fighter's surprise-round attack and,
// when the Fighter wins initiative, its first full attack find it
// flat-footed), quick to threaten, slow to act; the Fighter's wide,
// triple critical makes the multiplied-dice reading visible.
var (
	sneakFighter = duelist{name: "Fighter", hp: 12, ac: 19, dexAC: 7, init: 2,
		attacks: []int{5, 0}, damage: "1d6-1", threatFrom: 17, mult: 3}
	drOrc = duelist{name: "Orc", hp: 16, ac: 16, dexAC: 5, init: -2,
		attacks: []int{4}, damage: "2d6-3", threatFrom: 18, mult: 3}
)

func traitDuelYAML() string {
	return fmt.Sprintf(`name: sneak attack and DR
ruleset: d20
max_rounds: %d
distance: 0
sides:
  - name: heroes
    combatants:
      - name: %s
        hp: %d
        ac: %d
        dex_ac: %d
        init: %d
        attacks: [5, 0]
        damage: %s
        crit: 17-20/x3%s
  - name: monsters
    aware: false
    combatants:
      - name: %s
        hp: %d
        ac: %d
        dex_ac: %d
        init: %d
        attacks: [4]
        damage: %s
        crit: 18-20/x3%s
`, duelRounds, sneakFighter.name, sneakFighter.hp, sneakFighter.ac, sneakFighter.dexAC, sneakFighter.init, sneakFighter.damage, sneakFragment,
		drOrc.name, drOrc.hp, drOrc.ac, drOrc.dexAC, drOrc.init, drOrc.damage, drFragment)
}

// traitReading is how the model reads the modifier rules.
type traitReading struct {
	multSneak bool // WRONG: the sneak-attack dice are multiplied on a critical
	negDR     bool // WRONG: damage reduction may take damage below 0 (it heals)
}

// distOf is a damage distribution: value -> probability.
type distOf map[int]float64

func fromDice(d dice.Dist) distOf {
	out := distOf{}
	for i, p := range d.P {
		out[d.Min+i] += p
	}
	return out
}

func (a distOf) plus(b distOf) distOf {
	out := distOf{}
	for x, p := range a {
		for y, q := range b {
			out[x+y] += p * q
		}
	}
	return out
}

func (a distOf) scaled(k int) distOf {
	out := distOf{}
	for x, p := range a {
		out[x*k] += p
	}
	return out
}

func (a distOf) mapped(f func(int) int) distOf {
	out := distOf{}
	for x, p := range a {
		out[f(x)] += p
	}
	return out
}

// traitAttack is the exact damage distribution of one attack roll of a at
// ac: the weapon's dice (mult times on a confirmed critical), plus 2d6
// sneak attack when sneak (added after the multiplication, unless the
// wrong reading), at least 1, then minus dr, never below 0 (unless the
// wrong reading). A miss is 0.
func traitAttack(a duelist, bonus, ac int, sneak bool, dr int, r traitReading) distOf {
	base := fromDice(dice.MustParse(a.damage).Dist())
	crit := base
	for k := 1; k < a.mult; k++ {
		crit = crit.plus(base)
	}
	extra := distOf{0: 1}
	if sneak {
		extra = fromDice(dice.MustParse("2d6").Dist())
	}
	hit := func(weapon distOf, mult int) distOf {
		add := extra
		if r.multSneak {
			add = extra.scaled(mult)
		}
		d := weapon.plus(add).mapped(func(v int) int { return max(v, 1) })
		return d.mapped(func(v int) int {
			if r.negDR {
				return v - dr
			}
			return max(v-dr, 0)
		})
	}
	hits := func(d20 int) bool { return d20 == 20 || d20 != 1 && d20+bonus >= ac }
	confirm := 0.0
	for d := 1; d <= 20; d++ {
		if hits(d) {
			confirm += 1.0 / 20
		}
	}
	out := distOf{}
	addW := func(d distOf, w float64) {
		for v, p := range d {
			out[v] += w * p
		}
	}
	plain, critical := hit(base, 1), hit(crit, a.mult)
	for d := 1; d <= 20; d++ {
		switch {
		case !hits(d):
			out[0] += 1.0 / 20
		case d >= a.threatFrom:
			addW(plain, (1-confirm)/20)
			addW(critical, confirm/20)
		default:
			addW(plain, 1.0/20)
		}
	}
	return out
}

// traitDuelExact is P(Fighter wins), P(Orc wins) with side `first` first
// in every regular round, after the Fighter's surprise-round attack (one
// attack, first bonus). Each stays flat-footed until its first regular
// turn. Hit points above hpCap (only a healing wrong reading gets there)
// are held at hpCap, which moves the wrong model's value by far less than
// the distances checked.
func traitDuelExact(first int, r traitReading) (win [2]float64) {
	const hpCap = 60
	f := [2]duelist{sneakFighter, drOrc}
	dr := [2]int{0, 2} // DR of the one hit
	at := func(a, b int) int { return a*(hpCap+1) + b }
	cur := make([]float64, (hpCap+1)*(hpCap+1))
	next := make([]float64, len(cur))
	cur[at(f[0].hp, f[1].hp)] = 1
	flat := [2]bool{true, true}
	attack := func(a, bonus int) {
		ac := f[1-a].ac
		if flat[1-a] {
			ac -= f[1-a].dexAC
		}
		k := traitAttack(f[a], bonus, ac, a == 0 && flat[1], dr[1-a], r)
		clear(next)
		for x := 1; x <= hpCap; x++ {
			for y := 1; y <= hpCap; y++ {
				w := cur[at(x, y)]
				if w == 0 {
					continue
				}
				for dmg, p := range k {
					nx, ny := x, y
					if a == 0 {
						ny = min(ny-dmg, hpCap)
					} else {
						nx = min(nx-dmg, hpCap)
					}
					if nx <= 0 || ny <= 0 {
						win[a] += w * p
					} else {
						next[at(nx, ny)] += w * p
					}
				}
			}
		}
		cur, next = next, cur
	}
	attack(0, f[0].attacks[0]) // the surprise round
	for round := 1; round <= duelRounds; round++ {
		for _, a := range [2]int{first, 1 - first} {
			flat[a] = false
			for _, b := range f[a].attacks {
				attack(a, b)
			}
		}
		if sum(cur) < 1e-18 {
			break
		}
	}
	return win
}

func traitDuelOutcome(r traitReading) [2]float64 {
	pFirst := exactFirst([]initiant{{sneakFighter.name, sneakFighter.init, 0}, {drOrc.name, drOrc.init, 0}}, srdTies)
	var win [2]float64
	for first := range 2 {
		w := traitDuelExact(first, r)
		win[0] += pFirst[first] * w[0]
		win[1] += pFirst[first] * w[1]
	}
	return win
}

func TestExactTraitDuel(t *testing.T) {
	n := encounters(300_000)
	src := traitDuelYAML()
	exact := traitDuelOutcome(traitReading{})
	if s := exact[0] + exact[1]; math.Abs(s-1) > 1e-9 {
		t.Fatalf("model: win probabilities sum to %v (draws are not negligible)", s)
	}
	tally := runGame(t, compileYAML(t, "traits", src), n)
	checkProb(t, "P(Fighter wins)", tally.Wins[0], n, exact[0])
	checkProb(t, "P(Orc wins)", tally.Wins[1], n, exact[1])
	if tally.Draws != 0 {
		t.Errorf("%d draws, but P(draw) is negligible", tally.Draws)
	}
	// The wrong readings, as models: far from what the referee plays.
	for _, w := range []struct {
		name string
		r    traitReading
	}{
		{"sneak dice multiplied on a critical", traitReading{multSneak: true}},
		{"DR takes damage below 0", traitReading{negDR: true}},
	} {
		ww := traitDuelOutcome(w.r)
		checkPower(t, w.name, tally.Wins[0], n, ww[0])
	}
	// The wrong readings, as the referee: the check above fails on them.
	for _, w := range []struct {
		name            string
		multSneak, negR bool
	}{
		{"referee multiplying sneak dice on a critical", true, false},
		{"referee letting DR take damage below 0", false, true},
	} {
		undo := d20.SetWrongReadings(w.multSneak, w.negR)
		wrong, err := sim.Run(context.Background(), compileYAML(t, "traits", src), sim.RunConfig{Seed: exactSeed, N: n, Workers: 2})
		undo()
		if err != nil {
			// Negative damage heals, and the run's own checks refuse it.
			t.Logf("  %-46s the run fails: %v", w.name, err)
			continue
		}
		p := float64(wrong.Wins[0]) / float64(n)
		z := math.Abs(p-exact[0]) / stdErr(exact[0], n)
		t.Logf("  %-46s simulated %.6f is %.1f SE from exact", w.name, p, z)
		if z <= 6 {
			t.Errorf("%s: P(Fighter wins) %.6f is only %.2f SE from exact %.6f: the test could not catch it", w.name, p, z, exact[0])
		}
	}
}
