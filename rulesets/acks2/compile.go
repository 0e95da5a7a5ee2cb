package acks2

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/scenario"
)

// Game is a compiled ACKS II scenario. Immutable; shared by all workers.
type Game struct {
	Opt              Options
	Maxround         int
	Distance         int
	C                []Combatant // the expanded roster
	Referee          int         // the side whose referee chooses on equal numbers
	SideNames        [2]string
	roster           []sim.Entrant
	sideCount        [2]int
	sim.RuleRegistry               // tactics rule counters
	traits           *traitrun.Set // traits and house rules (traits.go); nil: none
	// general: every Table plays without the shortcuts that newTable
	// decides from the game (shortcuts.go); set by tests only, to compare
	// the two.
	general bool
}

// Weapon is the kind of weapon a combatant fights with.
type Weapon uint8

// Weapons.
const (
	Melee   Weapon = iota
	Long           // a long melee weapon (spear, polearm, lance)
	Missile        // a missile weapon (bow, crossbow, sling)
)

var weaponNames = []string{"melee", "long", "missile"}

// Size is a creature's size category, smallest first.
type Size uint8

// Sizes.
const (
	Tiny Size = iota
	Small
	Man
	Large
	Huge
	Gigantic
	Colossal
	numSizes
)

var sizeNames = []string{"tiny", "small", "man", "large", "huge", "gigantic", "colossal"}

// Combatant is the static description of one combatant.
type Combatant struct {
	Name        string
	Side        int
	Group       int // roster index of the first copy of its entry (group initiative)
	HP          dice.Expr
	AC          int
	Init        int   // DEX modifier and specials added to the 1d6
	InitRoll    int   // pinned d6 for every round not in InitRolls; 0: rolled
	InitRolls   []int // pinned d6 for rounds 1, 2, ...
	Aware       bool  // false: surprised at the start (no round-1 readiness)
	Attacks     []int // attack modifiers; an attack action makes one attack with each
	Damage      dice.Expr
	Speed       int
	AttackThrow int
	Weapon      Weapon
	Range       int // missile range in feet; 0: unlimited
	Size        Size
	Flies       bool
	// EngagedBy[s] is how many opponents of size s it takes to engage this
	// combatant (option size_engagement); 1 when the option is off.
	EngagedBy [numSizes]int
	Morale    int
	Save      int // saving throw target: d20 >= Save succeeds
	Cleaves   int // extra attacks per round after kills
	Behind    int // feet behind its side's front line at the start
	Spells    []Spell
	Policy    Policy
}

// Spell is a spell a combatant can declare and cast.
type Spell struct {
	Name   string
	Damage dice.Expr // rolled once at the target; zero: none
	Uses   int
	Save   SaveKind // what the target's saving throw does to Damage
	// A lingering effect put on the target: Ongoing damage at the start or
	// end of the target's segment, for OngoingRounds of its segments;
	// OngoingSave: the bearer saves after each tick and the effect ends on
	// a success.
	Ongoing       dice.Expr
	OngoingAt     Timing
	OngoingRounds int
	OngoingSave   bool
	Push          int // feet the target is moved away from the caster (a forced move)
}

// SaveKind is what a successful saving throw does to a spell's damage.
type SaveKind uint8

// Save kinds.
const (
	SaveNone    SaveKind = iota // no saving throw
	SaveHalf                    // half damage (rounded down)
	SaveNegates                 // no damage, no lingering effect, no push
)

var saveNames = []string{"none", "half", "negates"}

// Timing is when a lingering effect ticks within its bearer's segment.
type Timing uint8

// Timings.
const (
	AtStart Timing = iota
	AtEnd
)

// maxSpells bounds a combatant's spell list so a Table keeps uses in a
// fixed array; maxEffects bounds the lingering effects on one combatant.
const (
	maxSpells  = 8
	maxEffects = 4
)

// Roster implements sim.Game.
func (g *Game) Roster() []sim.Entrant { return g.roster }

// Counters implements sim.Game.
func (g *Game) Counters() []string { return counterNames }

// MaxRounds implements sim.Game.
func (g *Game) MaxRounds() int { return g.Maxround }

// NewTable implements sim.Game.
func (g *Game) NewTable() sim.Table { return newTable(g) }

// SideCount is the starting number of combatants of side s.
func (g *Game) SideCount(s int) int { return g.sideCount[s] }

// Index returns the roster index of a combatant by roster name, or by
// template name when it has a single copy.
func (g *Game) Index(name string) (int, bool) { return sim.RosterIndex(g.roster, name) }

// Compile implements sim.Ruleset.
func (Ruleset) Compile(sc *scenario.Scenario) (sim.Game, error) {
	g := &Game{Maxround: sc.MaxRounds, Distance: sc.Distance, Referee: 1}
	d := sc.Dec
	g.Opt = compileOptions(sc)
	refs := 0
	for s, side := range sc.Sides {
		g.SideNames[s] = side.Name
		if side.Referee {
			refs++
			g.Referee = s
			if refs > 1 {
				d.Errorf(side.Node, side.Path+".referee", "both sides have referee: true; the same-number rule needs one referee's side (the monsters)")
			}
		}
	}
	var deciders sim.Deciders
	for s, side := range sc.Sides {
		for _, cs := range side.Combatants {
			base := Combatant{
				Name: cs.Name, Side: s, HP: cs.HP, AC: cs.AC, Init: cs.Init, InitRoll: cs.InitiativeRoll,
				Aware: side.Aware, Attacks: cs.Attacks, Damage: cs.Damage, Speed: cs.Speed,
				AttackThrow: 10, Size: Man, Save: 15, Cleaves: -1,
			}
			if cs.Aware != nil {
				base.Aware = *cs.Aware
			}
			if k := cs.Node; k != nil && (cs.Init < -11 || cs.Init > 4) {
				d.Errorf(k, cs.Path+".init", "init %+d: 1d6 %+d falls outside the count from 10 to -10; give an init from -11 to +4", cs.Init, cs.Init)
			}
			compileFields(d, g, &base, cs)
			dec := sim.DeciderOf(d, &side, &cs)
			group := len(g.C)
			for k := 1; k <= cs.Count; k++ {
				c := base
				c.Group = group
				if cs.Count > 1 {
					c.Name = cs.Name + "#" + strconv.Itoa(k)
				}
				deciders.Add(dec, len(g.C))
				g.C = append(g.C, c)
				g.roster = append(g.roster, sim.Entrant{Name: c.Name, Side: s})
				g.sideCount[s]++
			}
		}
	}
	if err := sc.Rep.Err(); err != nil {
		return nil, err
	}
	for i := range g.C {
		if g.C[i].Cleaves < 0 {
			g.C[i].Cleaves = g.Opt.CleaveLimit
		}
		if !g.Opt.SizeEngagement {
			for s := range g.C[i].EngagedBy {
				g.C[i].EngagedBy[s] = 1
			}
		}
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

func compileFields(d *scenario.Decoder, g *Game, c *Combatant, cs scenario.Combatant) {
	p := cs.Path + "."
	var engagedBy *yaml.Node
	for name, n := range cs.Extra {
		switch name {
		case "attack_throw":
			c.AttackThrow = d.Int(n, p+name, -20, 40)
		case "weapon":
			switch d.Enum(n, p+name, weaponNames) {
			case "long":
				c.Weapon = Long
			case "missile":
				c.Weapon = Missile
			}
		case "range":
			c.Range = d.Int(n, p+name, 5, 10000)
		case "size":
			if s := d.Enum(n, p+name, sizeNames); s != "" {
				c.Size = sizeOf(s)
			}
		case "flies":
			c.Flies = d.Bool(n, p+name)
		case "engaged_by":
			engagedBy = n
		case "morale":
			c.Morale = d.Int(n, p+name, -12, 12)
		case "save":
			c.Save = d.Int(n, p+name, 1, 21)
		case "cleaves":
			c.Cleaves = d.Int(n, p+name, 0, 100)
		case "behind":
			c.Behind = d.Int(n, p+name, 0, 10000)
		case "spells":
			c.Spells = compileSpells(d, n, p+name)
		case "initiative_rolls":
			c.InitRolls = d.IntList(n, p+name, 1, 6, 1000)
		}
	}
	if k := cs.Extra["range"]; k != nil && c.Weapon != Missile {
		d.Errorf(k, p+"range", "range is for a missile weapon; %s's weapon is %s", cs.Name, weaponNames[c.Weapon])
	}
	compileEngagedBy(d, c, engagedBy, p+"engaged_by")
}

func sizeOf(name string) Size {
	for s, n := range sizeNames {
		if n == name {
			return Size(s)
		}
	}
	return Man
}

// compileEngagedBy reads engaged_by: a number (that many opponents of any
// smaller size; one of its own size or larger) or a mapping from opponent
// size to number ({man: 4, large: 2}; sizes not named take one).
func compileEngagedBy(d *scenario.Decoder, c *Combatant, n *yaml.Node, path string) {
	for s := range c.EngagedBy {
		c.EngagedBy[s] = 1
	}
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		k := d.Int(n, path, 1, 16)
		for s := Tiny; s < c.Size; s++ {
			c.EngagedBy[s] = max(k, 1)
		}
	case yaml.MappingNode:
		keys := d.Mapping(n, path, sizeNames)
		for name, v := range keys {
			c.EngagedBy[sizeOf(name)] = max(d.Int(v, path+"."+name, 1, 16), 1)
		}
	default:
		d.Errorf(n, path, "expected a number (opponents of any smaller size) or a mapping of opponent size to number, e.g. {man: 4, large: 2}")
	}
}

func compileSpells(d *scenario.Decoder, n *yaml.Node, path string) []Spell {
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, path, "expected a list of spells, e.g. [{name: magic missile, damage: 1d6+1}]")
		return nil
	}
	var out []Spell
	seen := map[string]bool{}
	valid := []string{"name", "damage", "uses", "save", "ongoing", "ongoing_at", "ongoing_rounds", "ongoing_save", "push"}
	for i, sn := range n.Content {
		sp := Spell{Uses: 1, OngoingRounds: 1}
		p := fmt.Sprintf("%s[%d]", path, i)
		if sn.Kind != yaml.MappingNode {
			d.Errorf(sn, p, "a spell is a mapping {%s}", strings.Join(valid, ", "))
			continue
		}
		keys := d.Mapping(sn, p, valid)
		if k := keys["name"]; k != nil {
			sp.Name = d.Str(k, p+".name")
		} else {
			d.Errorf(sn, p+".name", "missing; a spell needs a name")
		}
		if seen[sp.Name] {
			d.Errorf(sn, p+".name", "spell %q listed twice", sp.Name)
		}
		seen[sp.Name] = true
		if k := keys["damage"]; k != nil {
			sp.Damage = d.Dice(k, p+".damage")
		}
		if k := keys["uses"]; k != nil {
			sp.Uses = d.Int(k, p+".uses", 0, 1000)
		}
		if k := keys["save"]; k != nil {
			switch d.Enum(k, p+".save", saveNames) {
			case "half":
				sp.Save = SaveHalf
			case "negates":
				sp.Save = SaveNegates
			}
		}
		if k := keys["ongoing"]; k != nil {
			sp.Ongoing = d.Dice(k, p+".ongoing")
		}
		if k := keys["ongoing_at"]; k != nil {
			if d.Enum(k, p+".ongoing_at", []string{"start", "end"}) == "end" {
				sp.OngoingAt = AtEnd
			}
		}
		if k := keys["ongoing_rounds"]; k != nil {
			sp.OngoingRounds = d.Int(k, p+".ongoing_rounds", 1, 1000)
		}
		if k := keys["ongoing_save"]; k != nil {
			sp.OngoingSave = d.Bool(k, p+".ongoing_save")
		}
		if k := keys["push"]; k != nil {
			sp.Push = d.Int(k, p+".push", 0, 1000)
		}
		if sp.Ongoing.IsZero() {
			for _, f := range []string{"ongoing_at", "ongoing_rounds", "ongoing_save"} {
				if k := keys[f]; k != nil {
					d.Errorf(k, p+"."+f, "%s describes a lingering effect; give its damage as ongoing: DICE", f)
				}
			}
		}
		if sp.Damage.IsZero() && sp.Ongoing.IsZero() && sp.Push == 0 {
			d.Errorf(sn, p, "spell %q does nothing; give damage, ongoing or push", sp.Name)
		}
		out = append(out, sp)
	}
	if len(out) > maxSpells {
		d.Errorf(n, path, "%d spells; at most %d per combatant", len(out), maxSpells)
		out = out[:maxSpells]
	}
	return out
}
