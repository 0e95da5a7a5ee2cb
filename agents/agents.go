// Package agents holds the scripted policies: the decisions a combatant
// makes (whom to target, whether to act, delay or ready and for what,
// whether to seize, interpose, reprise, ambush, what to declare). Each
// ruleset defines the small interface its referee calls; this package
// implements the named policies users choose in scenario files and
// registers them with the ruleset in init.
//
// It also binds the tactics language (package tactics) to the rulesets
// (tactics_d20.go: the facts, decisions and targets a d20 tactics: block
// may use, and the Policy that plays it) and embeds the tactics library
// (library/RULESET/*.yaml: the named policies written as tactics).
//
// Policies are compiled once per run and shared by every worker, so they
// hold only their parameters and never change during an encounter; what
// changes lives in the ruleset's table, read through its accessors.
package agents

import (
	"go.yaml.in/yaml/v3"

	"simctl/sim/scenario"
)

// params reads a policy's parameters, rejecting unknown ones.
type params struct {
	d    *scenario.Decoder
	spec scenario.PolicySpec
}

func newParams(d *scenario.Decoder, spec scenario.PolicySpec, valid []string) params {
	ok := map[string]bool{}
	for _, v := range valid {
		ok[v] = true
	}
	for k := range spec.Params {
		if !ok[k] {
			d.Unknown(spec.Keys[k], spec.Path+"."+k, valid)
		}
	}
	return params{d, spec}
}

func (p params) node(name string) *yaml.Node { return p.spec.Params[name] }

func (p params) path(name string) string { return p.spec.Path + "." + name }

func (p params) enum(name, def string, valid []string) string {
	if n := p.node(name); n != nil {
		return p.d.Enum(n, p.path(name), valid)
	}
	return def
}

func (p params) str(name string) (string, *yaml.Node) {
	if n := p.node(name); n != nil {
		return p.d.Str(n, p.path(name)), n
	}
	return "", nil
}

func (p params) integer(name string, def, lo, hi int) (int, bool) {
	if n := p.node(name); n != nil {
		return p.d.Int(n, p.path(name), lo, hi), true
	}
	return def, false
}

func (p params) boolean(name string, def bool) bool {
	if n := p.node(name); n != nil {
		return p.d.Bool(n, p.path(name))
	}
	return def
}

// delayParams are the parameters of the delay policies (d20 and ACKS):
// until: NAME (a combatant, found by index) or count: N within [lo, hi], and
// rounds: all | first. until is -1 when a count was given.
func (p params) delayParams(self, lo, hi int, index func(name string, n *yaml.Node) int) (until, count int, firstOnly bool) {
	until = -1
	name, n := p.str("until")
	count, hasCount := p.integer("count", 0, lo, hi)
	switch {
	case n != nil && hasCount:
		p.d.Errorf(p.spec.Node, p.spec.Path, "give until or count, not both")
	case n != nil:
		until = index(name, n)
		if until == self {
			p.d.Errorf(n, p.path("until"), "a combatant cannot delay until it has acted itself")
		}
	case !hasCount:
		p.d.Errorf(p.spec.Node, p.spec.Path, "policy delay needs until: NAME (a combatant) or count: N")
	}
	firstOnly = p.enum("rounds", "all", []string{"all", "first"}) == "first"
	return until, count, firstOnly
}
