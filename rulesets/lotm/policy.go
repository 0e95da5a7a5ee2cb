package lotm

import (
	"simctl/sim"
	"simctl/sim/scenario"
)

// Policy makes a combatant's decisions. Policies are compiled once and
// shared by all workers, so they must not modify themselves; everything that
// changes during an encounter lives in the Table, read through its methods.
type Policy interface {
	// Turn plans the combatant's turn. While a delayed action is being taken
	// (t.Resuming(self)), only the part of the plan for the delayed kind of
	// action is carried out, and t.TriggerTarget() names the combatant the
	// trigger concerns (-1 when none).
	Turn(t *Table, self int) Plan
	// Insert is asked when self could make a mid-combat ambush (it is hidden,
	// or it has a teleport left) and bring its turn forward, ahead of enemy
	// actor: at the start of actor's turn (attacking false), or as actor
	// starts an Attack or Casting action (attacking true; that action
	// completes first, then self's turn, then the rest of actor's).
	Insert(t *Table, self, actor int, attacking bool) bool
	// Luck says when the combatant burns its Luck (once per encounter, the
	// source's once per 24 hours).
	Luck() LuckUse
}

// Reactor is an optional ability of a Policy (found by type assertion):
// one that implements it chooses its Limb Block and Borrow Strength
// reactions. Without it the fields decide: limb_block blocks whenever it
// may, with the legs first, and borrow_strength always answers.
type Reactor interface {
	// LimbBlock is asked when self may Limb Block attacker's Vital Strike
	// that hit its part (head, eyes or organs) with check result total
	// (what self's Agility check must beat): the limb it blocks with, Legs
	// or Arms (one with a block left), or anything else not to block.
	LimbBlock(t *Table, self, attacker int, part Part, total int) Part
	// Borrow is asked when self may Borrow Strength Against Strength
	// against attacker's melee critical failure ("if the enemy is
	// willing"): true to answer it. swift: the answer to a Leg Sweep, a
	// Swift action at half Strength die; else its Attack action.
	Borrow(t *Table, self, attacker int, swift bool) bool
}

// LuckBurner is an optional ability of a Policy (found by type assertion):
// one that implements it decides each chance to Burn Luck instead of
// Luck's constant. Without it Luck decides.
type LuckBurner interface {
	// BurnLuck is asked when self may Burn Luck (once per encounter, the
	// source's once per 24 hours): on a missed hit check against target
	// that need points of Luck (no more than it has, need > 0) turn into
	// a hit, burning exactly those; or, with option burn_luck_initiative,
	// on its initiative roll (target -1, need 0), burning all of it.
	BurnLuck(t *Table, self, target, need int) bool
}

// LuckUse is when a policy burns Luck.
type LuckUse uint8

// Luck uses.
const (
	LuckNever      LuckUse = iota
	LuckAttack             // on a missed hit check that the Luck can turn into a hit, exactly the points needed
	LuckInitiative         // all of it on the initiative roll (option burn_luck_initiative)
)

// Kind is a kind of action in the turn's economy.
type Kind uint8

// Action kinds. A Full-Round action uses the whole turn.
const (
	KindNone Kind = iota
	KindFree
	KindSwift
	KindAttack
	KindCasting
	KindMove
	KindFullRound
)

// KindNames are the scenario names of the kinds, by value.
var KindNames = []string{"none", "free", "swift", "attack", "casting", "move", "full-round"}

// Main is the turn's Attack/Casting (or Full-Round) action.
type Main uint8

// Main actions.
const (
	MainNone       Main = iota
	MainAttack          // Attack action: one weapon attack
	MainDouble          // Attack action: Double Strike, two attacks (fists or a short blade)
	MainVital           // Attack action (or Casting with Plan.Cast): Vital Strike at Plan.Part, -10
	MainGrapple         // Attack action: Grapple (Plan.OneHand for one hand)
	MainCharge          // Attack action (with a Move if needed): Strength contest, Off-Balance
	MainSqueeze         // Attack action while grappling two-handed: Brawling vs Constitution, Strength damage
	MainCast            // Casting action: the casting ability
	MainFirstAid        // Casting action (Full-Round if the patient is below half HP): remove one Vital Strike effect
	MainDelay           // Delay Action: hold Plan.Delay until Plan.Trigger this round
	MainPointBlank      // Attack action with a firearm at a target within 1 meter: Point-Blank Shooting
	MainLegSweep        // Attack action: Leg Sweep, up to three enemies within 1 meter (Agility 5+)
	MainMeditate        // Full Meditation: the whole turn, Caught Off Guard until its next turn, then Willpower +2, Intuition +1
)

// MainNames are the names of the main actions, by value.
var MainNames = []string{"none", "attack", "double_strike", "vital_strike", "grapple", "charge", "squeeze", "cast", "first_aid", "delay", "point_blank", "leg_sweep", "meditate"}

// Swift is the turn's Swift action.
type Swift uint8

// Swift actions.
const (
	SwiftNone       Swift = iota
	SwiftAim              // Build-Up Aim: +2 on the next hit check this turn
	SwiftFeint            // Feint: contest; the next attack catches the target off guard and is an ambush
	SwiftIntimidate       // Intimidate: contest; the target moves away
	SwiftMeditate         // Half Meditation: Willpower +1 while kept up, one Swift action a round
	SwiftOneHand          // change a two-handed grapple to one hand
)

// SwiftNames are the names of the swift actions, by value.
var SwiftNames = []string{"none", "aim", "feint", "intimidate", "meditate", "one_hand"}

// Part is a Vital Strike's body part.
type Part uint8

// Body parts.
const (
	Head Part = iota
	Eyes
	Arms
	Legs
	Organs
)

// PartNames are the names of the body parts, by value.
var PartNames = []string{"head", "eyes", "arms", "legs", "organs"}

// Trigger is what sets off a delayed action.
type Trigger uint8

// Triggers.
const (
	OnAllyGrapples     Trigger = iota + 1 // the named ally (Plan.Ally, or any ally when -1) grapples an enemy: right after its grapple check
	OnAfterAlly                           // the named ally's turn ends (even a lost one)
	OnEnemyInReach                        // an enemy's movement ends within 5 ft: before its attack
	OnEnemyCasts                          // an enemy starts a Casting action: before it takes effect
	OnEnemyAttacksAlly                    // an enemy starts an Attack or Casting action at the named ally (any ally when -1): before its check
	OnEnemyActs                           // the named enemy (Plan.Ally; any enemy when -1) starts its turn
)

// TriggerNames are the scenario names of the triggers, by value.
var TriggerNames = []string{"", "ally_grapples", "after_ally", "enemy_in_reach", "enemy_casts", "enemy_attacks_ally", "enemy_acts"}

// Hide is when the turn uses the invisibility ability.
type Hide uint8

// Hide timings.
const (
	HideNo     Hide = iota
	HideBefore      // before the other actions: this turn's attack is an invisibility ambush
	HideAfter       // after them: hidden through the enemies' turns, ambush next time
)

// Plan is a policy's decision for one turn.
type Plan struct {
	Target   int  // the enemy the turn is about (-1: nobody)
	Main     Main // the Attack/Casting action
	Part     Part // MainVital: the body part
	Cast     bool // MainVital: made with the casting ability (a Casting action)
	OneHand  bool // MainGrapple: one-handed
	Limb     bool // MainGrapple: one hand on a limb (2+ size levels larger): stops only Move, not halved
	Swift    Swift
	Teleport bool // reach Target with a movement ambush (a Move action, one of the teleports)
	Stand    bool // when Off-Balance, spend the Move action to stand first
	Hide     Hide
	Cover    CoverUse // Improvised Cover: an item (Swift, first) or an obstacle (Move, last)
	Release  bool     // let go of a grapple (free)
	Patient  int      // MainFirstAid: the ally (or self)
	// Also (option casting_slot: separate only): a second main action made
	// after Main with the other of the Attack and Casting actions, at the
	// same Target: MainAttack or MainDouble after a Casting-action Main,
	// MainCast or MainFirstAid after an Attack-action Main; MainAttack or
	// MainDouble after a MainDelay that holds the Casting action (which
	// leaves the Attack action).
	Also Main

	// MainDelay: hold an action of kind Delay until Trigger (concerning
	// Ally: the ally of ally triggers and enemy_attacks_ally, the enemy of
	// enemy_acts; -1: any).
	Delay   Kind
	Trigger Trigger
	Ally    int

	// Special: take special action Special-1 written as data
	// (Game.Action) at the start of the turn, paying the action it costs;
	// 0: none.
	Special int
}

// PolicyMaker compiles a scenario policy for combatant self of game g,
// reporting bad parameters through d.
type PolicyMaker func(d *scenario.Decoder, g *Game, self int, spec scenario.PolicySpec) Policy

var policies = sim.NewPolicies[PolicyMaker]("lotm")

// RegisterPolicy adds a named policy. Call it from an init function only.
func RegisterPolicy(name, doc string, make PolicyMaker) { policies.Register(name, doc, make) }

// PolicyNames lists the registered policies, sorted.
func PolicyNames() []string { return policies.Names() }

func policyDocs() []sim.Field { return policies.Docs() }
