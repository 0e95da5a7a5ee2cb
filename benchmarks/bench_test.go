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
	"simctl/reports/safeio"
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
	g, err := rulesets.Compile(load(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// load reads a benchmark scenario: a built-in, or a file of scenarios/.
func load(tb testing.TB, name string) *scenario.Scenario {
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
		sc, err = loadFile(path, nil)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// cpuTimer measures the CPU time of the calling goroutine's thread over a
// benchmark loop. Start locks the goroutine to its thread so the thread
// clock counts only this loop's work; Stop reports the figures a shared
// machine can be judged by: CPU ns per op and ops per CPU-second.
type cpuTimer struct{ start int64 }

func startCPU(b *testing.B) cpuTimer {
	runtime.LockOSThread()
	b.ResetTimer()
	return cpuTimer{start: threadCPU()}
}

// stop ends the measurement and reports cpu-ns/UNIT and UNIT/cpu-s for n
// units (n = b.N encounters, or turns, ...). It returns the CPU ns used,
// or -1 where the thread clock is unavailable.
func (c cpuTimer) stop(b *testing.B, n float64, unit string) float64 {
	end := threadCPU()
	b.StopTimer()
	runtime.UnlockOSThread()
	if c.start < 0 || end < 0 || n == 0 {
		return -1
	}
	ns := float64(end - c.start)
	b.ReportMetric(ns/n, "cpu-ns/"+unit)
	b.ReportMetric(n/(ns/1e9), unit+"/cpu-s")
	return ns
}

// BenchmarkEncounter plays encounters on one goroutine, the way one worker
// does: one op is one encounter. It reports encounters per wall second and
// per CPU-second of the thread (the figure to trust on a shared machine),
// the random draws per encounter, and allocations per encounter
// (-benchmem).
func BenchmarkEncounter(b *testing.B) {
	for _, name := range standard {
		b.Run(strings.ReplaceAll(name, "/", "-"), func(b *testing.B) {
			g := compile(b, name)
			table := g.NewTable()
			tally := sim.NewTally(g)
			var r rng.Stream
			b.ReportAllocs()
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				r.Seed(1, uint64(i))
				tally.Record(table.Play(&r, &tally.Counts, nil))
			}
			ns := cpu.stop(b, float64(b.N), "enc")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "enc/s")
			draws := drawsPerEnc(table, tally)
			b.ReportMetric(draws, "draws/enc")
			// The ruleset's own floor, measured right after on the same
			// thread: its draws per encounter, seeded as the runner seeds.
			if floor := floorCPU(b.N, int(draws+0.5)); ns > 0 && floor > 0 {
				b.ReportMetric(floor/float64(b.N), "floor-ns/enc")
				b.ReportMetric(ns/floor, "x-floor")
			}
		})
	}
}

// floorCPU is the thread CPU ns of n seeded streams making perEnc d20
// draws each and nothing else (-1 without a thread clock): the floor under
// an encounter that draws perEnc words.
func floorCPU(n, perEnc int) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var r rng.Stream
	sum := 0
	start := threadCPU()
	for i := 0; i < n; i++ {
		r.Seed(1, uint64(i))
		for k := 0; k < perEnc; k++ {
			sum += r.D20()
		}
	}
	end := threadCPU()
	if start < 0 || end < 0 || sum == 0 {
		return -1
	}
	return float64(end - start)
}

// BenchmarkFloor is the floor under the headline: per op, the stream is
// seeded the way the runner seeds it and then makes the headline's mean
// number of d20 draws, and nothing else. The headline's cpu-ns/enc divided
// by this one's is how far the referee is from its random numbers alone.
func BenchmarkFloor(b *testing.B) {
	g := compile(b, "d20-4v4")
	table := g.NewTable()
	tally := sim.NewTally(g)
	var r rng.Stream
	perEnc := int(drawsPerEnc(table, tally) + 0.5)
	b.ReportAllocs()
	sum := 0
	cpu := startCPU(b)
	for i := 0; i < b.N; i++ {
		r.Seed(1, uint64(i))
		for k := 0; k < perEnc; k++ {
			sum += r.D20()
		}
	}
	cpu.stop(b, float64(b.N), "enc")
	if sum == 0 {
		b.Fatal("no draws")
	}
	b.ReportMetric(float64(perEnc), "draws/enc")
}

// drawsPerEnc is the mean number of 64-bit words an encounter draws, over
// the first 20,000 encounters of seed 1, counted outside the timed loop
// (rng.Stream.Draws replays the stream).
func drawsPerEnc(table sim.Table, tally *sim.Tally) float64 {
	const sample = 20000
	var r rng.Stream
	var draws uint64
	for i := 0; i < sample; i++ {
		r.Seed(1, uint64(i))
		tally.Record(table.Play(&r, &tally.Counts, nil))
		draws += r.Draws()
	}
	return float64(draws) / sample
}

// BenchmarkPartySize plays d20 N-vs-N melee (the headline's fighters and
// orcs, N copies a side) for N = 1..32 and reports the CPU cost per turn:
// with per-turn work independent of party size the figure stays flat, and
// the 32-vs-32 / 4-vs-4 ratio is the target's measure (1.3x at most).
func BenchmarkPartySize(b *testing.B) {
	for _, n := range []int{1, 2, 4, 8, 16, 32} {
		b.Run(fmt.Sprintf("%dv%d", n, n), func(b *testing.B) {
			g := compileText(b, partyScenario(n))
			table := g.NewTable()
			tally := sim.NewTally(g)
			var r rng.Stream
			b.ReportAllocs()
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				r.Seed(1, uint64(i))
				tally.Record(table.Play(&r, &tally.Counts, nil))
			}
			turns := float64(tally.Counts.Get(0, sim.Turns) + tally.Counts.Get(1, sim.Turns))
			cpu.stop(b, turns, "turn")
			b.ReportMetric(turns/float64(b.N), "turns/enc")
		})
	}
}

// partyScenario is the headline with n combatants a side.
func partyScenario(n int) string {
	return fmt.Sprintf(`name: d20 %[1]d-vs-%[1]d melee
ruleset: d20
max_rounds: 100
sides:
  - name: heroes
    combatants:
      - {name: Fighter, count: %[1]d, hp: 3d10+6, ac: 17, dex_ac: 1, init: 1, attacks: [6, 1], damage: 1d8+3, crit: 19-20/x2}
  - name: orcs
    combatants:
      - {name: Orc, count: %[1]d, hp: 3d8+6, ac: 14, dex_ac: 0, init: 0, attacks: [5], damage: 1d12+3, crit: 20/x3}
`, n)
}

func compileText(tb testing.TB, text string) sim.Game {
	tb.Helper()
	sc, err := scenario.Load("party.yaml", []byte(text), nil, rulesets.Schema)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		tb.Fatal(err)
	}
	return g
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
			// At most three runs whatever -benchtime asks: one op is a whole
			// run of n encounters, so -benchtime 200000x (the command
			// for every benchmark) would otherwise play 2*10^10 encounters.
			for i := 0; i < min(b.N, 3); i++ {
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

// loadFile reads a benchmark scenario from disk, bounded as the CLI reads one.
func loadFile(path string, sets []scenario.Set) (*scenario.Scenario, error) {
	data, err := safeio.ReadFile(context.Background(), path, safeio.MaxScenarioBytes, "scenario")
	if err != nil {
		return nil, err
	}
	return scenario.Load(path, data, sets, rulesets.Schema)
}

// TestEveryRulesetBenchmarked: every registered ruleset has a standard
// benchmark (a fifth ruleset adds its scenario to standard).
func TestEveryRulesetBenchmarked(t *testing.T) {
	have := map[string]bool{}
	for _, name := range standard {
		have[load(t, name).Ruleset] = true
	}
	for _, r := range rulesets.Names() {
		if !have[r] {
			t.Errorf("ruleset %s has no standard benchmark: add a scenario of it to standard", r)
		}
	}
}
