package rulesets_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// stopAt sets stop when the narration reaches its line "-- round N".
type stopAt struct {
	line string
	stop *atomic.Bool
	text strings.Builder
}

func (s *stopAt) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), s.line) {
		s.stop.Store(true)
	}
	return s.text.Write(p)
}

// TestRefereesStopWithinARound: every referee asks Stopped once per round,
// so a run being stopped abandons an encounter in play at the next round,
// however long it would last: stopped during round 2, no built-in
// scenario of any ruleset plays round 3, and the encounter is marked cut.
func TestRefereesStopWithinARound(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range scenarios.Names() {
		data, file, _ := scenarios.Read(name)
		sc, err := scenario.Load(file, data, nil, rulesets.Schema)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rulesets.Compile(sc)
		if err != nil {
			t.Fatal(err)
		}
		table := g.NewTable()
		for seed := uint64(0); seed < 200; seed++ {
			var stop atomic.Bool
			tl := sim.NewTally(g)
			tl.Counts.Watch(&stop)
			w := &stopAt{line: "-- round 2", stop: &stop}
			var r rng.Stream
			r.Seed(seed, 0)
			o := table.Play(&r, &tl.Counts, &sim.Log{W: w})
			if !stop.Load() || !tl.Counts.Cut() && o.Rounds == 2 && !strings.Contains(w.text.String(), "-- round 3") {
				continue // over by round 2: try another encounter
			}
			if strings.Contains(w.text.String(), "-- round 3") || !tl.Counts.Cut() {
				t.Errorf("%s seed %d: stopped in round 2, played on (round 3: %v, cut: %v)", name, seed,
					strings.Contains(w.text.String(), "-- round 3"), tl.Counts.Cut())
			}
			seen[sc.Ruleset] = true
			break
		}
	}
	for _, rs := range rulesets.Names() {
		if !seen[rs] {
			t.Errorf("no built-in %s encounter reached round 2: the referee's stop was not checked", rs)
		}
	}
}
