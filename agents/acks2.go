package agents

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/acks2"
	"simctl/sim/scenario"
)

// Policies for ACKS II (rulesets/acks2): what to declare, whom to attack,
// whether to charge or ready, when to delay, what to do on a shared
// number, whether to strike before one's number, whom to cleave.

func init() {
	acks2.RegisterPolicy("default",
		"declare spells while they last, else close in and attack; take the readied and round-1 attacks offered (see interrupt). "+
			"Params: target (weakest|strongest|nearest|random|first|casters, default weakest: among the enemies it can attack this segment, else the nearest; "+
			"casters: declared casters first, then weakest), prefer (NAME: attack this enemy while it is in the fight), "+
			"charge (auto: charge when the target is beyond 5 ft and within twice its speed | never), "+
			"interrupt (at_self: readied attacks and round-1 missile shots at any enemy, the round-1 long weapon only against a charge at itself | always | never; default at_self), same_number (before|after: its choice when its side chooses, default before), "+
			"rank (order within its side on a shared number, higher first, default 0), spell (any|none|NAME: what to declare), "+
			"withdraw_below (HP: at or below it, declare a defensive move while engaged and ready an attack instead of closing in; default 0: never), "+
			"withdraw (withdraw|retreat, default withdraw)", makeAcksDefault)
	acks2.RegisterPolicy("delay",
		"delay on its number until a named combatant has acted (until: NAME) or to a count (count: N; below the limit it waits to the limit), then act as default; "+
			"acts at once if NAME will not act again this round. Params: until, count, rounds (all|first), plus default's", makeAcksDelay)
	acks2.RegisterPolicy("ready",
		"ready vs charge: when no enemy is within reach, ready an attack (taken from the next round on — or the same round with option ready_same_round — when an enemy's movement ends in reach, and it still acts on its number; readying again keeps the one it holds) instead of charging or closing in; "+
			"otherwise as default. Params: when (unreachable|always: ready every segment, even with an enemy in reach), plus default's", makeAcksReady)
	acks2.RegisterPolicy("receive",
		"stand and receive the charge: in round 1, while it has a missile or long weapon ready and no enemy in reach, delay to its limit so the round-1 attack against a charger stays open "+
			"(acting at the limit if no charge comes); later rounds as ready. Params: default's", makeAcksReceive)
}

var acksDefaultParams = []string{"target", "prefer", "charge", "interrupt", "same_number", "rank", "spell", "withdraw_below", "withdraw"}

// Target modes.
const (
	acksWeakest = iota
	acksStrongest
	acksNearest
	acksRandom
	acksFirst
	acksCasters
)

// Interrupt modes.
const (
	acksAtSelf = iota
	acksAlways
	acksNever
)

var acksTargetNames = []string{"weakest", "strongest", "nearest", "random", "first", "casters"}

// acksDefault declares spells, closes in and attacks.
type acksDefault struct {
	target        int
	prefer        int // -1: none
	charge        bool
	interrupt     int // acksAtSelf, acksAlways or acksNever
	before        bool
	rank          int
	spell         int // -2: any, -1: none, else that spell
	withdrawBelow int
	retreat       bool
	quiet         bool // Declare always returns nothing: it never withdraws and has no spell to declare
}

func makeAcksDefault(d *scenario.Decoder, g *acks2.Game, self int, spec scenario.PolicySpec) acks2.Policy {
	return readAcksDefault(newParams(d, spec, acksDefaultParams), g, self)
}

func readAcksDefault(p params, g *acks2.Game, self int) *acksDefault {
	pol := &acksDefault{prefer: -1, spell: -2}
	mode := p.enum("target", "weakest", acksTargetNames)
	for k, n := range acksTargetNames {
		if n == mode {
			pol.target = k
		}
	}
	if name, n := p.str("prefer"); n != nil {
		pol.prefer = acksIndex(p, g, name, n)
		if pol.prefer >= 0 && g.C[pol.prefer].Side == g.C[self].Side {
			p.d.Errorf(n, p.path("prefer"), "%q is on %s's own side; prefer names an enemy", name, g.C[self].Name)
		}
	}
	pol.charge = p.enum("charge", "auto", []string{"auto", "never"}) == "auto"
	switch p.enum("interrupt", "at_self", []string{"at_self", "always", "never"}) {
	case "always":
		pol.interrupt = acksAlways
	case "never":
		pol.interrupt = acksNever
	}
	pol.before = p.enum("same_number", "before", []string{"before", "after"}) == "before"
	pol.rank, _ = p.integer("rank", 0, -1000, 1000)
	if name, n := p.str("spell"); n != nil {
		switch name {
		case "any":
		case "none":
			pol.spell = -1
		default:
			pol.spell = acksSpellIndex(p, g, self, name, n)
		}
	}
	pol.withdrawBelow, _ = p.integer("withdraw_below", 0, 0, 100000)
	pol.retreat = p.enum("withdraw", "withdraw", []string{"withdraw", "retreat"}) == "retreat"
	pol.quiet = pol.withdrawBelow == 0 && (pol.spell == -1 || len(g.C[self].Spells) == 0)
	return pol
}

func acksSpellIndex(p params, g *acks2.Game, self int, name string, n *yaml.Node) int {
	var names []string
	for s, sp := range g.C[self].Spells {
		if sp.Name == name {
			return s
		}
		names = append(names, sp.Name)
	}
	p.d.Errorf(n, p.path("spell"), "%s has no spell %q; its spells: %s (or any, none)", g.C[self].Name, name, strings.Join(names, ", "))
	return -1
}

func acksIndex(p params, g *acks2.Game, name string, n *yaml.Node) int {
	if i, ok := g.Index(name); ok {
		return i
	}
	var names []string
	for _, c := range g.C {
		names = append(names, c.Name)
	}
	p.d.Errorf(n, p.spec.Path, "no combatant %q%s (or it has several copies; name one, e.g. Orc#2); combatants: %s", name, scenario.Suggest(name, names), strings.Join(names, ", "))
	return -1
}

// Declare implements acks2.Policy.
func (p *acksDefault) Declare(t *acks2.Table, self int) acks2.Declaration {
	if p.low(t, self) && t.Engaged(self) {
		if p.retreat {
			return acks2.Declaration{Kind: acks2.DeclareRetreat}
		}
		return acks2.Declaration{Kind: acks2.DeclareWithdraw}
	}
	if s := p.chooseSpell(t, self); s >= 0 {
		return acks2.Declaration{Kind: acks2.DeclareSpell, Spell: s}
	}
	return acks2.Declaration{}
}

func (p *acksDefault) low(t *acks2.Table, self int) bool {
	return p.withdrawBelow > 0 && t.HP(self) <= p.withdrawBelow
}

func (p *acksDefault) chooseSpell(t *acks2.Table, self int) int {
	if p.spell == -1 {
		return -1
	}
	if p.spell >= 0 {
		if t.Uses(self, p.spell) > 0 {
			return p.spell
		}
		return -1
	}
	for s := range t.Game().C[self].Spells {
		if t.Uses(self, s) > 0 {
			return s
		}
	}
	return -1
}

// Turn implements acks2.Policy.
func (p *acksDefault) Turn(t *acks2.Table, self int) acks2.Plan {
	plan := acks2.Plan{Do: acks2.Act, Target: p.pick(t, self), Charge: p.charge, DelayAfter: -1}
	if t.Declared(self).Kind == acks2.DeclareNothing && p.low(t, self) && !t.Engaged(self) &&
		t.Game().C[self].Weapon != acks2.Missile && !p.anyAttackable(t, self) {
		plan.Do = acks2.Ready // hurt: hang back and let them come
	}
	return plan
}

func (p *acksDefault) anyAttackable(t *acks2.Table, self int) bool {
	for _, j := range t.Foes(self) {
		if t.CanAttack(self, j) {
			return true
		}
	}
	return false
}

// pick chooses the enemy to attack or cast at.
func (p *acksDefault) pick(t *acks2.Table, self int) int {
	if p.prefer >= 0 && !t.Out(p.prefer) {
		return p.prefer
	}
	if p.target == acksWeakest {
		// The default: the referee's own scan (Table.WeakestTarget), what
		// pickScan decides for weakest.
		return t.WeakestTarget(self)
	}
	caster := t.Declared(self).Kind == acks2.DeclareSpell
	speed := t.Game().C[self].Speed
	if t.Game().C[self].Weapon != acks2.Missile {
		speed *= 2 // a charge (or, farther, a march) reaches twice its speed
	}
	// An enemy is within reach when it can attack it where it stands
	// (distance up to t.Reach) or, not engaged, after moving up to speed
	// (to within 5 feet); attacking where it stands or after moving are
	// alike. Engaged, it considers only the enemies it can attack now.
	reach := t.Reach(self)
	free := max(reach, speed+5)
	return p.pickScan(t, self, caster, reach, free)
}

// pickScan is pick's general loop, for every target mode (the default,
// weakest, takes a shortcut in pick; TestAcksPickMatchesScan checks it
// against this loop on every segment).
func (p *acksDefault) pickScan(t *acks2.Table, self int, caster bool, reach, free int) int {
	engaged := t.Engaged(self)
	lim := free
	if engaged {
		lim = reach
	}
	best, bestIn := -1, false
	n := 0
	for _, j := range t.Foes(self) {
		if t.Out(j) {
			continue
		}
		in := caster || t.Dist(self, j) <= lim
		if engaged && !in {
			continue
		}
		if best < 0 || in && !bestIn || in == bestIn && (p.target == acksWeakest && t.HP(j) < t.HP(best) || p.target != acksWeakest && p.better(t, self, j, best)) {
			if in && !bestIn {
				n = 0
			}
			best, bestIn = j, in
		}
		if in == bestIn {
			n++
		}
	}
	if p.target == acksRandom && best >= 0 && n > 1 {
		k := t.Rand().IntN(n)
		for _, j := range t.Foes(self) {
			if t.Out(j) {
				continue
			}
			in := caster || t.Dist(self, j) <= lim
			if engaged && !in || in != bestIn {
				continue
			}
			if k == 0 {
				return j
			}
			k--
		}
	}
	if best < 0 {
		// Engaged with no one it can attack (a flyer above it, say): the
		// nearest enemy; the referee redirects to whoever is in reach.
		return p.nearest(t, self)
	}
	return best
}

// nearest is the nearest enemy in the fight (the first in roster order
// on a tie; -1: none).
func (p *acksDefault) nearest(t *acks2.Table, self int) int {
	best := -1
	for _, j := range t.Foes(self) {
		if !t.Out(j) && (best < 0 || t.Dist(self, j) < t.Dist(self, best)) {
			best = j
		}
	}
	return best
}

// better reports whether j is a better target than cur under the mode
// (among enemies equally reachable; unreachable ones go by distance).
func (p *acksDefault) better(t *acks2.Table, self, j, cur int) bool {
	switch p.target {
	case acksStrongest:
		return t.HP(j) > t.HP(cur)
	case acksNearest:
		return t.Dist(self, j) < t.Dist(self, cur)
	case acksFirst, acksRandom:
		return false
	case acksCasters:
		cj := t.Declared(j).Kind == acks2.DeclareSpell
		cc := t.Declared(cur).Kind == acks2.DeclareSpell
		if cj != cc {
			return cj
		}
	}
	return t.HP(j) < t.HP(cur)
}

// Interrupt implements acks2.Policy.
// With a long weapon every spearman beside the charger's target could
// stab it (and lose its number); at_self leaves that to the one charged.
func (p *acksDefault) Interrupt(t *acks2.Table, self, enemy int, how acks2.Interrupt) bool {
	switch p.interrupt {
	case acksNever:
		return false
	case acksAtSelf:
		return how != acks2.Round1Long || t.ChargeTarget(enemy) == self
	}
	return true
}

// Steady implements acks2.Steady: Rank and ActBefore are parameters, and
// without withdraw_below or a spell to declare Declare always returns
// nothing. (acksDelay, acksReady and acksReceive override Turn only.)
func (p *acksDefault) Steady() (quiet bool, rank int, before bool) { return p.quiet, p.rank, p.before }

// Plain implements acks2.Plain: with target weakest, no prefer and no
// withdraw_below, Turn always acts at Table.WeakestTarget.
func (p *acksDefault) Plain() (charge, ok bool) {
	return p.charge, p.target == acksWeakest && p.prefer < 0 && p.withdrawBelow == 0
}

// ActBefore implements acks2.Policy.
func (p *acksDefault) ActBefore(t *acks2.Table, self int) bool { return p.before }

// Rank implements acks2.Policy.
func (p *acksDefault) Rank(t *acks2.Table, self int) int { return p.rank }

// Cleave implements acks2.Policy: the weakest enemy it can attack.
// (CanAttack is an enemy in the fight within Reach: the scan is
// WeakestWithin's, every enemy farther left out.)
func (p *acksDefault) Cleave(t *acks2.Table, self int) int {
	return t.WeakestWithin(self, t.Reach(self), false, true)
}

// acksDelay waits for a named combatant or a count.
type acksDelay struct {
	acksDefault
	until     int // -1: count
	count     int
	firstOnly bool
}

func makeAcksDelay(d *scenario.Decoder, g *acks2.Game, self int, spec scenario.PolicySpec) acks2.Policy {
	p := newParams(d, spec, append([]string{"until", "count", "rounds"}, acksDefaultParams...))
	pol := &acksDelay{acksDefault: *readAcksDefault(p, g, self)}
	pol.until, pol.count, pol.firstOnly = p.delayParams(self, -10, 10, func(name string, n *yaml.Node) int {
		return acksIndex(p, g, name, n)
	})
	return pol
}

// Plain implements acks2.Plain: a delaying policy's Turn is not the
// default's.
func (p *acksDelay) Plain() (charge, ok bool) { return false, false }

// Turn implements acks2.Policy.
func (p *acksDelay) Turn(t *acks2.Table, self int) acks2.Plan {
	plan := p.acksDefault.Turn(t, self)
	if t.Resuming(self) || (p.firstOnly && t.Round() > 1) {
		return plan
	}
	if p.until >= 0 {
		if t.Out(p.until) || t.Acted(p.until) {
			return plan
		}
		plan.Do, plan.DelayAfter = acks2.Delay, p.until
		return plan
	}
	if p.count < t.Count() {
		plan.Do, plan.DelayAfter, plan.DelayTo = acks2.Delay, -1, p.count
	}
	return plan
}

// acksReady readies an attack rather than closing in.
type acksReady struct {
	acksDefault
	always bool
}

func makeAcksReady(d *scenario.Decoder, g *acks2.Game, self int, spec scenario.PolicySpec) acks2.Policy {
	p := newParams(d, spec, append([]string{"when"}, acksDefaultParams...))
	pol := &acksReady{acksDefault: *readAcksDefault(p, g, self)}
	pol.always = p.enum("when", "unreachable", []string{"unreachable", "always"}) == "always"
	return pol
}

// Plain implements acks2.Plain: a readying policy's Turn is not the
// default's.
func (p *acksReady) Plain() (charge, ok bool) { return false, false }

// Turn implements acks2.Policy.
func (p *acksReady) Turn(t *acks2.Table, self int) acks2.Plan {
	plan := p.acksDefault.Turn(t, self)
	if t.Declared(self).Kind != acks2.DeclareNothing || plan.Do != acks2.Act {
		return plan
	}
	if p.always || !p.anyAttackable(t, self) {
		plan.Do = acks2.Ready
	}
	return plan
}

// acksReceive keeps the round-1 attack against a charger open.
type acksReceive struct{ acksReady }

func makeAcksReceive(d *scenario.Decoder, g *acks2.Game, self int, spec scenario.PolicySpec) acks2.Policy {
	p := newParams(d, spec, acksDefaultParams)
	return &acksReceive{acksReady{acksDefault: *readAcksDefault(p, g, self)}}
}

// Plain implements acks2.Plain: receiving a charge is not the default.
func (p *acksReceive) Plain() (charge, ok bool) { return false, false }

// Turn implements acks2.Policy.
func (p *acksReceive) Turn(t *acks2.Table, self int) acks2.Plan {
	if t.Round() == 1 && t.Round1Ready(self) && !t.Resuming(self) && t.Declared(self).Kind == acks2.DeclareNothing &&
		!p.anyAttackable(t, self) && t.Floor(self) < t.Count() {
		plan := p.acksDefault.Turn(t, self)
		plan.Do, plan.DelayAfter, plan.DelayTo = acks2.Delay, -1, t.Floor(self)
		return plan
	}
	return p.acksReady.Turn(t, self)
}
