package experiment_test

import (
	"context"
	"testing"

	"simctl/sim/experiment"
)

// TestOptimizeWithinDeltaStatus: the six orders of a full attack are
// exact ties, so a selection with room to spare stops "within delta"
// (the leader shown within δ of every other) in most runs, and then the
// candidates left beside the best are "within delta", never "not
// separated" (which is the budget running out); a run that ends another
// way has no "within delta" candidate.
func TestOptimizeWithinDeltaStatus(t *testing.T) {
	orders := []string{"[6, 1, -4]", "[6, -4, 1]", "[1, 6, -4]", "[1, -4, 6]", "[-4, 6, 1]", "[-4, 1, 6]"}
	sp := &experiment.Space{Dims: []experiment.Dim{experiment.NewDim("heroes.Fighter.attacks", orders)}}
	points, _, err := sp.Enumerate(func(c experiment.Point) (string, error) { return c.Name, nil })
	if err != nil {
		t.Fatal(err)
	}
	games := sixOrders(t)
	within := 0
	for seed := uint64(1); seed <= 4; seed++ {
		res, err := experiment.Optimize(context.Background(), sp, points, games, games[0], "", 0, "heroes", experiment.OptimizeConfig{
			Seed: seed, Delta: 0.02, First: 1000, Cap: 200_000, Budget: 2_000_000, Confirm: 2000})
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, r := range res.Ranked {
			n[r.Status]++
		}
		switch res.Outcome {
		case experiment.OutcomeWithinDelta:
			within++
			if n["best"] != 1 || n["within delta"] < 1 || n["not separated"] != 0 || n["best"]+n["within delta"]+n["eliminated"] != 6 {
				t.Errorf("seed %d: within delta, statuses %v", seed, n)
			}
		default:
			if n["within delta"] != 0 {
				t.Errorf("seed %d: outcome %s, statuses %v", seed, res.Outcome, n)
			}
		}
	}
	if within == 0 {
		t.Fatal("no run stopped within delta: the test checks nothing")
	}
}
