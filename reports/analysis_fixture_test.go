package reports

import (
	"math/rand/v2"

	"simctl/reports/results"
	"simctl/sim/experiment"
	"simctl/stats"
)

// jointFixture accumulates n observations of len(p) win indicators that
// share their luck the way common random numbers do: one uniform draw per
// observation, x_k = 1 when it falls below p[k]. Fixed seed: the same sums
// every time.
func jointFixture(n int, p []float64) stats.Joint {
	r := rand.New(rand.NewPCG(7, 11))
	j := stats.NewJoint(len(p))
	x := make([]int64, len(p))
	for i := 0; i < n; i++ {
		u := r.Float64()
		for k, pk := range p {
			x[k] = 0
			if u < pk {
				x[k] = 1
			}
		}
		j.Add(x)
	}
	return j
}

func fixtureValue() *results.Value {
	params := []experiment.Param{{Name: "init", Step: 1}, {Name: "hp", Step: 2}, {Name: "ac", Step: 1}}
	j := jointFixture(20000, []float64{0.60, 0.59, 0.61, 0.56, 0.64, 0.55, 0.645})
	v := &results.Value{Header: results.Header{Scenario: "Fighter vs Orc", Ruleset: "d20", Seed: 7, Version: "0.1.0+test"}, Side: "heroes"}
	results.NewValue(v, params, experiment.Analyse(j, params, v.Side), experiment.Swings(j, params, v.Side))
	return v
}

func fixtureMatrix() *results.Matrix {
	j := jointFixture(20000, []float64{0.50, 0.45, 0.40, 0.55, 0.50, 0.30, 0.60, 0.35, 0.50})
	res, err := experiment.Matrix(j, "heroes", "rivals", []string{"impulse", "vigilance", "timing"}, []string{"impulse", "vigilance", "timing"})
	if err != nil {
		panic(err)
	}
	return &results.Matrix{Header: results.Header{Kind: "matrix", Scenario: "Cavalier vs Rival", Ruleset: "cavaliers", Seed: 1}, MatrixResult: *res}
}
