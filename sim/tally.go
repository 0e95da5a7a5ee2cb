package sim

import (
	"fmt"

	"simctl/stats"
)

// Tally accumulates the outcomes of many encounters in fixed memory. Every
// field is an integer count or sum, so merging is exact (shards merge into
// precisely the single-process result).
type Tally struct {
	Encounters int64
	Wins       [2]int64
	Draws      int64
	Rounds     stats.Hist // regular rounds per encounter
	Survivors  [2]int64   // summed over encounters
	Counts     Counts     // per side action-economy counters
	FirstActor []int64    // per roster index
	NoActor    int64      // encounters where nobody acted
}

// NewTally returns an empty tally shaped for game.
func NewTally(g Game) *Tally {
	return &Tally{
		Rounds:     stats.NewHist(g.MaxRounds() + 1),
		Counts:     NewCounts(len(g.Counters())),
		FirstActor: make([]int64, len(g.Roster())),
	}
}

// Record adds one encounter's outcome (its counters were added by the
// table directly into t.Counts).
func (t *Tally) Record(o Outcome) {
	t.Encounters++
	if o.Winner >= 0 {
		t.Wins[o.Winner]++
	} else {
		t.Draws++
	}
	t.Rounds.Add(o.Rounds)
	t.Survivors[0] += int64(o.Survivors[0])
	t.Survivors[1] += int64(o.Survivors[1])
	if o.FirstActor >= 0 {
		t.FirstActor[o.FirstActor]++
	} else {
		t.NoActor++
	}
}

// Reset empties t, keeping its shape and memory.
func (t *Tally) Reset() {
	t.Encounters, t.Wins, t.Draws, t.Survivors, t.NoActor = 0, [2]int64{}, 0, [2]int64{}, 0
	t.Rounds.Reset()
	clear(t.Counts.V)
	clear(t.FirstActor)
}

// Merge adds o into t. It panics if the tallies come from different games.
func (t *Tally) Merge(o *Tally) {
	if len(t.Counts.V) != len(o.Counts.V) || len(t.FirstActor) != len(o.FirstActor) {
		panic(fmt.Sprintf("sim: merging tallies of different shapes (%d/%d counters, %d/%d combatants)",
			len(t.Counts.V), len(o.Counts.V), len(t.FirstActor), len(o.FirstActor)))
	}
	t.Encounters += o.Encounters
	t.Draws += o.Draws
	t.NoActor += o.NoActor
	for s := 0; s < 2; s++ {
		t.Wins[s] += o.Wins[s]
		t.Survivors[s] += o.Survivors[s]
	}
	t.Rounds.Merge(&o.Rounds)
	for i, v := range o.Counts.V {
		t.Counts.V[i] += v
	}
	for i, v := range o.FirstActor {
		t.FirstActor[i] += v
	}
}
