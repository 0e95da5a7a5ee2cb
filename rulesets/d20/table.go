package d20

import (
	"math/bits"

	"simctl/sim"
	"simctl/sim/rng"
)

// fighter is one combatant's state during an encounter.
type fighter struct {
	hp         int
	maxHP      int // at the start of the encounter (self.hp_pct)
	count      int // initiative count; changes with Delay and Ready
	x          int // position in feet on the line between the sides
	out        bool
	dead       bool
	dying      bool
	flatFooted bool
	aooLeft    int32 // attacks of opportunity left this round
	aooMax     int32 // attacks of opportunity per round (1; more by a trait: Combat Reflexes)
	lastAct    int   // Table.seq of its latest action (act, ready, readied action)
	chargeAC   bool  // -2 AC from its own charge until its next turn
	charging   bool  // in the middle of a charge (for brace and charge triggers)

	delayed    bool
	delayAfter int // -1: delaying to count delayTo
	delayTo    int
	delayMark  int // Table.seq when it began to delay: it waits for delayAfter to act after that
	outAt      int // Table.seq when it went out of the fight

	readied bool
}

// fighterCold is the part of a combatant's state the usual turn never
// reads (readied plans, spell uses), kept apart so that the fighters the
// hot loop walks stay small.
type fighterCold struct {
	ready      Plan // valid while fighter.readied
	ammo       int  // shots left of its ranged weapon (-1: no limit)
	unloaded   bool // its crossbow needs reloading
	readyRound int  // the round it readied in (a readied action taken in a later one replaces that round's turn)
	uses       [maxSpells]int
}

// Table is one worker's encounter state, reused across encounters.
type Table struct {
	g      *Game
	f      []fighter
	cold   []fighterCold
	order  []int   // initiative order, highest first; Delay and Ready move entries
	keys   []int64 // scratch for sorting the order (initKey)
	sorted []int64 // scratch for bucketByCount
	bucket []int   // scratch for bucketByCount
	actor  int     // combatant whose turn is in progress (-1 between turns)
	cur    int     // index of actor's entry in order
	round  int     // 0: surprise round
	stdOne bool    // surprise round: one standard action only
	resume bool    // the actor is taking a delayed action
	first  int     // first combatant to take an action (sim.Outcome.FirstActor)
	head   int     // first combatant to have a turn (sim.Outcome.FirstInOrder)
	seq    int     // actions taken so far in the encounter (orders fighter.lastAct)
	plan   Plan    // the plan of the turn in progress, filled by its policy

	// mv is the combatant whose move is in progress (-1: none), from
	// mvFrom (the part not yet narrated) toward mvTo; for the trace only.
	mv, mvFrom, mvTo int

	// standing counts each side's combatants still in the fight, so the
	// winner check after every action is O(1).
	standing [2]int
	// Per-side target state (targets.go): the standing combatants, the
	// weakest of them, the span of their positions.
	up        [2][]int
	weak      [2]int
	lo, hi    [2]int
	spanDirty [2]bool
	// tactics is set once anyone readies or delays in this encounter; until
	// then the trigger and resumption scans are skipped (most turns of most
	// fights).
	tactics bool
	// Who may answer a trigger or resume, as bit masks by roster index
	// (scenario.MaxCombatants is 64), so that a move, an action or a
	// count asks only them: readyOn[k] holds every combatant with a
	// readied action of trigger k, delayCount those delaying to a count,
	// delayWait those waiting for a named combatant. Each is a superset of
	// what the flags say (a bit is set where the flag is, and cleared
	// where it is, or later): the scans keep their own tests and order,
	// and an empty mask only skips a scan that would have found no one.
	readyOn    [8]uint64
	readyShot  uint64 // those of readyOn whose readied action is a shot (approach asks only them)
	delayCount uint64
	delayWait  uint64
	// acted and movedMask hold who has taken an action this round (for
	// "after X has acted") and who has moved this round (the readied
	// 5-foot step rule): one store each resets them every round.
	acted, movedMask uint64
	// upMask holds each side's combatants still in the fight (as up);
	// sideMask, all of each side's.
	upMask, sideMask [2]uint64
	// reachMax is the longest reach on each side (set in newTable: the
	// roster's reaches do not change during a fight).
	reachMax [2]int
	// crossed: some combatant may stand beyond an enemy (flanking.go);
	// until then no one is flanked on the line. far: the extreme positions
	// each side has held, which keep it.
	crossed bool
	far     [2]int
	// The encounter's turns and damage dealt and taken, by roster index,
	// added to the Counts once at its end (flushCounts) instead of through
	// them at every turn and blow.
	turns, dealt, taken []int64
	ts                  *traitState // nil: the game has no traits
	fs                  *fusedState // nil: the game is not fused (fused.go)
	r                   *rng.Stream
	c                   *sim.Counts
	log                 *sim.Log
}

func newTable(g *Game) *Table {
	n := len(g.C)
	t := &Table{g: g, f: make([]fighter, n), cold: make([]fighterCold, n), order: make([]int, 0, n), keys: make([]int64, 0, n), sorted: make([]int64, n), bucket: make([]int, 4*n+1)}
	for s := range t.up {
		t.up[s] = make([]int, 0, n)
	}
	for i, s := range g.sideOf {
		t.sideMask[s] |= 1 << uint(i)
		t.reachMax[s] = max(t.reachMax[s], g.C[i].Reach)
	}
	t.turns, t.dealt, t.taken = make([]int64, n), make([]int64, n), make([]int64, n)
	if g.traits != nil {
		t.ts = newTraitState(g)
	}
	if g.fused != nil {
		t.fs = new(fusedState)
	}
	return t
}

// Play implements sim.Table.
func (t *Table) Play(r *rng.Stream, c *sim.Counts, log *sim.Log) sim.Outcome {
	t.r, t.c, t.log = r, c, log
	if t.fs != nil && log == nil {
		return t.playFused(r, c)
	}
	t.setup()
	t.rollInitiative()
	winner := -1
	rounds := 0
	if t.surpriseRound() {
		t.round = 0
		t.stdOne = true
		t.logf("-- surprise round: the aware act, one standard action each")
		t.ev(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: 0, Rule: "surprise"})
		if t.g.traits != nil {
			t.traitRoundStart()
		}
		t.playRound()
		t.stdOne = false
		winner = t.winner()
	}
	for round := 1; winner < 0 && !t.allGone() && round <= t.g.Maxround; round++ {
		if t.c.Stopped() { // the run is stopping: abandoned, not counted
			return sim.Outcome{}
		}
		t.round = round
		rounds = round
		if t.log != nil {
			t.logf("-- round %d", round)
			t.ev(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: round})
		}
		if t.g.traits != nil {
			t.traitRoundStart()
		}
		t.playRound()
		t.endOfRound()
		winner = t.winner()
	}
	out := sim.Outcome{Winner: winner, Rounds: rounds, FirstActor: t.first, FirstInOrder: t.head}
	switch {
	case winner >= 0:
	case t.allGone():
		// Not reachable with today's rules (every action drops at most
		// its target, and the fight stops as soon as one side is out),
		// but reported rather than miscounted if a rule ever allows it.
		out.Draw = sim.DrawAllGone
	default:
		out.Draw = sim.DrawMaxRounds
	}
	out.Survivors = t.standing
	t.flushCounts()
	t.recordEnds()
	if log != nil {
		t.logOutcome(out)
	}
	return out
}

// setup rolls hit points and places everyone at the start.
func (t *Table) setup() {
	t.actor, t.first, t.head, t.seq, t.mv = -1, -1, -1, 0, -1
	t.standing = t.g.sideCount // everyone stands at the start
	t.tactics = false
	t.acted, t.movedMask = 0, 0
	t.readyOn, t.readyShot, t.delayCount, t.delayWait = [8]uint64{}, 0, 0, 0
	clear(t.turns)
	clear(t.dealt)
	clear(t.taken)
	for i := range t.f {
		c := &t.g.C[i]
		f := &t.f[i]
		*f = fighter{hp: rollDice(t.r, &c.HP), flatFooted: true, delayAfter: -1, aooLeft: 1, aooMax: 1}
		f.maxHP = f.hp
		// position: feet behind the side's front line (side 0's at 0, side
		// 1's at distance), away from the other side.
		f.x = -c.Position
		if c.Side == 1 {
			f.x = t.g.Distance + c.Position
		}
		for s := range c.Spells {
			t.cold[i].uses[s] = c.Spells[s].Uses
		}
		t.cold[i].ammo, t.cold[i].unloaded = c.Ranged.Ammo, false
		if t.log != nil {
			t.logf("%s (side %d) hp %d, ac %d, at %d ft", c.Name, c.Side, f.hp, c.AC, f.x)
		}
	}
	t.resetTargets()
	t.setCrossed()
	if t.ts != nil {
		t.traitSetup()
	}
}

// winner returns the side whose opponents are all out, or -1.
func (t *Table) winner() int {
	switch {
	case t.standing[1] == 0 && t.standing[0] > 0:
		return 0
	case t.standing[0] == 0 && t.standing[1] > 0:
		return 1
	}
	return -1
}

// over reports whether the fight is over: one side (or both) has no one
// left fighting, which is winner() >= 0 || allGone() in two tests.
func (t *Table) over() bool { return t.standing[0] == 0 || t.standing[1] == 0 }

// allGone reports whether no combatant of either side is left fighting.
func (t *Table) allGone() bool { return t.standing[0] == 0 && t.standing[1] == 0 }

// acts records that i takes an action now: an Act plan (its turn's or its
// delayed action), readying, or its readied action (a delay is not an
// action). Outside the surprise round this is an action in the regular
// order, which ends flat-footedness even when it comes before i's first
// regular turn (a delayed or readied action carried over from the surprise
// round).
func (t *Table) acts(i int) {
	t.seq++
	f := &t.f[i]
	t.acted |= 1 << uint(i)
	f.lastAct = t.seq
	if !t.stdOne || t.g.Opt.SurpriseEndsFlatFooted {
		f.flatFooted = false
	}
}

// firstAction records i as the encounter's first actor if nobody has taken
// an action yet. It is called where an action starts to take effect (a
// step of movement, an attack roll, a spell past the readied actions it
// set off, a counterspell), so a readied action that interrupts the
// triggering action comes first, and deciding to delay or to ready is never
// an action.
func (t *Table) firstAction(i int) {
	if t.first < 0 {
		t.first = i
	}
}

func (t *Table) logf(format string, args ...any) {
	if t.log != nil {
		t.log.Printf(format, args...)
	}
}

func (t *Table) name(i int) string { return t.g.C[i].Name }

func (t *Table) side(i int) int { return t.g.sideOf[i] }

// index returns the position of combatant i in the order.
func (t *Table) index(i int) int {
	for k, v := range t.order {
		if v == i {
			return k
		}
	}
	panic("d20: combatant missing from the initiative order")
}

// place moves combatant i in the order to just before (or after) anchor and
// keeps t.cur on the actor whose turn is in progress.
func (t *Table) place(i, anchor int, after bool) {
	k := t.index(i)
	t.order = append(t.order[:k], t.order[k+1:]...)
	a := t.index(anchor)
	if after {
		a++
	}
	t.order = append(t.order, 0)
	copy(t.order[a+1:], t.order[a:])
	t.order[a] = i
	if t.actor >= 0 {
		t.cur = t.index(t.actor)
	}
}

func (t *Table) logOutcome(o sim.Outcome) {
	switch o.Winner {
	case -1:
		if t.log != nil {
			t.logf("== draw after %d rounds", o.Rounds)
			t.ev(sim.Event{Kind: sim.EvEnd, Actor: sim.NoOne, Target: sim.NoOne, Amount: o.Rounds})
		}
	default:
		if t.log != nil {
			t.logf("== side %d wins after %d rounds (survivors %d vs %d)", o.Winner, o.Rounds, o.Survivors[0], o.Survivors[1])
			t.ev(sim.Event{Kind: sim.EvEnd, Actor: o.Winner, Target: sim.NoOne, Amount: o.Rounds})
		}
	}
}

// Read-only accessors for policies.

// N is the number of combatants.
func (t *Table) N() int { return len(t.f) }

// Game returns the compiled scenario.
func (t *Table) Game() *Game { return t.g }

// HP is combatant i's current hit points.
func (t *Table) HP(i int) int { return t.f[i].hp }

// Out reports whether combatant i is out of the fight.
func (t *Table) Out(i int) bool { return t.f[i].out }

// Side is combatant i's side.
func (t *Table) Side(i int) int { return t.g.sideOf[i] }

// SideSize is the number of combatants side s started with.
func (t *Table) SideSize(s int) int { return t.g.sideCount[s] }

// Dist is the distance in feet between i and j.
func (t *Table) Dist(i, j int) int { return abs(t.f[i].x - t.f[j].x) }

// InReach reports whether i can hit j in melee without moving.
func (t *Table) InReach(i, j int) bool { return t.Dist(i, j) <= t.g.C[i].Reach }

// Engaged reports whether an enemy that is still in the fight stands within
// i's reach.
func (t *Table) Engaged(i int) bool {
	x, reach := t.f[i].x, t.g.C[i].Reach
	for m := t.upMask[1-t.side(i)]; m != 0; m &= m - 1 {
		if abs(x-t.f[bits.TrailingZeros64(m)].x) <= reach {
			return true
		}
	}
	return false
}

// Acted reports whether i has taken an action this round.
func (t *Table) Acted(i int) bool { return t.acted&(1<<uint(i)) != 0 }

// hasMoved reports whether i has moved this round.
func (t *Table) hasMoved(i int) bool { return t.movedMask&(1<<uint(i)) != 0 }

// Round is the current round (0 for the surprise round).
func (t *Table) Round() int { return t.round }

// StandardOnly is true in the surprise round.
func (t *Table) StandardOnly() bool { return t.stdOne }

// Resuming is true while i takes a delayed action.
func (t *Table) Resuming(i int) bool { return t.resume && t.actor == i }

// Count is i's current initiative count.
func (t *Table) Count(i int) int { return t.f[i].count }

// Uses is how many casts of spell s combatant i has left.
func (t *Table) Uses(i, s int) int { return t.cold[i].uses[s] }

// Rand is the encounter's random stream, for policies that choose at random.
func (t *Table) Rand() *rng.Stream { return t.r }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// flushCounts adds the encounter's turns and damage to the Counts: what
// Counts.Turn and Counts.Hit would have added turn by turn and blow by
// blow (an abandoned encounter, which the run does not count, is never
// flushed).
func (t *Table) flushCounts() {
	c := t.c
	per := c.PerSide
	for i, s := range t.g.sideOf {
		c.Sides[s*per+sim.Turns] += t.turns[i]
		if c.Combatants != nil {
			c.Combatants[i].Turns += t.turns[i]
		}
		c.Damage(s, i, t.dealt[i], t.taken[i])
	}
}

// recordEnds reports where each combatant ended (per-combatant results): in
// d20 everyone out of the fight was put out by damage.
func (t *Table) recordEnds() {
	for i := range t.f {
		st := sim.Standing
		if t.f[i].out {
			st = sim.Down
		}
		t.c.End(i, t.f[i].hp, st)
	}
}

// ev records a structured trace event beside the narration (sim.Event);
// callers build it only where they narrate, so an untraced run builds none.
func (t *Table) ev(e sim.Event) { t.log.Event(e) }
