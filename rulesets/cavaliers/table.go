package cavaliers

import (
	"simctl/rulesets/internal/plain"
	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/msg"
	"simctl/sim/rng"
)

// fighter is one combatant's state during an encounter.
type fighter struct {
	hp, maxHP int
	area      int
	out       bool

	total  int    // initiative total
	raises int    // [+] rolled
	plus   int    // [+] it may use: unspent (budget) or rolled (unlock)
	key    uint64 // random tie-break among equal totals

	spec Specialty // the specialty it rolled (its ladder for the fight)
	rk   int       // its index in Combatant.Ranks

	// The encounter's counts of the events of every turn, added to
	// sim.Counts once at its end (flush) instead of one call per event:
	// turns and attacks (Actions), attack rolls and hits (Attacks, Hits),
	// damage dealt and taken (Counts.Hit's figures).
	turns, actions, attacks, hits, dealt, taken int64
}

// Table is one worker's encounter state, reused across encounters.
type Table struct {
	g     *Game
	f     []fighter
	rank  []int // the initiative ranking, highest first, of those present
	order []int // this round's order: rank with seizers moved ahead
	// orderStale: order may differ from rank (a seize moved someone, or
	// the ranking changed), so the next round copies rank into it; else
	// order still is rank.
	orderStale bool
	cur        int // index in order of the turn in progress or next
	round      int
	first      int          // first combatant to take an action (Outcome.FirstActor)
	head       int          // first in the ranking of the first round played (Outcome.FirstInOrder)
	sd         []int        // each combatant's side (Game.C[i].Side, kept dense for the scans)
	team       [2][]int     // each side's combatants, in roster order
	foes       [][]int      // foes[i]: team[1-side of i]
	dk         []diceKit    // attack, defence, damage dice taken apart (plain.Of)
	in         uint64       // bit i set while combatant i is present (entered) and not out
	dice       [MaxPool]int // the dice of the last initiative roll (for the log)
	// lastEntry is the latest round anyone enters in (Combatant.Enters).
	lastEntry int
	up        [2]int // combatants of each side not out (those yet to enter included)
	// able[a]: bit i set when combatant i could use ability a at the start
	// of this round. Within a round an ability is only ever lost (a use,
	// [+] spent, out of the fight), so the mask is a superset of who can:
	// the offers skip the others without asking can.
	able [numAbilities]uint64
	// The round's marks, bit i for combatant i, cleared at the start of
	// each round: acted, has taken its turn; moved, has spent its Move
	// (on its turn, or interposing with a Move); used[a], has used
	// ability a (used[3] unused: indexed by a&3, no bounds check).
	acted, moved uint64
	used         [4]uint64
	// at[a]: bit i set when combatant i stands in Area a (present or not:
	// with in, the present combatants of an Area); sideSet[s]: bit i set
	// for each combatant of side s. at is kept where areas change (setup,
	// move).
	at      [MaxArea + 1]uint64
	sideSet [2]uint64
	// reprising: the attack being rolled is a Reprise Attack (a trait
	// fact).
	reprising bool
	choice    int // a special action the policy chose for this attack (Choose), -1: none
	// std: bit i set when combatant i's policy is a StandardPolicy with a
	// rule, stdRule[i] (policy.go): its turn applies the rule instead of
	// calling Move and Target.
	std     uint64
	stdRule []Standard
	tr      *traitrun.Runner // traits (traits.go); nil: the game has none
	r       *rng.Stream
	c       *sim.Counts
	log     *sim.Log
}

func newTable(g *Game) *Table {
	n := len(g.C)
	t := &Table{g: g, f: make([]fighter, n), rank: make([]int, 0, n), order: make([]int, 0, n), sd: make([]int, n), dk: make([]diceKit, n)}
	for i := range g.C {
		t.sd[i] = g.C[i].Side
		t.sideSet[g.C[i].Side] |= 1 << uint(i)
		t.team[g.C[i].Side] = append(t.team[g.C[i].Side], i)
		t.lastEntry = max(t.lastEntry, g.C[i].Enters)
		t.dk[i] = diceKit{ndOf(g.C[i].Attack), ndOf(g.C[i].Defence), ndOf(g.C[i].Damage)}
	}
	t.foes = make([][]int, n)
	for i := range t.foes {
		t.foes[i] = t.team[1-t.sd[i]]
	}
	t.stdRule = make([]Standard, n)
	for i := range g.C {
		if sp, ok := g.C[i].Policy.(StandardPolicy); ok {
			// A rule naming an unknown target rule, or a focus that is
			// not an enemy, is left to the policy's methods (whose
			// choices the turn checks).
			if s, ok := sp.Standard(); ok && s.Target <= TargetFirst && s.Focus < n &&
				(s.Focus < 0 || g.C[s.Focus].Side != g.C[i].Side) {
				t.std |= 1 << uint(i)
				t.stdRule[i] = s
			}
		}
	}
	t.newTraitRunner()
	return t
}

// Play implements sim.Table.
func (t *Table) Play(r *rng.Stream, c *sim.Counts, log *sim.Log) sim.Outcome {
	t.r, t.c, t.log = r, c, log
	t.setup()
	winner, rounds := -1, 0
	for round := 1; winner < 0 && round <= t.g.Maxround; round++ {
		if t.c.Stopped() { // the run is stopping: abandoned, not counted
			return sim.Outcome{}
		}
		t.round, rounds = round, round
		if t.log != nil {
			t.logf("-- round %d", round)
			t.ev(sim.Event{Kind: sim.EvRound, Actor: sim.NoOne, Target: sim.NoOne, Round: round})
		}
		t.enter(round)
		if t.tr != nil {
			t.traitRoundStart()
		}
		t.playRound()
		winner = t.winner()
	}
	out := sim.Outcome{Winner: winner, Rounds: rounds, FirstActor: t.first, FirstInOrder: t.head}
	for i := range t.f {
		if !t.f[i].out {
			out.Survivors[t.side(i)]++
		}
	}
	if winner < 0 {
		// A turn puts at most one combatant out and the fight ends right
		// after it, so both sides all out cannot happen here; the cause
		// is still read from the survivors rather than assumed.
		out.Draw = sim.DrawMaxRounds
		if out.Survivors == [2]int{} {
			out.Draw = sim.DrawAllGone
		}
	}
	t.flush()
	t.recordEnds()
	if t.log != nil {
		if winner < 0 {
			t.logf("== draw (%s) after %d rounds", sim.DrawCauseNames[out.Draw], rounds)
			t.ev(sim.Event{Kind: sim.EvEnd, Actor: sim.NoOne, Target: sim.NoOne, Amount: rounds, Rule: sim.DrawCauseNames[out.Draw]})
		} else {
			t.logf("== side %d wins after %d rounds (survivors %d vs %d)", winner, rounds, out.Survivors[0], out.Survivors[1])
			t.ev(sim.Event{Kind: sim.EvEnd, Actor: winner, Target: sim.NoOne, Amount: rounds})
		}
	}
	return out
}

// setup rolls hit points and places everyone in its Area.
func (t *Table) setup() {
	t.rank, t.order = t.rank[:0], t.order[:0]
	t.orderStale = true
	t.first, t.head, t.cur = -1, -1, 0
	t.up, t.in = [2]int{}, 0
	t.at = [MaxArea + 1]uint64{}
	t.choice = -1
	if t.tr != nil {
		t.tr.Start(t.r, t.c, t.log)
	}
	for i := range t.f {
		c := &t.g.C[i]
		hp := c.HP.Roll(t.r)
		t.f[i] = fighter{hp: hp, maxHP: hp, area: c.Area, spec: c.Specialty}
		t.at[c.Area] |= 1 << uint(i)
		t.up[c.Side]++
		if t.log != nil {
			when := msg.New("from the start")
			if c.Enters > 1 {
				when = msg.New("enters in round %d", c.Enters)
			}
			var also msg.Text
			for _, r := range c.Ranks[1:] {
				also = msg.New("%s, also %s %s", also, r.Specialty.String(), r.Pool.String())
			}
			t.logf("%s (side %d, %s, pool %s%s) hp %d, attack %s vs defence %s, damage %s, Area %d, %s",
				c.Name, c.Side, c.Specialty, c.Pool, also, hp, c.Attack, c.Defence, c.Damage, c.Area, when)
		}
	}
}

// winner returns the side whose opponents are all out, or -1. A combatant
// yet to enter is not out: its side is not beaten while help is coming.
func (t *Table) winner() int {
	switch {
	case t.up[0] > 0 && t.up[1] == 0:
		return 0
	case t.up[1] > 0 && t.up[0] == 0:
		return 1
	}
	return -1
}

// over reports whether a side has won: winner() >= 0, that is one side
// with none up and the other with some.
func (t *Table) over() bool { return (t.up[0] == 0) != (t.up[1] == 0) }

func (t *Table) logf(format string, args ...any) {
	if t.log != nil {
		t.log.Printf(format, args...)
	}
}

func (t *Table) name(i int) string { return t.g.C[i].Name }

func (t *Table) side(i int) int { return t.sd[i] }

// Read-only accessors for policies.

// N is the number of combatants.
func (t *Table) N() int { return len(t.f) }

// Game returns the compiled scenario.
func (t *Table) Game() *Game { return t.g }

// Side is combatant i's side.
func (t *Table) Side(i int) int { return t.sd[i] }

// Foes lists the combatants of the side opposing i's, in roster order,
// present or not: the enemies a scan needs to visit. The slice is the
// Table's own; do not modify it.
func (t *Table) Foes(i int) []int { return t.foes[i] }

// HP is combatant i's current hit points.
func (t *Table) HP(i int) int { return t.f[i].hp }

// MaxHP is the hit points combatant i started this encounter with.
func (t *Table) MaxHP(i int) int { return t.f[i].maxHP }

// Out reports whether combatant i is out of the fight.
func (t *Table) Out(i int) bool { return t.f[i].out }

// Present reports whether combatant i is in the fight: entered and not out.
func (t *Table) Present(i int) bool { return t.in&(1<<(uint(i)&63)) != 0 } // &63: i < 64 (one shift)

// Area is the Area combatant i stands in.
func (t *Table) Area(i int) int { return t.f[i].area }

// FoesIn is the set of i's foes present in Area a (bit j for combatant j):
// walked from the lowest bit, the roster order of Foes. a must be an Area
// (0..MaxArea).
func (t *Table) FoesIn(i, a int) uint64 { return t.in & t.at[a&MaxArea] & t.sideSet[1-t.sd[i]] }

// FoesPresent is the set of i's foes present in the fight, as FoesIn.
func (t *Table) FoesPresent(i int) uint64 { return t.in & t.sideSet[1-t.sd[i]] }

// Acted reports whether combatant i has taken its turn this round.
func (t *Table) Acted(i int) bool { return t.acted&(1<<(uint(i)&63)) != 0 }

// Moved reports whether combatant i has spent its Move this round (on its
// turn, or interposing with a Move).
func (t *Table) Moved(i int) bool { return t.moved&(1<<(uint(i)&63)) != 0 }

// Specialty is the Initiative specialty combatant i rolled (its main one
// before it enters).
func (t *Table) Specialty(i int) Specialty { return t.f[i].spec }

// Round is the current round, from 1.
func (t *Table) Round() int { return t.round }

// Total is combatant i's initiative total.
func (t *Table) Total(i int) int { return t.f[i].total }

// Raises is the number of [+] combatant i rolled on initiative.
func (t *Table) Raises(i int) int { return t.f[i].raises }

// Plus is the [+] combatant i may still use: unspent ones under budget,
// the rolled ones under unlock.
func (t *Table) Plus(i int) int { return t.f[i].plus }

// Can reports whether combatant i may use ability a now (specialty, price
// and the once-a-round limit; not whether the situation allows it).
func (t *Table) Can(i int, a Ability) bool { return t.can(i, a) }

// Rank is combatant i's place in the initiative ranking (0: first), or -1
// if it has not entered.
func (t *Table) Rank(i int) int {
	for k, v := range t.rank {
		if v == i {
			return k
		}
	}
	return -1
}

// Rand is the encounter's random stream, for policies that choose at random.
func (t *Table) Rand() *rng.Stream { return t.r }

// flush adds the encounter's per-fighter counts to sim.Counts, as the
// calls per event they replace would have (Counts.Turn, Inc of Actions,
// Attacks and Hits, Counts.Hit): the same sums, once an encounter. An
// encounter abandoned (Counts.Stopped) is dropped whole, so it is not
// flushed.
func (t *Table) flush() {
	c := t.c
	per := c.PerSide
	for i := range t.f {
		f := &t.f[i]
		s := t.sd[i]
		v := c.Sides[s*per : s*per+per]
		v[sim.Turns] += f.turns
		v[sim.Actions] += f.actions
		v[Attacks] += f.attacks
		v[Hits] += f.hits
		c.Damage(s, i, f.dealt, f.taken)
		if c.Combatants != nil {
			c.Combatants[i].Turns += f.turns
		}
	}
}

// recordEnds reports where each combatant ended (per-combatant results):
// out of the fight is always by a blow.
func (t *Table) recordEnds() {
	for i := range t.f {
		st := sim.Standing
		if t.f[i].out {
			st = sim.Down
		}
		t.c.End(i, t.f[i].hp, st)
	}
}

// diceKit holds a combatant's attack, defence and damage dice taken apart:
// an attack rolls them in a plain loop written into it (same draws as
// Expr.Roll).
type diceKit struct{ attack, defence, damage nd }

// nd is a dice expression of the form NdM+K (one kind of die added up,
// plus a constant; N = 0 for a constant) taken apart; n < 0: of another
// form, rolled by its Expr.
type nd struct{ n, m, k int }

// exprDice makes newTable leave every dice expression to its Expr: for
// the tests that compare the loops written into attack with Expr.Roll.
var exprDice = false

// ndOf takes e apart as plain.Of does (the canonical form, cross-checked
// against its dice count, minimum and maximum).
func ndOf(e dice.Expr) nd {
	p := plain.Of(e)
	if !p.Plain() || exprDice {
		return nd{n: -1}
	}
	n, m, k := p.Parts()
	return nd{n: n, m: m, k: k}
}

// ev records a structured trace event beside the narration (sim.Event);
// callers build it only where they narrate, so an untraced run builds none.
func (t *Table) ev(e sim.Event) { t.log.Event(e) }
