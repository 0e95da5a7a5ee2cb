// Package benchmarks measures simctl's throughput on standard scenarios:
// encounters per second per core, allocations per encounter, random draws
// per encounter (and so the machine's limit, draws x ns per draw), scaling
// over workers, and memory against the number of encounters.
//
// Run: go test ./benchmarks -bench . -benchmem
// CI runs every benchmark once (-benchtime=1x) so none can rot.
package benchmarks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	_ "simctl/agents"
	"simctl/rulesets"
	_ "simctl/rulesets/acks2"
	_ "simctl/rulesets/cavaliers"
	_ "simctl/rulesets/d20"
	_ "simctl/rulesets/lotm"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// standard lists the benchmark scenarios: files in scenarios/ (the d20
// headline and tactics), then one built-in scenario per other ruleset.
var standard = []string{"d20-4v4", "d20-tactics", "acks2/skirmish-morale", "cavaliers/melee", "lotm/ambush"}

func compile(tb testing.TB, name string) sim.Game {
	tb.Helper()
	var sc *scenario.Scenario
	var err error
	if data, display, ok := scenarios.Read(name); ok {
		sc, err = scenario.Load(display, data, nil, rulesets.Schema)
	} else {
		path := filepath.Join("scenarios", name+".yaml")
		if _, statErr := os.Stat(path); statErr != nil {
			tb.Skipf("no benchmark scenario %s", name)
		}
		sc, err = scenario.LoadFile(path, nil, rulesets.Schema)
	}
	if err != nil {
		tb.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkEncounter plays encounters on one goroutine, the way one worker
// does: one op is one encounter. It reports encounters/s (per core), the
// random draws per encounter, and allocations per encounter (-benchmem).
func BenchmarkEncounter(b *testing.B) {
	for _, name := range standard {
		b.Run(strings.ReplaceAll(name, "/", "-"), func(b *testing.B) {
			g := compile(b, name)
			table := g.NewTable()
			tally := sim.NewTally(g)
			var r rng.Stream
			var draws uint64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.Seed(1, uint64(i))
				tally.Record(table.Play(&r, &tally.Counts, nil))
				draws += r.Draws()
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "enc/s")
			b.ReportMetric(float64(draws)/float64(b.N), "draws/enc")
		})
	}
}

// BenchmarkDraw is the cost of one random draw as the rulesets make it (a
// d20): the floor under an encounter is draws/enc x this.
func BenchmarkDraw(b *testing.B) {
	r := rng.New(1, 1)
	s := 0
	for i := 0; i < b.N; i++ {
		s += r.D20()
	}
	if s == 0 {
		b.Fatal("no draws")
	}
}

// BenchmarkScaling runs the headline scenario through the parallel runner
// with 1..GOMAXPROCS workers; one op is one encounter. Compare enc/s across
// the sub-benchmarks for the speed-up.
func BenchmarkScaling(b *testing.B) {
	g := compile(b, "d20-4v4")
	for w := 1; w <= runtime.GOMAXPROCS(0); w++ {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.ReportAllocs()
			t, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 1, N: int64(b.N), Workers: w})
			if err != nil {
				b.Fatal(err)
			}
			if t.Encounters != int64(b.N) {
				b.Fatalf("played %d of %d", t.Encounters, b.N)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "enc/s")
		})
	}
}

// BenchmarkMemory runs whole runs of N encounters and reports the bytes
// allocated per run and the heap in use afterwards: both must stay flat as
// N grows (results stream into fixed-size tallies). N up to 10^6 by
// default; SIMCTL_BENCH_BIG=1 adds 10^7 and 10^8.
func BenchmarkMemory(b *testing.B) {
	g := compile(b, "d20-4v4")
	sizes := []int64{1e5, 1e6}
	if os.Getenv("SIMCTL_BENCH_BIG") != "" {
		sizes = append(sizes, 1e7, 1e8)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var before, after runtime.MemStats
			for i := 0; i < b.N; i++ {
				runtime.GC()
				runtime.ReadMemStats(&before)
				if _, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 1, N: n}); err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
			}
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc), "bytes-alloc/run")
			b.ReportMetric(float64(after.HeapInuse), "heap-inuse-bytes")
			b.ReportMetric(float64(after.Sys), "sys-bytes")
		})
	}
}
