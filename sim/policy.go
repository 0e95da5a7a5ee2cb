package sim

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim/scenario"
)

// Policies is a ruleset's registry of named scripted policies. M is the
// ruleset's policy constructor type. Package agents fills the registries
// from init functions; after initialisation they are only read, so lookups
// are safe from any goroutine.
type Policies[M any] struct {
	owner   string // the ruleset, for messages
	m       map[string]policyEntry[M]
	tactics *M // the compiler of tactics: blocks, once registered
}

type policyEntry[M any] struct {
	make M
	doc  Field
}

// NewPolicies returns an empty registry for the ruleset called owner.
func NewPolicies[M any](owner string) *Policies[M] {
	return &Policies[M]{owner: owner, m: map[string]policyEntry[M]{}}
}

// Register adds a named policy. It panics on a duplicate name (a
// programming error, caught at start-up).
func (p *Policies[M]) Register(name, doc string, make M) {
	if _, dup := p.m[name]; dup {
		panic(fmt.Sprintf("%s: policy %q registered twice", p.owner, name))
	}
	p.m[name] = policyEntry[M]{make, Field{Name: name, Doc: doc}}
}

// RegisterTactics registers the compiler of the ruleset's tactics: blocks
// (its binding to the tactics language, in package agents), called like a
// named policy's constructor with a spec whose Node is the block and Path
// its path. It panics when called twice (a programming error).
func (p *Policies[M]) RegisterTactics(compile M) {
	if p.tactics != nil {
		panic(fmt.Sprintf("%s: tactics compiler registered twice", p.owner))
	}
	p.tactics = &compile
}

// Tactics returns the tactics compiler, reporting through d at n (path)
// when none is registered.
func (p *Policies[M]) Tactics(d *scenario.Decoder, n *yaml.Node, path string) (M, bool) {
	if p.tactics == nil {
		d.Errorf(n, path, "tactics are not linked into this program (import simctl/agents)")
		var zero M
		return zero, false
	}
	return *p.tactics, true
}

// Names lists the registered policies, sorted.
func (p *Policies[M]) Names() []string {
	names := make([]string, 0, len(p.m))
	for n := range p.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Docs documents the policies for `simctl rules`, leaving out test-only
// ones (named "test-...").
func (p *Policies[M]) Docs() []Field {
	var out []Field
	for _, n := range p.Names() {
		if !strings.HasPrefix(n, "test-") {
			out = append(out, p.m[n].doc)
		}
	}
	return out
}

// Lookup finds the constructor named by spec ("default" when spec names
// none), reporting an unknown name through d with the valid ones.
func (p *Policies[M]) Lookup(d *scenario.Decoder, spec scenario.PolicySpec) (M, bool) {
	name := spec.Name
	if name == "" {
		name = "default"
	}
	e, ok := p.m[name]
	if ok {
		return e.make, true
	}
	valid := p.Names()
	if spec.Name == "" { // the implicit default is missing: a linking mistake
		d.Errorf(nil, "sides", "no policy %q is registered for %s (is package agents linked?); valid: %s",
			name, p.owner, strings.Join(valid, ", "))
	} else {
		d.Errorf(spec.Node, spec.Path, "unknown policy %q%s; valid: %s", name, scenario.Suggest(name, valid), strings.Join(valid, ", "))
	}
	var zero M
	return zero, false
}

// Decider is what decides for a combatant entry: a named policy (Spec),
// or a tactics: block (Tactics, at Path), which overrides a policy given
// at the same level or above.
type Decider struct {
	Spec    scenario.PolicySpec
	Tactics *yaml.Node
	Path    string
}

// DeciderOf is the decider of combatant entry cs of side: its own
// tactics: block, else its own policy, else the side's tactics: block,
// else the side's policy. A policy a tactics: block overrides is warned
// about through d, as every ruleset's Compile says it.
func DeciderOf(d *scenario.Decoder, side *scenario.Side, cs *scenario.Combatant) Decider {
	dc := Decider{Spec: side.Policy, Tactics: side.Tactics, Path: side.Path + ".tactics"}
	if cs.Policy.Name != "" {
		dc.Spec, dc.Tactics = cs.Policy, nil
	}
	if cs.Tactics != nil {
		dc.Tactics, dc.Path = cs.Tactics, cs.Path+".tactics"
		if cs.Policy.Name != "" {
			d.IgnoredPolicy(cs.Policy.Node, cs.Path+".policy", side.Name+"."+cs.Name, false)
		}
	}
	if side.Tactics != nil && side.Policy.Name != "" {
		d.IgnoredPolicy(side.Policy.Node, side.Path+".policy", side.Name, true)
	}
	return dc
}

// Maker is the constructor of dc's policy and the spec to call it with:
// the named policy's (Lookup), or the tactics compiler with the block as
// its spec (Tactics). false: the problem was reported through d.
func (p *Policies[M]) Maker(d *scenario.Decoder, dc Decider) (M, scenario.PolicySpec, bool) {
	if dc.Tactics == nil {
		named, ok := p.Lookup(d, dc.Spec)
		return named, dc.Spec, ok
	}
	compile, ok := p.Tactics(d, dc.Tactics, dc.Path)
	return compile, scenario.PolicySpec{Node: dc.Tactics, Path: dc.Path}, ok
}

// Deciders are the deciders of a game's combatants, recorded by roster
// index while a ruleset compiles them, for their policies to be made once
// the game is whole (Policies.Make): after its traits, since a tactics
// rule may choose a special action written as data by name.
type Deciders struct{ list []decided }

type decided struct {
	dc  Decider
	idx int
}

// Add records that combatant idx decides with dc.
func (ds *Deciders) Add(dc Decider, idx int) { ds.list = append(ds.list, decided{dc, idx}) }

// Make makes the policy of every combatant recorded in ds, in order:
// make gets its index, the constructor its decider names (Maker) and the
// spec to call it with. A decider naming no registered policy is
// reported through d and skipped, so one pass reports every problem.
func (p *Policies[M]) Make(d *scenario.Decoder, ds *Deciders, make func(idx int, m M, spec scenario.PolicySpec)) {
	for _, x := range ds.list {
		if m, spec, ok := p.Maker(d, x.dc); ok {
			make(x.idx, m, spec)
		}
	}
}
