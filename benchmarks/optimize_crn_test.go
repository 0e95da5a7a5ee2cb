package benchmarks

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// optimizeCandidates is a 35-candidate space on the headline, as `simctl
// optimize d20-4v4.yaml --side heroes --vary heroes.Fighter.ac=15:21
// --vary heroes.Fighter.init=0:4` enumerates it: each candidate is the
// headline with two settings changed.
func optimizeCandidates(tb testing.TB) []sim.Game {
	tb.Helper()
	var games []sim.Game
	for ac := 15; ac <= 21; ac++ {
		for init := 0; init <= 4; init++ {
			games = append(games, compileWith(tb, []scenario.Set{
				{Path: "heroes.Fighter.ac", Value: fmt.Sprint(ac)},
				{Path: "heroes.Fighter.init", Value: fmt.Sprint(init)},
			}))
		}
	}
	return games
}

// BenchmarkOptimize measures what `simctl optimize` spends its life on:
// every candidate compiled once (as the CLI does before the search; the
// search never re-parses or re-compiles), then the candidates played on
// common random numbers (experiment.RunCRN, one worker), each encounter
// index played by every candidate in turn, so the loop switches candidate
// on every encounter. One op is one encounter of one candidate; the run
// plays ceil(b.N/35) indices. It reports the process CPU per candidate
// encounter, the candidates per CPU-second at the 20,000
// encounters each (1e9 / (cpu-ns/enc × 20,000)), and the CPU to compile
// the 35 candidates. -benchtime 700000x plays exactly 20,000 each.
func BenchmarkOptimize(b *testing.B) {
	c0 := processCPU()
	games := optimizeCandidates(b)
	compileNS := processCPU() - c0
	n := (int64(b.N) + int64(len(games)) - 1) / int64(len(games))
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	start := processCPU()
	crn, err := experiment.RunCRN(context.Background(), games, sim.RunConfig{Seed: 1, N: n, Workers: 1})
	end := processCPU()
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	for k, t := range crn.Tallies {
		if t.Encounters != n {
			b.Fatalf("candidate %d played %d of %d", k, t.Encounters, n)
		}
	}
	if start < 0 || end < 0 {
		return
	}
	perEnc := float64(end-start) / float64(n*int64(len(games)))
	b.ReportMetric(perEnc, "cpu-ns/enc")
	b.ReportMetric(1e9/(perEnc*20000), "cand/cpu-s")
	b.ReportMetric(float64(compileNS)/1e6/float64(len(games)), "compile-cpu-ms/cand")
}
