package d20

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/scenario"
)

// Game is a compiled d20 scenario. Immutable; shared by all workers.
type Game struct {
	Opt       Options
	Maxround  int
	Distance  int
	C         []Combatant // the expanded roster
	roster    []sim.Entrant
	sideCount [2]int
	// sideOf and enemies are dense copies of the roster's sides, so the
	// per-turn loops read a few bytes instead of striding over Combatant.
	sideOf           []int
	enemies          [2][]int   // enemies[s]: the opponents of side s
	sim.RuleRegistry            // tactics rule counters
	srdDying         bool       // Opt.Dying == "srd", tested without a string compare
	traits           *traitSet  // traits and house rules (traits.go); nil: none
	fused            *fusedGame // the fused referee's form (fused.go); nil: the general referee plays
	hitGate          []uint64   // by combatant, the hit facts under which its hit traits may fire (hitgate.go)
}

// Combatant is the static description of one combatant.
type Combatant struct {
	Name          string
	Side          int
	HP            dice.Expr
	AC, DexAC     int
	Init          int
	InitRoll      int       // pinned die result, 0: rolled
	InitDice      dice.Expr // initiative_dice: replaces the d20 (zero: a d20)
	Aware         bool
	Attacks       []int
	Damage        dice.Expr
	ThreatFrom    int // lowest d20 that threatens (20 by default; 21: never)
	CritMult      int
	Speed         int
	Reach         int
	Brace         bool
	UncannyDodge  bool
	Concentration int
	Spellcraft    int
	Save          int
	Spells        []Spell
	Ranged        Ranged // Increment 0: none
	PreciseShot   bool
	SneakAttack   dice.Expr // extra damage on a hit against a flat-footed or flanked target (zero: none)
	sneak         bool      // SneakAttack is set
	Position      int       // feet behind its side's front line at the start
	// Policy is read once by Compile: a StandardPolicy's rule is copied
	// into std/stdRule, and the referee applies it without calling Turn
	// (but when tracing), so replacing Policy after Compile does not
	// replace a standard policy's decisions.
	Policy Policy

	std     bool     // Policy is a StandardPolicy: the referee decides by stdRule
	stdRule Standard // its rule
}

// Spell is a simple damage spell.
type Spell struct {
	Name     string
	Damage   dice.Expr
	Level    int
	Uses     int
	SaveDC   int // 0: no save
	SaveHalf bool
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
	g.srdDying = g.Opt.Dying == "srd"
	var deciders sim.Deciders
	var firsts []int // roster index of each combatant entry's first copy
	for s, side := range sc.Sides {
		for _, cs := range side.Combatants {
			firsts = append(firsts, len(g.C))
			base := Combatant{
				Name: cs.Name, Side: s, HP: cs.HP, AC: cs.AC, Init: cs.Init, InitRoll: cs.InitiativeRoll,
				Aware: side.Aware, Attacks: cs.Attacks, Damage: cs.Damage, Speed: cs.Speed,
				Reach: 5, ThreatFrom: 20, CritMult: 2,
			}
			if cs.Aware != nil {
				base.Aware = *cs.Aware
			}
			compileFields(d, &base, cs)
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
				g.sideOf = append(g.sideOf, s)
				g.enemies[1-s] = append(g.enemies[1-s], len(g.C)-1)
			}
		}
	}
	// Traits before policies: a tactics rule may choose an action written
	// as data.
	readTraits(sc, g, firsts)
	// Policies are compiled even after field errors, so one pass reports
	// every problem (a policy naming a missing spell may add a second line).
	policies.Make(d, &deciders, func(i int, newPolicy PolicyMaker, spec scenario.PolicySpec) {
		g.C[i].Policy = newPolicy(d, g, i, spec)
	})
	// Trait counters after the tactics' ones.
	registerTraits(g)
	if err := sc.Rep.Err(); err != nil {
		return nil, err
	}
	for i := range g.C {
		if sp, ok := g.C[i].Policy.(StandardPolicy); ok {
			g.C[i].stdRule, g.C[i].std = sp.Standard()
		}
	}
	if !noFused {
		g.fused = compileFused(g)
	}
	g.hitGate = compileHitGate(g.traits)
	return g, nil
}

func compileOptions(sc *scenario.Scenario) Options {
	o := Options{Dying: "out-at-0", ConfirmCrits: true}
	d := sc.Dec
	valid := []string{"dying", "surprise_ends_flat_footed", "confirm_crits", "range_penalty", "flanking"}
	for name, n := range sc.Options {
		path := "options." + name
		switch name {
		case "dying":
			o.Dying = d.Enum(n, path, []string{"out-at-0", "srd"})
		case "surprise_ends_flat_footed":
			o.SurpriseEndsFlatFooted = d.Bool(n, path)
		case "confirm_crits":
			o.ConfirmCrits = d.Bool(n, path)
		case "range_penalty":
			o.TableRange = d.Enum(n, path, []string{"srd", "table"}) == "table"
		case "flanking":
			o.FlankTwo = d.Enum(n, path, []string{"line", "two"}) == "two"
		default:
			d.Unknown(sc.OptionKey[name], path, valid)
		}
	}
	return o
}

func compileFields(d *scenario.Decoder, c *Combatant, cs scenario.Combatant) {
	p := cs.Path + "."
	for name, n := range cs.Extra {
		switch name {
		case "dex_ac":
			c.DexAC = d.Int(n, p+name, 0, 100)
		case "crit":
			c.ThreatFrom, c.CritMult = parseCrit(d, n, p+name)
		case "uncanny_dodge":
			c.UncannyDodge = d.Bool(n, p+name)
		case "reach":
			c.Reach = d.Int(n, p+name, 5, 100)
			if c.Reach%5 != 0 {
				d.Errorf(n, p+name, "reach %d is not a multiple of 5 feet", c.Reach)
			}
		case "brace":
			c.Brace = d.Bool(n, p+name)
		case "concentration":
			c.Concentration = d.Int(n, p+name, -20, 100)
		case "spellcraft":
			c.Spellcraft = d.Int(n, p+name, -20, 100)
		case "save":
			c.Save = d.Int(n, p+name, -20, 100)
		case "spells":
			c.Spells = compileSpells(d, n, p+name)
		case "initiative_dice":
			c.InitDice = compileInitDice(d, n, p+name, cs)
		case "ranged":
			c.Ranged = compileRanged(d, n, p+name)
		case "precise_shot":
			c.PreciseShot = d.Bool(n, p+name)
		case "sneak_attack":
			c.SneakAttack = d.Dice(n, p+name)
			c.sneak = !c.SneakAttack.IsZero()
		case "position":
			c.Position = d.Int(n, p+name, 0, 10000)
			if c.Position%5 != 0 {
				d.Errorf(n, p+name, "position %d is not a multiple of 5 feet", c.Position)
			}
		}
	}
	if c.Speed%5 != 0 {
		d.Errorf(cs.Node, p+"speed", "speed %d is not a multiple of 5 feet", c.Speed)
	}
	if c.InitDice.IsZero() && cs.InitiativeRoll > 20 {
		d.Errorf(initRollNode(cs), p+"initiative_roll", "%d is out of range; expected a whole number from 1 to 20 (a d20; initiative_dice allow other results)", cs.InitiativeRoll)
	}
}

// initRollNode is the value node of cs's initiative_roll (cs's own node if
// it has none), for an error's line and column.
func initRollNode(cs scenario.Combatant) *yaml.Node {
	for i := 0; i+1 < len(cs.Node.Content); i += 2 {
		if cs.Node.Content[i].Value == "initiative_roll" {
			return cs.Node.Content[i+1]
		}
	}
	return cs.Node
}

// compileInitDice reads initiative_dice: dice that replace the d20 of the
// initiative check (the modifier and the tie-breaks are unchanged). A pinned
// initiative_roll must be a result those dice can roll.
func compileInitDice(d *scenario.Decoder, n *yaml.Node, path string, cs scenario.Combatant) dice.Expr {
	e := d.Dice(n, path)
	if e.IsZero() {
		return e // the error is reported
	}
	if e.IsConst() {
		d.Errorf(n, path, "initiative_dice %q has no dice; give dice such as 1d20, 2d20kh1 or 1d10 (to fix the roll, use initiative_roll)", n.Value)
		return dice.Expr{}
	}
	if cs.InitiativeRoll != 0 && (cs.InitiativeRoll < e.Min() || cs.InitiativeRoll > e.Max()) {
		d.Errorf(initRollNode(cs), cs.Path+".initiative_roll", "initiative_roll %d cannot be rolled on initiative_dice %s; give a result from %d to %d",
			cs.InitiativeRoll, e.String(), e.Min(), e.Max())
	}
	return e
}

// parseCrit reads "19-20/x2", "20/x3", "x3" or "none".
func parseCrit(d *scenario.Decoder, n *yaml.Node, path string) (int, int) {
	s := strings.TrimSpace(d.Str(n, path))
	bad := func() (int, int) {
		d.Errorf(n, path, "crit %q: expected a threat range and multiplier such as \"19-20/x2\", \"20/x3\", \"x3\", or \"none\"", s)
		return 20, 2
	}
	if s == "none" {
		return 21, 1
	}
	rng, mult := "20", s
	if i := strings.IndexByte(s, '/'); i >= 0 {
		rng, mult = s[:i], s[i+1:]
	} else if !strings.HasPrefix(s, "x") {
		rng, mult = s, "x2"
	}
	if !strings.HasPrefix(mult, "x") {
		return bad()
	}
	m, err := strconv.Atoi(mult[1:])
	if err != nil || m < 2 || m > 10 {
		return bad()
	}
	lo, hi := rng, "20"
	if i := strings.IndexByte(rng, '-'); i >= 0 {
		lo, hi = rng[:i], rng[i+1:]
	}
	l, err1 := strconv.Atoi(lo)
	h, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || h != 20 || l < 2 || l > 20 {
		return bad()
	}
	return l, m
}

func compileSpells(d *scenario.Decoder, n *yaml.Node, path string) []Spell {
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, path, "expected a list of spells, e.g. [{name: fire bolt, damage: 3d6, level: 2}]")
		return nil
	}
	var out []Spell
	seen := map[string]bool{}
	for i, sn := range n.Content {
		sp := Spell{Uses: 1, SaveHalf: true}
		p := fmt.Sprintf("%s[%d]", path, i)
		if sn.Kind != yaml.MappingNode {
			d.Errorf(sn, p, "a spell is a mapping {name, damage, level, uses, save_dc, save_half}")
			continue
		}
		keys := d.Mapping(sn, p, []string{"name", "damage", "level", "uses", "save_dc", "save_half"})
		if k := keys["name"]; k != nil {
			sp.Name = d.Str(k, p+".name")
		} else {
			d.Errorf(sn, p+".name", "missing; a spell needs a name (counterspelling matches names)")
		}
		if seen[sp.Name] {
			d.Errorf(sn, p+".name", "spell %q listed twice", sp.Name)
		}
		seen[sp.Name] = true
		if k := keys["damage"]; k != nil {
			sp.Damage = d.Dice(k, p+".damage")
		} else {
			d.Errorf(sn, p+".damage", "missing; give the spell's damage as dice, e.g. 3d6")
		}
		if k := keys["level"]; k != nil {
			sp.Level = d.Int(k, p+".level", 0, 9)
		}
		if k := keys["uses"]; k != nil {
			sp.Uses = d.Int(k, p+".uses", 0, 1000)
		}
		if k := keys["save_dc"]; k != nil {
			sp.SaveDC = d.Int(k, p+".save_dc", 1, 100)
		}
		if k := keys["save_half"]; k != nil {
			sp.SaveHalf = d.Bool(k, p+".save_half")
		}
		out = append(out, sp)
	}
	if len(out) > maxSpells {
		d.Errorf(n, path, "%d spells; at most %d per combatant", len(out), maxSpells)
		out = out[:maxSpells]
	}
	return out
}

// maxSpells bounds the per-combatant spell table so a Table can hold uses in
// a fixed array.
const maxSpells = 8
