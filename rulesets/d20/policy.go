package d20

import (
	"simctl/sim"
	"simctl/sim/scenario"
)

// Policy makes a combatant's decisions. Policies are compiled once and
// shared by all workers, so Turn must not modify the policy; everything that
// changes during an encounter lives in the Table, read through its methods.
type Policy interface {
	// Turn plans the combatant's turn into p: act now, delay or ready.
	// p arrives as NoPlan (act against nobody); Turn sets what it decides.
	// p is the table's and is only valid during the call: the plan is
	// filled in place rather than returned, so no 72-byte value is copied
	// on every turn. t.StandardOnly() is true in a surprise round;
	// t.Resuming(self) is true when a delayed combatant takes its delayed
	// action (a Delay plan is then treated as Act).
	Turn(t *Table, self int, p *Plan)
}

// Standard describes a policy whose every decision is the same rule:
// act, with weapons, against the enemy PickTarget(self, Rule, Limit, true)
// chooses, charging as Charge and NoCharge say. A policy that is one
// (StandardPolicy) has the referee make that decision itself, without the
// interface call and the plan it fills: the same decision, cheaper.
type Standard struct {
	Rule             TargetRule
	Limit            int
	Charge, NoCharge bool
	// Count is the tactics rule counter (Counts.Rules) the decision adds
	// one to, -1 for none. A policy that counts also narrates its decision
	// in a trace, so while tracing the referee calls its Turn instead.
	Count int
	// Guard, if non-nil, says when the rule does not decide this turn:
	// when it reports true the referee calls Turn instead (a tactic whose
	// conditional rules come before the unconditional one: Guard reports
	// whether any of their conditions holds). It must read the table
	// only, drawing nothing and changing nothing.
	Guard func(t *Table, self int) bool
}

// StandardPolicy is an optional Policy ability: Standard reports the
// policy's one rule, or false when its decisions depend on more (spells,
// a random target, delaying or readying).
type StandardPolicy interface {
	Standard() (Standard, bool)
}

// decide fills p with combatant i's plan for this turn (its delayed
// action when resuming).
func (t *Table) decide(i int, p *Plan) {
	*p = NoPlan
	c := &t.g.C[i]
	if c.std && (t.log == nil || c.stdRule.Count < 0) && (c.stdRule.Guard == nil || !c.stdRule.Guard(t, i)) {
		limit := c.stdRule.Limit
		if t.stdOne {
			// One standard action: a charge only up to speed.
			limit = min(limit, t.AttackRange(i))
		}
		t.standardPlan(i, p, t.PickTarget(i, c.stdRule.Rule, limit, true))
		return
	}
	c.Policy.Turn(t, i, p)
}

// standardPlan fills p (arriving as NoPlan) with combatant i's standard
// rule's decision against target, the enemy its rule picked, and counts
// the rule.
func (t *Table) standardPlan(i int, p *Plan, target int) {
	c := &t.g.C[i]
	p.Target = target
	p.Charge, p.NoCharge = c.stdRule.Charge, c.stdRule.NoCharge
	if c.Ranged.Increment > 0 {
		t.aim(i, p, c.stdRule.Rule)
	}
	if c.stdRule.Count >= 0 {
		t.c.Rule(c.stdRule.Count)
	}
}

// NoPlan is the plan a policy's Turn starts from: act, against nobody,
// with weapons.
var NoPlan = Plan{Do: Act, Target: -1, Spell: -1, DelayAfter: -1}

// Do is the kind of plan for a turn.
type Do uint8

// Plan kinds.
const (
	Act Do = iota
	Delay
	Ready
)

// Trigger is what sets off a readied action.
type Trigger uint8

// Triggers (RULES.md §1: at least these).
const (
	OnCharge           Trigger = iota + 1 // an enemy charges into reach
	OnEnemyInReach                        // an enemy moves into reach (charging or not)
	OnEnemyCasts                          // an enemy starts casting a spell
	OnAllyActs                            // the named ally starts its action
	OnEnemyAttacksAlly                    // an enemy attacks the named ally
)

// TriggerNames are the scenario names of the triggers, by value.
var TriggerNames = []string{"", "charge", "enemy_in_reach", "enemy_casts", "ally_acts", "enemy_attacks_ally"}

// ReadyAction is what a readied combatant does when triggered.
type ReadyAction uint8

// Readied actions.
const (
	ReadyAttack ReadyAction = iota
	ReadyCast
	ReadyCounterspell
	ReadyMove // a move toward the one the trigger names, up to speed, stopping in reach
)

// Plan is a policy's decision for one turn.
type Plan struct {
	Do     Do
	Target int // Act: the enemy to attack or approach (-1: nobody; the turn is spent)
	Spell  int // Act: the spell to cast at Target, -1 for weapons
	// Charge asks for a charge whenever one is possible; NoCharge forbids
	// it even when it is the only way to attack this turn (the combatant
	// moves instead). Neither: charge only when it is the only way.
	Charge   bool
	NoCharge bool
	// Shoot uses the ranged weapon: an Act plan shoots at Target (closing
	// to range first), a readied attack is a shot. CloseIn closes to one
	// range increment before shooting; KeepAway steps or moves away from
	// enemies threatening it first.
	Shoot    bool
	CloseIn  bool
	KeepAway bool
	// Advance (a Ready plan): first a move action toward Target, up to
	// speed, stopping just outside its reach; then the ready, a standard
	// action ("move, then ready"). Not in the surprise round.
	Advance bool

	// Delay: act right after combatant DelayAfter, or at count DelayTo when
	// DelayAfter is -1.
	DelayAfter int
	DelayTo    int

	// Ready: when Trigger happens (naming Ally for ally triggers), do Action
	// (with Spell for ReadyCast/ReadyCounterspell; -1 for counterspell means
	// "whatever the caster casts, if known").
	Trigger Trigger
	Ally    int
	Action  ReadyAction

	// Special (an Act plan): take special action Special-1 written as data
	// (Game.Action) instead of attacking; 0: none.
	Special int
}

// PolicyMaker compiles a scenario policy for combatant self of game g,
// reporting bad parameters through d.
type PolicyMaker func(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy

var policies = sim.NewPolicies[PolicyMaker]("d20")

// RegisterPolicy adds a named policy. Call it from an init function only.
func RegisterPolicy(name, doc string, make PolicyMaker) { policies.Register(name, doc, make) }

// PolicyNames lists the registered policies, sorted.
func PolicyNames() []string { return policies.Names() }

func policyDocs() []sim.Field { return policies.Docs() }
