package sim

// Per-combatant recording. A referee reports, by roster index, what each
// combatant did and suffered (Hit, Down, Turn, Lost) and, once at the end
// of the encounter, where each one ended (End). The calls are plain integer
// adds into slices the worker's Tally owns, indexed by roster index: no
// allocation, no map, no interface call. Tally.Record folds the end states
// into the totals and the distributions and clears the encounter's scratch.
//
// A Counts made by NewCounts (no roster) records none of this: the calls
// return at once, so rule tests that only read the side counters need not
// build a Tally. A Counts inside a Tally (NewTally) records everything.

// EndState is where a combatant ended an encounter.
type EndState uint8

// End states.
const (
	Standing EndState = iota // still in the fight
	Down                     // put out of the fight by harm: dead, dying, disabled, unconscious
	Gone                     // out of the fight otherwise: fled, routed, surrendered
)

// Combatant is one combatant's totals over the encounters of a tally: exact
// integer counts and sums, so tallies merge exactly.
type Combatant struct {
	DamageDealt int64 `json:"damage_dealt"` // hit points of damage dealt, overkill included
	DamageTaken int64 `json:"damage_taken"` // hit points of damage taken, overkill included
	Kills       int64 `json:"kills"`        // opponents (or allies) it put down
	Downed      int64 `json:"downed"`       // times it was put down (Down calls)
	Turns       int64 `json:"turns"`        // turns it had
	ActionsLost int64 `json:"actions_lost"` // actions it lost
	EndedDown   int64 `json:"ended_down"`   // encounters it ended Down
	EndedGone   int64 `json:"ended_gone"`   // encounters it ended Gone
	HPLeft      int64 `json:"hp_left"`      // hit points at the end, summed over encounters it ended Standing
	HPLeftWin   int64 `json:"hp_left_win"`  // the same, over encounters its side won
}

// Add adds o's totals to c.
func (c *Combatant) Add(o *Combatant) {
	c.DamageDealt += o.DamageDealt
	c.DamageTaken += o.DamageTaken
	c.Kills += o.Kills
	c.Downed += o.Downed
	c.Turns += o.Turns
	c.ActionsLost += o.ActionsLost
	c.EndedDown += o.EndedDown
	c.EndedGone += o.EndedGone
	c.HPLeft += o.HPLeft
	c.HPLeftWin += o.HPLeftWin
}

// ending is one combatant's scratch for the encounter in progress.
type ending struct {
	dealt int64 // damage dealt this encounter
	hp    int
	state EndState
	set   bool // End was called this encounter
}

// Hit records that attacker a, of side s, dealt n hit points of damage to
// d (the damage as rolled and applied, overkill included): the side's
// DamageDealt counter and the per-combatant figures in one call, so the
// two cannot drift apart. a is -1 for damage without an attacker.
func (c *Counts) Hit(s, a, d, n int) {
	if a >= 0 {
		c.Sides[s*c.PerSide+DamageDealt] += int64(n)
	}
	if c.Combatants == nil {
		return
	}
	if a >= 0 {
		c.Combatants[a].DamageDealt += int64(n)
		c.enc[a].dealt += int64(n)
	}
	c.Combatants[d].DamageTaken += int64(n)
}

// Damage records at once what combatant i, of side s, dealt and took over
// the encounter: the sums its Hit calls would have made one by one (a
// referee that keeps an encounter's counters in its own arrays flushes them
// here once, at the encounter's end).
func (c *Counts) Damage(s, i int, dealt, taken int64) {
	c.Sides[s*c.PerSide+DamageDealt] += dealt
	if c.Combatants == nil {
		return
	}
	c.Combatants[i].DamageDealt += dealt
	c.enc[i].dealt += dealt
	c.Combatants[i].DamageTaken += taken
}

// Down records that d was put out of the fight by harm, by killer (-1 when
// nobody is to blame, e.g. bleeding to death). Call it once, when d goes
// out, not again when a dying combatant dies.
func (c *Counts) Down(d, killer int) {
	if c.Combatants == nil {
		return
	}
	c.Combatants[d].Downed++
	if killer >= 0 {
		c.Combatants[killer].Kills++
	}
}

// Turn records that i, of side s, had a turn (the side's Turns counter
// too).
func (c *Counts) Turn(s, i int) {
	c.Sides[s*c.PerSide+Turns]++
	if c.Combatants != nil {
		c.Combatants[i].Turns++
	}
}

// Lost records that i, of side s, lost an action (the side's ActionsLost
// counter too).
func (c *Counts) Lost(s, i int) {
	c.Sides[s*c.PerSide+ActionsLost]++
	if c.Combatants != nil {
		c.Combatants[i].ActionsLost++
	}
}

// End records where i ended the encounter and its hit points then. A
// referee calls it once for every combatant at the end of Play.
func (c *Counts) End(i, hp int, s EndState) {
	if c.Combatants == nil {
		return
	}
	e := &c.enc[i]
	if e.set {
		panic("sim: End called twice for one combatant in one encounter")
	}
	e.hp, e.state, e.set = hp, s, true
	c.ended++
}
