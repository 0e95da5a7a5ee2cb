package sim

import (
	"fmt"

	"simctl/stats"
)

// DistCap is the largest value with its own bin in the per-encounter
// distributions of damage and hit points left (larger values are counted as
// overflow, their maximum still exact): fixed, so memory does not grow with
// the run and shards merge bin by bin.
const DistCap = 1000

// Tally accumulates the outcomes of many encounters in fixed memory. Every
// field is an integer count or sum, so merging is exact (shards merge into
// precisely the single-process result).
type Tally struct {
	Encounters int64
	Wins       [2]int64
	Draws      int64
	// Draws by cause; a draw whose referee gave no cause (DrawNone) counts
	// as MaxRoundsDraws, the only cause referees knew before Outcome.Draw.
	MaxRoundsDraws int64
	AllGoneDraws   int64
	Rounds         stats.Hist // regular rounds per encounter
	Survivors      [2]int64   // summed over encounters
	Counts         Counts     // per side action-economy counters; per-combatant totals in Counts.Combatants
	FirstActor     []int64    // per roster index
	NoActor        int64      // encounters where nobody acted
	FirstInOrder   []int64    // per roster index
	NoOrder        int64      // encounters where nobody had a turn

	// Ended counts the encounters whose end states the referee recorded
	// (Counts.End); the figures below cover those encounters.
	Ended int64
	// AnyDown[s] counts encounters in which at least one combatant of side
	// s ended Down.
	AnyDown [2]int64
	// Damage[s] is the distribution of the damage side s dealt per
	// encounter.
	Damage [2]stats.Hist
	// WinnerHP[s] is the distribution, over the encounters side s won, of
	// the hit points its standing combatants had left ("how close was it").
	WinnerHP [2]stats.Hist
	// CountsSq is, per side counter (indexed as Counts.Sides), the sum over
	// encounters of the square of the encounter's own count: with the sum
	// in Counts.Sides it gives each counter's variance across encounters, and
	// so an interval for its mean. Exact integers, merged by adding.
	CountsSq []int64

	sides []int   // side of each roster index
	seen  []int64 // Counts.Sides as of the last Record: Sides - seen is the encounter in play
}

// EncounterCounts are one encounter's non-zero side counts: counter I[j]
// (indexed as Counts.Sides) counted D[j].
type EncounterCounts struct {
	I []int
	D []int64
}

// NewTally returns an empty tally shaped for game.
func NewTally(g Game) *Tally {
	roster := g.Roster()
	n := len(roster)
	t := &Tally{
		Rounds:       stats.NewHist(g.MaxRounds() + 1),
		Counts:       NewCounts(len(g.Counters())),
		FirstActor:   make([]int64, n),
		FirstInOrder: make([]int64, n),
		sides:        make([]int, n),
	}
	t.CountsSq = make([]int64, len(t.Counts.Sides))
	t.seen = make([]int64, len(t.Counts.Sides))
	t.Counts.Combatants = make([]Combatant, n)
	t.Counts.enc = make([]ending, n)
	for i, e := range roster {
		t.sides[i] = e.Side
	}
	for s := 0; s < 2; s++ {
		t.Damage[s] = stats.NewHist(DistCap)
		t.WinnerHP[s] = stats.NewHist(DistCap)
	}
	if rc := ruleCounters(g); len(rc) > 0 {
		t.Counts.Rules = make([]int64, len(rc))
	}
	return t
}

// Record adds one encounter's outcome (its counters were added by the
// table directly into t.Counts) and folds the encounter's per-combatant
// end states into the totals.
func (t *Tally) Record(o Outcome) { t.record(o, nil) }

// RecordListing is Record that also lists in last the encounter's non-zero
// side counts (Record finds them anyway for CountsSq): a design that pairs
// one encounter across tallies reads them without scanning every counter
// again. last is the caller's scratch, overwritten at each call.
func (t *Tally) RecordListing(o Outcome, last *EncounterCounts) { t.record(o, last) }

func (t *Tally) record(o Outcome, l *EncounterCounts) {
	t.Encounters++
	switch {
	case o.Winner >= 0:
		t.Wins[o.Winner]++
	case o.Draw == DrawAllGone:
		t.Draws++
		t.AllGoneDraws++
	default:
		t.Draws++
		t.MaxRoundsDraws++
	}
	t.Rounds.Add(o.Rounds)
	t.Survivors[0] += int64(o.Survivors[0])
	t.Survivors[1] += int64(o.Survivors[1])
	if o.FirstActor >= 0 {
		t.FirstActor[o.FirstActor]++
	} else {
		t.NoActor++
	}
	if o.FirstInOrder >= 0 {
		t.FirstInOrder[o.FirstInOrder]++
	} else {
		t.NoOrder++
	}
	if t.Counts.Combatants != nil {
		t.recordEnds(o.Winner)
	}
	// The encounter's own counts are what the table added since the last
	// Record: square them (most are 0, so only the non-zero are written).
	v, seen, sq := t.Counts.Sides, t.seen, t.CountsSq
	if len(seen) == len(v) && len(sq) == len(v) {
		if l != nil {
			l.I, l.D = l.I[:0], l.D[:0]
			for i, x := range v {
				if d := x - seen[i]; d != 0 {
					sq[i] += d * d
					seen[i] = x
					l.I, l.D = append(l.I, i), append(l.D, d)
				}
			}
		} else {
			for i, x := range v {
				if d := x - seen[i]; d != 0 {
					sq[i] += d * d
					seen[i] = x
				}
			}
		}
	}
}

// recordEnds folds the encounter's end states into the totals and clears
// the scratch for the next encounter.
func (t *Tally) recordEnds(winner int) {
	c := &t.Counts
	if c.ended != 0 && c.ended != len(c.enc) {
		panic(fmt.Sprintf("sim: End recorded for %d of %d combatants", c.ended, len(c.enc)))
	}
	if c.ended == 0 { // a referee that records no end states: nothing to fold
		for i := range c.enc {
			c.enc[i] = ending{}
		}
		return
	}
	t.Ended++
	var dealt, left [2]int64
	var down [2]bool
	for i := range c.enc {
		e, p, s := &c.enc[i], &c.Combatants[i], t.sides[i]
		dealt[s] += e.dealt
		switch e.state {
		case Standing:
			hp := int64(max(e.hp, 0))
			p.HPLeft += hp
			if s == winner {
				p.HPLeftWin += hp
				left[s] += hp
			}
		case Down:
			p.EndedDown++
			down[s] = true
		case Gone:
			p.EndedGone++
		}
		*e = ending{}
	}
	c.ended = 0
	for s := 0; s < 2; s++ {
		t.Damage[s].Add(int(dealt[s]))
		if down[s] {
			t.AnyDown[s]++
		}
	}
	if winner >= 0 {
		t.WinnerHP[winner].Add(int(left[winner]))
	}
}

// Reset empties t, keeping its shape and memory.
func (t *Tally) Reset() {
	// Every field, in place: a worker commits its tally and resets it many
	// times a run (TestTallyResetIsFresh compares with a new tally, so a
	// field added later cannot be forgotten here).
	t.Encounters, t.Wins, t.Draws, t.Survivors = 0, [2]int64{}, 0, [2]int64{}
	t.MaxRoundsDraws, t.AllGoneDraws, t.NoActor, t.NoOrder, t.Ended = 0, 0, 0, 0, 0
	t.AnyDown = [2]int64{}
	t.Rounds.Reset()
	t.Counts.Reset()
	clear(t.CountsSq)
	clear(t.seen)
	clear(t.FirstActor)
	clear(t.FirstInOrder)
	for s := 0; s < 2; s++ {
		t.Damage[s].Reset()
		t.WinnerHP[s].Reset()
	}
}

// Merge adds o into t. It panics if the tallies come from different games.
func (t *Tally) Merge(o *Tally) {
	if len(t.Counts.Sides) != len(o.Counts.Sides) || len(t.FirstActor) != len(o.FirstActor) || len(t.Counts.Combatants) != len(o.Counts.Combatants) || len(t.Counts.Rules) != len(o.Counts.Rules) {
		panic(fmt.Sprintf("sim: merging tallies of different shapes (%d/%d counters, %d/%d combatants)",
			len(t.Counts.Sides), len(o.Counts.Sides), len(t.FirstActor), len(o.FirstActor)))
	}
	t.Encounters += o.Encounters
	t.Draws += o.Draws
	t.MaxRoundsDraws += o.MaxRoundsDraws
	t.AllGoneDraws += o.AllGoneDraws
	t.NoActor += o.NoActor
	t.NoOrder += o.NoOrder
	t.Ended += o.Ended
	for s := 0; s < 2; s++ {
		t.Wins[s] += o.Wins[s]
		t.Survivors[s] += o.Survivors[s]
		t.AnyDown[s] += o.AnyDown[s]
		t.Damage[s].Merge(o.Damage[s])
		t.WinnerHP[s].Merge(o.WinnerHP[s])
	}
	t.Rounds.Merge(o.Rounds)
	for i, v := range o.Counts.Sides {
		t.Counts.Sides[i] += v
		if i < len(t.seen) {
			t.seen[i] += v // the encounter in play, if any, stays as it was
		}
	}
	for i, v := range o.CountsSq {
		if i < len(t.CountsSq) {
			t.CountsSq[i] += v
		}
	}
	for i, v := range o.Counts.Rules {
		t.Counts.Rules[i] += v
	}
	for i, v := range o.FirstActor {
		t.FirstActor[i] += v
	}
	for i, v := range o.FirstInOrder {
		t.FirstInOrder[i] += v
	}
	for i := range o.Counts.Combatants {
		t.Counts.Combatants[i].Add(&o.Counts.Combatants[i])
	}
}

// Clone returns a deep copy of t that shares no memory with it.
func (t *Tally) Clone() *Tally {
	c := *t
	c.Rounds = t.Rounds.Clone()
	c.Counts.Sides = append([]int64(nil), t.Counts.Sides...)
	if t.Counts.Combatants != nil {
		c.Counts.Combatants = append([]Combatant(nil), t.Counts.Combatants...)
		c.Counts.enc = append([]ending(nil), t.Counts.enc...)
	}
	if t.Counts.Rules != nil {
		c.Counts.Rules = append([]int64(nil), t.Counts.Rules...)
	}
	c.FirstActor = append([]int64(nil), t.FirstActor...)
	c.FirstInOrder = append([]int64(nil), t.FirstInOrder...)
	c.CountsSq = append([]int64(nil), t.CountsSq...)
	c.seen = append([]int64(nil), t.seen...)
	for s := 0; s < 2; s++ {
		c.Damage[s] = t.Damage[s].Clone()
		c.WinnerHP[s] = t.WinnerHP[s].Clone()
	}
	c.sides = append([]int(nil), t.sides...)
	return &c
}
