package experiment

import (
	"fmt"
	"strings"
	"testing"

	"simctl/sim/scenario"
)

func intValues(lo, hi, step int) []string {
	var v []string
	for x := lo; x <= hi; x += step {
		v = append(v, fmt.Sprint(x))
	}
	return v
}

func pointBuySpace(t *testing.T) *Space {
	t.Helper()
	sp := &Space{Dims: []Dim{
		NewDim("heroes.Fighter.init", intValues(1, 5, 1)),
		NewDim("heroes.Fighter.ac", intValues(17, 21, 1)),
		NewDim("heroes.Fighter.hp", intValues(20, 28, 2)),
	}}
	if err := sp.Constrain("(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 4"); err != nil {
		t.Fatal(err)
	}
	return sp
}

func nameKey(c Point) (string, error) { return c.Name, nil }

// TestSpacePointBuy: the point-buy holds every (x, y, z) in 0..4
// with x + y + z <= 4, counted here by brute force; each candidate listed
// satisfies it and none is listed twice.
func TestSpacePointBuy(t *testing.T) {
	sp := pointBuySpace(t)
	cands, cnt, err := sp.Enumerate(nameKey)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for x := 0; x <= 4; x++ {
		for y := 0; y <= 4; y++ {
			for z := 0; z <= 4; z++ {
				if x+y+z <= 4 {
					want++
				}
			}
		}
	}
	if len(cands) != want || cnt.Combinations != 125 || cnt.Excluded != int64(125-want) || cnt.Candidates != int64(want) {
		t.Fatalf("got %d candidates, count %+v; want %d of 125", len(cands), cnt, want)
	}
	seen := map[string]bool{}
	for _, c := range cands {
		var i, a, h int
		fmt.Sscan(c.Sets[0].Value, &i)
		fmt.Sscan(c.Sets[1].Value, &a)
		fmt.Sscan(c.Sets[2].Value, &h)
		if (i-1)+(a-17)+(h-20)/2 > 4 || seen[c.Name] {
			t.Fatalf("candidate %s breaks the constraint or is listed twice", c.Name)
		}
		seen[c.Name] = true
	}
	if cands[0].Name != "heroes.Fighter.init=1 heroes.Fighter.ac=17 heroes.Fighter.hp=20" {
		t.Fatalf("first candidate %q", cands[0].Name)
	}
}

// TestSpaceWhereErrors: a bad --where names the problem and points at it.
func TestSpaceWhereErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"heroes.Fighter.int <= 4", "unknown fact heroes.Fighter.int (did you mean heroes.Fighter.init?)"},
		{"heroes.Fighter.init +", "^"},
		{"heroes.Fighter.init + 1", "number"},
	} {
		sp := &Space{Dims: []Dim{NewDim("heroes.Fighter.init", intValues(1, 5, 1)), NewDim("heroes.policy", []string{"default", "delay"})}}
		err := sp.Constrain(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--where %q: got %v, want it to mention %q", tc.src, err, tc.want)
		}
	}
	sp := &Space{Dims: []Dim{NewDim("heroes.policy", []string{"default", "delay"})}}
	if err := sp.Constrain("1 < 2"); err == nil || !strings.Contains(err.Error(), "numeric --vary") {
		t.Errorf("a --where without a numeric dimension: %v", err)
	}
	if err := (&Space{Dims: []Dim{NewDim("heroes.Fighter.init", intValues(1, 5, 1)), NewDim("heroes.policy", []string{"default", "delay"})}}).Constrain("heroes.policy > 1"); err == nil || !strings.Contains(err.Error(), "unknown fact") {
		t.Errorf("a non-numeric dimension must not be a fact: %v", err)
	}
}

// TestRuleStructures: subsets, orders and both, counted independently
// (2^n − 1, n!, and Σ_k n!/(n−k)!), each listed once, the written list first.
func TestRuleStructures(t *testing.T) {
	src := []byte(`sides:
  - name: foot
    tactics:
      turn:
        - {name: receive, when: round == 1, do: delay to floor}
        - name: brace
          when: self.declared_nothing
          do: ready
        - {name: fight, do: attack, target: weakest}
`)
	want := map[RulesMode]int{RulesSubset: 7, RulesOrder: 6, RulesBoth: 3 + 6 + 6}
	for mode, n := range want {
		b, err := NewRuleBlock(src, nil, "foot.tactics.turn", mode)
		if err != nil {
			t.Fatal(err)
		}
		ss := b.Structures()
		seen := map[string]bool{}
		for _, s := range ss {
			seen[b.Label(s)] = true
		}
		if len(ss) != n || len(seen) != n {
			t.Errorf("mode %d: %d structures (%d distinct), want %d", mode, len(ss), len(seen), n)
		}
		if b.Label(ss[0]) != "[receive, brace, fight]" {
			t.Errorf("mode %d: first structure %s, want the written one", mode, b.Label(ss[0]))
		}
	}
	b, _ := NewRuleBlock(src, nil, "foot.tactics.turn", RulesOrder)
	set := b.Set([]int{2, 0})
	if set.Value != "[{name: fight, do: attack, target: weakest}, {name: receive, when: round == 1, do: delay to floor}]" {
		t.Errorf("rule list override %q", set.Value)
	}
	// The override, applied, reads back as the rules chosen.
	got, ok, err := scenario.ValueAt(src, []scenario.Set{set}, "foot.tactics.turn")
	if err != nil || !ok || !strings.Contains(got, "fight") || strings.Contains(got, "brace") {
		t.Errorf("applied override reads %q, %v, %v", got, ok, err)
	}
	for _, bad := range []string{"foot.tactics", "foot.name", "foot.tactics.before_initiative"} {
		if _, err := NewRuleBlock(src, nil, bad, RulesOrder); err == nil {
			t.Errorf("--block %s: no error", bad)
		}
	}
}

// TestSpaceDedupe: candidates with the same key are one, the first kept.
func TestSpaceDedupe(t *testing.T) {
	sp := &Space{Dims: []Dim{NewDim("x", []string{"1", "1.0", "2"})}, Alts: []Alternative{{Name: "a"}, {Name: "b"}}}
	cands, cnt, err := sp.Enumerate(func(c Point) (string, error) {
		return fmt.Sprint(sp.Dims[0].Nums[c.Index[0]]), nil // 1 and 1.0 the same; the alternatives no-ops
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 2 || cnt.Duplicates != 4 || cands[0].Name != "x=1 a" || cands[1].Name != "x=2 a" {
		t.Fatalf("got %v, %+v", cands, cnt)
	}
}

// TestSpaceWhereQuotedPaths: paths the lexer cannot read as one name
// (Orc#2, Half-Orc) are named path("..."), beside the plain spelling of
// the others; the candidates kept are exactly those a brute-force filter
// over the three values keeps. Naming them bare fails with a hint.
func TestSpaceWhereQuotedPaths(t *testing.T) {
	mk := func() *Space {
		return &Space{Dims: []Dim{
			NewDim("monsters.Orc#2.init", intValues(1, 4, 1)),
			NewDim("heroes.Half-Orc.hp", intValues(10, 16, 2)),
			NewDim("heroes.Fighter.ac", intValues(17, 19, 1)),
		}}
	}
	sp := mk()
	if err := sp.Constrain(`path("monsters.Orc#2.init") * 2 + path("heroes.Half-Orc.hp") - heroes.Fighter.ac <= 0 and path("heroes.Fighter.ac") >= 18`); err != nil {
		t.Fatal(err)
	}
	cands, cnt, err := sp.Enumerate(nameKey)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := 1; i <= 4; i++ {
		for h := 10; h <= 16; h += 2 {
			for a := 17; a <= 19; a++ {
				if i*2+h-a <= 0 && a >= 18 {
					want = append(want, fmt.Sprintf("monsters.Orc#2.init=%d heroes.Half-Orc.hp=%d heroes.Fighter.ac=%d", i, h, a))
				}
			}
		}
	}
	var got []string
	for _, c := range cands {
		got = append(got, c.Name)
	}
	if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") || cnt.Excluded != int64(48-len(want)) {
		t.Fatalf("got %d candidates (%d excluded):\n%s\nwant %d:\n%s", len(got), cnt.Excluded, strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ src, want string }{
		{"monsters.Orc#2.init <= 3", `hint: a path with characters other than letters, digits and _ between its dots is written quoted, as path("monsters.Orc#2.init")`},
		{"heroes.Half-Orc.hp <= 12", "unknown fact heroes.Half"},
		{"heroes.Half-Orc.hp <= 12", `path("monsters.Orc#2.init")`},
		{`path("heroes.Half-Orc.HP") <= 12`, `path("heroes.Half-Orc.HP") is not a numeric --vary path; the paths: path("monsters.Orc#2.init"), path("heroes.Half-Orc.hp"), path("heroes.Fighter.ac")`},
		{`path("heroes.Half-Orc.hp").x <= 12`, `unknown fact path("heroes.Half-Orc.hp").x (did you mean path("PATH")?)`},
		{`heroes.Fighter.ac("x") <= 12`, "takes no argument"},
		{`path <= 12`, "needs a name"},
	} {
		err := mk().Constrain(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--where %q: got %v, want it to mention %q", tc.src, err, tc.want)
		}
	}
}

// NumStructures counts what Structures lists, in every mode.
func TestNumStructures(t *testing.T) {
	for n := 2; n <= 6; n++ {
		src := eightRules(n)
		for _, mode := range []RulesMode{RulesSubset, RulesOrder, RulesBoth} {
			b, err := NewRuleBlock(src, nil, "foot.tactics.turn", mode)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := b.NumStructures(), int64(len(b.Structures())); got != want {
				t.Errorf("%d rules, mode %d: NumStructures %d, Structures %d", n, mode, got, want)
			}
		}
	}
}

// eightRules is a side whose turn tactics hold n rules.
func eightRules(n int) []byte {
	s := "sides:\n  - name: foot\n    tactics:\n      turn:\n"
	for i := range n {
		s += fmt.Sprintf("        - {name: r%d, when: round == %d, do: attack}\n", i, i+1)
	}
	return []byte(s)
}

// A space past MaxCandidates is refused before one candidate is listed
// (each is compiled by key): --rules both on 8 rules (109,600 structures)
// and a 1,000 × 1,000 --vary took minutes and gigabytes to be refused at
// the 100,001st distinct candidate (issue 31 item 2). Within the bound,
// --where decides what is counted.
func TestSpaceCountedBeforeListing(t *testing.T) {
	b, err := NewRuleBlock(eightRules(8), nil, "foot.tactics.turn", RulesBoth)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]string, 1000)
	for i := range vals {
		vals[i] = fmt.Sprint(i)
	}
	wide := &Space{Dims: []Dim{NewDim("x", vals), NewDim("y", vals)}}
	for _, c := range []struct {
		name string
		sp   *Space
		n    int64
	}{
		{"8 rules, both", &Space{Block: b}, 109_600},
		{"1000 x 1000", wide, 1_000_000},
	} {
		keys := 0
		_, _, err := c.sp.Enumerate(func(Point) (string, error) { keys++; return fmt.Sprint(keys), nil })
		if want := fmt.Sprintf("the space holds %d candidates", c.n); err == nil || !strings.Contains(err.Error(), want) || keys != 0 {
			t.Errorf("%s: %d candidates listed, then %v; want %q before any", c.name, keys, err, want)
		}
	}
	if err := wide.Constrain("x + y < 100"); err != nil {
		t.Fatal(err)
	}
	if got := wide.Count(); got != 5050 {
		t.Errorf("x + y < 100 counts %d, want 5050", got)
	}
	pts, cnt, err := wide.Enumerate(func(p Point) (string, error) { return p.Name, nil })
	if err != nil || len(pts) != 5050 || cnt.Excluded != 1_000_000-5050 {
		t.Errorf("constrained: %d points, %+v, %v", len(pts), cnt, err)
	}
}
