package agents

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/lotm"
	"simctl/sim/scenario"
)

// The Lord of Mysteries policies. One configurable policy, lotmPolicy,
// with named presets: each registered name is the same decisions with
// different defaults, and every parameter can still be given.
func init() {
	lotm.RegisterPolicy("default",
		"close in and attack the weakest enemy it can reach this turn (a grappled enemy first); cast while casting uses last, else Double Strike when it can. "+
			"Params: target (weakest|strongest|nearest|first|random), attack (auto|attack|double|vital|cast|grapple|charge|point_blank: a firearm closing to 1 meter|leg_sweep: Agility 5+; auto shoots point-blank with a firearm already within 1 meter), part (vital: head|eyes|arms|legs|organs), "+
			"swift (none|aim|feint|intimidate|meditate: Half Meditation, Willpower +1 while kept up), hands (grapple: two|one|limb: one hand on a limb, for a grappler 2 size levels larger), hide (after|before|never; with invisibility), insert (never|turn|attack), "+
			"teleport (auto: when walking cannot reach | always | never), luck (attack|initiative|never), first_aid (false|true), "+
			"cover (never|item|obstacle: Improvised Cover when not covered, with cover_item / obstacle), delay (none|attack|casting|move|swift), trigger (ally_grapples|after_ally|enemy_in_reach|enemy_casts|enemy_attacks_ally|enemy_acts), ally (NAME: the ally of ally_grapples, after_ally and enemy_attacks_ally; the enemy of enemy_acts), rounds (all|first), prefer_held (true|false), "+
			"limb_block (legs_first|arms_first|never: with field limb_block, the limb it blocks a Vital Strike with while that limb has blocks left, then the other), borrow (always|never: with field borrow_strength, whether it is willing to Borrow Strength). "+
			"With options casting_slot: separate, every preset also uses the turn's other action: a casting (while uses last) after an Attack-action attack, a weapon attack after a casting",
		lotmMaker(lotmPolicy{}))
	lotm.RegisterPolicy("aim", "aim before attacking: default with swift: aim (Build-Up Aim, +2, every turn)",
		lotmMaker(lotmPolicy{swift: lotm.SwiftAim}))
	lotm.RegisterPolicy("feint", "feint then attack: default with swift: feint (won: the attack is an ambush with Advantage against a target Caught Off Guard)",
		lotmMaker(lotmPolicy{swift: lotm.SwiftFeint}))
	lotm.RegisterPolicy("intimidate", "intimidate the enemy in melee (it must move away), then attack: default with swift: intimidate",
		lotmMaker(lotmPolicy{swift: lotm.SwiftIntimidate}))
	lotm.RegisterPolicy("ambush", "ambush when hidden: hide after attacking (invisibility), bring its turn forward ahead of each enemy's turn while hidden or holding a teleport, teleport to its target every turn it can: default with hide: after, insert: turn, teleport: always. Needs invisibility or teleport",
		lotmMaker(lotmPolicy{insert: lotmInsertTurn, teleport: "always", ambush: true}))
	lotm.RegisterPolicy("grapple", "grapple the target, then squeeze it (two hands) or attack it (one hand); grapple again when it breaks free: default with attack: grapple",
		lotmMaker(lotmPolicy{attack: "grapple"}))
	lotm.RegisterPolicy("charge", "charge the target to knock it Off-Balance, then attack it while it is: default with attack: charge",
		lotmMaker(lotmPolicy{attack: "charge"}))
	lotm.RegisterPolicy("vital", "Vital Strike (-10) at a body part every attack: default with attack: vital, part: head",
		lotmMaker(lotmPolicy{attack: "vital"}))
	lotm.RegisterPolicy("combo", "delay for the grapple combo: hold the Attack action until the ally grapples (the source's use case), then strike the held enemy at once; "+
		"attacks at once when an enemy is already held or the ally has already acted this round. default with delay: attack, trigger: ally_grapples; needs ally: NAME",
		lotmMaker(lotmPolicy{delay: lotm.KindAttack, trigger: lotm.OnAllyGrapples, combo: true}))
}

const (
	lotmInsertNever = iota
	lotmInsertTurn
	lotmInsertAttack
)

// lotmPolicy is every LotM policy: its fields are the parameters.
type lotmPolicy struct {
	target     string // weakest | strongest | nearest | first | random
	sel        uint8  // target as 1 + lotmSel...; 0 (set elsewhere): read target
	attack     string // auto | attack | double | vital | cast | grapple | charge
	auto       bool   // attack is "auto" (set where the policy is made; false: read attack)
	part       lotm.Part
	swift      lotm.Swift
	oneHand    bool
	limb       bool // hands: limb: one hand on a limb, when 2 size levels larger
	hide       lotm.Hide
	insert     int
	teleport   string // auto | always | never
	luck       lotm.LuckUse
	firstAid   bool
	delay      lotm.Kind
	trigger    lotm.Trigger
	ally       int
	firstOnly  bool
	preferHeld bool
	ambush     bool // preset ambush: needs invisibility or teleport
	combo      bool // preset combo: needs an ally
	cover      lotm.CoverUse
	limbFirst  lotm.Part // limb_block: the limb it blocks with first (Legs, Arms), or Head: never
	noBorrow   bool      // borrow: never
}

var lotmParams = []string{"target", "attack", "part", "swift", "hands", "hide", "insert", "teleport",
	"luck", "first_aid", "delay", "trigger", "ally", "rounds", "prefer_held", "cover", "limb_block", "borrow"}

func lotmMaker(preset lotmPolicy) lotm.PolicyMaker {
	return func(d *scenario.Decoder, g *lotm.Game, self int, spec scenario.PolicySpec) lotm.Policy {
		p := newParams(d, spec, lotmParams)
		pol := preset
		pol.target = p.enum("target", "weakest", []string{"weakest", "strongest", "nearest", "first", "random"})
		pol.sel = 1 + uint8(lotmSelector(pol.target))
		def := pol.attack
		if def == "" {
			def = "auto"
		}
		pol.attack = p.enum("attack", def, []string{"auto", "attack", "double", "vital", "cast", "grapple", "charge", "point_blank", "leg_sweep"})
		pol.auto = pol.attack == "auto"
		pol.part = lotm.Part(lotmEnumIndex(p, "part", lotm.PartNames[pol.part], lotm.PartNames))
		pol.swift = lotm.Swift(lotmEnumIndex(p, "swift", lotm.SwiftNames[pol.swift], lotm.SwiftNames[:5]))
		switch p.enum("hands", "two", []string{"two", "one", "limb"}) {
		case "one":
			pol.oneHand = true
		case "limb":
			pol.oneHand, pol.limb = true, true
		}
		switch p.enum("hide", "after", []string{"after", "before", "never"}) {
		case "after":
			pol.hide = lotm.HideAfter
		case "before":
			pol.hide = lotm.HideBefore
		default:
			pol.hide = lotm.HideNo
		}
		pol.insert = lotmEnumIndex(p, "insert", []string{"never", "turn", "attack"}[pol.insert], []string{"never", "turn", "attack"})
		tdef := pol.teleport
		if tdef == "" {
			tdef = "auto"
		}
		pol.teleport = p.enum("teleport", tdef, []string{"auto", "always", "never"})
		switch p.enum("luck", "attack", []string{"attack", "initiative", "never"}) {
		case "attack":
			pol.luck = lotm.LuckAttack
		case "initiative":
			pol.luck = lotm.LuckInitiative
			if !g.Opt.BurnLuckInit {
				d.Errorf(p.node("luck"), p.path("luck"), "luck: initiative needs options: {burn_luck_initiative: true} (the GM's approval)")
			}
		default:
			pol.luck = lotm.LuckNever
		}
		pol.firstAid = p.boolean("first_aid", false)
		pol.preferHeld = p.boolean("prefer_held", true)
		pol.firstOnly = p.enum("rounds", "all", []string{"all", "first"}) == "first"
		kinds := []string{"none", "free", "swift", "attack", "casting", "move"}
		pol.delay = lotm.Kind(lotmEnumIndex(p, "delay", kinds[pol.delay], kinds))
		if pol.delay == lotm.KindFree {
			d.Errorf(p.node("delay"), p.path("delay"), "a Free action is never limited here, so there is nothing to delay; choose swift, attack, casting or move")
		}
		pol.trigger = lotm.Trigger(lotmEnumIndex(p, "trigger", lotm.TriggerNames[max(int(pol.trigger), 1)], lotm.TriggerNames[1:]) + 1)
		pol.ally = -1
		if name, n := p.str("ally"); n != nil {
			pol.ally = lotmCombatant(p, g, name, n)
			// trigger enemy_acts names the enemy it waits for.
			if enemy := pol.trigger == lotm.OnEnemyActs; pol.ally >= 0 && (g.C[pol.ally].Side != g.C[self].Side) != enemy {
				if enemy {
					d.Errorf(n, p.path("ally"), "%q is on %s's side; with trigger enemy_acts, ally names the enemy it waits for", name, g.C[self].Name)
				} else {
					d.Errorf(n, p.path("ally"), "%q is not on %s's side", name, g.C[self].Name)
				}
			}
			if pol.ally == self {
				d.Errorf(n, p.path("ally"), "%s cannot be its own ally here", name)
			}
		} else if pol.combo {
			d.Errorf(spec.Node, spec.Path, "policy combo needs ally: NAME (the grappler whose grapple it waits for)")
		}
		c := &g.C[self]
		switch p.enum("limb_block", "legs_first", []string{"legs_first", "arms_first", "never"}) {
		case "legs_first":
			pol.limbFirst = lotm.Legs
		case "arms_first":
			pol.limbFirst = lotm.Arms
		default:
			pol.limbFirst = lotm.Head
		}
		pol.noBorrow = p.enum("borrow", "always", []string{"always", "never"}) == "never"
		switch p.enum("cover", "never", []string{"never", "item", "obstacle"}) {
		case "item":
			pol.cover = lotm.CoverItem
			if c.Item.Size == 0 {
				d.Errorf(p.node("cover"), p.path("cover"), "cover: item needs something to snatch: give %s cover_item: {size: medium}", c.Name)
			}
		case "obstacle":
			pol.cover = lotm.CoverObstacle
			if c.Obstacle.Size == 0 {
				d.Errorf(p.node("cover"), p.path("cover"), "cover: obstacle needs an obstacle at hand: give %s obstacle: {size: medium}", c.Name)
			}
		}
		if pol.ambush && c.Invisible == lotm.KindNone && c.Teleports == 0 {
			d.Errorf(spec.Node, spec.Path, "policy ambush needs a means of ambush: give %s invisibility: swift|move|casting or teleport: N", c.Name)
		}
		if pol.attack == "double" && !c.CanDouble {
			d.Errorf(p.node("attack"), p.path("attack"), "%s cannot Double Strike: give it double_strike: BONUS (fists or a short blade)", c.Name)
		}
		if pol.attack == "leg_sweep" && c.Agility < 5 {
			d.Errorf(p.node("attack"), p.path("attack"), "%s has agility %d; Leg Sweep needs 5 or more", c.Name, c.Agility)
		}
		if pol.attack == "point_blank" && c.Shots == 0 {
			d.Errorf(p.node("attack"), p.path("attack"), "%s has no firearm for Point-Blank Shooting: give it firearm: SHOTS", c.Name)
		}
		if pol.attack == "cast" && c.Cast.Uses == 0 {
			d.Errorf(p.node("attack"), p.path("attack"), "%s has no casting ability: give it casting: {bonus, damage, uses}", c.Name)
		}
		return &pol
	}
}

// lotmEnumIndex reads an enum parameter and returns its index in valid.
func lotmEnumIndex(p params, name, def string, valid []string) int {
	v := p.enum(name, def, valid)
	for i, s := range valid {
		if s == v {
			return i
		}
	}
	return 0
}

func lotmCombatant(p params, g *lotm.Game, name string, n *yaml.Node) int {
	if i, ok := g.Index(name); ok {
		return i
	}
	var names []string
	for _, c := range g.C {
		names = append(names, c.Name)
	}
	p.d.Errorf(n, p.path("ally"), "no combatant %q%s (or it has several copies; name one, e.g. Thug#2); combatants: %s", name, scenario.Suggest(name, names), strings.Join(names, ", "))
	return -1
}

// Luck implements lotm.Policy.
func (p *lotmPolicy) Luck() lotm.LuckUse { return p.luck }

// LimbBlock implements lotm.Reactor: the limb_block parameter's limb while
// it has blocks left, then the other; never: no block.
func (p *lotmPolicy) LimbBlock(t *lotm.Table, self, attacker int, part lotm.Part, total int) lotm.Part {
	legs, arms := t.LimbsLeft(self)
	switch {
	case p.limbFirst == lotm.Legs && legs > 0, p.limbFirst == lotm.Arms && arms == 0:
		return lotm.Legs
	case p.limbFirst == lotm.Arms || p.limbFirst == lotm.Legs:
		return lotm.Arms
	}
	return part
}

// Borrow implements lotm.Reactor: the borrow parameter.
func (p *lotmPolicy) Borrow(t *lotm.Table, self, attacker int, swift bool) bool { return !p.noBorrow }

// Insert implements lotm.Policy: bring the turn forward ahead of an
// enemy's turn (insert: turn) or of its started attack (insert: attack).
func (p *lotmPolicy) Insert(t *lotm.Table, self, actor int, attacking bool) bool {
	switch p.insert {
	case lotmInsertTurn:
		return !attacking
	case lotmInsertAttack:
		return attacking
	}
	return false
}

// Turn implements lotm.Policy.
func (p *lotmPolicy) Turn(t *lotm.Table, self int) lotm.Plan {
	plan := p.turn(t, self)
	if t.SeparateSlots() && !t.Resuming(self) {
		plan.Also = p.also(t, self, plan)
	}
	return plan
}

// also is the second main action with casting_slot separate: a casting
// after an Attack-action main while casting uses last, a weapon attack
// after a casting (none while held in a grapple: no Attack actions).
func (p *lotmPolicy) also(t *lotm.Table, self int, plan lotm.Plan) lotm.Main {
	me := &t.Game().C[self]
	switch {
	case plan.Target < 0:
		return lotm.MainNone
	case plan.Main == lotm.MainCast || (plan.Main == lotm.MainVital && plan.Cast):
		if t.HeldFromAttacks(self) {
			return lotm.MainNone
		}
		if me.CanDouble {
			return lotm.MainDouble
		}
		return lotm.MainAttack
	case plan.Main == lotm.MainNone || plan.Main == lotm.MainDelay || plan.Main == lotm.MainFirstAid:
		return lotm.MainNone
	case t.CastUses(self) > 0: // the Attack-action main leaves the Casting action
		return lotm.MainCast
	}
	return lotm.MainNone
}

func (p *lotmPolicy) turn(t *lotm.Table, self int) lotm.Plan {
	g := t.Game()
	me := &g.C[self]
	plan := lotm.Plan{Target: -1, Patient: -1, Ally: -1, Stand: true, Swift: p.swift}
	if t.Resuming(self) {
		// The held action: at the trigger's enemy when there is one.
		tg := t.TriggerTarget()
		if tg < 0 || t.Side(tg) == t.Side(self) || !t.Targetable(self, tg) {
			tg = p.pick(t, self)
		}
		plan.Target = tg
		plan.Main, plan.Part, plan.Cast, plan.OneHand = p.main(t, self, tg)
		return plan
	}
	if me.Invisible != lotm.KindNone {
		plan.Hide = p.hide
	}
	plan.Cover = p.cover
	if p.firstAid {
		for j := 0; j < t.N(); j++ {
			if t.Present(j) && t.Side(j) == me.Side && t.Effects(j) > 0 && t.Dist(self, j) <= lotm.Reach {
				plan.Main, plan.Patient = lotm.MainFirstAid, j
				return plan
			}
		}
	}
	if held := t.Grappling(self); held >= 0 {
		plan.Target = held
		if t.OneHand(self) {
			plan.Main = lotm.MainAttack
			if me.CanDouble {
				plan.Main = lotm.MainDouble
			}
		} else {
			plan.Main = lotm.MainSqueeze
		}
		if plan.Swift == lotm.SwiftIntimidate || plan.Swift == lotm.SwiftFeint {
			plan.Swift = lotm.SwiftNone
		}
		return plan
	}
	tg := p.pick(t, self)
	plan.Target = tg
	if by := t.GrappledBy(self); by >= 0 && !t.HeldFromAttacks(self) {
		// Held only from moving (size): strike the one holding it.
		tg = by
		plan.Target = tg
	} else if by >= 0 {
		// Held: no Attack or Move actions; a casting is still allowed.
		plan.Swift = lotm.SwiftNone
		if t.CastUses(self) > 0 {
			plan.Main = lotm.MainCast
		}
		return plan
	}
	if tg < 0 {
		plan.Swift = lotm.SwiftNone
		return plan
	}
	if p.delay != lotm.KindNone && !(p.firstOnly && t.Round() > 1) && p.shouldDelay(t, self, tg) {
		plan.Main, plan.Delay, plan.Trigger, plan.Ally = lotm.MainDelay, p.delay, p.trigger, p.ally
		// The Swift action is kept: it is the held one, or the held
		// attack's Build-Up Aim.
		plan.Swift = lotm.SwiftNone
		return plan
	}
	plan.Main, plan.Part, plan.Cast, plan.OneHand = p.main(t, self, tg)
	plan.Limb = p.limb && plan.Main == lotm.MainGrapple
	if t.Teleports(self) > 0 && t.Side(tg) != me.Side {
		switch p.teleport {
		case "always": // the movement ambush's Advantage; from hiding the ambush is the invisibility's
			plan.Teleport = !t.Hidden(self)
		case "auto": // only when walking cannot get there this turn
			plan.Teleport = t.Dist(self, tg) > lotm.Reach+me.Speed && !me.Ranged
		}
	}
	return plan
}

// main chooses the Attack/Casting action against tg.
func (p *lotmPolicy) main(t *lotm.Table, self, tg int) (lotm.Main, lotm.Part, bool, bool) {
	me := &t.Game().C[self]
	weapon := lotm.MainAttack
	if me.CanDouble {
		weapon = lotm.MainDouble
	}
	switch {
	case p.auto: // none of the cases below: skip comparing the strings
	case p.attack == "weapon": // tactics' strike: the weapon the other choices fall back to
		return weapon, 0, false, false
	case p.attack == "attack":
		return lotm.MainAttack, 0, false, false
	case p.attack == "double":
		return lotm.MainDouble, 0, false, false
	case p.attack == "vital":
		return lotm.MainVital, p.part, false, false
	case p.attack == "cast":
		if t.CastUses(self) > 0 {
			return lotm.MainCast, 0, false, false
		}
		return weapon, 0, false, false
	case p.attack == "grapple":
		if tg >= 0 && t.GrappledBy(tg) < 0 && t.Grappling(tg) < 0 {
			return lotm.MainGrapple, 0, false, p.oneHand
		}
		return weapon, 0, false, false
	case p.attack == "charge":
		if tg >= 0 && !t.OffBalance(tg) {
			return lotm.MainCharge, 0, false, false
		}
		return weapon, 0, false, false
	case p.attack == "point_blank":
		return lotm.MainPointBlank, 0, false, false
	case p.attack == "leg_sweep":
		return lotm.MainLegSweep, 0, false, false
	case p.attack == "meditate": // tactics' meditate: Full Meditation, the whole turn
		return lotm.MainMeditate, 0, false, false
	}
	if me.Shots > 0 && tg >= 0 && t.Dist(self, tg) <= lotm.Reach && t.CastUses(self) == 0 {
		return lotm.MainPointBlank, 0, false, false
	}
	if t.CastUses(self) > 0 {
		return lotm.MainCast, 0, false, false
	}
	return weapon, 0, false, false
}

// shouldDelay: hold the action only while its trigger can still come this
// round and acting now would not already have what it waits for.
func (p *lotmPolicy) shouldDelay(t *lotm.Table, self, tg int) bool {
	switch p.trigger {
	case lotm.OnAllyGrapples:
		if t.GrappledBy(tg) >= 0 && t.Side(t.GrappledBy(tg)) == t.Side(self) {
			return false // already held: strike now
		}
		return p.allyToCome(t, self)
	case lotm.OnAfterAlly:
		return p.allyToCome(t, self)
	case lotm.OnEnemyInReach:
		for j := 0; j < t.N(); j++ {
			if t.Present(j) && t.Side(j) != t.Side(self) && t.Dist(self, j) <= lotm.Reach {
				return false // already in reach: act
			}
		}
	case lotm.OnEnemyCasts, lotm.OnEnemyAttacksAlly, lotm.OnEnemyActs:
		// Wait only while an enemy that could set it off has its turn to
		// come: one with a casting use left (enemy_casts), the named one
		// (enemy_acts), any (enemy_attacks_ally).
		for _, j := range t.Foes(self) {
			if !t.Present(j) || t.Acted(j) || t.Stunned(j) {
				continue
			}
			switch {
			case p.trigger == lotm.OnEnemyCasts && t.CastUses(j) == 0:
			case p.trigger == lotm.OnEnemyActs && p.ally >= 0 && p.ally != j:
			default:
				return true
			}
		}
		return false
	}
	return true
}

func (p *lotmPolicy) allyToCome(t *lotm.Table, self int) bool {
	if p.ally < 0 {
		for j := 0; j < t.N(); j++ {
			if j != self && t.Present(j) && t.Side(j) == t.Side(self) && !t.Acted(j) {
				return true
			}
		}
		return false
	}
	return t.Present(p.ally) && !t.Acted(p.ally) && !t.Stunned(p.ally)
}

// pick chooses the enemy to act against: one it can choose (in the battle,
// not hidden), a grappled one first (prefer_held), else one it can reach
// this turn, ordered by the target parameter.
func (p *lotmPolicy) pick(t *lotm.Table, self int) int {
	g := t.Game()
	me := &g.C[self]
	mode := int(p.sel) - 1
	if p.sel == 0 {
		mode = lotmSelector(p.target)
	}
	if mode == lotmSelRandom {
		n := 0
		for _, j := range t.Foes(self) {
			if t.Targetable(self, j) {
				n++
			}
		}
		if n == 0 {
			return -1
		}
		k := t.Rand().IntN(n)
		for _, j := range t.Foes(self) {
			if t.Targetable(self, j) {
				if k == 0 {
					return j
				}
				k--
			}
		}
	}
	best, bestTier := -1, -1
	// Hoisted out of the loop: reaching any enemy (ranged, or a teleport
	// left), the walking reach.
	reachAll, walk := me.Ranged || t.Teleports(self) > 0, lotm.Reach+me.Speed
	for _, j := range t.Foes(self) {
		if !t.Targetable(self, j) {
			continue
		}
		tier := 0
		if reachAll || t.Dist(self, j) <= walk {
			tier = 1
		}
		if p.preferHeld && t.GrappledBy(j) >= 0 {
			tier = 2
		}
		better := tier > bestTier
		if tier == bestTier { // best >= 0: bestTier starts below every tier
			// j is better than best under the selector (first: never).
			switch mode {
			case lotmSelWeakest:
				better = t.HP(j) < t.HP(best)
			case lotmSelStrongest:
				better = t.HP(j) > t.HP(best)
			case lotmSelNearest:
				better = t.Dist(self, j) < t.Dist(self, best)
			}
		}
		if better {
			best, bestTier = j, tier
		}
	}
	return best
}

// Selectors as better reads them.
const (
	lotmSelWeakest = iota
	lotmSelStrongest
	lotmSelNearest
	lotmSelFirst
	lotmSelRandom
)

func lotmSelector(target string) int {
	switch target {
	case "strongest":
		return lotmSelStrongest
	case "nearest":
		return lotmSelNearest
	case "first":
		return lotmSelFirst
	case "random":
		return lotmSelRandom
	}
	return lotmSelWeakest
}
