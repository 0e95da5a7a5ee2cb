package benchmarks

import (
	"reflect"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// Sneak attack on the headline's fighters, written as the d20 field (Go)
// and as a trait (data): the same rule, so the same encounters.
var (
	sneakGoSets    = []scenario.Set{{Path: "heroes.Fighter.sneak_attack", Value: "2d6"}}
	sneakTraitSets = []scenario.Set{{Path: "heroes.Fighter.traits", Value: "[{name: Sneak Attack, on: hit, when: target.flat_footed and not target.uncanny_dodge, do: damage += 2d6}]"}}
)

// BenchmarkTraits plays the d20 4-vs-4 headline with sneak attack written
// in Go and as a trait, in one run: the trait may cost at most 1.2x the Go
// rule per encounter (CPU time), with 0 allocations.
func BenchmarkTraits(b *testing.B) {
	for _, c := range []struct {
		name string
		sets []scenario.Set
	}{{"sneak-go", sneakGoSets}, {"sneak-trait", sneakTraitSets}} {
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

// The trait plays exactly the Go rule's encounters and allocates nothing
// per encounter.
func TestTraitSneakHeadline(t *testing.T) {
	goG, trG := compileWith(t, sneakGoSets), compileWith(t, sneakTraitSets)
	goT, trT := sim.NewTally(goG), sim.NewTally(trG)
	gt, tt := goG.NewTable(), trG.NewTable()
	var r rng.Stream
	for i := 0; i < 20000; i++ {
		r.Seed(1, uint64(i))
		goT.Record(gt.Play(&r, &goT.Counts, nil))
		r.Seed(1, uint64(i))
		trT.Record(tt.Play(&r, &trT.Counts, nil))
	}
	fired := trT.Counts.Rules[0]
	x, y := *goT, *trT
	x.Counts.Rules, y.Counts.Rules = nil, nil
	if !reflect.DeepEqual(x, y) {
		t.Errorf("sneak attack as a trait differs from the Go rule: wins %v vs %v", goT.Wins, trT.Wins)
	}
	if fired == 0 {
		t.Errorf("the trait never fired")
	}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		r.Seed(1, uint64(i))
		i++
		trT.Record(tt.Play(&r, &trT.Counts, nil))
	})
	if allocs != 0 {
		t.Errorf("a traits encounter allocates %v times", allocs)
	}
}
