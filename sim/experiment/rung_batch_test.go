package experiment_test

import (
	"context"
	"fmt"
	"testing"

	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
)

// TestPlayRungBuiltBatches: a rung of more than experiment.RungBatch candidates,
// built a batch at a time (each batch's games released before the next is
// built), sums to exactly the wins of the same rung played with every game
// built at once; no more than experiment.RungBatch games are held at any time.
func TestPlayRungBuiltBatches(t *testing.T) {
	hp := []string{"10", "20", "30", "40", "50"}
	var proto []sim.Game
	for _, h := range hp {
		proto = append(proto, crnDuel(t, scenario.Set{Path: "heroes.Fighter.hp", Value: h}))
	}
	n := 2*experiment.RungBatch + 7
	all := make([]sim.Game, n)
	var alive []int
	for k := range all {
		all[k] = proto[k%len(proto)]
		alive = append(alive, k)
	}
	rc := sim.RunConfig{Seed: 3, Start: 100, N: 40, Workers: 2}
	want, err := experiment.PlayRung(context.Background(), all, 0, alive, rc)
	if err != nil {
		t.Fatal(err)
	}
	lazy := make([]sim.Game, n)
	most, builds := 0, 0
	build := func(ctx context.Context, games []sim.Game, ks []int) error {
		in := map[int]bool{}
		for _, k := range ks {
			in[k] = true
		}
		held := 0
		for k := range games {
			if !in[k] {
				games[k] = nil
			}
		}
		for _, k := range ks {
			if games[k] == nil {
				games[k], builds = proto[k%len(proto)], builds+1
			}
		}
		for k := range games {
			if games[k] != nil {
				held++
			}
		}
		most = max(most, held)
		return nil
	}
	got, err := experiment.PlayRungBuilt(context.Background(), lazy, 0, alive, build, rc)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("batched rung %v, whole rung %v", got.Wins[:8], want.Wins[:8])
	}
	if most > experiment.RungBatch || builds != n {
		t.Fatalf("held at most %d games (bound %d), built %d of %d", most, experiment.RungBatch, builds, n)
	}
}
