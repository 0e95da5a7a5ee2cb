package d20_test

// Bonus types (issue 33 item 1): of one type only the better bonus, and
// the worst penalty, applies on a roll; dodge (and untyped) bonuses stack
// (SRD 3.5, Magic Overview, Bonus Types). One attack decides the fight:
// the Fighter (attack +2) swings once at an Orc with 1 hp, so P(Fighter
// wins) is P(hit), which the test counts exactly over the twenty faces of
// the d20 for each reading of the stacking rule. The referee must match
// the SRD reading and be far from the others: every bonus stacking (what
// the untyped traits do, and what simctl did before bonus types), penalties
// of one type stacking, dodge bonuses not stacking.

import (
	"math"
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// bonusFighterTraits: morale +1, +3 and +2 (a third, suppressed), luck
// +1, morale penalties -2 and -2, an untyped +1.
const bonusFighterTraits = `[{name: Bless, on: attack_roll, do: attack += 1 as morale},
          {name: Heroism, on: attack_roll, do: attack += 3 as morale},
          {name: Song, on: attack_roll, do: attack += 2 as morale},
          {name: Luck, on: attack_roll, do: attack += 1 as luck},
          {name: Fear, on: attack_roll, do: attack -= 2 as morale},
          {name: Dread, on: attack_roll, do: attack -= 2 as morale},
          {name: Focus, on: attack_roll, do: attack += 1}]`

const bonusOrcTraits = `[{name: Dodge A, on: attacked, do: ac += 1 as dodge}, {name: Dodge B, on: attacked, do: ac += 1 as dodge}]`

func bonusYAML(fighter, orc string) string {
	return `name: bonus types
ruleset: d20
max_rounds: 1
distance: 0
sides:
  - name: heroes
    combatants:
      - name: Fighter
        hp: 1000
        ac: 10
        init: 5
        initiative_roll: 20
        attacks: [2]
        damage: 1d4
        traits: ` + fighter + `
  - name: orcs
    combatants:
      - name: Orc
        hp: 1
        ac: 12
        init: 0
        initiative_roll: 1
        attacks: [0]
        damage: 1
        traits: ` + orc + "\n"
}

// pHit is P(d20 + attack >= ac), a natural 20 hitting and a natural 1
// missing, counted face by face.
func pHit(attack, ac int) float64 {
	hits := 0
	for d := 1; d <= 20; d++ {
		if d == 20 || d != 1 && d+attack >= ac {
			hits++
		}
	}
	return float64(hits) / 20
}

// bonusReading is the Fighter's total attack and the Orc's AC under a
// reading of the stacking rule, from the traits above.
func bonusReading(bonusesStack, penaltiesStack, dodgeStacks bool) (attack, ac int) {
	morale := []int{1, 3, 2}
	penalties := []int{-2, -2}
	attack = 2 + 1 + 1 // base, luck, untyped
	if bonusesStack {
		for _, b := range morale {
			attack += b
		}
	} else {
		best := 0
		for _, b := range morale {
			best = max(best, b)
		}
		attack += best
	}
	if penaltiesStack {
		for _, p := range penalties {
			attack += p
		}
	} else {
		worst := 0
		for _, p := range penalties {
			worst = min(worst, p)
		}
		attack += worst
	}
	ac = 12 + 1
	if dodgeStacks {
		ac++
	}
	return attack, ac
}

func TestExactBonusTypes(t *testing.T) {
	n := encounters(200_000)
	srd := pHit(bonusReading(false, false, true))
	untyped := func(s string) string {
		return strings.NewReplacer(" as morale", "", " as luck", "", " as dodge", "").Replace(s)
	}
	for _, c := range []struct {
		name         string
		fighter, orc string
		exact        float64
		wrong        bool
	}{
		{"the SRD: the better bonus and the worst penalty of a type, dodge stacking", bonusFighterTraits, bonusOrcTraits, srd, false},
		{"every bonus stacking (untyped traits)", untyped(bonusFighterTraits), untyped(bonusOrcTraits), pHit(bonusReading(true, true, true)), true},
		{"penalties of one type stacking (written untyped)", strings.ReplaceAll(bonusFighterTraits, "-= 2 as morale", "-= 2"), bonusOrcTraits, pHit(bonusReading(false, true, true)), true},
		{"dodge bonuses not stacking (written as insight)", bonusFighterTraits, strings.ReplaceAll(bonusOrcTraits, "as dodge", "as insight"), pHit(bonusReading(false, false, false)), true},
	} {
		tally := runGame(t, compileYAML(t, "bonus", bonusYAML(c.fighter, c.orc)), n)
		// Each run against its own reading's exact answer: the model is right.
		checkProb(t, c.name, tally.Wins[0], n, c.exact)
		if !c.wrong {
			continue
		}
		// Against the SRD's answer: the exact check catches the wrong reading.
		p := float64(tally.Wins[0]) / float64(n)
		z := math.Abs(p-srd) / stdErr(srd, n)
		t.Logf("  %-60s simulated %.6f is %.1f SE from the SRD's %.6f", c.name, p, z, srd)
		if z <= 6 {
			t.Errorf("%s: P(hit) %.6f is only %.2f SE from the SRD's %.6f: the test could not tell them apart", c.name, p, z, srd)
		}
	}
}

// TestBonusTypeCounts: a suppressed bonus adds nothing; one that beats the
// bonus before it adds only the difference; what they add sums to the
// better bonus.
func TestBonusTypeCounts(t *testing.T) {
	const n = 20_000
	g := compileYAML(t, "bonus", bonusYAML(bonusFighterTraits, bonusOrcTraits))
	tally := runGame(t, g, n)
	added := map[string]int64{}
	fired := map[string]int64{}
	for k, rc := range g.(sim.RuleGame).RuleCounters() {
		if rc.Trait && rc.Event == "added" {
			added[rc.Rule] = tally.Counts.Rules[k]
		}
		if rc.Trait && rc.Event == "fired" {
			fired[rc.Rule] = tally.Counts.Rules[k]
		}
	}
	f := fired["Bless"]
	if f == 0 {
		t.Fatal("the traits never fired")
	}
	for _, w := range []struct {
		rule string
		per  int64
	}{{"Bless", 1}, {"Heroism", 2}, {"Song", 0}, {"Luck", 1}, {"Fear", -2}, {"Dread", 0}, {"Focus", 1}, {"Dodge A", 1}, {"Dodge B", 1}} {
		if fired[w.rule] != f {
			t.Errorf("%s fired %d times, want %d (every attack)", w.rule, fired[w.rule], f)
		}
		if added[w.rule] != w.per*f {
			t.Errorf("%s added %d, want %d (%+d an attack)", w.rule, added[w.rule], w.per*f, w.per)
		}
	}
}

// A fight with typed bonuses, conditions with durations, count changes and
// this attack's facts allocates nothing per encounter.
func TestTraitsNoAllocs(t *testing.T) {
	fighter := strings.TrimSuffix(bonusFighterTraits, "]") + `,
          {name: Trip, on: hit, when: target.flanked or crit, do: apply flat_footed to target for 1 round},
          {name: Scare, on: hit, do: apply shaken to target for 2 rounds},
          {name: Rally, on: round_start, when: round == 2, do: count += 3}]`
	src := strings.Replace(bonusYAML(fighter, bonusOrcTraits), "max_rounds: 1", "max_rounds: 5", 1)
	src = strings.Replace(src, "hp: 1\n", "hp: 30\n", 1)
	g := compileYAML(t, "bonus", src)
	tb := g.NewTable()
	c := sim.NewCounts(len(g.Counters()))
	c.Rules = make([]int64, len(g.(sim.RuleGame).RuleCounters()))
	var r rng.Stream
	seed := uint64(0)
	if a := testing.AllocsPerRun(100, func() {
		seed++
		r.Seed(7, seed)
		tb.Play(&r, &c, nil)
	}); a != 0 {
		t.Errorf("Play allocates %.1f times per encounter", a)
	}
	if c.Rules[0] == 0 {
		t.Error("the traits never fired")
	}
}
