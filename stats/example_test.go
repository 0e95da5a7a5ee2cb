package stats_test

import (
	"fmt"

	"simctl/stats"
)

func ExampleWilson95() {
	// Side 0 won 81 of 263 encounters.
	ci := stats.Wilson95(81, 263)
	fmt.Printf("win rate %.4f, 95%% CI [%.4f, %.4f]\n", 81.0/263, ci.Lo, ci.Hi)
	// Output: win rate 0.3080, 95% CI [0.2553, 0.3662]
}

func ExamplePaired() {
	// Option A and option B played on the same four encounter seeds; 1 means
	// side 0 won.
	var p stats.Paired
	for _, r := range [][2]int64{{1, 0}, {1, 1}, {0, 0}, {1, 0}} {
		p.Add(r[0], r[1])
	}
	fmt.Printf("A - B = %.2f ± %.2f (SE)\n", p.Diff(), p.SE())
	// Output: A - B = 0.50 ± 0.29 (SE)
}

func ExampleHist() {
	h := stats.NewHist(10) // rounds per fight, 0..10 binned exactly
	for _, rounds := range []int{3, 4, 4, 5, 12} {
		h.Add(rounds)
	}
	fmt.Println(h.Quantile(0.5), h.Quantile(1), h.Mean(), h.Over)
	// Output: 4 12 5.6 1
}
