package reports

import (
	"context"

	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/stats"
)

// PairedTally is each option's own tally, and for every option k and side s
// the paired outcomes (a = side s won under option k, b = side s won under
// option 0, the baseline) on the same encounters.
type PairedTally struct {
	Tallies []*sim.Tally
	Paired  [][2]stats.Paired // Paired[0] pairs the baseline with itself
}

// RunPaired plays every game on common random numbers (experiment.RunCRN)
// and returns the pairs against the baseline, games[0], that the compare
// table reads.
func RunPaired(ctx context.Context, games []sim.Game, cfg sim.RunConfig) (*PairedTally, error) {
	c, err := experiment.RunCRN(ctx, games, cfg)
	p := &PairedTally{Tallies: c.Tallies, Paired: make([][2]stats.Paired, len(games))}
	for k := range games {
		p.Paired[k] = [2]stats.Paired{c.Paired(k, 0), c.Paired(k, 1)}
	}
	return p, err
}
