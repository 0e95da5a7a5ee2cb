package agents

import (
	"strings"

	"simctl/agents/tactics"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// resolveCombatant resolves a fact's ally("NAME") or enemy("NAME")
// argument for combatant self of a roster, the same way in every ruleset's
// binding: a roster index, or a message naming the valid ones (the zero
// Text, Format "", when resolved). index finds a combatant by roster or
// template name (the Game's Index). Ally and enemy have a message each:
// the word is part of the sentence a translation words as a whole.
func resolveCombatant(roster []sim.Entrant, index func(string) (int, bool), self int, kind tactics.ArgKind, name string) (int, msg.Text) {
	me := roster[self]
	wantSide, enemy := me.Side, false
	if kind == tactics.EnemyArg {
		wantSide, enemy = 1-me.Side, true
	}
	var names []string
	for j, c := range roster {
		if c.Side == wantSide && j != self {
			names = append(names, c.Name)
		}
	}
	i, ok := index(name)
	switch {
	case !ok && enemy:
		return -1, msg.New("no enemy %q%s; %s's enemies: %s", name, scenario.Suggest(name, names), me.Name, listOrNone(names))
	case !ok:
		return -1, msg.New("no ally %q%s; %s's allies: %s", name, scenario.Suggest(name, names), me.Name, listOrNone(names))
	case i == self && enemy:
		return -1, msg.New("%q is %s itself, not an enemy", name, me.Name)
	case i == self:
		return -1, msg.New("%q is %s itself, not an ally", name, me.Name)
	case roster[i].Side != wantSide && enemy:
		return -1, msg.New("%q is not an enemy of %s; its enemies: %s", name, me.Name, listOrNone(names))
	case roster[i].Side != wantSide:
		return -1, msg.New("%q is not an ally of %s; its allies: %s", name, me.Name, listOrNone(names))
	}
	return i, msg.Text{}
}

// resolveSpell resolves a spell("NAME") argument among self's spells.
func resolveSpell(self string, spells []string, name string) (int, msg.Text) {
	for s, sp := range spells {
		if sp == name {
			return s, msg.Text{}
		}
	}
	if len(spells) == 0 {
		return -1, msg.New("%s has no spells", self)
	}
	return -1, msg.New("%s has no spell %q%s; its spells: %s", self, name, scenario.Suggest(name, spells), strings.Join(spells, ", "))
}

// listOrNone is names as a list, or the word none (translated).
func listOrNone(names []string) any {
	if len(names) == 0 {
		return msg.New("none")
	}
	return strings.Join(names, ", ")
}

// resolver turns a fact's argument into an integer, or says what would
// be valid (a message; the zero Text when resolved).
type resolver func(kind tactics.ArgKind, name string) (int, msg.Text)

// memberResolve wraps a binding's argument resolver for a block compiled
// for combatant self: a side's block is compiled for each member, and there
// ally("NAME") may name the member itself (its own flag; a rule about
// itself it skips).
func memberResolve(side bool, self int, index func(string) (int, bool), resolve resolver) resolver {
	return func(kind tactics.ArgKind, name string) (int, msg.Text) {
		if i, ok := index(name); ok && side && i == self && kind == tactics.AllyArg {
			return i, msg.Text{}
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

// resolveArg resolves a fact's argument for combatant self of a roster: a
// spell("NAME") among its spells (their names), an ally("NAME") or an
// enemy("NAME") as resolveCombatant does.
func resolveArg(roster []sim.Entrant, index func(string) (int, bool), self int, spells []string, kind tactics.ArgKind, name string) (int, msg.Text) {
	if kind == tactics.SpellArg {
		return resolveSpell(roster[self].Name, spells, name)
	}
	return resolveCombatant(roster, index, self, kind, name)
}

// namesOf lists the names of xs (a combatant's spells).
func namesOf[T any](xs []T, name func(*T) string) []string {
	var out []string
	for k := range xs {
		out = append(out, name(&xs[k]))
	}
	return out
}

// isDelayUntilSelf says whether do is "delay until" combatant self (a
// side's rule its member skips).
func isDelayUntilSelf(index func(string) (int, bool), self int, do string) bool {
	rest, ok := strings.CutPrefix(do, "delay until ")
	if !ok {
		return false
	}
	i, ok := index(strings.TrimSpace(rest))
	return ok && i == self
}

// unknownDelayee is the error for "delay until NAME" naming no one but
// self: the combatants it could wait for.
func unknownDelayee(roster []sim.Entrant, self int, name string) msg.Text {
	var names []string
	for k, c := range roster {
		if k != self {
			names = append(names, c.Name)
		}
	}
	return msg.New("delay until %q: no such combatant%s; combatants: %s", name, scenario.Suggest(name, names), strings.Join(names, ", "))
}

// enemyNames lists self's enemies on the roster.
func enemyNames(roster []sim.Entrant, self int) []string {
	var enemies []string
	for j, c := range roster {
		if c.Side != roster[self].Side && j != self {
			enemies = append(enemies, c.Name)
		}
	}
	return enemies
}

// unknownTarget is the error for a target: that is neither one of the
// selectors (with filters: d20's "in reach", written after them) nor an
// enemy's name.
func unknownTarget(s string, selectors, enemies []string, filters bool) msg.Text {
	suggest := scenario.Suggest(s, append(append([]string(nil), selectors...), enemies...))
	if filters {
		return msg.New(`unknown target %q%s; a target is a selector (%s), optionally followed by "in reach", or an enemy's name (%s)`,
			s, suggest, strings.Join(selectors, ", "), strings.Join(enemies, ", "))
	}
	return msg.New("unknown target %q%s; a target is a selector (%s) or an enemy's name (%s)",
		s, suggest, strings.Join(selectors, ", "), strings.Join(enemies, ", "))
}

// decisionVerbs lists the verbs of a moment's decisions as documented
// ("delay until NAME": delay).
func decisionVerbs(decisions []string) []string {
	var verbs []string
	for _, dd := range decisions {
		v, _, _ := strings.Cut(dd, " ")
		verbs = append(verbs, v)
	}
	return verbs
}

// offersVerb says whether one of a moment's decisions has verb.
func offersVerb(decisions []string, verb string) bool {
	for _, dd := range decisions {
		if v, _, _ := strings.Cut(dd, " "); v == verb {
			return true
		}
	}
	return false
}
