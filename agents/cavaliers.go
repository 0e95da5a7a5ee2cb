package agents

import (
	"math/bits"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/cavaliers"
	"simctl/sim/scenario"
)

// Policies for The Queen's Cavaliers (rulesets/cavaliers): where to move,
// whom to attack, when to seize the initiative, whom to interpose for,
// whom to block, whether to reprise.

func init() {
	cavaliers.RegisterPolicy("default",
		"advance and attack, using every ability the specialty and [+] allow. "+
			"Params: target (weakest|strongest|random|first, default weakest: whom to attack among the enemies in its Area), "+
			"focus (NAME: an enemy to go after first), "+
			"move (advance: toward the nearest enemy (or focus) when none is in its Area | hold: never move | ward: stay with the ward; default advance), "+
			"seize (enemy: before any enemy about to act | protect: before an enemy about to act that stands in or next to the Area of a wounded member of its side, itself included | never; default enemy), "+
			"wounded (percent of starting hp at or below which protect counts a combatant wounded, default 50), "+
			"interpose (weakest: for the ally with the fewest hp, when it has fewer than itself | any: for any ally with fewer hp than itself | ward: for the ward | never; default weakest), "+
			"ward (NAME: the ally to protect, for interpose/block/move ward), "+
			"block (always: any enemy leaving its Area | ward: an enemy moving into the ward's Area | never; default always), "+
			"reprise (always|never, default always), "+
			"reserve (seize|interpose|reprise|none, default none: under spend: budget, keep the [+] that ability costs — use the others only with [+] to spare beyond its price, "+
			"until too few [+] are left to ever pay it; no effect under spend: unlock, where nothing is spent), "+
			"roll (for a combatant with ranks in several specialties, which one it rolls: main (default: the one in specialty:) | highest_die (the largest attribute die, first listed on a tie) | "+
			"seize|interpose|reprise (the one whose ladder prices that ability lowest, first listed on a tie) | impulse|vigilance|timing (that one; it must have ranks in it))", makeCavDefault)
	cavaliers.RegisterPolicy("guard",
		"a bodyguard: default with move: ward, interpose: ward, block: ward. Params: ward (NAME, required) and default's", makeCavGuard)
	cavaliers.RegisterPolicy("none",
		"the baseline: advance toward the nearest enemy and attack the weakest in its Area; never seizes, interposes, blocks or reprises (so it rolls its main specialty). Params: target, focus, move (as default)", makeCavNone)
}

// Seize, interpose and block modes.
const (
	cavNever = iota
	cavEnemy
	cavProtect
	cavWeakest
	cavAny
	cavWard
	cavAlways
)

// cavPolicy is every cavaliers policy: the modes are its parameters.
type cavPolicy struct {
	target    string // weakest | strongest | random | first
	focus     int    // -1: none
	move      string // advance | hold | ward
	seize     int    // cavNever | cavEnemy | cavProtect
	wounded   int    // percent
	interpose int    // cavNever | cavWeakest | cavAny | cavWard
	block     int    // cavNever | cavAlways | cavWard
	reprise   bool
	ward      int // -1: none
	reserve   int // the Ability whose price it keeps in [+] (budget); -1: none
	roll      int // index in Combatant.Ranks it rolls
	// target and move as small numbers, set by the constructors here so
	// that a turn does not compare strings; 0 (a cavPolicy built
	// elsewhere, e.g. by the tactics binding) falls back to the strings.
	tmode, mmode uint8
}

// Target and move modes (cavPolicy.tmode, mmode); 0: read the string.
const (
	cavTWeakest uint8 = 1 + iota
	cavTStrongest
	cavTRandom
	cavTFirst
)

const (
	cavMAdvance uint8 = 1 + iota
	cavMHold
	cavMWard
)

func cavTargetMode(s string) uint8 {
	switch s {
	case "weakest":
		return cavTWeakest
	case "strongest":
		return cavTStrongest
	case "random":
		return cavTRandom
	}
	return cavTFirst // as the string tests read anything else
}

func cavMoveMode(s string) uint8 {
	switch s {
	case "hold":
		return cavMHold
	case "ward":
		return cavMWard
	}
	return cavMAdvance
}

func (p *cavPolicy) targetMode() uint8 {
	if p.tmode != 0 {
		return p.tmode
	}
	return cavTargetMode(p.target)
}

var cavBaseParams = []string{"target", "focus", "move"}
var cavAbilityParams = []string{"seize", "wounded", "interpose", "ward", "block", "reprise", "reserve", "roll"}

func makeCavDefault(d *scenario.Decoder, g *cavaliers.Game, self int, spec scenario.PolicySpec) cavaliers.Policy {
	p := newParams(d, spec, append(append([]string(nil), cavBaseParams...), cavAbilityParams...))
	return readCav(p, g, self, "advance", "weakest", "always")
}

func makeCavGuard(d *scenario.Decoder, g *cavaliers.Game, self int, spec scenario.PolicySpec) cavaliers.Policy {
	p := newParams(d, spec, append(append([]string(nil), cavBaseParams...), cavAbilityParams...))
	if p.node("ward") == nil {
		d.Errorf(spec.Node, spec.Path, "policy guard needs ward: NAME (the ally it protects)")
	}
	return readCav(p, g, self, "ward", "ward", "ward")
}

func makeCavNone(d *scenario.Decoder, g *cavaliers.Game, self int, spec scenario.PolicySpec) cavaliers.Policy {
	p := newParams(d, spec, cavBaseParams)
	pol := readCavBase(p, g, self, "advance")
	pol.seize, pol.interpose, pol.block = cavNever, cavNever, cavNever
	return pol
}

func readCavBase(p params, g *cavaliers.Game, self int, move string) *cavPolicy {
	pol := &cavPolicy{focus: -1, ward: -1, wounded: 50, reserve: -1}
	pol.target = p.enum("target", "weakest", []string{"weakest", "strongest", "random", "first"})
	pol.move = p.enum("move", move, []string{"advance", "hold", "ward"})
	pol.tmode, pol.mmode = cavTargetMode(pol.target), cavMoveMode(pol.move)
	if name, n := p.str("focus"); n != nil {
		pol.focus = cavIndex(p, g, name, n, "focus")
		if pol.focus >= 0 && g.C[pol.focus].Side == g.C[self].Side {
			p.d.Errorf(n, p.path("focus"), "%q is on %s's own side; focus names an enemy", name, g.C[self].Name)
		}
	}
	return pol
}

func readCav(p params, g *cavaliers.Game, self int, move, interpose, block string) *cavPolicy {
	pol := readCavBase(p, g, self, move)
	modes := map[string]int{"never": cavNever, "enemy": cavEnemy, "protect": cavProtect,
		"weakest": cavWeakest, "any": cavAny, "ward": cavWard, "always": cavAlways}
	pol.seize = modes[p.enum("seize", "enemy", []string{"enemy", "protect", "never"})]
	pol.wounded, _ = p.integer("wounded", 50, 1, 100)
	pol.interpose = modes[p.enum("interpose", interpose, []string{"weakest", "any", "ward", "never"})]
	pol.block = modes[p.enum("block", block, []string{"always", "ward", "never"})]
	pol.reprise = p.enum("reprise", "always", []string{"always", "never"}) == "always"
	switch p.enum("reserve", "none", []string{"seize", "interpose", "reprise", "none"}) {
	case "seize":
		pol.reserve = int(cavaliers.Seize)
	case "interpose":
		pol.reserve = int(cavaliers.Interpose)
	case "reprise":
		pol.reserve = int(cavaliers.Reprise)
	}
	if pol.reserve >= 0 && cavaliers.Price(g.C[self].Specialty, cavaliers.Ability(pol.reserve)) == 0 && len(g.C[self].Ranks) == 1 {
		p.d.Errorf(p.node("reserve"), p.path("reserve"), "%s has no Initiative specialty to buy %s with; reserve needs one", g.C[self].Name, cavaliers.Ability(pol.reserve))
	}
	pol.roll = readCavRoll(p, g, self)
	if name, n := p.str("ward"); n != nil {
		pol.ward = cavIndex(p, g, name, n, "ward")
		switch {
		case pol.ward == self:
			p.d.Errorf(n, p.path("ward"), "%s cannot be its own ward", name)
		case pol.ward >= 0 && g.C[pol.ward].Side != g.C[self].Side:
			p.d.Errorf(n, p.path("ward"), "%q is not on %s's side", name, g.C[self].Name)
		}
	} else if pol.interpose == cavWard || pol.block == cavWard || pol.move == "ward" {
		if p.spec.Name != "guard" { // guard reports its own missing ward
			p.d.Errorf(p.spec.Node, p.spec.Path, "interpose, block or move ward needs ward: NAME")
		}
	}
	return pol
}

// readCavRoll reads param roll: which of self's specialties it rolls.
func readCavRoll(p params, g *cavaliers.Game, self int) int {
	ranks := g.C[self].Ranks
	valid := []string{"main", "highest_die", "seize", "interpose", "reprise", "impulse", "vigilance", "timing"}
	mode := p.enum("roll", "main", valid)
	best := 0
	switch mode {
	case "main":
	case "highest_die":
		for k, r := range ranks {
			if r.Pool.Dice[0] > ranks[best].Pool.Dice[0] {
				best = k
			}
		}
	case "seize", "interpose", "reprise":
		a := map[string]cavaliers.Ability{"seize": cavaliers.Seize, "interpose": cavaliers.Interpose, "reprise": cavaliers.Reprise}[mode]
		for k, r := range ranks {
			pk, pb := cavaliers.Price(r.Specialty, a), cavaliers.Price(ranks[best].Specialty, a)
			if pk > 0 && (pb == 0 || pk < pb) {
				best = k
			}
		}
	default:
		best = -1
		for k, r := range ranks {
			if r.Specialty.String() == mode {
				best = k
			}
		}
		if best < 0 {
			var have []string
			for _, r := range ranks {
				have = append(have, r.Specialty.String())
			}
			p.d.Errorf(p.node("roll"), p.path("roll"), "%s has no ranks in %s; it has ranks in %s", g.C[self].Name, mode, strings.Join(have, ", "))
			best = 0
		}
	}
	return best
}

func cavIndex(p params, g *cavaliers.Game, name string, n *yaml.Node, param string) int {
	if i, ok := g.Index(name); ok {
		return i
	}
	var names []string
	for _, c := range g.C {
		names = append(names, c.Name)
	}
	p.d.Errorf(n, p.path(param), "no combatant %q%s (or it has several copies; name one, e.g. Thug#2); combatants: %s", name, scenario.Suggest(name, names), strings.Join(names, ", "))
	return -1
}

// cavEnemyHere reports whether an enemy of self stands in self's Area.
func cavEnemyHere(t *cavaliers.Table, self int) bool { return t.FoesIn(self, t.Area(self)) != 0 }

// Roll implements cavaliers.Policy: the specialty chosen by param roll.
func (p *cavPolicy) Roll(t *cavaliers.Table, self int) int { return p.roll }

// spare reports whether self may spend on ability a with param reserve:
// always under unlock (nothing is spent) or without a reserve; otherwise
// the reserved ability itself, or another when the [+] left after paying
// it still cover the reserve's price, or when the [+] left can no longer
// pay the reserve at all (a budget never grows back).
func (p *cavPolicy) spare(t *cavaliers.Table, self int, a cavaliers.Ability) bool {
	if p.reserve < 0 || cavaliers.Ability(p.reserve) == a || t.Game().Opt.Spend == cavaliers.Unlock {
		return true
	}
	spec := t.Specialty(self)
	keep := cavaliers.Price(spec, cavaliers.Ability(p.reserve))
	plus := t.Plus(self)
	return keep == 0 || plus < keep || plus-cavaliers.Price(spec, a) >= keep
}

// Standard implements cavaliers.StandardPolicy: target weakest, strongest
// or first with move advance or hold are the referee's standard rules
// (the same choices as Move and Target below, which a wrapped policy
// still calls); random (it draws) and move ward are not.
func (p *cavPolicy) Standard() (cavaliers.Standard, bool) {
	s := cavaliers.Standard{Focus: p.focus}
	switch p.tmode {
	case cavTWeakest:
		s.Target = cavaliers.TargetWeakest
	case cavTStrongest:
		s.Target = cavaliers.TargetStrongest
	case cavTFirst:
		s.Target = cavaliers.TargetFirst
	default: // random, or modes read from the strings
		return s, false
	}
	switch p.mmode {
	case cavMAdvance:
	case cavMHold:
		s.Hold = true
	default:
		return s, false
	}
	return s, true
}

// Move implements cavaliers.Policy.
func (p *cavPolicy) Move(t *cavaliers.Table, self int) int {
	here := t.Area(self)
	mode := p.mmode
	if mode == 0 {
		mode = cavMoveMode(p.move)
	}
	switch mode {
	case cavMHold:
		return -1
	case cavMWard:
		if p.ward >= 0 && t.Present(p.ward) {
			return cavaliers.Toward(here, t.Area(p.ward))
		}
	}
	if p.focus >= 0 && t.Present(p.focus) {
		return cavaliers.Toward(here, t.Area(p.focus))
	}
	if cavEnemyHere(t, self) {
		return -1
	}
	foes := t.FoesPresent(self)
	if foes == 0 {
		return -1
	}
	// The nearest, the first in roster order among equals (lowest bit).
	best := bits.TrailingZeros64(foes)
	for m := foes & (foes - 1); m != 0; m &= m - 1 {
		if j := bits.TrailingZeros64(m); cavAbs(t.Area(j)-here) < cavAbs(t.Area(best)-here) {
			best = j
		}
	}
	return cavaliers.Toward(here, t.Area(best))
}

// Target implements cavaliers.Policy.
func (p *cavPolicy) Target(t *cavaliers.Table, self int) int {
	here := t.Area(self)
	if p.focus >= 0 && t.Present(p.focus) && t.Area(p.focus) == here {
		return p.focus
	}
	// The foes present here, lowest bit first: the roster order of Foes.
	foes := t.FoesIn(self, here)
	if foes == 0 {
		return -1
	}
	best := bits.TrailingZeros64(foes)
	switch p.targetMode() {
	case cavTWeakest:
		for m := foes & (foes - 1); m != 0; m &= m - 1 {
			if j := bits.TrailingZeros64(m); t.HP(j) < t.HP(best) {
				best = j
			}
		}
	case cavTStrongest:
		for m := foes & (foes - 1); m != 0; m &= m - 1 {
			if j := bits.TrailingZeros64(m); t.HP(j) > t.HP(best) {
				best = j
			}
		}
	case cavTRandom:
		if n := bits.OnesCount64(foes); n > 1 {
			m := foes
			for k := t.Rand().IntN(n); k > 0; k-- {
				m &= m - 1
			}
			return bits.TrailingZeros64(m)
		}
	}
	return best
}

// Seize implements cavaliers.Policy.
func (p *cavPolicy) Seize(t *cavaliers.Table, self, next int) bool {
	if t.Side(next) == t.Side(self) || !p.spare(t, self, cavaliers.Seize) {
		return false
	}
	switch p.seize {
	case cavEnemy:
		return true
	case cavProtect:
		for j := 0; j < t.N(); j++ {
			if t.Present(j) && t.Side(j) == t.Side(self) && t.HP(j)*100 <= p.wounded*t.MaxHP(j) &&
				cavAbs(t.Area(j)-t.Area(next)) <= 1 {
				return true
			}
		}
	}
	return false
}

// Interpose implements cavaliers.Policy.
func (p *cavPolicy) Interpose(t *cavaliers.Table, self, attacker, target int) bool {
	if !p.spare(t, self, cavaliers.Interpose) {
		return false
	}
	switch p.interpose {
	case cavWard:
		return target == p.ward
	case cavAny:
		return t.HP(target) < t.HP(self)
	case cavWeakest:
		if t.HP(target) >= t.HP(self) {
			return false
		}
		for j := 0; j < t.N(); j++ {
			if j != self && t.Present(j) && t.Side(j) == t.Side(self) && t.HP(j) < t.HP(target) {
				return false
			}
		}
		return true
	}
	return false
}

// Block implements cavaliers.Policy.
func (p *cavPolicy) Block(t *cavaliers.Table, self, mover, to int) bool {
	if !p.spare(t, self, cavaliers.Interpose) {
		return false
	}
	switch p.block {
	case cavAlways:
		return true
	case cavWard:
		return p.ward >= 0 && t.Present(p.ward) && t.Area(p.ward) == to
	}
	return false
}

// Reprise implements cavaliers.Policy.
func (p *cavPolicy) Reprise(t *cavaliers.Table, self, target int) bool {
	return p.reprise && p.spare(t, self, cavaliers.Reprise)
}

func cavAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
