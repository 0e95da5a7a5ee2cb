package lotm

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/scenario"
)

// Game is a compiled LotM scenario. Immutable; shared by all workers.
type Game struct {
	Opt              Options
	Maxround         int
	Distance         int
	C                []Combatant // the expanded roster
	BlocksExits      [2]int      // side field blocks_exits: the blockade holds while this many of the side are in the battle (0: none)
	roster           []sim.Entrant
	sim.RuleRegistry               // tactics rule counters
	traits           *traitrun.Set // traits and house rules (traits.go); nil: none
}

// Combatant is the static description of one combatant.
//
// Physical Defense is AC + Dodge + Agility: `ac` is everything that is
// neither Dodge nor Agility (Armor included). Caught Off Guard loses Dodge
// and Agility; Off-Balance halves Agility (rounded up); a Grapple's check
// ignores Armor.
type Combatant struct {
	Name       string
	Side       int
	HP         dice.Expr
	AC         int
	Dodge      int
	Armor      int
	Agility    int
	Init       int // added to initiative
	InitRoll   int // pinned d20, 0: rolled
	Aware      bool
	Attack     int // attack bonus (attacks[0])
	Damage     dice.Expr
	Speed      int
	Ranged     bool
	Strength   int
	StrDamage  dice.Expr // the Strength damage die (the grapple's squeeze)
	Fighting   int       // Grapple's check (default: the attack bonus)
	Brawling   int       // the squeeze's contest (default: fighting)
	Con        int
	Deception  int // Feint's check: Deception, Performance or Brawling, whichever it uses
	Investig   int
	Intuition  int
	Stealth    int
	Intimidate int
	Willpower  int
	Luck       int
	Rank       int
	Double     int  // Fighting (Unarmed) for Double Strike
	CanDouble  bool // fists or a short blade
	FastDodge  bool
	Invisible  Kind // the action that hides it (KindNone: cannot)
	Teleports  int  // movement ambushes (flame-jumps) it can make per encounter
	Cast       Casting
	JoinsRound int   // the regular round it joins in (1: from the start)
	JoinAmbush bool  // joining is an inserted ambush (an Ambush Round of its own)
	LimbBlock  bool  // uses Limb Block against Vital Strikes (special.go)
	Borrow     bool  // uses Borrow Strength Against Strength on an enemy's melee critical failure (special.go)
	Size       int   // size level, for the grapple's size rules (grapple.go)
	Shots      int   // a firearm: shots per Attack action (0: no firearm); ranged
	DodgeLight bool  // can dodge light or lightning (Point-Blank Shooting, Limb Block)
	Item       Cover // Improvised Cover option 1: the items at hand (cover.go)
	Obstacle   Cover // Improvised Cover option 2: the obstacles at hand
	Policy     Policy
}

// Casting is a Beyonder ability used with a Casting action: a hit check
// against Physical Defense that deals Damage.
type Casting struct {
	Bonus  int
	Damage dice.Expr
	Uses   int // 0: none
}

// Roster implements sim.Game.
func (g *Game) Roster() []sim.Entrant { return g.roster }

// Counters implements sim.Game.
func (g *Game) Counters() []string { return counterNames }

// MaxRounds implements sim.Game.
func (g *Game) MaxRounds() int { return g.Maxround }

// NewTable implements sim.Game.
func (g *Game) NewTable() sim.Table { return newTable(g) }

// Index returns the roster index of a combatant by roster name, or by
// template name when it has a single copy.
func (g *Game) Index(name string) (int, bool) { return sim.RosterIndex(g.roster, name) }

// Compile implements sim.Ruleset.
func (Ruleset) Compile(sc *scenario.Scenario) (sim.Game, error) {
	g := &Game{Maxround: sc.MaxRounds, Distance: sc.Distance}
	d := sc.Dec
	g.Opt = compileOptions(sc)
	var deciders sim.Deciders
	unaware := [2]bool{}
	for s, side := range sc.Sides {
		if n := side.Extra["blocks_exits"]; n != nil {
			g.BlocksExits[s] = d.Int(n, side.Path+".blocks_exits", 0, scenario.MaxCombatants)
		}
		for _, cs := range side.Combatants {
			base := Combatant{
				Name: cs.Name, Side: s, HP: cs.HP, AC: cs.AC, Init: cs.Init, InitRoll: cs.InitiativeRoll,
				Aware: side.Aware, Damage: cs.Damage, Speed: cs.Speed,
				StrDamage: dice.MustParse("1d4"), JoinsRound: 1, JoinAmbush: true,
			}
			if cs.Aware != nil {
				base.Aware = *cs.Aware
			}
			if len(cs.Attacks) > 1 {
				d.Errorf(cs.Node, cs.Path+".attacks", "lotm has one attack per Attack action; give one bonus, e.g. [5] (Double Strike is the second attack: field double_strike)")
			}
			base.Attack = cs.Attacks[0]
			if g.Opt.Initiative == "agility" && cs.InitiativeRoll != 0 {
				d.Errorf(cs.Node, cs.Path+".initiative_roll", "option initiative: agility rolls no die; drop initiative_roll or choose initiative: d20+agility")
			}
			compileFields(d, g, &base, cs)
			if !base.Aware && base.JoinsRound == 1 {
				unaware[s] = true
			}
			dec := sim.DeciderOf(d, &side, &cs)
			for k := 1; k <= cs.Count; k++ {
				c := base
				if cs.Count > 1 {
					c.Name = cs.Name + "#" + strconv.Itoa(k)
				}
				deciders.Add(dec, len(g.C))
				g.C = append(g.C, c)
				g.roster = append(g.roster, sim.Entrant{Name: c.Name, Side: s})
			}
		}
	}
	if unaware[0] && unaware[1] {
		d.Errorf(sc.Sides[1].Node, "sides", "combatants on both sides are unaware; a pre-combat ambush has one ambushing side (aware) and one ambushed side (aware: false)")
	}
	if err := sc.Rep.Err(); err != nil {
		return nil, err
	}
	// Traits before policies: a tactics rule may choose a special action
	// written as data by name.
	compileTraits(sc, g)
	policies.Make(d, &deciders, func(i int, newPolicy PolicyMaker, spec scenario.PolicySpec) {
		g.C[i].Policy = newPolicy(d, g, i, spec)
	})
	// Trait counters after the tactics' ones.
	g.traits.Register(&g.RuleRegistry)
	if err := sc.Rep.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

func compileOptions(sc *scenario.Scenario) Options {
	o := defaultOptions()
	d := sc.Dec
	for name, n := range sc.Options {
		path := "options." + name
		switch name {
		case "initiative":
			o.Initiative = d.Enum(n, path, []string{"d20+agility", "d20", "agility"})
		case "burn_luck_initiative":
			o.BurnLuckInit = d.Bool(n, path)
		case "advantage":
			o.Advantage = d.Enum(n, path, []string{"2d20", "flat"})
		case "flat_bonus":
			o.FlatBonus = d.Int(n, path, 0, 20)
		case "naturals":
			o.Naturals = d.Bool(n, path)
		case "contest_ties":
			o.TiesTo = d.Enum(n, path, []string{"defender", "attacker"})
		case "ambush_detection":
			o.Detection = d.Enum(n, path, []string{"side", "each", "none"})
		case "insert_order":
			o.InsertOrder = d.Enum(n, path, []string{"keep", "move"})
		case "search":
			o.Search = d.Enum(n, path, []string{"turn", "none"})
		case "casting_slot":
			o.CastingSlot = d.Enum(n, path, []string{"shared", "separate"})
		case "spiritual_intuition":
			o.Intuition = d.Bool(n, path)
		default:
			d.Unknown(sc.OptionKey[name], path, optionNames)
		}
	}
	return o
}

func compileFields(d *scenario.Decoder, g *Game, c *Combatant, cs scenario.Combatant) {
	p := cs.Path + "."
	stat := func(n *yaml.Node, name string) int { return d.Int(n, p+name, -100, 100) }
	fighting, brawling := false, false
	for name, n := range cs.Extra {
		switch name {
		case "agility":
			c.Agility = d.Int(n, p+name, 0, 100)
		case "dodge":
			c.Dodge = d.Int(n, p+name, 0, 100)
		case "armor":
			c.Armor = d.Int(n, p+name, 0, 100)
		case "strength":
			c.Strength = stat(n, name)
		case "strength_damage":
			c.StrDamage = d.Dice(n, p+name)
			if c.StrDamage.Min() < 0 {
				d.Errorf(n, p+name, "strength_damage %q can roll %d; damage cannot be negative", c.StrDamage.String(), c.StrDamage.Min())
			}
		case "fighting":
			c.Fighting, fighting = stat(n, name), true
		case "brawling":
			c.Brawling, brawling = stat(n, name), true
		case "constitution":
			c.Con = stat(n, name)
		case "deception":
			c.Deception = stat(n, name)
		case "investigation":
			c.Investig = stat(n, name)
		case "intuition":
			c.Intuition = stat(n, name)
		case "stealth":
			c.Stealth = stat(n, name)
		case "intimidation":
			c.Intimidate = stat(n, name)
		case "willpower":
			c.Willpower = stat(n, name)
		case "luck":
			c.Luck = d.Int(n, p+name, 0, 100)
		case "rank":
			c.Rank = d.Int(n, p+name, 0, 10)
		case "ranged":
			c.Ranged = d.Bool(n, p+name)
		case "double_strike":
			c.Double, c.CanDouble = stat(n, name), true
		case "fast_dodge":
			c.FastDodge = d.Bool(n, p+name)
		case "invisibility":
			switch d.Enum(n, p+name, []string{"swift", "move", "casting"}) {
			case "swift":
				c.Invisible = KindSwift
			case "move":
				c.Invisible = KindMove
			case "casting":
				c.Invisible = KindCasting
			}
		case "teleport":
			c.Teleports = d.Int(n, p+name, 0, 100)
		case "casting":
			c.Cast = compileCasting(d, n, p+name)
		case "joins_round":
			c.JoinsRound = d.Int(n, p+name, 1, scenario.MaxRounds)
			if c.JoinsRound > g.Maxround {
				d.Errorf(n, p+name, "joins_round %d is after max_rounds %d; it would never join", c.JoinsRound, g.Maxround)
			}
		case "joins_ambush":
			c.JoinAmbush = d.Bool(n, p+name)
		case "limb_block":
			c.LimbBlock = d.Bool(n, p+name)
		case "borrow_strength":
			c.Borrow = d.Bool(n, p+name)
		case "firearm":
			c.Shots, c.Ranged = d.Int(n, p+name, 1, 20), true
		case "dodge_light":
			c.DodgeLight = d.Bool(n, p+name)
		case "size":
			c.Size = d.Int(n, p+name, -10, 10)
		case "cover_item":
			c.Item = compileCover(d, n, p+name)
		case "obstacle":
			c.Obstacle = compileCover(d, n, p+name)
		}
	}
	if c.DodgeLight && !c.FastDodge {
		d.Errorf(cs.Node, p+"dodge_light", "dodge_light needs fast_dodge: true (dodging light or lightning is the fastest Fast Dodge)")
	}
	if !fighting {
		c.Fighting = c.Attack
	}
	if !brawling {
		c.Brawling = c.Fighting
	}
	if c.Damage.Min() < 0 {
		d.Errorf(cs.Node, p+"damage", "damage %q can roll %d; damage cannot be negative", c.Damage.String(), c.Damage.Min())
	}
}

func compileCasting(d *scenario.Decoder, n *yaml.Node, path string) Casting {
	c := Casting{Uses: 1}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "expected a mapping {bonus: 4, damage: 2d6, uses: 2}")
		return Casting{}
	}
	keys := d.Mapping(n, path, []string{"bonus", "damage", "uses"})
	if k := keys["bonus"]; k != nil {
		c.Bonus = d.Int(k, path+".bonus", -100, 100)
	}
	if k := keys["damage"]; k != nil {
		c.Damage = d.Dice(k, path+".damage")
		if c.Damage.Min() < 0 {
			d.Errorf(k, path+".damage", "damage %q can roll %d; damage cannot be negative", c.Damage.String(), c.Damage.Min())
		}
	} else {
		d.Errorf(n, path+".damage", "missing; give the ability's damage as dice, e.g. 2d6")
	}
	if k := keys["uses"]; k != nil {
		c.Uses = d.Int(k, path+".uses", 0, 1000)
	}
	return c
}
