//go:build unix

package benchmarks

import (
	"context"
	"strconv"
	"testing"

	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// The optimize benchmark (issue 26): `simctl optimize` over the issue's
// 35-candidate point-buy on d20/duel, 20,000 encounters per candidate.
// Every candidate is compiled once, when it first plays (issue 38); after
// that a search only switches between compiled games (every encounter
// index is played by each candidate left, on common random numbers), so
// nothing is parsed or compiled again. The sub-benchmarks separate the two
// costs and the cost of cutting the 20,000 into the selection's stages:
//
//   - compile: building the 35 games from the scenario text and their
//     --set overrides, each from the text;
//   - compile-shared: the same with the text parsed once (what a search
//     does: each candidate decodes a copy of the tree);
//   - one-run: the 35 games playing encounters 0..19,999 in one RunCRN;
//   - stages-1k: the same encounters as 20 stages of 1,000 (PlayStage, as
//     the selection plays them: new tables per stage, the games reused).
//
// One op is the whole 35-candidate job; cand/cpu-s is 35 per CPU-second of
// the op. The CPU is the process's (user + system, every thread, the
// garbage collector's too), since RunCRN plays on worker goroutines; run
// it with -cpu 1 and nothing else running for a figure to trust.

const optEncounters = 20_000

var pointBuyWhere = "(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 4"

// pointBuy enumerates the point-buy space (35 candidates).
func pointBuy(tb testing.TB) []experiment.Point {
	tb.Helper()
	vals := func(lo, hi, step int) []string {
		var v []string
		for x := lo; x <= hi; x += step {
			v = append(v, strconv.Itoa(x))
		}
		return v
	}
	sp := &experiment.Space{Dims: []experiment.Dim{
		experiment.NewDim("heroes.Fighter.init", vals(1, 5, 1)),
		experiment.NewDim("heroes.Fighter.ac", vals(17, 21, 1)),
		experiment.NewDim("heroes.Fighter.hp", vals(20, 28, 2)),
	}}
	if err := sp.Constrain(pointBuyWhere); err != nil {
		tb.Fatal(err)
	}
	points, _, err := sp.Enumerate(func(p experiment.Point) (string, error) { return p.Name, nil })
	if err != nil {
		tb.Fatal(err)
	}
	if len(points) != 35 {
		tb.Fatalf("the point-buy holds %d candidates, want 35", len(points))
	}
	return points
}

// compilePoints builds every candidate's game from the scenario text, as
// simctl optimize does while enumerating.
func compilePoints(tb testing.TB, data []byte, display string, points []experiment.Point) []sim.Game {
	games := make([]sim.Game, len(points))
	for k, p := range points {
		sc, err := scenario.Load(display, data, p.Sets, rulesets.Schema)
		if err != nil {
			tb.Fatal(err)
		}
		if games[k], err = rulesets.Compile(sc); err != nil {
			tb.Fatal(err)
		}
	}
	return games
}

// compileShared builds them as simctl optimize does now: the text parsed
// once, each candidate decoded from a copy of the tree under its --set.
func compileShared(tb testing.TB, data []byte, display string, points []experiment.Point) []sim.Game {
	parsed := scenario.Parse(display, data)
	games := make([]sim.Game, len(points))
	for k, p := range points {
		sc, err := parsed.Decode(p.Sets, rulesets.Schema)
		if err != nil {
			tb.Fatal(err)
		}
		if games[k], err = rulesets.Compile(sc); err != nil {
			tb.Fatal(err)
		}
	}
	return games
}

func BenchmarkOptimizeSwitch(b *testing.B) {
	data, display, ok := scenarios.Read("d20/duel")
	if !ok {
		b.Skip("no built-in d20/duel")
	}
	points := pointBuy(b)
	games := compilePoints(b, data, display, points)
	all := make([]int, len(games))
	for k := range all {
		all[k] = k
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		op   func(tb testing.TB)
		enc  int64 // encounters an op plays, all candidates counted
	}{
		{"compile", func(tb testing.TB) { compilePoints(tb, data, display, points) }, 0},
		{"compile-shared", func(tb testing.TB) { compileShared(tb, data, display, points) }, 0},
		{"one-run", func(tb testing.TB) {
			if _, err := experiment.RunCRN(ctx, games, sim.RunConfig{Seed: 1, N: optEncounters, Workers: 1}); err != nil {
				tb.Fatal(err)
			}
		}, int64(len(games)) * optEncounters},
		{"stages-1k", func(tb testing.TB) {
			for start := int64(0); start < optEncounters; start += 1000 {
				if _, err := experiment.PlayStage(ctx, games, 0, all, sim.RunConfig{Seed: 1, Start: start, N: 1000, Workers: 1}); err != nil {
					tb.Fatal(err)
				}
			}
		}, int64(len(games)) * optEncounters},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			t0 := processCPU()
			for i := 0; i < b.N; i++ {
				c.op(b)
			}
			t1 := processCPU()
			b.StopTimer()
			if t0 < 0 || t1 < 0 {
				return
			}
			ns := float64(t1-t0) / float64(b.N)
			b.ReportMetric(ns/float64(len(points)), "cpu-ns/cand")
			b.ReportMetric(float64(len(points))/(ns/1e9), "cand/cpu-s")
			if c.enc > 0 {
				b.ReportMetric(ns/float64(c.enc), "cpu-ns/enc")
			}
		})
	}
}
