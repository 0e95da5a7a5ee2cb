package sim_test

import (
	"context"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// long is a game whose referee asks Stopped every round, as the contract
// says, each round touching side counters and per-combatant totals. Its
// encounters last 1 to 5 rounds, except the one numbered cancelAt to start
// (over all workers), which cancels the run and would last 2^40 rounds.
type long struct {
	cancelAt int64
	started  *atomic.Int64
	cancel   func()
}

func (g long) Roster() []sim.Entrant {
	return []sim.Entrant{{Name: "A", Side: 0}, {Name: "B", Side: 1}}
}
func (g long) Counters() []string  { return sim.BaseCounters }
func (g long) MaxRounds() int      { return 5 }
func (g long) NewTable() sim.Table { return longTable(g) }

type longTable long

func (t longTable) Play(r *rng.Stream, c *sim.Counts, _ *sim.Log) sim.Outcome {
	n := 1 + r.IntN(5)
	if t.started != nil && t.started.Add(1) == t.cancelAt {
		t.cancel()
		n = 1 << 40
	}
	for round := 1; round <= n; round++ {
		if c.Stopped() {
			return sim.Outcome{}
		}
		c.Turn(0, 0)
		c.Turn(1, 1)
		c.Hit(0, 0, 1, 1+r.IntN(6))
		c.Inc(1, sim.Actions)
	}
	c.End(0, 3, sim.Standing)
	c.End(1, 0, sim.Down)
	return sim.Outcome{Winner: 0, Rounds: n, Survivors: [2]int{1, 0}, FirstActor: 0, FirstInOrder: 0}
}

// TestStopAbandonsLongEncounterUncounted: a run cancelled while encounters
// of millions of rounds are in play stops within a round of them, and its
// tally is exactly that of the encounters it reports played, computed
// apart one by one: the abandoned encounters' partial counters reach no
// figure, and they, with whatever their workers had played since their
// last fold, are listed unplayed for a resume.
func TestStopAbandonsLongEncounterUncounted(t *testing.T) {
	const n = 20000
	for _, workers := range []int{1, 2, 3} {
		for _, at := range []int64{1, 2, 3000, 4097, 9000} {
			ctx, cancel := context.WithCancel(context.Background())
			var started atomic.Int64
			g := long{cancelAt: at, started: &started, cancel: cancel}
			var u []sim.Range
			got, err := sim.Run(ctx, g, sim.RunConfig{Seed: 11, N: n, Workers: workers, Unplayed: &u})
			cancel()
			if err == nil {
				t.Fatalf("workers %d, cancel at %d: not interrupted", workers, at)
			}
			// Exact: replay every played index alone into a fresh tally.
			want := sim.NewTally(g)
			var left int64
			for _, r := range u {
				left += r.Hi - r.Lo
			}
			plain := long{}
			for i := int64(0); i < n; i++ {
				if slices.ContainsFunc(u, func(r sim.Range) bool { return r.Lo <= i && i < r.Hi }) {
					continue
				}
				_, one := sim.Replay(plain, 11, i, nil)
				want.Merge(one)
			}
			if got.Encounters+left != n || !sameTally(got, want) {
				t.Fatalf("workers %d, cancel at %d: %d played + %d unplayed of %d; tally equal to the played ones' %v",
					workers, at, got.Encounters, left, n, sameTally(got, want))
			}
		}
	}
}

func sameTally(a, b *sim.Tally) bool {
	return a.Encounters == b.Encounters && a.Wins == b.Wins && a.Draws == b.Draws && a.Ended == b.Ended &&
		slices.Equal(a.Counts.Sides, b.Counts.Sides) && slices.Equal(a.CountsSq, b.CountsSq) &&
		slices.Equal(a.Counts.Combatants, b.Counts.Combatants) && slices.Equal(a.FirstActor, b.FirstActor) &&
		reflect.DeepEqual(a.Rounds, b.Rounds) && reflect.DeepEqual(a.Damage, b.Damage) && reflect.DeepEqual(a.WinnerHP, b.WinnerHP)
}
