package acks2

import (
	"simctl/sim"
	"simctl/sim/scenario"
)

// Policy makes a combatant's decisions. Policies are compiled once and
// shared by all workers, so no method may modify the policy; everything
// that changes during an encounter lives in the Table, read through its
// methods. No method may allocate: they run in the hot loop.
type Policy interface {
	// Declare is asked before initiative every round: cast a spell,
	// withdraw, retreat, or nothing (declarations are public).
	Declare(t *Table, self int) Declaration
	// Turn plans the combatant's segment: act, delay or ready an attack.
	// t.Resuming(self) is true when a delaying combatant's wait is over.
	// For a declared spell Target is the spell's target; a declared
	// withdrawal or retreat ignores the plan unless it is a Delay.
	Turn(t *Table, self int) Plan
	// Interrupt is asked when self may attack an enemy before its number:
	// a readied attack at the end of the enemy's movement, or a round-1
	// missile or long weapon against a charger (which costs self its own
	// number this round). For a long weapon it is asked before the rule
	// that a larger charger or one with a long weapon cannot be stopped is
	// applied (then a yes is refused and the trace says why), so it must
	// not assume the interrupt is allowed.
	Interrupt(t *Table, self, enemy int, how Interrupt) bool
	// ActBefore is asked, when self's side chooses under the same-number
	// rule, whether self acts before (true) or after the other side's
	// combatants on that number.
	ActBefore(t *Table, self int) bool
	// Rank orders combatants of one side on one number: higher first
	// (ties: roster order).
	Rank(t *Table, self int) int
	// Cleave picks the target of an extra attack after a kill among the
	// enemies self can attack (t.CanAttack); -1 declines.
	Cleave(t *Table, self int) int
}

// Steady is an optional method set of a Policy whose answers to Declare,
// Rank and ActBefore never change during an encounter and have no effects
// (no draws, no counters): the referee then asks once, when a Table is
// made, instead of on every round and every shared number. quiet means
// Declare always returns the zero Declaration for this combatant (so the
// referee need not ask it); rank and before are what Rank and ActBefore
// always return. A policy that embeds one implementing Steady and
// overrides any of the three must override Steady too.
type Steady interface {
	Steady() (quiet bool, rank int, before bool)
}

// Plain is an optional method set of a Policy whose Turn is always the
// default: act (no delay, no ready, no special action), at
// Table.WeakestTarget, charging when charge says, with no effects of its
// own (no draws, no counters). When ok, the referee plays such a
// combatant's segments without asking Turn (shortcuts.go). A policy that
// embeds one implementing Plain and overrides Turn must override Plain
// too.
type Plain interface {
	Plain() (charge, ok bool)
}

// DeclKind is what a combatant declares before initiative.
type DeclKind uint8

// Declarations.
const (
	DeclareNothing DeclKind = iota
	DeclareSpell
	DeclareWithdraw // defensive movement: half speed away, no attack
	DeclareRetreat  // defensive movement: full speed away
)

var declNames = []string{"nothing", "a spell", "a withdrawal", "a retreat"}

// Declaration is a combatant's declaration for the round.
type Declaration struct {
	Kind  DeclKind
	Spell int // DeclareSpell: the spell's index in Combatant.Spells
}

// Do is the kind of plan for a segment.
type Do uint8

// Plan kinds.
const (
	Act   Do = iota
	Delay    // wait for a lower count or a named combatant
	Ready    // ready an attack: taken when an enemy's movement triggers it
)

// Plan is a policy's decision for one segment.
type Plan struct {
	Do     Do
	Charge bool // Act: charge when the target is beyond 5 feet and within a charge
	Target int  // Act: the enemy to attack, approach or cast at (-1: nobody)

	// Delay: act right after combatant DelayAfter, or at count DelayTo
	// when DelayAfter is -1.
	DelayAfter int
	DelayTo    int

	// Special (an Act plan): take special action Special-1 written as data
	// (Game.Action) as the segment's action instead of fighting; 0: none.
	Special int
}

// Interrupt is a way of acting before one's number.
type Interrupt uint8

// The three cases of "acting before your number".
const (
	ReadiedAttack Interrupt = iota // began the round with a readied attack
	Round1Missile                  // round 1: a missile weapon against a charger
	Round1Long                     // round 1: a long melee weapon against a charger
)

var interruptNames = []string{"readied attack", "round-1 missile weapon", "round-1 long weapon"}

// PolicyMaker compiles a scenario policy for combatant self of game g,
// reporting bad parameters through d.
type PolicyMaker func(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy

var policies = sim.NewPolicies[PolicyMaker]("acks2")

// RegisterPolicy adds a named policy. Call it from an init function only.
func RegisterPolicy(name, doc string, make PolicyMaker) { policies.Register(name, doc, make) }

// PolicyNames lists the registered policies, sorted.
func PolicyNames() []string { return policies.Names() }

func policyDocs() []sim.Field { return policies.Docs() }
