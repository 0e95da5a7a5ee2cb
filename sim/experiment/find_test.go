package experiment_test

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"simctl/sim"
	"simctl/sim/experiment"
)

// Find and Pick agree with a plain loop over sim.Replay, whatever the
// worker count and however the chunks fall (N is not a multiple of the
// chunk): every index examined once, matches counted exactly, the lowest
// matching indices, and the quantile's encounter the lowest index with
// that value.
func TestFindAndPickAreTheSequentialAnswer(t *testing.T) {
	g := crnDuel(t)
	p := experiment.NewProbe(g, [2]string{"heroes", "monsters"})
	cond, err := p.Condition(`rounds >= 3 and side("heroes").won`)
	if err != nil {
		t.Fatal(err)
	}
	metric, err := p.Metric(`rounds`)
	if err != nil {
		t.Fatal(err)
	}
	const seed, start, n, limit = 11, 500, 3000, 7
	var want experiment.FindResult
	rounds := make([]int, n)
	for i := int64(0); i < n; i++ {
		o, _ := sim.Replay(g, seed, start+i, nil)
		rounds[i] = o.Rounds
		want.Encounters++
		if o.Rounds >= 3 && o.Winner == 0 {
			want.Matches++
			if len(want.First) < limit {
				want.First = append(want.First, start+i)
			}
		}
	}
	if want.Matches < 2*limit || want.Matches > n-limit {
		t.Fatalf("the condition matched %d of %d: pick one that splits the encounters", want.Matches, n)
	}
	sorted := append([]int(nil), rounds...)
	sort.Ints(sorted)
	median := sorted[n/2-1] // nearest rank: ceil(0.5·n)-th
	wantIdx := int64(-1)
	for i, r := range rounds {
		if r == median {
			wantIdx = start + int64(i)
			break
		}
	}
	for _, workers := range []int{1, 2, 3, 5} {
		cfg := sim.RunConfig{Seed: seed, Start: start, N: n, Workers: workers}
		got, err := experiment.Find(context.Background(), p, cond, cfg, limit)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("workers %d: Find = %+v, want %+v", workers, *got, want)
		}
		idx, v, err := experiment.Pick(context.Background(), p, metric, cfg, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		if idx != wantIdx || v != float64(median) {
			t.Errorf("workers %d: Pick median = encounter %d (%v), want %d (%d)", workers, idx, v, wantIdx, median)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := experiment.Find(ctx, p, cond, sim.RunConfig{Seed: seed, Start: start, N: n, Workers: 2}, limit)
	if err != context.Canceled || got.Encounters != 0 {
		t.Errorf("cancelled before the start: Find = %+v, %v; want nothing examined and context.Canceled", *got, err)
	}
}
