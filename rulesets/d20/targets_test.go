package d20

// Tests of the incremental target state (targets.go) and of the packed
// initiative sort against the plain algorithms they replaced: at every turn
// of thousands of encounters the standing lists, the weakest of each side and the span
// agree with a scan of the table, and PickTarget / CountWithin give what a
// scan of every enemy gives.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// checkFail holds the first disagreement the checking policy found (the
// policy has no *testing.T; tests run it sequentially).
var checkFail string

func init() {
	RegisterPolicy("test-checking", "test only: checks the target state against scans every turn", makeChecking)
}

// checking checks the table's target state on every turn, then attacks
// under a rule that depends on the combatant (so every rule steers some
// fights) and charges when it can.
type checking struct{ rule TargetRule }

func makeChecking(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy {
	return &checking{rule: TargetRule(self % 4)}
}

func (p *checking) Turn(t *Table, self int, plan *Plan) {
	if checkFail == "" {
		if msg := t.checkTargets(self); msg != "" {
			checkFail = fmt.Sprintf("round %d, %s's turn: %s", t.round, t.name(self), msg)
		}
	}
	me := &t.g.C[self]
	plan.Target = t.PickTarget(self, p.rule, max(2*me.Speed, 5)+me.Reach, true)
	plan.Charge = self%3 == 0
}

// checkTargets compares the incremental state with scans; "" when they
// agree.
func (t *Table) checkTargets(self int) string {
	for s := 0; s < 2; s++ {
		var want []int
		for j := range t.f {
			if t.side(j) == s && !t.f[j].out {
				want = append(want, j)
			}
		}
		if !slices.Equal(t.up[s], want) && !(len(want) == 0 && len(t.up[s]) == 0) {
			return fmt.Sprintf("side %d standing %v, scan %v", s, t.up[s], want)
		}
		weak := -1
		for _, j := range want {
			if weak < 0 || t.f[j].hp < t.f[weak].hp {
				weak = j
			}
		}
		if t.weak[s] != weak {
			return fmt.Sprintf("side %d weakest %d, scan %d (standing %v)", s, t.weak[s], weak, want)
		}
		var mask uint64
		for _, j := range want {
			mask |= 1 << uint(j)
		}
		if t.upMask[s] != mask {
			return fmt.Sprintf("side %d upMask %x, scan %x", s, t.upMask[s], mask)
		}
		if !t.spanDirty[s] {
			for _, j := range want {
				if x := t.f[j].x; x < t.lo[s] || x > t.hi[s] {
					return fmt.Sprintf("side %d span [%d, %d] misses %d at %d", s, t.lo[s], t.hi[s], j, x)
				}
			}
		}
	}
	me := &t.g.C[self]
	for i := range t.f {
		engaged := false
		for j := range t.f {
			if !t.f[j].out && t.side(j) != t.side(i) && t.Dist(i, j) <= t.g.C[i].Reach {
				engaged = true
			}
		}
		if t.Engaged(i) != engaged {
			return fmt.Sprintf("Engaged(%d) = %v, scan %v", i, t.Engaged(i), engaged)
		}
	}
	for _, limit := range []int{-1, 0, me.Reach, me.Reach + 5, max(2*me.Speed, 5) + me.Reach, 1000} {
		for rule := TargetWeakest; rule <= TargetFirst; rule++ {
			for _, fb := range []bool{false, true} {
				if got, want := t.PickTarget(self, rule, limit, fb), scanPick(t, self, rule, limit, fb); got != want {
					return fmt.Sprintf("PickTarget(rule %d, limit %d, fallback %v) = %d, scan %d", rule, limit, fb, got, want)
				}
			}
		}
		for s := 0; s < 2; s++ {
			n := 0
			for j := range t.f {
				if t.side(j) == s && !t.f[j].out && t.Dist(self, j) <= limit {
					n++
				}
			}
			if got := t.CountWithin(self, s, limit); got != n {
				return fmt.Sprintf("CountWithin(side %d, limit %d) = %d, scan %d", s, limit, got, n)
			}
		}
	}
	return ""
}

// scanPick is target choice as it was before targets.go: a scan of every
// enemy.
func scanPick(t *Table, self int, rule TargetRule, limit int, fallback bool) int {
	best := -1
	for _, j := range t.g.enemies[t.g.sideOf[self]] {
		if t.Out(j) || t.Dist(self, j) > limit {
			continue
		}
		if best < 0 {
			best = j
			continue
		}
		switch rule {
		case TargetWeakest:
			if t.HP(j) < t.HP(best) {
				best = j
			}
		case TargetStrongest:
			if t.HP(j) > t.HP(best) {
				best = j
			}
		case TargetNearest:
			if t.Dist(self, j) < t.Dist(self, best) {
				best = j
			}
		}
	}
	if best >= 0 || !fallback {
		return best
	}
	for _, j := range t.g.enemies[t.g.sideOf[self]] {
		if t.Out(j) {
			continue
		}
		if best < 0 || t.Dist(self, j) < t.Dist(self, best) ||
			t.Dist(self, j) == t.Dist(self, best) && t.HP(j) < t.HP(best) {
			best = j
		}
	}
	return best
}

func checkingScenario(a, b, distance int, dying string) string {
	return fmt.Sprintf(`name: targets %[1]d v %[2]d at %[3]d
ruleset: d20
max_rounds: 30
distance: %[3]d
options: {dying: %[4]s}
sides:
  - name: a
    policy: test-checking
    combatants:
      - {name: F, count: %[1]d, hp: 2d10+4, ac: 15, dex_ac: 1, init: 1, attacks: [6, 1], damage: 1d8+3, crit: 19-20/x2, speed: 30}
      - {name: P, hp: 2d8+4, ac: 13, init: 3, attacks: [4], damage: 1d10+3, reach: 10, speed: 20}
  - name: b
    policy: test-checking
    combatants:
      - {name: O, count: %[2]d, hp: 3d8+2, ac: 14, init: 0, attacks: [5], damage: 1d12+3, crit: 20/x3, speed: 30}
`, a, b, distance, dying)
}

func TestTargetStateMatchesScans(t *testing.T) {
	for _, c := range []struct {
		a, b, distance int
		dying          string
	}{
		{1, 1, 0, "out-at-0"}, {3, 4, 0, "out-at-0"}, {8, 9, 0, "srd"}, {3, 3, 25, "out-at-0"},
		{6, 5, 70, "srd"}, {20, 24, 40, "out-at-0"},
	} {
		src := checkingScenario(c.a, c.b, c.distance, c.dying)
		sc, err := scenario.Load("targets.yaml", []byte(src), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Ruleset{}.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		table := g.NewTable()
		tally := sim.NewTally(g)
		var r rng.Stream
		checkFail = ""
		n := 1500
		if underRace {
			n = 150 // one goroutine plays: the ordinary go test checks all 1500
		}
		for i := 0; i < n && checkFail == ""; i++ {
			r.Seed(5, uint64(i))
			tally.Record(table.Play(&r, &tally.Counts, nil))
			if checkFail != "" {
				t.Errorf("%s, encounter %d: %s", sc.Name, i, checkFail)
			}
		}
		checkFail = ""
	}
}

// oldRollInitiative is the initiative roll as it was before the packed
// keys: a stable insertion sort by count and modifier, then a
// Fisher-Yates shuffle of each tied run through rng.Stream.Shuffle.
func oldRollInitiative(t *Table) []int {
	var order []int
	for i := range t.f {
		c := &t.g.C[i]
		die := c.InitRoll
		switch {
		case die != 0:
		case c.InitDice.IsZero():
			die = t.r.D20()
		default:
			die = c.InitDice.Roll(t.r)
		}
		t.f[i].count = die + c.Init
		order = append(order, i)
	}
	before := func(a, b int) bool {
		if t.f[a].count != t.f[b].count {
			return t.f[a].count > t.f[b].count
		}
		return t.g.C[a].Init > t.g.C[b].Init
	}
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && before(order[b], order[b-1]); b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && !before(order[lo], order[hi]) {
			hi++
		}
		if hi-lo > 1 {
			run := order[lo:hi]
			for i := len(run) - 1; i > 0; i-- { // Fisher-Yates
				j := t.r.IntN(i + 1)
				run[i], run[j] = run[j], run[i]
			}
		}
		lo = hi
	}
	return order
}

// The packed keys (insertion sort, the count buckets of big parties, and
// the comparison sort when counts spread too wide for buckets) give the
// order and draw the numbers the old sort did.
func TestInitiativeMatchesOldSort(t *testing.T) {
	for _, c := range []struct {
		n    int
		dice string
	}{{3, ""}, {8, ""}, {16, ""}, {17, ""}, {40, ""}, {64, ""}, {30, "initiative_dice: 1d1000, "}, {64, "initiative_dice: 2d6, "}} {
		var b strings.Builder
		fmt.Fprintf(&b, "name: init %d\nruleset: d20\nsides:\n  - name: a\n    combatants:\n", c.n)
		for i := 0; i < c.n; i++ {
			if i == c.n/2 {
				b.WriteString("  - name: b\n    combatants:\n")
			}
			fmt.Fprintf(&b, "      - {name: C%d, hp: 5, ac: 10, %sinit: %d, attacks: [0], damage: 1}\n", i, c.dice, i%5-2)
		}
		sc, err := scenario.Load("init.yaml", []byte(b.String()), nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Ruleset{}.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		tb := newTable(g.(*Game))
		var r1, r2 rng.Stream
		for seed := uint64(0); seed < 300; seed++ {
			r1.Seed(seed, 0)
			r2.Seed(seed, 0)
			tb.r = &r1
			want := oldRollInitiative(tb)
			wantCounts := make([]int, len(tb.f))
			for i := range tb.f {
				wantCounts[i] = tb.f[i].count
			}
			tb.r = &r2
			tb.rollInitiative()
			if !slices.Equal(tb.order, want) {
				t.Fatalf("%d combatants %s seed %d: order %v, old sort %v", c.n, c.dice, seed, tb.order, want)
			}
			for i := range tb.f {
				if tb.f[i].count != wantCounts[i] {
					t.Fatalf("%d combatants seed %d: count of %d differs", c.n, seed, i)
				}
			}
			if r1.Uint64() != r2.Uint64() {
				t.Fatalf("%d combatants seed %d: the streams part after initiative", c.n, seed)
			}
		}
	}
}
