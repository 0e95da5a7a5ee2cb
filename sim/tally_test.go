package sim_test

import (
	"reflect"
	"testing"

	"simctl/sim"
)

type twoGame struct{}

func (twoGame) Roster() []sim.Entrant {
	return []sim.Entrant{{Name: "A", Side: 0}, {Name: "B", Side: 0}, {Name: "C", Side: 1}}
}
func (twoGame) Counters() []string  { return sim.BaseCounters }
func (twoGame) MaxRounds() int      { return 5 }
func (twoGame) NewTable() sim.Table { return nil }

// Draw causes: a draw without a cause (a referee from before Outcome.Draw)
// counts as max_rounds; first actor and first in order are counted apart.
func TestTallyDrawCausesAndFirsts(t *testing.T) {
	tl := sim.NewTally(twoGame{})
	tl.Record(sim.Outcome{Winner: -1, FirstActor: 2, FirstInOrder: 0})
	tl.Record(sim.Outcome{Winner: -1, Draw: sim.DrawMaxRounds, FirstActor: -1, FirstInOrder: 1})
	tl.Record(sim.Outcome{Winner: -1, Draw: sim.DrawAllGone, FirstActor: 1, FirstInOrder: -1})
	tl.Record(sim.Outcome{Winner: 1, FirstActor: 2, FirstInOrder: 2})
	if tl.Draws != 3 || tl.MaxRoundsDraws != 2 || tl.AllGoneDraws != 1 || tl.Wins != [2]int64{0, 1} {
		t.Errorf("draws %d (max_rounds %d, all_gone %d), wins %v; want 3 (2, 1), [0 1]", tl.Draws, tl.MaxRoundsDraws, tl.AllGoneDraws, tl.Wins)
	}
	if got := tl.FirstActor; got[0] != 0 || got[1] != 1 || got[2] != 2 || tl.NoActor != 1 {
		t.Errorf("first actor %v, none %d; want [0 1 2], 1", got, tl.NoActor)
	}
	if got := tl.FirstInOrder; got[0] != 1 || got[1] != 1 || got[2] != 1 || tl.NoOrder != 1 {
		t.Errorf("first in order %v, none %d; want [1 1 1], 1", got, tl.NoOrder)
	}
}

// End states fold into the totals and distributions once per encounter;
// a referee that records no end state leaves them alone; recording only
// some combatants is a referee bug and panics.
func TestTallyEndStates(t *testing.T) {
	tl := sim.NewTally(twoGame{})
	c := &tl.Counts
	c.Hit(0, 0, 2, 7)
	c.Hit(1, 2, 1, 12)
	c.Hit(1, -1, 1, 1) // bleeding: taken, dealt by nobody
	c.Down(1, 2)
	c.Turn(0, 0)
	c.Lost(0, 0)
	c.End(0, 9, sim.Standing)
	c.End(1, -3, sim.Down)
	c.End(2, 4, sim.Standing)
	tl.Record(sim.Outcome{Winner: -1})
	c.Hit(0, 0, 2, 5)
	c.End(0, 9, sim.Standing)
	c.End(1, 5, sim.Gone)
	c.End(2, -1, sim.Down)
	tl.Record(sim.Outcome{Winner: 0})
	tl.Record(sim.Outcome{Winner: 0}) // no end states: not folded
	want := []sim.Combatant{
		{DamageDealt: 12, Turns: 1, ActionsLost: 1, HPLeft: 18, HPLeftWin: 9},
		{DamageTaken: 13, Downed: 1, EndedDown: 1, EndedGone: 1},
		{DamageDealt: 12, DamageTaken: 12, Kills: 1, EndedDown: 1, HPLeft: 4},
	}
	for i, w := range want {
		if c.Combatants[i] != w {
			t.Errorf("combatant %d: %+v, want %+v", i, c.Combatants[i], w)
		}
	}
	if tl.Ended != 2 || tl.AnyDown != [2]int64{1, 1} || tl.Damage[0].Counts[7] != 1 || tl.Damage[0].Counts[5] != 1 ||
		tl.Damage[1].Counts[12] != 1 || tl.Damage[1].Counts[0] != 1 || tl.WinnerHP[0].N != 1 || tl.WinnerHP[0].Counts[9] != 1 {
		t.Errorf("ended %d, any down %v, damage %+v / %+v, winner hp %+v", tl.Ended, tl.AnyDown,
			tl.Damage[0].Sum, tl.Damage[1].Sum, tl.WinnerHP[0].Sum)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("End for one of three combatants did not panic")
		}
	}()
	c.End(0, 1, sim.Standing)
	tl.Record(sim.Outcome{Winner: 0})
}

// Recording allocates nothing.
func TestRecordingAllocatesNothing(t *testing.T) {
	tl := sim.NewTally(twoGame{})
	c := &tl.Counts
	if a := testing.AllocsPerRun(100, func() {
		c.Hit(0, 0, 2, 3)
		c.Down(2, 0)
		c.Turn(0, 1)
		c.Lost(0, 1)
		c.End(0, 1, sim.Standing)
		c.End(1, 1, sim.Standing)
		c.End(2, 0, sim.Down)
		tl.Record(sim.Outcome{Winner: 0})
	}); a != 0 {
		t.Errorf("%v allocations per encounter", a)
	}
}

type eightGame struct{ twoGame }

func (eightGame) Roster() []sim.Entrant {
	r := make([]sim.Entrant, 8)
	for i := range r {
		r[i] = sim.Entrant{Name: string(rune('A' + i)), Side: i / 4}
	}
	return r
}

// BenchmarkRecording is the per-encounter cost of the per-combatant
// recording in a 4-vs-4 fight of typical length: 12 hits, 4 downs, 20
// turns, and the end of encounter (8 End calls and the fold in Record).
func BenchmarkRecording(b *testing.B) {
	tl := sim.NewTally(eightGame{})
	c := &tl.Counts
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for k := 0; k < 12; k++ {
			c.Hit(k%8/4, k%8, (k+4)%8, 7)
		}
		for k := 0; k < 4; k++ {
			c.Down(4+k, k)
		}
		for k := 0; k < 20; k++ {
			c.Turn(k%8/4, k%8)
		}
		for k := 0; k < 8; k++ {
			st := sim.Standing
			if k >= 4 {
				st = sim.Down
			}
			c.End(k, 10-k, st)
		}
		tl.Record(sim.Outcome{Winner: 0, Rounds: 3, FirstActor: 1, FirstInOrder: 0})
	}
}

// A reset tally equals a new one, every field: workers commit and reset
// their tallies during a run, and a field Reset forgot would be counted
// twice.
func TestTallyResetIsFresh(t *testing.T) {
	tl := sim.NewTally(eightGame{})
	c := &tl.Counts
	c.Hit(0, 0, 5, 7)
	c.Down(5, 0)
	c.Turn(0, 1)
	c.Lost(1, 6)
	for k := 0; k < 8; k++ {
		c.End(k, 3, sim.Standing)
	}
	tl.Record(sim.Outcome{Winner: -1, Rounds: 2, FirstActor: 1, FirstInOrder: 2, Draw: sim.DrawAllGone})
	tl.Reset()
	if fresh := sim.NewTally(eightGame{}); !reflect.DeepEqual(tl, fresh) {
		t.Errorf("reset tally differs from a new one:\n%+v\n%+v", tl, fresh)
	}
}

// CountsSq holds, per side counter, the sum over encounters of the
// encounter's own count squared: what the table adds between two Records,
// however the tally was merged in between (a worker commits and resets).
func TestTallyCountsSquares(t *testing.T) {
	n := len(sim.BaseCounters)
	play := func(tl *sim.Tally, turns0, dealt1 int) {
		for i := 0; i < turns0; i++ {
			tl.Counts.Turn(0, 0)
		}
		if dealt1 > 0 {
			tl.Counts.Hit(1, 2, 0, dealt1)
		}
		tl.Record(sim.Outcome{Winner: 0})
	}
	a := sim.NewTally(twoGame{})
	play(a, 3, 5)
	play(a, 0, 0)
	play(a, 2, 4)
	b := sim.NewTally(twoGame{})
	play(b, 1, 0)
	// An encounter in play when a finished tally is merged in: its counts
	// are its own, not the merged ones.
	a.Counts.Turn(0, 1)
	a.Merge(b)
	a.Counts.Turn(0, 1)
	a.Record(sim.Outcome{Winner: 1})
	turns, dealt := sim.Turns, n+sim.DamageDealt
	if a.Counts.Sides[turns] != 3+2+1+2 || a.CountsSq[turns] != 9+4+1+4 {
		t.Errorf("turns: sum %d, squares %d; want 8, 18", a.Counts.Sides[turns], a.CountsSq[turns])
	}
	if a.Counts.Sides[dealt] != 9 || a.CountsSq[dealt] != 25+16 {
		t.Errorf("damage dealt: sum %d, squares %d; want 9, 41", a.Counts.Sides[dealt], a.CountsSq[dealt])
	}
	c := a.Clone()
	play(c, 4, 0)
	if c.CountsSq[turns] != 18+16 || a.CountsSq[turns] != 18 {
		t.Errorf("clone: squares %d (original %d); want 34 (18)", c.CountsSq[turns], a.CountsSq[turns])
	}
}

// RecordListing lists the encounter's non-zero side counts (in counter
// order), and leaves every figure of the tally as Record would.
func TestTallyRecordListing(t *testing.T) {
	n := len(sim.BaseCounters)
	a, b := sim.NewTally(twoGame{}), sim.NewTally(twoGame{})
	var last sim.EncounterCounts
	for _, tl := range []*sim.Tally{a, b} {
		tl.Counts.Turn(0, 0)
		tl.Counts.Turn(0, 0)
		tl.Counts.Hit(1, 2, 0, 5)
	}
	a.RecordListing(sim.Outcome{Winner: 0}, &last)
	b.Record(sim.Outcome{Winner: 0})
	turns, dealt := sim.Turns, n+sim.DamageDealt
	want := map[int]int64{turns: 2, dealt: 5}
	got := map[int]int64{}
	for j, c := range last.I {
		if last.D[j] == 0 || (j > 0 && c <= last.I[j-1]) {
			t.Errorf("entry %d: counter %d, count %d: zero or out of order", j, c, last.D[j])
		}
		got[c] = last.D[j]
	}
	for c, d := range want {
		if got[c] != d {
			t.Errorf("counter %d: %d listed, want %d (all: %v)", c, got[c], d, got)
		}
	}
	// The next encounter replaces the list.
	a.Counts.Turn(0, 0)
	a.RecordListing(sim.Outcome{Winner: 1}, &last)
	if len(last.I) != 1 || last.I[0] != turns || last.D[0] != 1 {
		t.Errorf("second encounter: %v %v, want only turns: 1", last.I, last.D)
	}
	b.Counts.Turn(0, 0)
	b.Record(sim.Outcome{Winner: 1})
	if !reflect.DeepEqual(a, b) {
		t.Error("a tally recorded with RecordListing counts differently from one recorded with Record")
	}
}
