package cavaliers

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/internal/traitrun"
	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// MaxArea bounds the Areas: they are numbered 0..MaxArea in a row.
const MaxArea = 15

// Game is a compiled Cavaliers scenario. Immutable; shared by all workers.
type Game struct {
	Opt              Options
	Maxround         int
	C                []Combatant // the expanded roster
	roster           []sim.Entrant
	sideCount        [2]int
	sim.RuleRegistry               // tactics rule counters
	traits           *traitrun.Set // traits and house rules (traits.go); nil: none
}

// Combatant is the static description of one combatant.
type Combatant struct {
	Name      string
	Side      int
	HP        dice.Expr
	Specialty Specialty
	Pool      Pool  // attribute die first, then the skill dice
	Pinned    []int // initiative_dice: pinned result per die; nil: rolled
	// Ranks lists every Initiative specialty it has ranks in, the main
	// one (Specialty, Pool, Pinned) first, then field specialties: the
	// one it rolls is its policy's choice (Policy.Roll).
	Ranks   []Ranks
	Attack  dice.Expr
	Defence dice.Expr
	Damage  dice.Expr
	Area    int // the Area it starts in (or enters in)
	Enters  int // the round it enters the fight (1: from the start)
	Policy  Policy
}

// Ranks is one Initiative specialty a combatant has ranks in: what it
// rolls when it rolls that specialty.
type Ranks struct {
	Specialty Specialty
	Pool      Pool
	Pinned    []int
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

// unusedFields are common scenario fields that mean nothing here; a value
// for one is an error rather than silently ignored. (Messages: the reason
// translates with the error around it.)
var unusedFields = map[string]msg.Text{
	"ac":              msg.New("defence is the field here (a number, or dice the defender rolls)"),
	"init":            msg.New("initiative is the pool: attribute and pool"),
	"initiative_roll": msg.New("a pool has several dice; pin each with initiative_dice: [attribute die, skill dice...]"),
	"attacks":         msg.New("attack is the field here (dice, e.g. 2d6+1)"),
	"speed":           msg.New("positions are Areas; a Move goes to an adjacent Area"),
}

// Compile implements sim.Ruleset.
func (Ruleset) Compile(sc *scenario.Scenario) (sim.Game, error) {
	g := &Game{Maxround: sc.MaxRounds}
	d := sc.Dec
	g.Opt = compileOptions(sc)
	if sc.Distance != 0 {
		d.Errorf(nil, "distance", "cavaliers places combatants in Areas, not feet apart; give each combatant area: N (an Area in a row 0..%d) and leave distance at 0", MaxArea)
	}
	var deciders sim.Deciders
	for s, side := range sc.Sides {
		if !side.Aware {
			d.Errorf(side.Node, side.Path+".aware", "cavaliers has no surprise rule (the source's Initiative is a free roll for everyone); remove aware: false")
		}
		if side.Referee {
			d.Errorf(side.Node, side.Path+".referee", "referee: is an acks2 field; cavaliers does not use it")
		}
		for _, cs := range side.Combatants {
			base := Combatant{Name: cs.Name, Side: s, HP: cs.HP, Damage: cs.Damage, Enters: 1}
			if cs.Aware != nil && !*cs.Aware {
				d.Errorf(cs.Node, cs.Path+".aware", "cavaliers has no surprise rule; remove aware: false")
			}
			rejectUnused(d, cs)
			compileFields(d, &base, cs)
			if base.Enters > sc.MaxRounds {
				d.Errorf(cs.Extra["enters"], cs.Path+".enters", "enters in round %d, after max_rounds %d: it would never join the fight", base.Enters, sc.MaxRounds)
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
				g.sideCount[s]++
			}
		}
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
	o := Options{RaiseOn: 6, AttackTies: true}
	d := sc.Dec
	for name, n := range sc.Options {
		path := "options." + name
		switch name {
		case "raise_on":
			o.RaiseOn = d.Int(n, path, 1, 1000)
		case "spend":
			if d.Enum(n, path, []string{"budget", "unlock"}) == "unlock" {
				o.Spend = Unlock
			}
		case "init_ties":
			switch d.Enum(n, path, []string{"random", "attribute", "raises"}) {
			case "attribute":
				o.Ties = TiesAttribute
			case "raises":
				o.Ties = TiesRaises
			}
		case "attack_ties":
			o.AttackTies = d.Enum(n, path, []string{"hit", "miss"}) != "miss"
		default:
			d.Unknown(sc.OptionKey[name], path, optionNames)
		}
	}
	return o
}

// rejectUnused reports common fields that cavaliers does not use.
func rejectUnused(d *scenario.Decoder, cs scenario.Combatant) {
	if cs.Node == nil || cs.Node.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(cs.Node.Content); i += 2 {
		k := cs.Node.Content[i]
		if why, ok := unusedFields[k.Value]; ok {
			d.Errorf(k, cs.Path+"."+k.Value, "cavaliers does not use %s: %s", k.Value, why)
		}
	}
}

func compileFields(d *scenario.Decoder, c *Combatant, cs scenario.Combatant) {
	p := cs.Path + "."
	x := cs.Extra
	if n := x["specialty"]; n != nil {
		s := d.Enum(n, p+"specialty", SpecialtyNames)
		for k, name := range SpecialtyNames {
			if s == name {
				c.Specialty = Specialty(k)
			}
		}
	} else {
		d.Errorf(cs.Node, p+"specialty", "missing; the Initiative specialty: impulse (Verve), vigilance (Affinity), timing (Guile) or none")
	}
	attr := 0
	if n := x["attribute"]; n != nil {
		attr = readAttribute(d, n, p+"attribute")
	} else {
		d.Errorf(cs.Node, p+"attribute", "missing; the attribute die of the specialty (Verve, Affinity or Guile): d6, d8 or d10")
	}
	c.Pool.Dice = []int{attr}
	if n := x["pool"]; n != nil {
		c.Pool.Dice = append(c.Pool.Dice, readSkillDice(d, n, p+"pool", MaxPool-1)...)
	}
	if n := x["initiative_dice"]; n != nil && attr > 0 {
		c.Pinned = readPinned(d, n, p+"initiative_dice", c.Pool)
	}
	c.Ranks = []Ranks{{Specialty: c.Specialty, Pool: c.Pool, Pinned: c.Pinned}}
	if n := x["specialties"]; n != nil {
		readRanks(d, n, p+"specialties", c)
	}
	if n := x["attack"]; n != nil {
		c.Attack = d.Dice(n, p+"attack")
	} else {
		d.Errorf(cs.Node, p+"attack", "missing; the attack roll as dice, e.g. 2d6+1 (it hits when it reaches the target's defence)")
	}
	if n := x["defence"]; n != nil {
		c.Defence = d.Dice(n, p+"defence")
	} else {
		d.Errorf(cs.Node, p+"defence", "missing; a fixed number (7) or dice the defender rolls against each attack (2d6)")
	}
	if !c.Damage.IsZero() && c.Damage.Max() < 1 {
		d.Errorf(cs.Node, p+"damage", "damage %q can never be above 0; a hit must be able to hurt", c.Damage.String())
	}
	if n := x["area"]; n != nil {
		c.Area = d.Int(n, p+"area", 0, MaxArea)
	}
	if n := x["enters"]; n != nil {
		c.Enters = d.Int(n, p+"enters", 1, scenario.MaxRounds)
	}
}

// readRanks reads field specialties: the other Initiative specialties the
// combatant has ranks in, each {specialty, attribute, pool,
// initiative_dice} like the main one. Each specialty may appear once
// (main one included), none is not a specialty to have ranks in, and a
// combatant of specialty none has no ranks to add to.
func readRanks(d *scenario.Decoder, n *yaml.Node, path string, c *Combatant) {
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, path, "expected a list of {specialty, attribute, pool, initiative_dice}, one per other Initiative specialty it has ranks in")
		return
	}
	if c.Specialty == NoSpecialty {
		d.Errorf(n, path, "specialty is none (no ranks in any Initiative specialty); give the main specialty in specialty: and only the others here")
		return
	}
	var seen [4]bool
	seen[c.Specialty] = true
	for k, e := range n.Content {
		ep := path + "[" + strconv.Itoa(k) + "]"
		if e.Kind != yaml.MappingNode {
			d.Errorf(e, ep, "expected a mapping {specialty, attribute, pool, initiative_dice}")
			continue
		}
		m := d.Mapping(e, ep, []string{"specialty", "attribute", "pool", "initiative_dice"})
		var r Ranks
		if v := m["specialty"]; v != nil {
			name := d.Enum(v, ep+".specialty", SpecialtyNames[1:])
			for s, sn := range SpecialtyNames {
				if s > 0 && sn == name {
					r.Specialty = Specialty(s)
				}
			}
			if r.Specialty != NoSpecialty && seen[r.Specialty] {
				d.Errorf(v, ep+".specialty", "%s is given twice (a specialty's ranks are one pool); list each specialty once", name)
			}
			seen[r.Specialty] = true
		} else {
			d.Errorf(e, ep+".specialty", "missing; one of impulse, vigilance, timing (other than the main specialty)")
		}
		attr := 0
		if v := m["attribute"]; v != nil {
			attr = readAttribute(d, v, ep+".attribute")
		} else {
			d.Errorf(e, ep+".attribute", "missing; the attribute die of that specialty: d6, d8 or d10")
		}
		r.Pool.Dice = []int{attr}
		if v := m["pool"]; v != nil {
			r.Pool.Dice = append(r.Pool.Dice, readSkillDice(d, v, ep+".pool", MaxPool-1)...)
		}
		if v := m["initiative_dice"]; v != nil && attr > 0 {
			r.Pinned = readPinned(d, v, ep+".initiative_dice", r.Pool)
		}
		c.Ranks = append(c.Ranks, r)
	}
}
