// Package agents holds the scripted policies: the decisions a combatant
// makes (whom to target, whether to act, delay or ready and for what,
// whether to seize, interpose, reprise, ambush, what to declare). Each
// ruleset defines the small interface its referee calls; this package
// implements the named policies users choose in scenario files and
// registers them with the ruleset in init.
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
	spec scenario.Policy
}

func newParams(d *scenario.Decoder, spec scenario.Policy, valid []string) params {
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
