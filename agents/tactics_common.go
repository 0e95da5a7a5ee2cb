package agents

import (
	"fmt"
	"strings"

	"simctl/agents/tactics"
	"simctl/sim"
	"simctl/sim/scenario"
)

// resolveCombatant resolves a fact's ally("NAME") or enemy("NAME")
// argument for combatant self of a roster, the same way in every ruleset's
// binding: a roster index, or a message naming the valid ones. index finds
// a combatant by roster or template name (the Game's Index).
func resolveCombatant(roster []sim.Entrant, index func(string) (int, bool), self int, kind tactics.ArgKind, name string) (int, string) {
	me := roster[self]
	wantSide, what := me.Side, "ally"
	if kind == tactics.EnemyArg {
		wantSide, what = 1-me.Side, "enemy"
	}
	var names []string
	for j, c := range roster {
		if c.Side == wantSide && j != self {
			names = append(names, c.Name)
		}
	}
	i, ok := index(name)
	switch {
	case !ok:
		return -1, fmt.Sprintf("no %s %q%s; %s's %s: %s", what, name, scenario.Suggest(name, names), me.Name, plural(what), listOrNone(names))
	case i == self:
		return -1, fmt.Sprintf("%q is %s itself, not an %s", name, me.Name, what)
	case roster[i].Side != wantSide:
		return -1, fmt.Sprintf("%q is not an %s of %s; its %s: %s", name, what, me.Name, plural(what), listOrNone(names))
	}
	return i, ""
}

// resolveSpell resolves a spell("NAME") argument among self's spells.
func resolveSpell(self string, spells []string, name string) (int, string) {
	for s, sp := range spells {
		if sp == name {
			return s, ""
		}
	}
	if len(spells) == 0 {
		return -1, fmt.Sprintf("%s has no spells", self)
	}
	return -1, fmt.Sprintf("%s has no spell %q%s; its spells: %s", self, name, scenario.Suggest(name, spells), strings.Join(spells, ", "))
}

func plural(what string) string {
	if what == "enemy" {
		return "enemies"
	}
	return "allies"
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// memberResolve wraps a binding's argument resolver for a block compiled
// for combatant self: a side's block is compiled for each member, and there
// ally("NAME") may name the member itself (its own flag; a rule about
// itself it skips).
func memberResolve(side bool, self int, index func(string) (int, bool), resolve func(tactics.ArgKind, string) (int, string)) func(tactics.ArgKind, string) (int, string) {
	return func(kind tactics.ArgKind, name string) (int, string) {
		if i, ok := index(name); ok && side && i == self && kind == tactics.AllyArg {
			return i, ""
		}
		return resolve(kind, name)
	}
}

// momentFacts picks a moment's facts (ids into all).
func momentFacts(all []tactics.Fact, ids []int) []tactics.Fact {
	facts := make([]tactics.Fact, len(ids))
	for k, id := range ids {
		facts[k] = all[id]
	}
	return facts
}

// compileWhen compiles a rule's when: condition (nil when there is none),
// reporting an error at its column; ok is false after an error.
func compileWhen(d *scenario.Decoder, r tactics.Rule, env *tactics.Env) (prog *tactics.Program, ok bool) {
	if r.When.S == "" {
		return nil, true
	}
	prog, err := tactics.Compile(r.When.S, env)
	if err != nil {
		tactics.Report(d, r.When, err)
		return nil, false
	}
	return prog, true
}
