package d20_test

// Exact tests: the d20 referee against probabilities computed here,
// independently of the engine, by enumerating dice (initiative) or by
// dynamic programming over hit points (duels). Every comparison runs at a
// fixed seed, so it is deterministic; the tolerance is 4 standard errors of
// a proportion, SE = sqrt(p(1-p)/N) with p the exact value (for a mean,
// SE = sqrt(Var/N) with the exact variance). Each test also
// computes the exact value under a plausible WRONG reading of the rules and
// asserts that the simulation is more than 6 SE away from it, so the
// tolerance is tight enough to catch that mistake.

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	_ "simctl/agents" // registers the d20 policies (default)
	"simctl/rulesets"
	"simctl/rulesets/d20"
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/scenario"
)

const exactSeed = 0x5eed_d20

// encounters is the number of encounters for a test: full normally, a
// third of it under -short or the race detector (which makes the engine
// ~11x slower). Every power check below still holds at a third: the weakest
// (initiative ties by list order) is ~18 SE at full N, ~10 SE at a third.
func encounters(full int64) int64 {
	if testing.Short() || raceEnabled {
		return full / 3
	}
	return full
}

// raceEnabled reports whether the test binary was built with -race.
var raceEnabled = func() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}()

func compileYAML(t *testing.T, name, src string) sim.Game {
	t.Helper()
	sc, err := scenario.Load(name, []byte(src), nil, rulesets.Schema)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return g
}

func runGame(t *testing.T, g sim.Game, n int64) *sim.Tally {
	t.Helper()
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: exactSeed, N: n, Workers: 2})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if tally.Encounters != n {
		t.Fatalf("run played %d encounters, want %d", tally.Encounters, n)
	}
	return tally
}

// stdErr is the standard error of a proportion p estimated from n trials.
func stdErr(p float64, n int64) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

// checkProb asserts |count/n - exact| <= 4 SE (exactly equal when SE is 0).
func checkProb(t *testing.T, what string, count, n int64, exact float64) {
	t.Helper()
	p := float64(count) / float64(n)
	se := stdErr(exact, n)
	z := 0.0
	if se > 0 {
		z = (p - exact) / se
	}
	t.Logf("%-34s exact %.6f  simulated %.6f  (N=%d, SE %.6f, %+.2f SE)", what, exact, p, n, se, z)
	if se == 0 {
		if p != exact {
			t.Errorf("%s: simulated %.6f, exact %.6f (a certainty)", what, p, exact)
		}
		return
	}
	if math.Abs(p-exact) > 4*se {
		t.Errorf("%s: simulated %.6f differs from exact %.6f by %.2f SE (tolerance 4 SE; N=%d, SE %.6f)",
			what, p, exact, math.Abs(z), n, se)
	}
}

// checkPower asserts that a wrong model's value is more than 6 SE away
// from the simulated count/n (SE taken at the wrong value): the 4 SE
// tolerance would reject it.
func checkPower(t *testing.T, what string, count, n int64, wrong float64) {
	t.Helper()
	p := float64(count) / float64(n)
	se := stdErr(wrong, n)
	z := math.Abs(p-wrong) / se
	t.Logf("  power: %-40s wrong %.6f is %.1f SE from simulated", what, wrong, z)
	if !(z > 6) {
		t.Errorf("power: %s: wrong-rule value %.6f is only %.2f SE from simulated %.6f; the test could not tell them apart",
			what, wrong, z, p)
	}
}

// ---------------------------------------------------------------------
// 1. Who acts first.

type initiant struct {
	name   string
	mod    int
	pinned int // initiative_roll; 0: rolls a d20
}

type tieRule int

const (
	srdTies        tieRule = iota // higher modifier first, then a uniformly random order
	listOrderTies                 // WRONG: higher modifier first, then list order
	ignoreModifier                // WRONG: uniformly random among equal totals
)

// exactFirst enumerates every d20 outcome of the combatants that roll and
// returns P(combatant i acts first) under the tie rule.
func exactFirst(cs []initiant, rule tieRule) []float64 {
	p := make([]float64, len(cs))
	die := make([]int, len(cs))
	var rec func(k int, w float64)
	rec = func(k int, w float64) {
		if k < len(cs) {
			if cs[k].pinned != 0 {
				die[k] = cs[k].pinned
				rec(k+1, w)
				return
			}
			for d := 1; d <= 20; d++ {
				die[k] = d
				rec(k+1, w/20)
			}
			return
		}
		best := math.MinInt
		for i, c := range cs {
			best = max(best, die[i]+c.mod)
		}
		var tied []int // highest total, list order
		for i, c := range cs {
			if die[i]+c.mod == best {
				tied = append(tied, i)
			}
		}
		if rule != ignoreModifier {
			bestMod := math.MinInt
			for _, i := range tied {
				bestMod = max(bestMod, cs[i].mod)
			}
			kept := tied[:0]
			for _, i := range tied {
				if cs[i].mod == bestMod {
					kept = append(kept, i)
				}
			}
			tied = kept
		}
		if rule == listOrderTies {
			p[tied[0]] += w
			return
		}
		for _, i := range tied {
			p[i] += w / float64(len(tied))
		}
	}
	rec(0, 1)
	return p
}

// initiativeYAML puts the first nA combatants on side a and the rest on
// side b; they stand in melee with plenty of HP for one round.
func initiativeYAML(cs []initiant, nA int) string {
	var b strings.Builder
	b.WriteString("name: initiative\nruleset: d20\nmax_rounds: 1\ndistance: 0\nsides:\n")
	for s, group := range [][]initiant{cs[:nA], cs[nA:]} {
		fmt.Fprintf(&b, "  - name: side%d\n    combatants:\n", s)
		for _, c := range group {
			fmt.Fprintf(&b, "      - {name: %s, hp: 1000, ac: 10, init: %d, attacks: [0], damage: 1", c.name, c.mod)
			if c.pinned != 0 {
				fmt.Fprintf(&b, ", initiative_roll: %d", c.pinned)
			}
			b.WriteString("}\n")
		}
	}
	return b.String()
}

func TestExactFirstActor(t *testing.T) {
	cases := []struct {
		name string
		cs   []initiant
		nA   int
	}{
		// A and B tie on modifier (random order between them); C's lower
		// modifier loses every tie on the total.
		{"A+2 B+2 vs C+1", []initiant{{"A", 2, 0}, {"B", 2, 0}, {"C", 1, 0}}, 2},
		// A's die is pinned at 12 (total 14): B and D tie with it on a 12
		// and the order among the three is random; C ties on a 10 and goes
		// first by its higher modifier.
		{"A+2@12 B+2 vs C+4 D+2", []initiant{{"A", 2, 12}, {"B", 2, 0}, {"C", 4, 0}, {"D", 2, 0}}, 2},
	}
	n := encounters(300_000)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := compileYAML(t, tc.name, initiativeYAML(tc.cs, tc.nA))
			for i, e := range g.Roster() {
				if e.Name != tc.cs[i].name {
					t.Fatalf("roster[%d] = %s, want %s", i, e.Name, tc.cs[i].name)
				}
			}
			tally := runGame(t, g, n)
			if tally.NoActor != 0 {
				t.Errorf("%d encounters with no actor", tally.NoActor)
			}
			exact := exactFirst(tc.cs, srdTies)
			sum := 0.0
			for i, c := range tc.cs {
				checkProb(t, "P("+c.name+" acts first)", tally.FirstActor[i], n, exact[i])
				sum += exact[i]
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("exact probabilities sum to %v", sum)
			}
			for _, wr := range []struct {
				name string
				rule tieRule
			}{{"ties by list order", listOrderTies}, {"ties ignore the modifier", ignoreModifier}} {
				wrong := exactFirst(tc.cs, wr.rule)
				// The combatant where the wrong rule is most visible.
				bi, bz := 0, -1.0
				for i := range tc.cs {
					p := float64(tally.FirstActor[i]) / float64(n)
					if z := math.Abs(p-wrong[i]) / stdErr(wrong[i], n); z > bz {
						bi, bz = i, z
					}
				}
				checkPower(t, wr.name+": P("+tc.cs[bi].name+" first)", tally.FirstActor[bi], n, wrong[bi])
			}
		})
	}
}

// ---------------------------------------------------------------------
// 2-3. Duels by dynamic programming over (hp of side 0, hp of side 1).

type duelist struct {
	name             string
	hp, ac, dexAC    int
	init             int
	attacks          []int
	damage           string
	threatFrom, mult int
}

func (d duelist) yaml() string {
	at := make([]string, len(d.attacks))
	for i, a := range d.attacks {
		at[i] = fmt.Sprint(a)
	}
	crit := fmt.Sprintf("%d-20/x%d", d.threatFrom, d.mult)
	if d.threatFrom == 20 {
		crit = fmt.Sprintf("20/x%d", d.mult)
	}
	return fmt.Sprintf("{name: %s, hp: %d, ac: %d, dex_ac: %d, init: %d, attacks: [%s], damage: %s, crit: %s}",
		d.name, d.hp, d.ac, d.dexAC, d.init, strings.Join(at, ", "), d.damage, crit)
}

// rules is the reading of the rules a model computes; srdRules is the
// SRD's (RULES.md §1) with the engine's defaults, the others are wrong on
// purpose (for the power checks) or options.
type rules struct {
	confirm        bool // a threat needs a confirming second attack roll
	flatFooted     bool // flat-footed combatants lose dex_ac
	minOne         bool // a hit deals at least 1 point
	surprise       bool // side 1 is unaware: side 0 gets a surprise round
	surpriseFull   bool // WRONG: a full attack in the surprise round
	surpriseEndsFF bool // option surprise_ends_flat_footed
}

var srdRules = rules{confirm: true, flatFooted: true, minOne: true}

// attackDist is the exact damage distribution of one attack roll (index:
// damage, 0 a miss): natural 1 misses, natural 20 hits, else d20 + bonus
// >= ac; a hit whose d20 is in the threat range is confirmed by a second
// roll under the same rule; a critical rolls the damage mult times and
// sums; every hit deals at least 1.
func attackDist(a duelist, bonus, ac int, r rules) []float64 {
	base := dice.MustParse(a.damage).Dist()
	crit := base
	for k := 1; k < a.mult; k++ {
		crit = dice.Convolve(crit, base)
	}
	hits := func(d20 int) bool { return d20 == 20 || d20 != 1 && d20+bonus >= ac }
	confirm := 1.0
	if r.confirm {
		confirm = 0
		for d := 1; d <= 20; d++ {
			if hits(d) {
				confirm += 1.0 / 20
			}
		}
	}
	out := make([]float64, max(base.Max(), crit.Max(), 1)+1)
	add := func(d dice.Dist, w float64) {
		for i, p := range d.P {
			v := max(d.Min+i, 0)
			if r.minOne {
				v = max(v, 1)
			}
			out[v] += w * p
		}
	}
	for d := 1; d <= 20; d++ {
		switch {
		case !hits(d):
			out[0] += 1.0 / 20
		case d >= a.threatFrom:
			add(base, (1-confirm)/20)
			add(crit, confirm/20)
		default:
			add(base, 1.0/20)
		}
	}
	return out
}

// duelExact is the exact outcome of a duel in melee with side `first`
// acting first in every regular round: P(side 0 wins), P(side 1 wins),
// P(draw after maxRounds regular rounds, or an upper bound below 1e-18).
// Both start flat-footed; a
// combatant stops being flat-footed when its first regular turn begins (or
// its surprise-round turn, with surpriseEndsFF). A regular turn is a full
// attack (every bonus in order, stopping when the target drops) or, with
// one bonus, one attack; a surprise-round turn is one attack with the
// first bonus. Out at HP <= 0.
func duelExact(f [2]duelist, first, maxRounds int, r rules) (win [2]float64, draw float64) {
	return duelExactShots(f, first, maxRounds, r, nil)
}

// duelExactShots is duelExact with the attack bonuses of each regular turn
// given by turn(side, round) (nil: every bonus of attacks, every round), and
// each attack's damage and critical range from that side's duelist.
func duelExactShots(f [2]duelist, first, maxRounds int, r rules, turn func(a, round int) []int) (win [2]float64, draw float64) {
	h0, h1 := f[0].hp, f[1].hp
	at := func(a, b int) int { return a*(h1+1) + b }
	cur := make([]float64, (h0+1)*(h1+1))
	next := make([]float64, len(cur))
	cur[at(h0, h1)] = 1
	flat := [2]bool{r.flatFooted, r.flatFooted}
	kernels := map[[3]int][]float64{}
	attack := func(a, bonus int) {
		ac := f[1-a].ac
		if flat[1-a] {
			ac -= f[1-a].dexAC
		}
		key := [3]int{a, bonus, ac}
		k, ok := kernels[key]
		if !ok {
			k = attackDist(f[a], bonus, ac, r)
			kernels[key] = k
		}
		clear(next)
		for x := 1; x <= h0; x++ {
			for y := 1; y <= h1; y++ {
				w := cur[at(x, y)]
				if w == 0 {
					continue
				}
				for dmg, p := range k {
					nx, ny := x, y
					if a == 0 {
						ny -= dmg
					} else {
						nx -= dmg
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
	if r.surprise {
		if r.surpriseFull {
			for _, b := range f[0].attacks {
				attack(0, b)
			}
		} else {
			attack(0, f[0].attacks[0])
		}
		if r.surpriseEndsFF {
			flat[0] = false
		}
	}
	for round := 1; round <= maxRounds; round++ {
		for _, a := range [2]int{first, 1 - first} {
			flat[a] = false
			bonuses := f[a].attacks
			if turn != nil {
				bonuses = turn(a, round)
			}
			for _, b := range bonuses {
				attack(a, b)
			}
		}
		// Once less than 1e-18 of the mass is still fighting, stop: the
		// win probabilities are exact to 1e-18 and the rest is an upper
		// bound on P(draw) (which the caller requires to be negligible).
		if left := sum(cur); left < 1e-18 {
			break
		}
	}
	return win, sum(cur)
}

func sum(p []float64) float64 {
	s := 0.0
	for _, v := range p {
		s += v
	}
	return s
}

// duelOutcome combines the two initiative orders with P(side 0 first).
func duelOutcome(f [2]duelist, maxRounds int, r rules) (win [2]float64, draw float64) {
	pFirst := exactFirst([]initiant{{f[0].name, f[0].init, 0}, {f[1].name, f[1].init, 0}}, srdTies)
	for first := 0; first < 2; first++ {
		w, d := duelExact(f, first, maxRounds, r)
		win[0] += pFirst[first] * w[0]
		win[1] += pFirst[first] * w[1]
		draw += pFirst[first] * d
	}
	return win, draw
}

// The duel (numbers chosen so that every rule checked below moves the
// result by many SE): a fighter with two attacks and a keen weapon against
// a quicker orc with one heavy, wide-threat attack. Both have a large Dex
// bonus to AC, so flat-footedness matters; both damage expressions can roll
// below 1, so the minimum of 1 matters. Fights last a few rounds; P(draw)
// after 200 rounds is below 1e-18 (duelExact).
var (
	duelFighter = duelist{name: "Fighter", hp: 12, ac: 19, dexAC: 7, init: 0,
		attacks: []int{5, 0}, damage: "1d6-1", threatFrom: 19, mult: 2}
	duelOrc = duelist{name: "Orc", hp: 13, ac: 16, dexAC: 5, init: 4,
		attacks: []int{4}, damage: "2d6-3", threatFrom: 18, mult: 3}
)

const duelRounds = 200

func duelYAML(f [2]duelist, orcUnaware bool, options string) string {
	aware := ""
	if orcUnaware {
		aware = "\n    aware: false"
	}
	return fmt.Sprintf(`name: exact duel
ruleset: d20
max_rounds: %d
distance: 0
%ssides:
  - name: heroes
    combatants:
      - %s
  - name: monsters%s
    combatants:
      - %s
`, duelRounds, options, f[0].yaml(), aware, f[1].yaml())
}

type wrongRule struct {
	name string
	r    rules
}

func checkDuel(t *testing.T, f [2]duelist, orcUnaware bool, options string, r rules, wrongs []wrongRule) {
	t.Helper()
	n := encounters(300_000)
	g := compileYAML(t, "duel", duelYAML(f, orcUnaware, options))
	tally := runGame(t, g, n)
	win, draw := duelOutcome(f, duelRounds, r)
	if s := win[0] + win[1] + draw; math.Abs(s-1) > 1e-9 {
		t.Fatalf("model: probabilities sum to %v", s)
	}
	checkProb(t, "P(side 0 wins)", tally.Wins[0], n, win[0])
	checkProb(t, "P(side 1 wins)", tally.Wins[1], n, win[1])
	t.Logf("exact P(draw) <= %.3g, simulated draws %d", draw, tally.Draws)
	if draw > 1e-12 {
		t.Fatalf("model: P(draw) = %.3g is not negligible; raise max_rounds", draw)
	}
	if tally.Draws != 0 {
		t.Errorf("%d draws, but P(draw) <= %.3g", tally.Draws, draw)
	}
	for _, w := range wrongs {
		ww, _ := duelOutcome(f, duelRounds, w.r)
		checkPower(t, w.name, tally.Wins[0], n, ww[0])
	}
	if orcUnaware {
		// The aware fighter takes the first turn (in the surprise round).
		checkProb(t, "P(Fighter acts first)", tally.FirstActor[0], n, 1)
	} else {
		p := exactFirst([]initiant{{f[0].name, f[0].init, 0}, {f[1].name, f[1].init, 0}}, srdTies)
		checkProb(t, "P(Fighter acts first)", tally.FirstActor[0], n, p[0])
	}
}

func TestExactDuel(t *testing.T) {
	noConfirm, noFlat, noMin := srdRules, srdRules, srdRules
	noConfirm.confirm = false
	noFlat.flatFooted = false
	noMin.minOne = false
	checkDuel(t, [2]duelist{duelFighter, duelOrc}, false, "", srdRules, []wrongRule{
		{"threats need no confirmation", noConfirm},
		{"no flat-footed AC", noFlat},
		{"a hit may deal 0", noMin},
	})
}

func TestExactDuelSurprise(t *testing.T) {
	sur := srdRules
	sur.surprise = true
	endsFF := sur
	endsFF.surpriseEndsFF = true
	full := sur
	full.surpriseFull = true
	noFlat := sur
	noFlat.flatFooted = false
	noConfirm := sur
	noConfirm.confirm = false
	noMin := sur
	noMin.minOne = false
	f := [2]duelist{duelFighter, duelOrc}
	t.Run("default", func(t *testing.T) {
		checkDuel(t, f, true, "", sur, []wrongRule{
			{"no surprise round", srdRules},
			{"full attack in the surprise round", full},
			{"no flat-footed AC", noFlat},
			{"surprise round ends flat-footed", endsFF},
			{"threats need no confirmation", noConfirm},
			{"a hit may deal 0", noMin},
		})
	})
	t.Run("surprise_ends_flat_footed", func(t *testing.T) {
		checkDuel(t, f, true, "options: {surprise_ends_flat_footed: true}\n", endsFF, []wrongRule{
			{"surprise round keeps flat-footed", sur},
			{"no surprise round", srdRules},
		})
	})
}

// ---------------------------------------------------------------------
// 4. One round of attacks against a dummy that cannot drop: the mean
// damage and the mean number of criticals per encounter, from the exact
// per-attack distributions (attackDist). The full attack's attacks are
// independent here, so the variance of the per-encounter total is the sum
// of the per-attack variances, and the standard error of a mean over N
// encounters is sqrt(var/N); tolerance 4 SE as above.

type wrongMean struct {
	name string
	mean float64
}

// checkMean asserts |total/n - mean| <= 4 SE, SE = sqrt(variance/n), and,
// for each wrong mean, that it is more than 6 SE away from the simulated
// one.
func checkMean(t *testing.T, what string, total, n int64, mean, variance float64, wrongs []wrongMean) {
	t.Helper()
	m := float64(total) / float64(n)
	se := math.Sqrt(variance / float64(n))
	z := (m - mean) / se
	t.Logf("%-34s exact %.6f  simulated %.6f  (N=%d, SE %.6f, %+.2f SE)", what, mean, m, n, se, z)
	if math.Abs(z) > 4 {
		t.Errorf("%s: simulated mean %.6f differs from exact %.6f by %.2f SE (tolerance 4 SE; N=%d, SE %.6f)",
			what, m, mean, math.Abs(z), n, se)
	}
	for _, w := range wrongs {
		wz := math.Abs(m-w.mean) / se
		t.Logf("  power: %-40s wrong %.6f is %.1f SE from simulated", w.name, w.mean, wz)
		if !(wz > 6) {
			t.Errorf("power: %s: wrong mean %.6f is only %.2f SE from simulated %.6f", w.name, w.mean, wz, m)
		}
	}
}

// fullAttackMoments is the exact mean and variance of the total damage of
// a full attack, and the mean and variance of its number of criticals.
func fullAttackMoments(a duelist, ac int, r rules) (dmgMean, dmgVar, critMean, critVar float64) {
	for _, bonus := range a.attacks {
		k := attackDist(a, bonus, ac, r)
		m, m2 := 0.0, 0.0
		for d, p := range k {
			m += float64(d) * p
			m2 += float64(d*d) * p
		}
		dmgMean += m
		dmgVar += m2 - m*m
		// P(critical) = P(threat that hits) * P(confirmed).
		threat, confirm := 0.0, 0.0
		for d := 1; d <= 20; d++ {
			hit := d == 20 || d != 1 && d+bonus >= ac
			if hit && d >= a.threatFrom {
				threat += 1.0 / 20
			}
			if hit {
				confirm += 1.0 / 20
			}
		}
		if !r.confirm {
			confirm = 1
		}
		pc := threat * confirm
		critMean += pc
		critVar += pc * (1 - pc)
	}
	return
}

func TestExactFullAttackDamage(t *testing.T) {
	att := duelFighter
	att.hp = 100000 // the dummy's attacks never drop it
	// dex_ac 0: flat-footed or not, the dummy's AC is 14.
	const dummyAC = 14
	src := fmt.Sprintf(`name: one full attack
ruleset: d20
max_rounds: 1
distance: 0
sides:
  - name: attackers
    combatants:
      - %s
  - name: dummies
    combatants:
      - {name: Dummy, hp: 100000, ac: %d, dex_ac: 0, init: 0, attacks: [0], damage: 1}
`, att.yaml(), dummyAC)
	n := encounters(300_000)
	g := compileYAML(t, "full attack", src)
	tally := runGame(t, g, n)
	dm, dv, cm, cv := fullAttackMoments(att, dummyAC, srdRules)
	noConfirm, noMin := srdRules, srdRules
	noConfirm.confirm = false
	noMin.minOne = false
	wdNC, _, wcNC, _ := fullAttackMoments(att, dummyAC, noConfirm)
	wdNM, _, _, _ := fullAttackMoments(att, dummyAC, noMin)
	checkMean(t, "mean damage of a full attack", tally.Counts.Get(0, sim.DamageDealt), n, dm, dv,
		[]wrongMean{{"a hit may deal 0", wdNM}, {"threats need no confirmation", wdNC}})
	checkMean(t, "mean criticals of a full attack", tally.Counts.Get(0, d20.Criticals), n, cm, cv,
		[]wrongMean{{"threats need no confirmation", wcNC}})
}
