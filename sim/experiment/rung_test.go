package experiment_test

import (
	"context"
	"runtime"
	"slices"
	"testing"

	"simctl/sim"
	"simctl/sim/experiment"
)

// A screening rung's wins are the same whether played by PlayRung or by
// PlayStage (which also keeps every pair's discordant counts), whatever
// the workers.
func TestPlayRungWinsMatchPlayStage(t *testing.T) {
	games := sixOrders(t)
	alive := []int{0, 2, 3, 5}
	cfg := sim.RunConfig{Seed: 7, Start: 1000, N: 700, Workers: 1}
	want, err := experiment.PlayStage(context.Background(), games, 0, alive, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 3} {
		cfg.Workers = w
		got, err := experiment.PlayRung(context.Background(), games, 0, alive, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Wins, want.Wins) || !slices.Equal(got.Alive, want.Alive) || !slices.Equal(got.Ranges, want.Ranges) || got.Only != nil {
			t.Errorf("workers %d: rung %+v, stage wins %v ranges %v", w, got, want.Wins, want.Ranges)
		}
	}
}

// A rung of k candidates allocates in proportion to k, not k²: the first
// rung of an 8-rule order space plays all 40,320 orders, and a k×k joint
// per worker asked 13 GB there (issue 31 item 2). Measured: the bytes
// allocated to play 2 encounters of 3,000 candidates on one worker
// (PlayStage: two 3,000² joints and 4.5 M pairs, about 216 MB).
func TestPlayRungMemoryLinear(t *testing.T) {
	g := sixOrders(t)[0]
	const k = 3000
	games := make([]sim.Game, k)
	alive := make([]int, k)
	for i := range games {
		games[i], alive[i] = g, i
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := experiment.PlayRung(context.Background(), games, 0, alive, sim.RunConfig{Seed: 1, N: 2, Workers: 1})
	runtime.ReadMemStats(&after)
	if err != nil || len(s.Wins) != k {
		t.Fatal(err)
	}
	per := (after.TotalAlloc - before.TotalAlloc) / k
	t.Logf("%d bytes per candidate", per)
	if per > 8<<10 {
		t.Errorf("a rung of %d candidates allocated %d bytes per candidate; want a table and a counter row each (a few kB)", k, per)
	}
}
