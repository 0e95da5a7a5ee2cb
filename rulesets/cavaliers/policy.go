package cavaliers

import (
	"simctl/sim"
	"simctl/sim/scenario"
)

// Policy makes a combatant's decisions. Policies are compiled once and
// shared by all workers, so no method may modify the policy; everything
// that changes during an encounter lives in the Table, read through its
// methods.
//
// The referee asks only when the answer can matter: Seize, Interpose,
// Block and Reprise only when the combatant may use the ability right now
// (its specialty has it, its [+] reach the price, it has not used it this
// round, and the situation allows it).
type Policy interface {
	// Roll picks, for a combatant with ranks in several Initiative
	// specialties, the one it rolls when it enters the fight: an index in
	// Game.C[self].Ranks (0, the main one; out of range counts as 0). Its
	// roll ranks it and its [+] buy on that specialty's ladder for the
	// whole fight. Asked only when it has several.
	Roll(t *Table, self int) int
	// Move names the Area self moves to at the start of its turn (one
	// adjacent to its own), or -1 to stay. Any other Area is ignored.
	Move(t *Table, self int) int
	// Target names the enemy in self's Area that self attacks this turn,
	// or -1 for none.
	Target(t *Table, self int) int
	// Seize reports whether self seizes the initiative to act right
	// before next, who is about to act.
	Seize(t *Table, self, next int) bool
	// Interpose reports whether self makes itself the target of
	// attacker's attack on target (an ally of self). When target is in an
	// adjacent Area, self moves there with it.
	Interpose(t *Table, self, attacker, target int) bool
	// Block reports whether self interposes to stop mover, an opponent in
	// self's Area, from leaving it for Area to.
	Block(t *Table, self, mover, to int) bool
	// Reprise reports whether self repeats its failed attack on target.
	Reprise(t *Table, self, target int) bool
}

// PolicyMaker compiles a scenario policy for combatant self of game g,
// reporting bad parameters through d.
type PolicyMaker func(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy

var policies = sim.NewPolicies[PolicyMaker]("cavaliers")

// RegisterPolicy adds a named policy. Call it from an init function only.
func RegisterPolicy(name, doc string, make PolicyMaker) { policies.Register(name, doc, make) }

// PolicyNames lists the registered policies, sorted.
func PolicyNames() []string { return policies.Names() }

func policyDocs() []sim.Field { return policies.Docs() }

// StandardPolicy is a Policy whose Move and Target follow a standard rule
// (Standard) that the referee applies itself on a turn, without calling
// them: the same choices, without two interface calls and the policy's
// mode switches a turn (issue 38). The policy's Move and Target must
// choose exactly what the rule says: they are what a Table whose policy is
// wrapped (tests, tools) calls instead. The referee asks once, when it
// makes a Table.
type StandardPolicy interface {
	Policy
	// Standard returns the policy's rule, or ok false when its Move and
	// Target are not a standard rule.
	Standard() (s Standard, ok bool)
}

// Standard is a standard rule for a turn's Move and attack:
//
//   - Move: with Hold, never. Otherwise toward Focus while it is in the
//     fight (staying once in its Area), else, when no enemy is in its
//     Area, toward the nearest enemy in the fight (the first in roster
//     order among equals): one Area, at the start of its turn.
//   - Target: Focus when it is in its Area; otherwise, among the enemies
//     in its Area, the one with the fewest hit points (TargetWeakest), the
//     most (TargetStrongest), or none of the two (TargetFirst), the first
//     in roster order among equals; none when no enemy is there.
type Standard struct {
	Target TargetRule
	Hold   bool
	Focus  int // an enemy to go after first; -1: none
}

// TargetRule is a Standard's choice among the enemies in an Area.
type TargetRule uint8

// Target rules.
const (
	TargetWeakest TargetRule = iota
	TargetStrongest
	TargetFirst
)
