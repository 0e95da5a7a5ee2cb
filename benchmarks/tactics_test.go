package benchmarks

import (
	"testing"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// tacticsSets writes the headline's policy (the Go default on both sides)
// as the library tactic that replaces it.
var tacticsSets = []scenario.Set{
	{Path: "heroes.Fighter.tactics", Value: "default"},
	{Path: "orcs.Orc.tactics", Value: "default"},
}

// conditionSets adds a rule whose condition is evaluated on every turn and
// never holds (four facts, arithmetic-free comparisons), so the cost of
// condition evaluation shows; the decisions stay the Go policy's.
var conditionSets = []scenario.Set{
	{Path: "heroes.Fighter.tactics", Value: conditionBlock},
	{Path: "orcs.Orc.tactics", Value: conditionBlock},
}

const conditionBlock = `{turn: [{name: never, when: "self.hp_pct < 0 or enemies.in_reach > 4 and round > 1000 or allies.down > 3", do: full_attack}, {name: hit, do: attack}]}`

func compileWith(tb testing.TB, sets []scenario.Set) sim.Game {
	tb.Helper()
	sc, err := loadFile("scenarios/d20-4v4.yaml", sets)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkTactics plays the d20 4-vs-4 headline with the Go default
// policy and with the same policy written as tactics, in one run: the
// tactics sub-benchmark may cost at most 20% more per encounter, with 0
// allocations.
func BenchmarkTactics(b *testing.B) {
	for _, c := range []struct {
		name string
		sets []scenario.Set
	}{{"go", nil}, {"tactics", tacticsSets}, {"tactics-conditions", conditionSets}} {
		b.Run(c.name, func(b *testing.B) {
			g := compileWith(b, c.sets)
			table := g.NewTable()
			tally := sim.NewTally(g)
			var r rng.Stream
			b.ReportAllocs()
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				r.Seed(1, uint64(i))
				tally.Record(table.Play(&r, &tally.Counts, nil))
			}
			cpu.stop(b, float64(b.N), "enc")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "enc/s")
		})
	}
}

// The tactics headline allocates nothing per encounter and plays exactly
// the Go policy's encounters.
func TestTacticsHeadline(t *testing.T) {
	for _, sets := range [][]scenario.Set{tacticsSets, conditionSets} {
		testHeadline(t, sets)
	}
}

func testHeadline(t *testing.T, sets []scenario.Set) {
	goG, tacG := compileWith(t, nil), compileWith(t, sets)
	goT, tacT := sim.NewTally(goG), sim.NewTally(tacG)
	gt, tt := goG.NewTable(), tacG.NewTable()
	var r rng.Stream
	for i := 0; i < 2000; i++ {
		r.Seed(1, uint64(i))
		goT.Record(gt.Play(&r, &goT.Counts, nil))
		r.Seed(1, uint64(i))
		tacT.Record(tt.Play(&r, &tacT.Counts, nil))
	}
	if goT.Wins != tacT.Wins || goT.Rounds.Sum != tacT.Rounds.Sum {
		t.Errorf("tactics headline differs from Go: wins %v vs %v", goT.Wins, tacT.Wins)
	}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		r.Seed(1, uint64(i))
		i++
		tacT.Record(tt.Play(&r, &tacT.Counts, nil))
	})
	if allocs != 0 {
		t.Errorf("tactics encounter allocates %v times", allocs)
	}
}
