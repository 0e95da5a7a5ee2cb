package acks2

import (
	"math"
	"math/bits"

	"simctl/rulesets/internal/plain"
	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/rng"
)

// fighter is one combatant's state during an encounter. The fields every
// scan reads come first and the struct is kept small (spell uses and
// effects in 16-bit fields): the referee walks the roster many times a
// round.
type fighter struct {
	hp, maxHP int
	x         int // position in feet on the line between the sides
	out       bool
	dead      bool
	fled      bool

	ready     bool // holds a readied attack
	hpChecked bool // made its half-HP morale check (morale_repeat: once)

	// This round (side by side: declarations clears them at once).
	startDone  bool // start-of-segment effects applied (at its own number)
	endDone    bool // end-of-segment effects applied
	segDone    bool // its segment is over: acted, readied, or lost
	numberLost bool // gave its number for a round-1 attack
	castLost   bool // its declared spell was lost to damage
	charging   bool
	delaying   bool
	queued     bool // released from a wait, its delayed action pending
	r1         bool // round 1: missile or long weapon ready against a charge

	number     int // initiative number (1d6 + init)
	floor      int // the lowest count it may delay to: -number (its own number if <= 0)
	decl       Declaration
	chargeAt   int // the target of its charge in progress
	cleaves    int // extra attacks after kills used this round
	delayAfter int // -1: delaying to count delayTo
	delayTo    int
	readyRound int // the round it was readied in

	neff int
	uses [maxSpells]int16 // casts left (Spell.Uses is at most 1000)
	eff  [maxEffects]effect
}

// effect is a lingering spell effect on its bearer.
type effect struct {
	src, spell int16 // the caster and its spell (Game.C[src].Spells[spell])
	left       int32 // ticks left (ongoing_rounds is at most 1000)
}

// Table is one worker's encounter state, reused across encounters.
type Table struct {
	g     *Game
	f     []fighter
	slots []int // combatants called on the current count
	// interrupters: the enemies that may interrupt a movement (interruptMove)
	interrupters []int
	key          []int         // scratch sort keys, by roster index
	groupDie     []int         // group initiative: the die of each group this round
	declared     []Declaration // declarations asked but not yet heard (declarations)
	sd           []int         // each combatant's side (Game.C[i].Side, kept dense for the scans)
	team         [2][]int      // each side's combatants, in roster order
	foes         [][]int       // foes[i]: team[1-side of i]
	reach        []int         // how far each can attack: 5 feet, or a missile's range (unlimited: 1<<30)
	free         []int         // how far an enemy may be and still be within reach when not engaged (WeakestTarget)
	hpDice       []plain.Dice  // each combatant's HP and damage dice taken apart: rolled
	dmgDice      []plain.Dice  // in a plain loop, the same draws as Expr.Roll
	rolled       []bool        // the initiative die is rolled each round (no pinned rolls, no group die)
	init         []int         // each combatant\'s initiative modifier (Game.C[i].Init, dense)
	eng          [][]engager   // eng[i]: the enemies that can engage i, in roster order, and how much each counts
	// The answers of Steady policies, asked once (policy.go): quiet[i]
	// need not be asked to declare; steady[i] ranks rank[i] and goes
	// before (before[i]) on a shared number.
	quiet     []bool
	steady    []bool
	rank      []int
	before    []bool
	declarers int // combatants whose policy must be asked to declare
	// byNum[10-n]: bit i set for combatant i, in the fight when
	// initiative was rolled, whose number this round is n.
	byNum       [21]uint64
	round       int
	now         int // the count being called
	first       int // first combatant to take an action (Outcome.FirstActor)
	firstOrder  int // first combatant called in round 1 (Outcome.FirstInOrder)
	resumer     int // combatant taking its delayed action (-1: none)
	actor       int // combatant whose segment is in progress (-1: none)
	sideChecked [2]bool
	up          [2]int // combatants of each side still in the fight
	// standing[s]: bit i set for each combatant i of side s still in the
	// fight (kept with up; the target scans walk it instead of the roster)
	standing [2]uint64
	start    [2]uint64 // standing at the start of an encounter
	toStart  int       // combatants in the fight whose number has not come this round
	delayers int       // combatants delaying
	readied  bool      // someone readied an attack this encounter (a readied attack may be pending)
	// Shortcuts decided from the game (shortcuts.go).
	noFx       bool
	plainOrder bool
	beforeMask uint64 // bit i: i's Steady policy acts before on a shared number
	r1Cache    bool   // round 1's readiness is the same every encounter
	r1Known    bool   // r1Start holds it (after the first encounter)
	r1Start    uint64
	weakOn     bool // weak is kept (shortcuts.go)
	// wd: the common dice are written out on the stream's words
	// (shortcuts.go); hp1 and dmg1 are the HP and damage dice of the form
	// 1dM+K (sides 0: another form, rolled by plain.Dice).
	wd        bool
	allRolled bool    // wd, and every initiative die is rolled (rollAll)
	plain     []uint8 // plainCharge or plainNoCharge: i's policy is Plain (shortcuts.go); 0: ask Turn
	hp1, dmg1 []oneDie
	// weak[s]: the standing combatant of side s with the fewest HP, the
	// first on a tie; weakNone: nobody stands; weakOff: not kept
	// (shortcuts.go).
	weak  [2]int
	tr    *traitrun.Runner // traits (traits.go); nil: the game has none
	extra []int            // with traits: extra attack actions of each one's segment
	r     *rng.Stream
	c     *sim.Counts
	log   *sim.Log
}

// engager is an enemy that can engage a combatant and how much it counts
// toward engaging it (engageUnit/EngagedBy[its size]).
type engager struct{ j, w int32 }

func newTable(g *Game) *Table {
	n := len(g.C)
	t := &Table{g: g, f: make([]fighter, n), slots: make([]int, 0, n), interrupters: make([]int, 0, n), key: make([]int, n), groupDie: make([]int, n),
		declared: make([]Declaration, n),
		sd:       make([]int, n), reach: make([]int, n), free: make([]int, n), hpDice: make([]plain.Dice, n), dmgDice: make([]plain.Dice, n), rolled: make([]bool, n), init: make([]int, n)}
	t.eng = make([][]engager, n)
	t.quiet, t.steady, t.rank, t.before = make([]bool, n), make([]bool, n), make([]int, n), make([]bool, n)
	for i := range g.C {
		ci := &g.C[i]
		if sp, ok := ci.Policy.(Steady); ok {
			quiet, rank, before := sp.Steady()
			t.quiet[i], t.steady[i], t.rank[i], t.before[i] = quiet, true, clampRank(rank), before
		}
		if !t.quiet[i] {
			t.declarers++
		}
		t.sd[i] = ci.Side
		t.hpDice[i], t.dmgDice[i] = plain.Of(ci.HP), plain.Of(ci.Damage)
		t.init[i] = ci.Init
		t.rolled[i] = len(ci.InitRolls) == 0 && ci.InitRoll <= 0 && !(g.Opt.GroupInitiative && ci.Side == g.Referee)
		t.team[ci.Side] = append(t.team[ci.Side], i)
		t.start[ci.Side] |= 1 << (uint(i) & 63)
		switch {
		case ci.Weapon != Missile:
			t.reach[i] = 5
		case ci.Range == 0:
			t.reach[i] = 1 << 30
		default:
			t.reach[i] = ci.Range
		}
		// Within reach after moving: up to twice its speed (a charge or,
		// farther, a march), its speed with a missile weapon, to within
		// 5 feet; or where it stands.
		speed := ci.Speed
		if ci.Weapon != Missile {
			speed *= 2
		}
		t.free[i] = max(t.reach[i], speed+5)
		for j := range g.C {
			cj := &g.C[j]
			if cj.Side != ci.Side && (!ci.Flies || cj.Flies) {
				t.eng[i] = append(t.eng[i], engager{j: int32(j), w: int32(engageUnit / ci.EngagedBy[cj.Size])})
			}
		}
	}
	t.foes = make([][]int, n)
	for i := range t.foes {
		t.foes[i] = t.team[1-t.sd[i]]
	}
	t.newTraitRunner()
	t.plain = make([]uint8, n)
	t.decideShortcuts()
	return t
}

// setup rolls hit points and places everyone at the start: side 0 at 0
// feet and behind it, side 1 at the scenario's distance and behind that.
func (t *Table) setup() {
	t.first, t.firstOrder, t.resumer, t.actor = -1, -1, -1, -1
	t.readied = false
	t.sideChecked = [2]bool{}
	t.up = t.g.sideCount
	t.standing = t.start
	if t.tr != nil {
		t.tr.Start(t.r, t.c, t.log)
	}
	for i := range t.f {
		c := &t.g.C[i]
		f := &t.f[i]
		var hp int
		if t.wd && t.hp1[i].sides > 0 { // shortcuts.go: one die written out
			h1 := &t.hp1[i]
			un := uint64(h1.sides)
			hi, lo := bits.Mul64(t.r.Uint64(), un)
			hp = int(hi) + 1
			if lo < un {
				hp = plain.Reroll(t.r, un, hi, lo)
			}
			hp += h1.k
		} else {
			hp = t.hpDice[i].Roll(t.r, &c.HP)
		}
		*f = fighter{hp: hp, maxHP: hp, delayAfter: -1}
		if c.Side == 0 {
			f.x = -c.Behind
		} else {
			f.x = t.g.Distance + c.Behind
		}
		for s := range c.Spells {
			f.uses[s] = int16(c.Spells[s].Uses)
		}
		if t.log != nil {
			t.logf("%s (%s%s): hp %d, AC %d, attack throw %d+, %s, at %d ft", c.Name, t.g.SideNames[c.Side], refWord(c.Side, t.g.Referee),
				f.hp, c.AC, c.AttackThrow, msg.New("%s weapon", weaponNames[c.Weapon]), f.x)
		}
	}
	t.weak = [2]int{weakOff, weakOff}
	if t.weakOn {
		t.findWeak(0)
		t.findWeak(1)
	}
}

func refWord(s, referee int) msg.Text {
	if s == referee {
		return msg.New(", the referee's side")
	}
	return msg.Text{}
}

// alive counts side s's combatants still in the fight.
func (t *Table) alive(s int) int { return t.up[s] }

// takeOut puts i out of the fight (killed or fled).
func (t *Table) takeOut(i int) {
	f := &t.f[i]
	if f.out {
		return
	}
	if f.delaying { // stopDelay, written out to keep takeOut inlined
		f.delaying = false
		t.delayers--
	}
	if !f.startDone {
		t.toStart--
	}
	f.out, f.ready, f.r1 = true, false, false
	s := t.sd[i]
	t.up[s]--
	t.standing[s] &^= 1 << (uint(i) & 63)
	if t.weak[s] == i {
		t.findWeak(s) // shortcuts.go
	}
}

// stopDelay ends i's delay, if it is delaying.
func (t *Table) stopDelay(i int) {
	if t.f[i].delaying {
		t.f[i].delaying = false
		t.delayers--
	}
}

// over reports whether a side is all out.
func (t *Table) over() bool { return t.alive(0) == 0 || t.alive(1) == 0 }

// winner returns the side whose opponents are all out, or -1.
func (t *Table) winner() int {
	a0, a1 := t.alive(0), t.alive(1)
	switch {
	case a0 > 0 && a1 == 0:
		return 0
	case a1 > 0 && a0 == 0:
		return 1
	}
	return -1
}

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

// HP is combatant i's current hit points.
func (t *Table) HP(i int) int { return t.f[i].hp }

// MaxHP is combatant i's hit points at the start of the encounter.
func (t *Table) MaxHP(i int) int { return t.f[i].maxHP }

// Out reports whether combatant i is out of the fight (killed or fled).
func (t *Table) Out(i int) bool { return t.f[i].out }

// Standing is side s's combatants still in the fight: bit i set for
// combatant i.
func (t *Table) Standing(s int) uint64 { return t.standing[s] }

// Side is combatant i's side.
func (t *Table) Side(i int) int { return t.sd[i] }

// Alive counts the combatants of side s still in the fight.
func (t *Table) Alive(s int) int { return t.alive(s) }

// Foes lists the combatants of the side opposing i's, in roster order,
// in the fight or not: the enemies a scan needs to visit. The slice is the
// Table's own; do not modify it.
func (t *Table) Foes(i int) []int { return t.foes[i] }

// Dist is the distance in feet between i and j.
func (t *Table) Dist(i, j int) int { return abs(t.f[i].x - t.f[j].x) }

// WeakestWithin is the scan of the default target choice: among self's
// enemies in the fight, the one with the fewest HP within lim feet of it
// (every enemy counts as within when all is true), else, unless withinOnly,
// the one with the fewest HP farther away; the first in roster order on a
// tie (-1: none).
func (t *Table) WeakestWithin(self, lim int, all, withinOnly bool) int {
	const within = 1 << 40 // HP are far smaller: within sorts first
	x := t.f[self].x
	s := 1 - t.sd[self]
	w := t.weak[s]
	if w >= 0 {
		// shortcuts.go: the side's weakest, when it counts as within, is
		// the answer (the fewest HP of all, the first on a tie).
		if all || abs(t.f[w].x-x) <= lim {
			return w
		}
	} else if w == weakNone {
		return -1
	}
	best, bestKey := -1, math.MaxInt
	// The enemies in the fight, in roster order: the bits of standing.
	for m := t.standing[s]; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		f := &t.f[j]
		key := f.hp
		if all || abs(f.x-x) <= lim {
			key -= within
		} else if withinOnly {
			continue
		}
		if key < bestKey {
			best, bestKey = j, key
		}
	}
	return best
}

// WeakestTarget is the default policy's target (target: weakest): among
// self's enemies in the fight, those within reach first — those it can
// attack where it stands (Reach) or, not engaged, after moving (up to
// twice its speed for a charge or march, its speed with a missile weapon,
// to within 5 feet); engaged, only those it can attack now; a declared
// caster counts every enemy as within reach — then the fewest HP, the
// first in roster order on a tie; engaged with no one it can attack, the
// nearest enemy (-1: none). The default policy asks it, and the referee
// asks it itself for a policy that says its turn is always this (Plain).
func (t *Table) WeakestTarget(self int) int {
	caster := t.f[self].decl.Kind == DeclareSpell
	reach, free := t.reach[self], t.free[self]
	// In one comparison per enemy (WeakestWithin): engagement only
	// narrows "within reach" to the enemies it can attack now: when the
	// weakest within the wider limit is one of those (or every enemy
	// counts, for a caster), it is the answer engaged or not, and
	// engagement need not be asked.
	best := t.WeakestWithin(self, free, caster, false)
	if best < 0 || caster || t.Dist(self, best) <= reach || !t.engaged(self) {
		return best
	}
	if best = t.WeakestWithin(self, reach, false, true); best >= 0 {
		return best
	}
	return t.nearestEnemy(self) // engaged with no one it can attack
}

// Reach is how far i can attack from where it stands: 5 feet, or its
// missile weapon's range (unlimited range: 1<<30). CanAttack(i, j) is an
// enemy j in the fight within Reach(i).
func (t *Table) Reach(i int) int { return t.reach[i] }

// Engaged reports whether i is engaged (enough enemies within 5 feet).
func (t *Table) Engaged(i int) bool { return t.engaged(i) }

// CanAttack reports whether i can attack j where both stand: j is an
// enemy in the fight, within 5 feet for melee or long weapons, in range
// for a missile weapon.
func (t *Table) CanAttack(i, j int) bool { return t.canAttack(i, j) }

// CanCharge reports whether i could charge j now: not engaged, j beyond
// 5 feet and no farther than twice i's speed (a screen may still stop it).
func (t *Table) CanCharge(i, j int) bool {
	gap := t.Dist(i, j) - 5
	return t.g.C[i].Weapon != Missile && !t.engaged(i) && gap > 0 && gap <= 2*t.g.C[i].Speed
}

// Round is the current round, from 1.
func (t *Table) Round() int { return t.round }

// Count is the initiative count being called.
func (t *Table) Count() int { return t.now }

// Number is i's initiative number this round.
func (t *Table) Number(i int) int { return t.f[i].number }

// Floor is the lowest count i may delay to this round.
func (t *Table) Floor(i int) int { return t.f[i].floor }

// Acted reports whether i's segment is over this round (it acted, readied,
// gave its number or lost its action).
func (t *Table) Acted(i int) bool { return t.f[i].segDone }

// Delaying reports whether i is delaying.
func (t *Table) Delaying(i int) bool { return t.f[i].delaying }

// Resuming is true while i takes its delayed action.
func (t *Table) Resuming(i int) bool { return t.resumer == i }

// Declared is i's declaration this round (public: everyone hears it).
func (t *Table) Declared(i int) Declaration { return t.f[i].decl }

// ChargeTarget is the target of i's charge in progress, or -1.
func (t *Table) ChargeTarget(i int) int {
	if !t.f[i].charging {
		return -1
	}
	return t.f[i].chargeAt
}

// HasReady reports whether i holds a readied attack.
func (t *Table) HasReady(i int) bool { return t.f[i].ready }

// Round1Ready reports whether i still has its round-1 missile or long
// weapon ready against a charge.
func (t *Table) Round1Ready(i int) bool { return t.f[i].r1 }

// Uses is how many casts of spell s combatant i has left.
func (t *Table) Uses(i, s int) int { return int(t.f[i].uses[s]) }

// Rand is the encounter's random stream, for policies that choose at
// random.
func (t *Table) Rand() *rng.Stream { return t.r }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ev records a structured trace event beside the narration (sim.Event);
// callers build it only where they narrate, so an untraced run builds none.
func (t *Table) ev(e sim.Event) { t.log.Event(e) }
