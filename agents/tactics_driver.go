package agents

import (
	"strings"

	"go.yaml.in/yaml/v3"
	"simctl/agents/tactics"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// The one tactics driver: what every binding's rules share. A binding
// (tactics_RULESET.go) is its ruleset's table of facts, moments and
// decisions; the per-rule loop, the counting of fired rules, fall-throughs
// and fallbacks, and their narration are written here once.

// ruleHead is what every binding's compiled rule has.
type ruleHead struct {
	name  string
	when  *tactics.Program // nil: always
	ids   []int            // env fact index -> global fact id (d20: nil, its Env is its whole table)
	fired int              // counter index in Counts.Rules
	fell  []int            // counter index per fall-through reason, -1 where the decision cannot fall through for it
}

// newHead starts a rule named name over fact ids, none of its numWhy
// fall-through reasons counted yet.
func newHead(name string, ids []int, numWhy int) ruleHead {
	h := ruleHead{name: name, ids: ids, fell: make([]int, numWhy)}
	for k := range h.fell {
		h.fell[k] = -1
	}
	return h
}

func (h *ruleHead) head() *ruleHead { return h }

// headed is a pointer to a binding's rule, which embeds a ruleHead.
type headed[R any] interface {
	*R
	head() *ruleHead
}

// ruleTable is what the driver needs of a ruleset's Table.
type ruleTable interface {
	CountRule(k int)
	Tracing() bool
	Logf(format string, args ...any)
	Event(e sim.Event)
}

// firstRule runs one moment's rules in order for combatant who and returns
// the index of the first that decides, or -1 when the fallback decides
// (narrated as such; the caller carries it out). text is the decision as
// written; the rest is as for driveRules.
func firstRule[R any, P headed[R]](t ruleTable, self int, who, moment string, rules []R, fallback int, why []string,
	fact func(id, arg int) float64, answers func(P) bool, apply func(P) int, text func(P) string) int {
	return driveRules(t, self, who, moment, rules, fallback, why, fact, answers, apply, narration[P]{text: text})
}

// narration is how a binding's rules are told in a trace. (Functions and
// a flag only, no data that escapes: escape analysis follows a struct as
// a whole, and the functions must stay on the caller's stack.)
type narration[P any] struct {
	// text is the decision as written (for a fall-through); decided is
	// what the rule decided (nil: text), and decided(nil) what the
	// fallback decided when fallback is set.
	text    func(P) string
	decided func(P) msg.Text
	// fallback carries out the fallback decision (nil: the caller does,
	// after driveRules returns -1).
	fallback func()
	// oneMoment leaves the moment out of the narration (d20 asks at its
	// turn only).
	oneMoment bool
}

// driveRules runs one moment's rules in order for combatant self (named
// who) and returns the index of the first that decides, or -1 when the
// fallback decides. A rule decides when answers (nil: every rule) accepts it, its
// condition holds (each fact computed by fact only when the short-circuit
// needs it) and apply can carry out its decision (apply returns why not,
// or -1). Every firing, fall-through and fallback is counted; when the
// table is tracing it is also narrated (why names the reasons) and
// recorded as an EvRule event.
func driveRules[R any, P headed[R]](t ruleTable, self int, who, moment string, rules []R, fallback int, why []string,
	fact func(id, arg int) float64, answers func(P) bool, apply func(P) int, n narration[P]) int {
	tracing := t.Tracing()
	var at msg.Text
	if tracing && !n.oneMoment {
		at = msg.New(" at %s", moment)
	}
	var mc tactics.Machine // tracing only: it keeps the facts read, for the narration
	for k := range rules {
		r := P(&rules[k])
		h := r.head()
		if answers != nil && !answers(r) {
			continue
		}
		if h.when != nil {
			var holds bool
			if tracing {
				holds = h.trace(&mc, fact)
			} else {
				holds = h.holds(fact)
			}
			if !holds {
				continue
			}
		}
		if w := apply(r); w >= 0 {
			t.CountRule(h.fell[w])
			if tracing {
				t.Logf("%s: tactics rule %s%s%s: %s falls through: %s", who, h.name, at, traceVals(h.when, &mc), n.text(r), msg.New(why[w]))
				t.Event(sim.Event{Kind: sim.EvRule, Actor: self, Target: sim.NoOne, Rule: moment + "/" + h.name})
			}
			continue
		}
		t.CountRule(h.fired)
		if tracing {
			var decided any = n.text(r)
			if n.decided != nil {
				decided = n.decided(r)
			}
			t.Logf("%s: tactics rule %s%s%s decides: %s", who, h.name, at, traceVals(h.when, &mc), decided)
			t.Event(sim.Event{Kind: sim.EvRule, Actor: self, Target: sim.NoOne, OK: true, Rule: moment + "/" + h.name})
		}
		return k
	}
	t.CountRule(fallback)
	switch {
	case n.fallback != nil:
		n.fallback()
		if tracing {
			t.Logf("%s: no tactics rule applies; fallback decides: %s", who, n.decided(nil))
		}
	case tracing && len(rules) > 0:
		t.Logf("%s: no tactics rule applies at %s; the fallback decides", who, moment)
	}
	if tracing && (n.fallback != nil || len(rules) > 0) {
		t.Event(sim.Event{Kind: sim.EvRule, Actor: self, Target: sim.NoOne, OK: true, Rule: moment + "/fallback"})
	}
	return -1
}

// holds evaluates the rule's condition in one pass (the hot path).
func (h *ruleHead) holds(fact func(id, arg int) float64) bool {
	w := h.when
	return w.EvalFunc(func(k int) float64 {
		s := &w.Slots[k]
		return fact(h.factID(s.Fact), s.Arg)
	})
}

// trace evaluates the rule's condition on mc, which keeps the facts it
// read for traceVals (tracing only).
func (h *ruleHead) trace(mc *tactics.Machine, fact func(id, arg int) float64) bool {
	mc.Start(h.when)
	for {
		need, res, done := mc.Run()
		if done {
			return res
		}
		s := &h.when.Slots[need]
		mc.Provide(need, fact(h.factID(s.Fact), s.Arg))
	}
}

// factID is the binding's id of the rule's env fact k.
func (h *ruleHead) factID(k int) int {
	if h.ids == nil {
		return k
	}
	return h.ids[k]
}

// ruleGame is what the driver needs of a compiled Game.
type ruleGame interface {
	AddRuleCounter(rc sim.RuleCounter) int
}

// blockSpec is a binding's part in compiling a tactics: block: its moments
// and facts, and the parsing of its decisions and targets. R is its
// compiled rule.
type blockSpec[R any, P headed[R]] struct {
	ruleset string
	moments []string
	lib     tactics.Library
	facts   []tactics.Fact // the binding's fact table
	// ids are the ids in facts of moment mi's facts (nil: the whole table).
	ids func(mi int) []int
	// index finds a combatant by roster or template name; resolve turns a
	// fact's argument into an integer or says what would be valid.
	index   func(name string) (int, bool)
	resolve resolver
	// skip leaves out a side's rule that means nothing to this member
	// (delay until itself), given the expanded do:; nil: none.
	skip func(mi int, do string) bool
	// parseDo and parseTarget fill cr from the expanded do: and target:,
	// reporting through the decoder; okDo says whether do: parsed.
	parseDo     func(mi int, do string, r tactics.Rule, cr P) bool
	parseTarget func(tg string, r tactics.Rule, cr P, okDo bool) bool
	// keep is false for a parsed rule that could never fire here (cast
	// any without spells): it is left out, adding no noise to the counts.
	keep    func(cr P) bool
	finish  func(cr P, do string) // nil: nothing more to fill
	reasons func(cr P) []int      // the fall-through reasons its decision can have
	whyText []string
	// shadows says whether a rule without when: that cannot fall through
	// hides the moment's later rules (nil: always; at Cavaliers'
	// reactions only pass answers every offer).
	shadows func(mi int, cr P) bool
}

// compileBlock reads and compiles the tactics block n (at path) for
// combatant self: per moment (indexed as spec.moments), its rules in order,
// and per moment the fallback's counter. ok is false after any error
// (reported through d). A rule that can never fire because an earlier one
// always decides is warned about.
func compileBlock[R any, P headed[R]](d *scenario.Decoder, g ruleGame, self int, n *yaml.Node, path string, spec *blockSpec[R, P]) (rules [][]R, fallback []int, ok bool) {
	b, ok := tactics.ReadBlock(d, n, path, spec.ruleset, spec.moments, spec.lib, LibraryNames(spec.ruleset))
	if !ok {
		return nil, nil, false
	}
	// A side's block is compiled for each of its members: there a name may
	// be the member itself (ally("Wizard").acted for the Wizard is its own
	// flag; delay until Wizard is a rule the Wizard skips).
	side := !strings.Contains(path, "combatants")
	resolve := memberResolve(side, self, spec.index, spec.resolve)
	rules = make([][]R, len(spec.moments))
	failed := false
	for _, m := range b.Moments {
		mi := indexOfString(spec.moments, m.Name)
		facts, ids := spec.facts, []int(nil)
		if spec.ids != nil {
			ids = spec.ids(mi)
			facts = momentFacts(spec.facts, ids)
		}
		env := &tactics.Env{Ruleset: spec.ruleset, Moment: m.Name, Facts: facts, Params: b.Params, Names: b.Names, Resolve: resolve}
		unconditional := ""
		for _, r := range m.Rules {
			if unconditional != "" {
				d.Warnf(r.Node, r.Path, "rule %s can never fire: rule %s before it has no when: and its decision cannot fall through", r.Name, unconditional)
			}
			var rule R
			cr := P(&rule)
			h := cr.head()
			*h = newHead(r.Name, ids, len(spec.whyText))
			if w, ok := compileWhen(d, r, env); ok {
				h.when = w
			} else {
				failed = true
			}
			doText, why := b.Expand(r.Do.S)
			if why.Format != "" {
				d.Errorf(r.Do.Node, r.Do.Path, "%s", why)
				failed = true
				continue
			}
			if side && spec.skip != nil && spec.skip(mi, doText) {
				continue
			}
			okDo := spec.parseDo(mi, doText, r, cr)
			tgText, why := b.Expand(r.Target.S)
			if why.Format != "" {
				d.Errorf(r.Target.Node, r.Target.Path, "%s", why)
				failed = true
				continue
			}
			okT := spec.parseTarget(tgText, r, cr, okDo)
			if !okDo || !okT {
				failed = true
				continue
			}
			if spec.keep != nil && !spec.keep(cr) {
				continue
			}
			if spec.finish != nil {
				spec.finish(cr, doText)
			}
			h.fired = g.AddRuleCounter(sim.RuleCounter{Combatant: self, Moment: m.Name, Rule: r.Name, Event: "fired"})
			whys := spec.reasons(cr)
			for _, why := range whys {
				h.fell[why] = g.AddRuleCounter(sim.RuleCounter{Combatant: self, Moment: m.Name, Rule: r.Name, Event: "fell through: " + spec.whyText[why]})
			}
			if h.when == nil && len(whys) == 0 && (spec.shadows == nil || spec.shadows(mi, cr)) && unconditional == "" {
				unconditional = r.Name
			}
			rules[mi] = append(rules[mi], rule)
		}
	}
	if failed {
		return nil, nil, false
	}
	fallback = make([]int, len(spec.moments))
	for m, name := range spec.moments {
		fallback[m] = g.AddRuleCounter(sim.RuleCounter{Combatant: self, Moment: name, Rule: "fallback", Event: "fired"})
	}
	return rules, fallback, true
}
