package agents

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/d20"
	"simctl/sim/scenario"
)

func init() {
	d20.RegisterPolicy("default",
		"close in and attack: full attack when in reach, charge when that is the only way to attack this turn; cast spells while they last. "+
			"Params: target (weakest|strongest|nearest|random|first, default weakest: the weakest enemy it can reach this turn, else the nearest), "+
			"charge (auto|always|never), spell (any|none|NAME)", makeD20Default)
	d20.RegisterPolicy("delay",
		"delay until a named combatant has acted (until: NAME) or to a count (count: N), then act as default; acts at once if NAME is out or has already acted this round; "+
			"if NAME cannot act before its next turn (delaying too, or after it in the order) the referee has it act at the end of the round. "+
			"Params: until, count, rounds (all|first), plus default's", makeD20Delay)
	d20.RegisterPolicy("ready",
		"ready an action against a trigger instead of acting. Params: trigger (charge|enemy_in_reach|enemy_casts|ally_acts|enemy_attacks_ally), "+
			"ally (NAME, for ally triggers), action (attack|cast|counterspell), spell (NAME for cast/counterspell), "+
			"when (not_engaged: only while no enemy is in reach, else act as default | always); acts as default when it has no use left of the spell to cast, or (counterspell) no enemy has a spell left that it can counter; plus default's", makeD20Ready)
	d20.RegisterPolicy("counterspell",
		"ready a counterspell against the next enemy spell (trigger enemy_casts); acts as default once no enemy has a spell left that it can counter (the same spell, with a use left). Params: spell (NAME; default any matching spell), plus default's", makeD20Counterspell)
}

var defaultParams = []string{"target", "charge", "spell"}

// d20Default closes in and attacks.
type d20Default struct {
	target targetRule
	rule   d20.TargetRule // target as the table's rule (all but random)
	limit  int            // feet within which an enemy can be attacked this turn
	charge chargeMode
	spell  int // -2: any, -1: none, else that spell
}

type chargeMode uint8

const (
	chargeAuto chargeMode = iota
	chargeAlways
	chargeNever
)

var chargeModes = []string{"auto", "always", "never"}

// targetRule is the default policy's target choice, as an enum so the
// per-turn pick compares integers, not strings.
type targetRule uint8

const (
	targetWeakest targetRule = iota
	targetStrongest
	targetNearest
	targetRandom
	targetFirst
)

var targetRules = []string{"weakest", "strongest", "nearest", "random", "first"}

func makeD20Default(d *scenario.Decoder, g *d20.Game, self int, spec scenario.PolicySpec) d20.Policy {
	p := newParams(d, spec, defaultParams)
	pol := readDefault(p, g, self)
	if pol.target != targetRandom && (pol.spell == -1 || len(g.C[self].Spells) == 0) {
		return &d20Plain{*pol}
	}
	return pol
}

// d20Plain is the default policy when its every turn is one rule: a target
// by a fixed rule, weapons only (no spells, or spell: none). It is its own
// type, not a method of d20Default, so that the policies embedding
// d20Default (delay, ready) do not claim to be standard.
type d20Plain struct{ d20Default }

// Standard implements d20.StandardPolicy: the referee picks the target
// itself, as Turn would.
func (p *d20Plain) Standard() (d20.Standard, bool) {
	return d20.Standard{Rule: p.rule, Limit: p.limit, Charge: p.charge == chargeAlways, NoCharge: p.charge == chargeNever, Count: -1}, true
}

func readDefault(p params, g *d20.Game, self int) *d20Default {
	pol := &d20Default{
		target: targetRule(max(0, slices.Index(targetRules, p.enum("target", "weakest", targetRules)))),
		charge: chargeMode(max(0, slices.Index(chargeModes, p.enum("charge", "auto", chargeModes)))),
		spell:  -2,
	}
	pol.rule = [...]d20.TargetRule{targetWeakest: d20.TargetWeakest, targetStrongest: d20.TargetStrongest,
		targetNearest: d20.TargetNearest, targetRandom: d20.TargetWeakest, targetFirst: d20.TargetFirst}[pol.target]
	me := &g.C[self]
	pol.limit = max(2*me.Speed, 5) + me.Reach
	if name, n := p.str("spell"); n != nil {
		switch name {
		case "any":
		case "none":
			pol.spell = -1
		default:
			pol.spell = spellIndex(p, g, self, name, n)
		}
	}
	return pol
}

func spellIndex(p params, g *d20.Game, self int, name string, n *yaml.Node) int {
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

func combatantIndex(p params, g *d20.Game, name string, n *yaml.Node) int {
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

// Turn implements d20.Policy.
func (p *d20Default) Turn(t *d20.Table, self int, plan *d20.Plan) {
	plan.Target = p.pick(t, self)
	plan.Spell = p.chooseSpell(t, self)
	plan.Charge = p.charge == chargeAlways
	plan.NoCharge = p.charge == chargeNever
	t.Aim(self, plan) // a ranged weapon, as the referee's standard policies use it
}

func (p *d20Default) chooseSpell(t *d20.Table, self int) int {
	if p.spell == -1 {
		return -1
	}
	spells := t.Game().C[self].Spells
	if p.spell >= 0 {
		if t.Uses(self, p.spell) > 0 {
			return p.spell
		}
		return -1
	}
	for s := range spells {
		if t.Uses(self, s) > 0 {
			return s
		}
	}
	return -1
}

// pick chooses the enemy to attack: under the policy's rule among the
// enemies it can attack this turn (in reach, a 5-foot step away, or within
// a charge: twice speed), else the nearest. The table keeps the standing
// enemies and the weakest of them, so no turn scans the roster.
func (p *d20Default) pick(t *d20.Table, self int) int {
	if p.target == targetRandom {
		up := t.Standing(1 - t.Side(self))
		if len(up) == 0 {
			return -1
		}
		return up[t.Rand().IntN(len(up))]
	}
	limit := p.limit
	if t.StandardOnly() {
		limit = min(limit, t.AttackRange(self))
	}
	return t.PickTarget(self, p.rule, limit, true)
}

// d20Delay waits for a named combatant or a count.
type d20Delay struct {
	d20Default
	until     int // -1: count
	count     int
	firstOnly bool
}

func makeD20Delay(d *scenario.Decoder, g *d20.Game, self int, spec scenario.PolicySpec) d20.Policy {
	p := newParams(d, spec, append([]string{"until", "count", "rounds"}, defaultParams...))
	pol := &d20Delay{d20Default: *readDefault(p, g, self)}
	pol.until, pol.count, pol.firstOnly = p.delayParams(self, -100, 100, func(name string, n *yaml.Node) int {
		return combatantIndex(p, g, name, n)
	})
	return pol
}

// Turn implements d20.Policy.
func (p *d20Delay) Turn(t *d20.Table, self int, plan *d20.Plan) {
	p.d20Default.Turn(t, self, plan)
	if t.Resuming(self) || (p.firstOnly && t.Round() > 1) {
		return
	}
	if p.until >= 0 {
		if t.Out(p.until) || t.Acted(p.until) {
			return
		}
		plan.Do, plan.DelayAfter = d20.Delay, p.until
		return
	}
	if p.count < t.Count(self) {
		plan.Do, plan.DelayAfter, plan.DelayTo = d20.Delay, -1, p.count
	}
}

// d20Ready readies an action against a trigger.
type d20Ready struct {
	d20Default
	trigger d20.Trigger
	ally    int
	action  d20.ReadyAction
	rspell  int
	always  bool
}

func makeD20Ready(d *scenario.Decoder, g *d20.Game, self int, spec scenario.PolicySpec) d20.Policy {
	p := newParams(d, spec, append([]string{"trigger", "ally", "action", "when"}, defaultParams...))
	return readReady(p, g, self, spec)
}

func readReady(p params, g *d20.Game, self int, spec scenario.PolicySpec) *d20Ready {
	d := p.d
	pol := &d20Ready{d20Default: *readDefault(p, g, self), ally: -1, rspell: -1}
	tr := p.enum("trigger", "", d20.TriggerNames[1:])
	if p.node("trigger") == nil && spec.Name == "ready" {
		d.Errorf(spec.Node, spec.Path, "policy ready needs trigger: one of %s", strings.Join(d20.TriggerNames[1:], ", "))
	}
	for k, name := range d20.TriggerNames {
		if name == tr && k > 0 {
			pol.trigger = d20.Trigger(k)
		}
	}
	if spec.Name == "counterspell" {
		pol.trigger = d20.OnEnemyCasts
	}
	if name, n := p.str("ally"); n != nil {
		pol.ally = combatantIndex(p, g, name, n)
		if pol.ally >= 0 && g.C[pol.ally].Side != g.C[self].Side {
			d.Errorf(n, p.path("ally"), "%q is not on %s's side", name, g.C[self].Name)
		}
	} else if pol.trigger == d20.OnAllyActs || pol.trigger == d20.OnEnemyAttacksAlly {
		d.Errorf(spec.Node, spec.Path, "trigger %s needs ally: NAME", tr)
	}
	switch p.enum("action", "attack", []string{"attack", "cast", "counterspell"}) {
	case "cast":
		pol.action = d20.ReadyCast
	case "counterspell":
		pol.action = d20.ReadyCounterspell
	}
	if spec.Name == "counterspell" {
		pol.action = d20.ReadyCounterspell
	}
	pol.rspell = pol.spell
	if pol.action == d20.ReadyCast && pol.rspell < 0 {
		if len(g.C[self].Spells) == 0 {
			d.Errorf(spec.Node, spec.Path, "action cast needs a spell, and %s has none", g.C[self].Name)
		} else {
			pol.rspell = 0
		}
	}
	if pol.action == d20.ReadyCounterspell && len(g.C[self].Spells) == 0 {
		d.Errorf(spec.Node, spec.Path, "a counterspell needs the same spell as the caster, and %s has no spells", g.C[self].Name)
	}
	pol.always = p.enum("when", "not_engaged", []string{"not_engaged", "always"}) == "always"
	return pol
}

// Turn implements d20.Policy.
func (p *d20Ready) Turn(t *d20.Table, self int, plan *d20.Plan) {
	p.d20Default.Turn(t, self, plan)
	if !p.always && t.Engaged(self) {
		return
	}
	if p.action == d20.ReadyCast && t.Uses(self, p.rspell) == 0 {
		return
	}
	if p.action == d20.ReadyCounterspell && !p.canCounter(t, self) {
		return
	}
	*plan = d20.Plan{Do: d20.Ready, Trigger: p.trigger, Ally: p.ally, Action: p.action, Spell: p.rspell, DelayAfter: -1, Target: -1}
}

// canCounter reports whether a counterspell could ever work: an enemy still
// in the fight has a use left of a spell that self can cast too (same name,
// a use left; the policy's spell when it names one). Readying otherwise only
// wastes the turn: the referee never fires a counterspell without the same
// spell.
func (p *d20Ready) canCounter(t *d20.Table, self int) bool {
	g := t.Game()
	for j := 0; j < t.N(); j++ {
		if t.Out(j) || t.Side(j) == t.Side(self) {
			continue
		}
		for s, sp := range g.C[j].Spells {
			if t.Uses(j, s) == 0 {
				continue
			}
			for o, own := range g.C[self].Spells {
				if own.Name == sp.Name && t.Uses(self, o) > 0 && (p.rspell < 0 || p.rspell == o) {
					return true
				}
			}
		}
	}
	return false
}

// d20Counterspell readies a counterspell while enemies can still cast a
// spell it can counter.
type d20Counterspell struct{ d20Ready }

func makeD20Counterspell(d *scenario.Decoder, g *d20.Game, self int, spec scenario.PolicySpec) d20.Policy {
	p := newParams(d, spec, defaultParams)
	r := readReady(p, g, self, spec)
	r.always = true
	return &d20Counterspell{*r}
}

// Turn implements d20.Policy.
func (p *d20Counterspell) Turn(t *d20.Table, self int, plan *d20.Plan) {
	if p.canCounter(t, self) {
		p.d20Ready.Turn(t, self, plan)
		return
	}
	p.d20Default.Turn(t, self, plan)
}
