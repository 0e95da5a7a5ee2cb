package lotm

import (
	"simctl/rulesets/internal/plain"
	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/rng"
)

// fighter is one combatant's state during an encounter.
type fighter struct {
	hp, maxHP int
	count     int // initiative total
	out       bool
	joined    bool // in the battle (joins_round reached)
	turnDone  bool // has taken its turn this round
	skipNext  bool // inserted its turn during an Ambush Round: the next regular round's turn is spent
	used      uint8

	// Ambush Round state (cleared when the round ends).
	ambusher bool   // on the ambushing side: Advantage
	ambushed bool   // ambushed: Disadvantage
	cog      bool   // Caught Off Guard (ambush_detection side or none)
	spotted  uint64 // ambush_detection each: the ambushers it spotted (bit per roster index)

	// One-check benefits of this turn.
	ambushOne bool // the next check is an in-combat ambush's: Advantage
	feintOn   int  // a successful feint against this combatant: its next attack catches it off guard
	aim       bool // Build-Up Aim: +2 on the next hit check
	cogOn     int  // an obstacle ambush against this combatant: its next attack catches it off guard, -1
	disOne    bool // an obstacle ambush foiled its attack: Disadvantage on the next hit check, no aim
	cameTo    int  // the enemy whose reach its move this turn ended in, -1

	hidden     bool   // invisible: hidden from every enemy not in seenBy
	seenBy     uint64 // the enemies that found it while hidden (bit per roster index)
	teleports  int
	casts      int
	luck       int
	luckUsed   bool
	offBalance bool
	stunned    bool
	grappling  int // the combatant it grapples, -1
	grappledBy int // the combatant grappling it, -1
	oneHand    bool
	halved     bool // grappling one-handed the whole body: its Strength contest halved
	moveOnly   bool // held only from moving (size): still takes Attack actions
	mustFlee   int  // move away from this combatant at its next turn (Intimidate without a Move left), -1
	armHits    int
	legHits    int
	eyeHits    int
	legBlocks  int  // Limb Blocks made with a leg (each limb once: two legs)
	armBlocks  int  // Limb Blocks made with an arm (two arms)
	coverArmor int  // Improvised Cover's Armor now (0: none)
	coverItem  bool // the cover is a held item (else an obstacle)
	seen       bool // it attacked since it took cover: no longer unseen behind it
	items      int  // cover items still at hand
	obstacles  int  // obstacles still at hand
	halfMed    bool // Half Meditation kept up (paid on its last turn): Willpower +1
	meditating bool // in a Full Meditation until its next turn: Caught Off Guard
	fullMed    bool // a Full Meditation ended: Willpower +2, Intuition +1 for the encounter

	delayed   bool
	delayKind Kind
	delayTrig Trigger
	delayAlly int
}

// Table is one worker's encounter state, reused across encounters.
type Table struct {
	g     *Game
	f     []fighter
	order []int // initiative order, highest first
	// Each combatant's HP and damage dice taken apart: rolled in a plain
	// loop, the same draws as Expr.Roll.
	hpDice, dmgDice []plain.Dice
	actor           int              // combatant whose turn is in progress (-1 between turns)
	cur             int              // index of actor's entry in order
	round           int              // regular round; 0 before round 1
	amb             bool             // an Ambush Round is in progress
	inner           bool             // an inserted turn or a delayed action is in progress: no insertion into it
	insrt           int              // combatant whose inserted turn is in progress, -1
	resume          int              // combatant taking a delayed action, -1
	trigT           int              // the combatant its trigger concerns, -1
	pb              uint8            // Point-Blank Shooting's rule for the next hit check (pbNone, pbArmor, pbOffGuard)
	nat             int              // the natural die of the last hit check (Borrow Strength)
	total           int              // its result (Limb Block)
	first           int              // sim.Outcome.FirstActor (acts)
	firstO          int              // sim.Outcome.FirstInOrder (walk)
	tr              *traitrun.Runner // traits (traits.go); nil: the game has none
	reorder         bool             // a special action changed a count: sort the order at the next round start
	r               *rng.Stream
	c               *sim.Counts
	log             *sim.Log

	// script pins die results for rule tests: die draws from it first.
	script []int

	sd   []int    // each combatant's side (Game.C[i].Side, kept dense for the scans)
	team [2][]int // each side's combatants, in roster order
	// Options read on every turn, as flags (Options keeps the strings).
	castShared, searchTurn, flatAdv bool
	naturals                        bool // option naturals
	// lateJoin: some combatant joins after round 1 (join has work to do).
	lateJoin bool
	initMode int     // option initiative: initD20Agility, initD20, initAgility
	foes     [][]int // foes[i]: team[1-side of i]
	// hideBy[s]: the combatants of side s with the invisibility ability,
	// the only ones that can ever be hidden.
	hideBy [2]uint64
	up     [2]int // combatants of each side not out (those still to join included)
	// insBy[s]: the combatants of side s that could ever make a mid-combat
	// ambush (a teleport, or the invisibility ability); the others are
	// never asked.
	insBy [2]uint64
	// anyDelay is set when a Delay Action is declared and cleared when the
	// round's delays end: while it is false no one is delayed and the
	// triggers need no scan.
	anyDelay bool
	// in: bit i set while combatant i is in the battle (joined, not out),
	// what present reads; it changes with joined and out.
	in uint64
	// presence counts joins and outs; the flanking tallies (combatants in
	// the battle and highest rank per side) are kept while it is unchanged.
	presence  uint64
	flankAt   uint64
	flankN    [2]int
	flankRank [2]int
	flankDiff [2]int8   // the conditions 1 – 3, side s attacking: its count less the other's (flankNet)
	rank      []int     // each combatant's Rank (Game.C[i].Rank, kept dense for the flanking count)
	rankAll   [2]int    // the Rank every combatant of side s has, -1 when they differ (denseRanks)
	teamBits  [2]uint64 // team[s] as a bit mask (bit i: combatant i)
	// unusual: someone has been stunned, hidden or in a grapple this
	// encounter; until then the flanking condition 4 cannot be met
	// (flankNet).
	unusual bool
	// insNow[s]: the combatants of insBy[s] that may still make a
	// mid-combat ambush this encounter: not out, and with the invisibility
	// ability or a teleport left (a used teleport does not come back).
	insNow [2]uint64
	// tmpl[i]: combatant i's fighter as an encounter starts, hit points
	// aside (setup copies it).
	tmpl []fighter
	// x[i]: combatant i's position in feet on the line between the sides
	// (dense: the distances are read on every turn); start[i] where it
	// begins.
	x, start []int
}

func newTable(g *Game) *Table {
	n := len(g.C)
	t := &Table{g: g, f: make([]fighter, n), order: make([]int, 0, n), sd: make([]int, n),
		hpDice: make([]plain.Dice, n), dmgDice: make([]plain.Dice, n), rank: make([]int, n), tmpl: make([]fighter, n),
		x: make([]int, n), start: make([]int, n)}
	for i := range g.C {
		c := &g.C[i]
		t.sd[i] = c.Side
		t.teamBits[c.Side] |= 1 << uint(i)
		t.tmpl[i] = fighter{joined: c.JoinsRound <= 1, feintOn: -1, cogOn: -1, cameTo: -1, grappling: -1, grappledBy: -1,
			mustFlee: -1, delayAlly: -1, teleports: c.Teleports, casts: c.Cast.Uses, luck: c.Luck,
			items: c.Item.Count * min(c.Item.Size, 1), obstacles: c.Obstacle.Count * min(c.Obstacle.Size, 1)}
		if c.Side == 1 {
			t.start[i] = g.Distance
		}
		t.hpDice[i], t.dmgDice[i] = plain.Of(c.HP), plain.Of(c.Damage)
		t.team[c.Side] = append(t.team[c.Side], i)
		if c.Invisible != KindNone {
			t.hideBy[c.Side] |= 1 << uint(i)
		}
		if c.Teleports > 0 || c.Invisible != KindNone {
			t.insBy[c.Side] |= 1 << uint(i)
		}
	}
	t.castShared, t.searchTurn, t.flatAdv = g.Opt.CastingSlot == "shared", g.Opt.Search == "turn", g.Opt.Advantage == "flat"
	t.naturals = g.Opt.Naturals
	switch g.Opt.Initiative {
	case "d20+agility":
		t.initMode = initD20Agility
	case "d20":
		t.initMode = initD20
	default:
		t.initMode = initAgility
	}
	for i := range g.C {
		t.lateJoin = t.lateJoin || g.C[i].JoinsRound > 1
	}
	t.denseRanks()
	t.foes = make([][]int, n)
	for i := range t.foes {
		t.foes[i] = t.team[1-t.sd[i]]
	}
	t.newTraitRunner()
	return t
}

// denseRanks copies the combatants' ranks into rank and rankAll.
func (t *Table) denseRanks() {
	t.rankAll = [2]int{-2, -2} // -2: no combatant seen yet
	for i := range t.g.C {
		r, s := t.g.C[i].Rank, t.sd[i]
		t.rank[i] = r
		switch t.rankAll[s] {
		case -2:
			t.rankAll[s] = r
		case r:
		default:
			t.rankAll[s] = -1
		}
	}
}

// die rolls one die: from the test script while it lasts, else the stream.
func (t *Table) die(sides int) int {
	if len(t.script) > 0 {
		v := t.script[0]
		t.script = t.script[1:]
		return v
	}
	return t.r.Die(sides)
}

// setup rolls hit points and places everyone at the start.
func (t *Table) setup() {
	t.actor, t.first, t.firstO, t.resume, t.trigT, t.insrt = -1, -1, -1, -1, -1, -1
	t.round, t.amb, t.inner = 0, false, false
	t.up, t.anyDelay, t.in = [2]int{}, false, 0
	t.unusual, t.insNow = false, t.insBy
	t.presence++
	t.flankAt = t.presence - 1
	if t.tr != nil {
		t.tr.Start(t.r, t.c, t.log)
		t.reorder = false
	}
	for i := range t.f {
		c := &t.g.C[i]
		f := &t.f[i]
		hp := t.hpDice[i].Roll(t.r, &c.HP)
		*f = t.tmpl[i]
		t.x[i] = t.start[i]
		f.hp, f.maxHP = hp, hp
		t.up[c.Side]++
		if f.joined {
			t.in |= 1 << uint(i)
		}
		if t.log != nil {
			var join msg.Text
			if !f.joined {
				join = msg.New(", joins in round %d", c.JoinsRound)
			}
			t.logf("%s (side %d) hp %d, physical defense %d (ac %d + dodge %d + agility %d), at %d ft%s",
				c.Name, c.Side, f.hp, c.AC+c.Dodge+c.Agility, c.AC, c.Dodge, c.Agility, t.x[i], join)
		}
	}
}

// winner returns the side whose opponents are all out, or -1. Combatants
// still to join keep their side in the fight.
func (t *Table) winner() int {
	switch {
	case t.up[0] > 0 && t.up[1] == 0:
		return 0
	case t.up[1] > 0 && t.up[0] == 0:
		return 1
	}
	return -1
}

func (t *Table) over() bool { return t.winner() >= 0 }

func (t *Table) logf(format string, args ...any) {
	if t.log != nil {
		t.log.Printf(format, args...)
	}
}

func (t *Table) name(i int) string { return t.g.C[i].Name }

func (t *Table) side(i int) int { return t.sd[i] }

// present: in the battle and not out.
func (t *Table) present(i int) bool { return t.in&(1<<(uint(i)&63)) != 0 } // &63: i < 64 (and one shift instruction)

// index returns the position of combatant i in the order.
func (t *Table) index(i int) int {
	for k, v := range t.order {
		if v == i {
			return k
		}
	}
	panic("lotm: combatant missing from the initiative order")
}

// Action economy. Each combatant has one Free, Swift, Attack, Casting and
// Move action a round (with casting_slot shared, Attack and Casting are one
// action); a Full-Round action needs all of them unused and uses them all.
// The actions are the round's: one spent out of turn (a forced move, a
// delayed action) is gone from the turn.

func bit(k Kind) uint8 { return 1 << k }

// slot maps Casting onto Attack when they are one action.
func (t *Table) slot(k Kind) Kind {
	if k == KindCasting && t.castShared {
		return KindAttack
	}
	return k
}

// restrained: in a grapple (either side of it); no Move actions, and no
// Attack actions except the two-handed grappler's squeeze and the
// one-handed grappler's normal attacks.
func (t *Table) restrained(i int) bool { return t.f[i].grappledBy >= 0 || t.f[i].grappling >= 0 }

func (t *Table) noAttacks(i int) bool {
	f := &t.f[i]
	return (f.grappledBy >= 0 && !f.moveOnly) || (f.grappling >= 0 && !f.oneHand)
}

func (t *Table) canUse(i int, k Kind) bool {
	f := &t.f[i]
	switch k {
	case KindFree:
		return true
	case KindMove:
		if t.restrained(i) {
			return false
		}
	case KindFullRound:
		return f.used == 0
	}
	return f.used&bit(t.slot(k)) == 0
}

// use spends i's action of kind k: i takes an action (acts).
func (t *Table) use(i int, k Kind) {
	t.spend(i, k)
	t.acts(i)
}

// spend marks the action used without it being taken (Delay Action sets the
// held one aside).
func (t *Table) spend(i int, k Kind) {
	if k == KindFullRound {
		t.f[i].used = 0xff
		return
	}
	t.f[i].used |= bit(t.slot(k))
}

// acts records that i takes an action, for sim.Outcome.FirstActor: any
// action spent (use), or a held one taken (fireDelay's prepaid paths).
// Declaring a Delay Action, a lost (stunned) turn, a turn with nothing to
// do and the Free Burn Luck are not actions taken.
func (t *Table) acts(i int) {
	if t.first < 0 {
		t.first = i
	}
}

func (t *Table) logOutcome(o sim.Outcome) {
	if o.Winner < 0 {
		t.logf("== draw after %d rounds", o.Rounds)
		t.ev(sim.Event{Kind: sim.EvEnd, Actor: sim.NoOne, Target: sim.NoOne, Amount: o.Rounds})
		return
	}
	t.logf("== side %d wins after %d rounds (survivors %d vs %d)", o.Winner, o.Rounds, o.Survivors[0], o.Survivors[1])
	t.ev(sim.Event{Kind: sim.EvEnd, Actor: o.Winner, Target: sim.NoOne, Amount: o.Rounds})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Read-only accessors for policies.

// N is the number of combatants.
func (t *Table) N() int { return len(t.f) }

// Game returns the compiled scenario.
func (t *Table) Game() *Game { return t.g }

// HP is combatant i's current hit points.
func (t *Table) HP(i int) int { return t.f[i].hp }

// MaxHP is combatant i's hit points at the start.
func (t *Table) MaxHP(i int) int { return t.f[i].maxHP }

// Out reports whether combatant i is out of the fight.
func (t *Table) Out(i int) bool { return t.f[i].out }

// Present reports whether i is in the battle (joined and not out).
func (t *Table) Present(i int) bool { return t.present(i) }

// Side is combatant i's side.
func (t *Table) Side(i int) int { return t.sd[i] }

// Foes lists the combatants of the side opposing i's, in roster order,
// in the battle or not: the enemies a scan needs to visit. The slice is the
// Table's own; do not modify it.
func (t *Table) Foes(i int) []int { return t.foes[i] }

// Dist is the distance in feet between i and j.
func (t *Table) Dist(i, j int) int { return abs(t.x[i] - t.x[j]) }

// InReach reports whether i can attack j without moving (within 5 ft, the
// source's 1 meter, or at any distance with a ranged weapon).
func (t *Table) InReach(i, j int) bool { return t.g.C[i].Ranged || t.Dist(i, j) <= Reach }

// Targetable reports whether self can choose j as a target: j is in the
// battle and not hidden from self.
func (t *Table) Targetable(self, j int) bool {
	return t.present(j) && !t.hiddenFrom(j, self)
}

// Hidden reports whether i is hidden (invisible; some enemies may have
// found it: HiddenFrom).
func (t *Table) Hidden(i int) bool { return t.f[i].hidden }

// HiddenFrom reports whether h is hidden from observer o: h is invisible,
// o is its enemy and o has not found it. Discovery is per observer: only
// the one who finds a hidden combatant may target it.
func (t *Table) HiddenFrom(h, o int) bool { return t.hiddenFrom(h, o) }

func (t *Table) hiddenFrom(h, o int) bool {
	f := &t.f[h]
	return f.hidden && t.side(h) != t.side(o) && f.seenBy&(1<<uint(o)) == 0
}

// Grappling is whom i grapples, -1 if nobody.
func (t *Table) Grappling(i int) int { return t.f[i].grappling }

// GrappledBy is who grapples i, -1 if nobody.
func (t *Table) GrappledBy(i int) int { return t.f[i].grappledBy }

// HeldFromAttacks reports whether a grapple keeps i from Attack actions
// (held, unless only from moving by the size rules; or grappling with two
// hands).
func (t *Table) HeldFromAttacks(i int) bool { return t.noAttacks(i) }

// OneHand reports whether i grapples with one hand.
func (t *Table) OneHand(i int) bool { return t.f[i].oneHand }

// OffBalance reports whether i is Off-Balance.
func (t *Table) OffBalance(i int) bool { return t.f[i].offBalance }

// Stunned reports whether i will lose its next turn.
func (t *Table) Stunned(i int) bool { return t.f[i].stunned }

// LimbsLeft reports how many Limb Blocks i's legs and arms have left
// (each limb blocks once an encounter).
func (t *Table) LimbsLeft(i int) (legs, arms int) {
	return 2 - t.f[i].legBlocks, 2 - t.f[i].armBlocks
}

// LimbHits reports the Vital Strike effects on i's legs (each halves its
// speed) and arms (each -2 on its Fighting checks).
func (t *Table) LimbHits(i int) (legs, arms int) { return t.f[i].legHits, t.f[i].armHits }

// Luck is the Luck i has left to burn: 0 once burned (once an encounter).
func (t *Table) Luck(i int) int {
	if t.f[i].luckUsed {
		return 0
	}
	return t.f[i].luck
}

// Agility is i's Agility now (halved, rounded up, while Off-Balance).
func (t *Table) Agility(i int) int { return t.agility(i) }

// Covered reports whether i has Improvised Cover (an item held up or an
// obstacle) now.
func (t *Table) Covered(i int) bool { return t.f[i].coverArmor > 0 }

// Effects is the number of Vital Strike effects on i that First Aid can
// remove (eyes, arms, legs).
func (t *Table) Effects(i int) int { return t.f[i].eyeHits + t.f[i].armHits + t.f[i].legHits }

// Round is the current regular round (0 before round 1).
func (t *Table) Round() int { return t.round }

// AmbushRound reports whether an Ambush Round is in progress.
func (t *Table) AmbushRound() bool { return t.amb }

// Acted reports whether i has taken its turn this round.
func (t *Table) Acted(i int) bool { return t.f[i].turnDone }

// Resuming is true while i takes a delayed action.
func (t *Table) Resuming(i int) bool { return t.resume == i }

// TriggerTarget is the combatant a delayed action's trigger concerns (the
// grappled enemy, the enemy that came into reach), -1 when none.
func (t *Table) TriggerTarget() int { return t.trigT }

// Teleports is how many movement ambushes i has left.
func (t *Table) Teleports(i int) int { return t.f[i].teleports }

// CastUses is how many uses of its casting ability i has left.
func (t *Table) CastUses(i int) int { return t.f[i].casts }

// SeparateSlots reports whether the Attack and Casting actions are two
// (option casting_slot: separate).
func (t *Table) SeparateSlots() bool { return !t.castShared }

// CanUse reports whether i still has an action of kind k this round.
func (t *Table) CanUse(i int, k Kind) bool { return t.canUse(i, k) }

// CanAttack reports whether i has a means to attack j now (the flanking
// condition's test; see flanking.go).
func (t *Table) CanAttack(i, j int) bool { return t.canAttack(i, j) }

// Rand is the encounter's random stream, for policies that choose at random.
func (t *Table) Rand() *rng.Stream { return t.r }

// Reach is melee reach in feet: the source's "within 1 meter", on the
// simulator's 5-foot line.
const Reach = 5

// ev records a structured trace event beside the narration (sim.Event);
// callers build it only where they narrate, so an untraced run builds none.
func (t *Table) ev(e sim.Event) { t.log.Event(e) }
