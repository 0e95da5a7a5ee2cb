package lotm

import (
	"go.yaml.in/yaml/v3"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Improvised Cover. Two options, both giving Armor from the source's table
// by the object's size (small +2, small-medium +3, medium +4, medium-large
// +5, large +6; an object of hard metal other than a weapon +2 more):
//
// Option 1, snatch an item (Plan.Cover CoverItem; field cover_item): a
// Swift action picks up an object and holds it in front. Picking up a
// size-level L object (small 1 ... large 5) needs Strength 2L, +2 for metal
// ("every 2 points of Strength equals 1 size category ... a large-size
// item requires Strength 10"); short of it, a Strength check d20 +
// strength against Difficulty 15 + 2L, failing which the Swift action is
// spent for nothing. The cover goes with its holder.
//
// Option 2, take cover behind an obstacle (Plan.Cover CoverObstacle; field
// obstacle): a Move action, no Strength needed; the cover holds while the
// combatant stays where it is (any move of its own ends it).
//
// Either way the Armor adds to Physical Defense against every attack (no
// attack here can go around an object) except a Grapple, which ignores
// Armor; and when an attack hits the combatant anyway, the object is
// destroyed (rule 4; "the weapon in your hand" used as cover is an item of
// its size, broken the same way). The items or obstacles at hand are the
// field's count; each destroyed one is gone.
//
// Not simulated: hiding behind a hard wall (untargetable unless the
// attacker's Strength could pick the wall up, going around it, the wall
// destruction notes): the battlefield is a line with no walls to go
// around; and objects fixed to the ground (walls) as items.

// Cover is an object that can serve as Improvised Cover.
type Cover struct {
	Size  int  // 1 small ... 5 large; 0: none at hand
	Metal bool // hard metal, not a weapon
	Count int  // how many are at hand in the fight
}

// CoverSizes are the size names of the source's table, by level - 1.
var CoverSizes = []string{"small", "small_medium", "medium", "medium_large", "large"}

// Armor is the Armor the object gives.
func (c Cover) Armor() int {
	a := c.Size + 1
	if c.Metal {
		a += 2
	}
	return a
}

// Strength is the Strength needed to pick it up without a check.
func (c Cover) Strength() int {
	s := 2 * c.Size
	if c.Metal {
		s += 2
	}
	return s
}

// CoverUse is a plan's use of Improvised Cover.
type CoverUse uint8

// Cover uses.
const (
	CoverNone     CoverUse = iota
	CoverItem              // Swift action, before the other actions: snatch an item (field cover_item)
	CoverObstacle          // Move action, after the other actions: get behind an obstacle (field obstacle)
)

func compileCover(d *scenario.Decoder, n *yaml.Node, path string) Cover {
	c := Cover{Count: 1}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "expected a mapping {size: medium, metal: false, count: 1}; sizes: small, small_medium, medium, medium_large, large")
		return Cover{}
	}
	keys := d.Mapping(n, path, []string{"size", "metal", "count"})
	if k := keys["size"]; k != nil {
		s := d.Enum(k, path+".size", CoverSizes)
		for i, v := range CoverSizes {
			if v == s {
				c.Size = i + 1
			}
		}
	} else {
		d.Errorf(n, path+".size", "missing; give the object's size: small | small_medium | medium | medium_large | large")
	}
	if k := keys["metal"]; k != nil {
		c.Metal = d.Bool(k, path+".metal")
	}
	if k := keys["count"]; k != nil {
		c.Count = d.Int(k, path+".count", 1, 100)
	}
	return c
}

// takeCover carries out Plan.Cover for i.
func (t *Table) takeCover(i int, u CoverUse) {
	f := &t.f[i]
	c := &t.g.C[i]
	switch u {
	case CoverItem:
		if f.items == 0 || f.coverArmor > 0 || t.restrained(i) || !t.canUse(i, KindSwift) {
			return
		}
		t.use(i, KindSwift)
		it := c.Item
		if c.Strength < it.Strength() {
			dc := 15 + 2*it.Size
			n := t.die(20)
			ok := n+c.Strength >= dc
			if t.log != nil {
				t.logf("  %s tries to snatch a %s item (strength %d of %d): d20 %d %+d = %d vs difficulty %d: %s", c.Name, CoverSizes[it.Size-1],
					c.Strength, it.Strength(), n, c.Strength, n+c.Strength, dc, eitherT(ok, msg.New("lifted"), msg.New("too heavy")))
				t.ev(sim.Event{Kind: sim.EvCheck, Actor: i, Target: sim.NoOne, Die: n, Roll: n + c.Strength, Need: dc, OK: ok, Rule: "snatch cover"})
			}
			if !ok {
				return
			}
		}
		f.items--
		f.coverArmor, f.coverItem, f.seen = it.Armor(), true, false
	case CoverObstacle:
		if f.obstacles == 0 || f.coverArmor > 0 || !t.canUse(i, KindMove) {
			return
		}
		t.use(i, KindMove)
		f.obstacles--
		f.coverArmor, f.coverItem, f.seen = c.Obstacle.Armor(), false, false
	default:
		return
	}
	t.c.Inc(c.Side, Covers)
	if t.log != nil {
		t.logf("  %s takes improvised cover (%s): armor +%d", c.Name, eitherT(f.coverItem, msg.New("an item, Swift action"), msg.New("an obstacle, Move action")), f.coverArmor)
		t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Amount: f.coverArmor, Rule: either2(f.coverItem, "cover: item", "cover: obstacle")})
	}
}

// leaveCover: i moved away from its obstacle.
func (t *Table) leaveCover(i int) {
	f := &t.f[i]
	if f.coverArmor > 0 && !f.coverItem {
		f.coverArmor = 0
		if t.log != nil {
			t.logf("  %s leaves its cover", t.name(i))
			t.ev(sim.Event{Kind: sim.EvAction, Actor: i, Target: sim.NoOne, Rule: "leave cover"})
		}
	}
}

// coverHit: an attack hit d through its cover: the object is destroyed.
func (t *Table) coverHit(d int) {
	f := &t.f[d]
	if f.coverArmor == 0 {
		return
	}
	f.coverArmor = 0
	t.c.Inc(t.side(d), CoversBroken)
	if t.log != nil {
		t.logf("  %s's cover is destroyed", t.name(d))
		t.ev(sim.Event{Kind: sim.EvDown, Actor: d, Target: sim.NoOne, Rule: "cover destroyed"})
	}
}

// Combat Ambush Using Obstacles (the source's Advanced Actions): a
// combatant behind Improvised Cover (an item held up or an obstacle: either
// blocks sight) is not seen, so an enemy coming around to it walks into an
// ambush.
//
// With a held Attack/Casting action (Delay Action, trigger enemy_in_reach)
// it strikes first (points 2-3: delay.go), a combat Ambush with Advantage
// on that one check, and also makes its Stealth against the enemy's
// Investigation (point 4): won, that strike catches the enemy Caught Off
// Guard (obstacleStrike). Without one (the reverse
// timing), the enemy whose move this turn ended within its reach attacks
// first, but the same contest won (the ambush succeeding) gives that one
// attack Disadvantage and no Build-Up Aim (obstacleFoil). Once it has
// attacked it has been seen: no more of this until it takes cover again. The source's
// Vital Strike note needs nothing: neither benefit removes its -10.

// obstacleStrike: d's held strike at e from behind cover.
func (t *Table) obstacleStrike(d, e int) {
	if t.f[d].coverArmor == 0 || t.f[d].seen || e < 0 || t.side(e) == t.side(d) {
		return // seen since it took cover: no ambush left to make
	}
	// Unseen, the held strike is a combat Ambush ("a combat Ambush can
	// still be established"): Advantage on that one check, as every
	// in-combat ambush; the Stealth contest "additionally" adds Caught Off
	// Guard.
	t.f[d].ambushOne = true
	t.c.Inc(t.side(d), Ambushes)
	if t.log != nil {
		t.logf("  %s strikes unseen from behind its cover (combat ambush: advantage on the strike)", t.name(d))
		t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: e, Rule: "combat ambush"})
	}
	if t.contest(d, t.g.C[d].Stealth, e, t.g.C[e].Investig, contestPerception, false, "ambush from behind cover: stealth vs investigation") {
		t.f[d].cogOn = e
		if t.log != nil {
			t.logf("  %s strikes from behind its cover: %s is Caught Off Guard", t.name(d), t.name(e))
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: e, Rule: "caught off guard"})
		}
	}
}

// obstacleFoil: a, which came within d's reach this turn, attacks d behind
// its cover while d holds no strike.
func (t *Table) obstacleFoil(d, a int) {
	if d < 0 || t.f[d].coverArmor == 0 || t.f[d].seen || t.f[d].delayed || t.side(a) == t.side(d) || !t.present(d) {
		return
	}
	if t.contest(d, t.g.C[d].Stealth, a, t.g.C[a].Investig, contestPerception, false, "ambush from behind cover: stealth vs investigation") {
		t.f[a].disOne = true
		t.c.Inc(t.side(d), Ambushes)
		if t.log != nil {
			t.logf("  %s was waiting behind its cover: %s's attack has Disadvantage and no aim", t.name(d), t.name(a))
			t.ev(sim.Event{Kind: sim.EvInterrupt, Actor: d, Target: a, Rule: "obstacle foil"})
		}
	}
}
