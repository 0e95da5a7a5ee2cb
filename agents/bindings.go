package agents

import (
	"fmt"
	"io"
	"strings"

	"simctl/agents/tactics"
	"simctl/rulesets/acks2"
	"simctl/rulesets/cavaliers"
	"simctl/rulesets/d20"
	"simctl/rulesets/lotm"
	"simctl/sim/scenario"
)

// Binding is a ruleset's tactics binding as the rest of simctl sees it:
// its moments of decision, the decision verbs that are its alone (so a
// block of another ruleset that names one is told whose it is), and what
// `simctl policies RULESET` prints about its facts, decisions and targets.
// The compiler itself is registered with the ruleset (d20.RegisterTactics),
// which calls it. A fifth ruleset's binding registers itself the same way,
// from its own file.
type Binding struct {
	Ruleset  string
	Moments  []string
	Own      []string               // verbs no other ruleset has: seize (cavaliers), declare (acks2)
	Describe func(w io.Writer, t T) // nil: the listing shows only the library
	// Facts lists every fact Describe documents, once each, so the
	// catalog's English docs can be generated (FactKey); nil: none.
	Facts func() []tactics.Fact
}

// bindings and otherVerbs are filled by RegisterBinding from init, read after.
var (
	bindings = map[string]Binding{}
	// otherVerbs maps a verb to the ruleset whose it is, or to "" for one
	// no referee models, for "X is a cavaliers decision, not a d20 one".
	otherVerbs = map[string]string{"withdraw": "", "step": "", "five_foot_step": ""}
)

// RegisterBinding records b and declares its moments to the tactics:
// reader. Call it from an init function only; a second binding for one
// ruleset, or a verb claimed twice, panics (a programming error).
func RegisterBinding(b Binding) {
	if _, dup := bindings[b.Ruleset]; dup {
		panic("agents: tactics binding of " + b.Ruleset + " registered twice")
	}
	bindings[b.Ruleset] = b
	tactics.Declare(b.Ruleset, b.Moments...)
	for _, v := range b.Own {
		if rs, dup := otherVerbs[v]; dup {
			panic(fmt.Sprintf("agents: verb %q claimed by %s and %q", v, b.Ruleset, rs))
		}
		otherVerbs[v] = b.Ruleset
	}
}

// LookupBinding returns the tactics binding of ruleset.
func LookupBinding(ruleset string) (Binding, bool) {
	b, ok := bindings[ruleset]
	return b, ok
}

func init() {
	d20.RegisterTactics(func(d *scenario.Decoder, g *d20.Game, self int, spec scenario.PolicySpec) d20.Policy {
		return compileD20Tactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "d20", Moments: d20Moments, Describe: describeD20, Facts: D20Facts})

	acks2.RegisterTactics(func(d *scenario.Decoder, g *acks2.Game, self int, spec scenario.PolicySpec) acks2.Policy {
		return compileAcksTactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "acks2", Moments: acksMoments, Own: []string{"declare", "retreat"}, Describe: describeAcks,
		Facts: func() []tactics.Fact { return allMomentFacts(acksMoments, AcksFacts) }})

	cavaliers.RegisterTactics(func(d *scenario.Decoder, g *cavaliers.Game, self int, spec scenario.PolicySpec) cavaliers.Policy {
		return compileCavTactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "cavaliers", Moments: cavMoments, Own: []string{"seize", "interpose", "reprise", "block"}, Describe: describeCav,
		Facts: func() []tactics.Fact { return allMomentFacts(cavMoments, CavFacts) }})

	lotm.RegisterTactics(func(d *scenario.Decoder, g *lotm.Game, self int, spec scenario.PolicySpec) lotm.Policy {
		return compileLotmTactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "lotm", Moments: lotmMoments, Own: []string{"ambush", "feint", "limb_block", "borrow", "burn"}, Describe: describeLotm,
		Facts: func() []tactics.Fact { return allMomentFacts(lotmMoments, LotmFacts) }})
}

// allMomentFacts is every fact of the moments, each once, in listing order.
func allMomentFacts(moments []string, facts func(moment string) []tactics.Fact) []tactics.Fact {
	var out []tactics.Fact
	seen := map[string]bool{}
	for _, m := range moments {
		for _, f := range facts(m) {
			if !seen[f.Name] {
				seen[f.Name] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// FactKey is the catalog key of a fact's doc in simctl policies RULESET.
func FactKey(ruleset, fact string) string { return "policies.fact." + ruleset + "." + fact }

// T formats a message of simctl policies' own words in the caller's
// language (i18n.Lang.T): the headings and target lists are catalog
// texts (policies.describe.*), and so are the facts' docs (FactKey); the
// facts' names and the decisions are the tactics language, as written.
type T func(key string, args ...any) string

func describeD20(w io.Writer, t T) {
	fmt.Fprintf(w, "\n%s\n", t("policies.describe.facts_at_turn"))
	for _, f := range D20Facts() {
		fmt.Fprintf(w, "  %-28s %-6s %s\n", f.Spelling(), f.Type, t(FactKey("d20", f.Name)))
	}
	fmt.Fprintf(w, "\n%s\n  %s\n", t("policies.describe.decisions"), strings.Join(D20Decisions, "\n  "))
	fmt.Fprintf(w, "\n%s\n", t("policies.describe.targets.d20"))
}

// describeMoments lists, per moment, its decisions and facts.
func describeMoments(w io.Writer, t T, ruleset string, moments []string, decisions func(m int) []string, facts func(moment string) []tactics.Fact) {
	for m, moment := range moments {
		fmt.Fprintf(w, "\n%s:\n  %s\n  %s\n", moment, t("policies.describe.moment_decisions", strings.Join(decisions(m), ", ")), t("policies.describe.moment_facts"))
		for _, f := range facts(moment) {
			fmt.Fprintf(w, "    %-28s %-6s %s\n", f.Spelling(), f.Type, t(FactKey(ruleset, f.Name)))
		}
	}
}

func describeAcks(w io.Writer, t T) {
	describeMoments(w, t, "acks2", acksMoments, func(m int) []string { return AcksDecisions[m] }, AcksFacts)
	fmt.Fprintf(w, "\n%s\n", t("policies.describe.targets.acks2"))
}

func describeCav(w io.Writer, t T) {
	describeMoments(w, t, "cavaliers", cavMoments, func(m int) []string { return CavDecisions[m] }, CavFacts)
	fmt.Fprintf(w, "\n%s\n", t("policies.describe.targets.cavaliers"))
}

func describeLotm(w io.Writer, t T) {
	describeMoments(w, t, "lotm", lotmMoments, func(m int) []string { return LotmDecisions[m] }, LotmFacts)
	fmt.Fprintf(w, "\n%s\n", t("policies.describe.after_turn", strings.Join(LotmModifiers, ", ")))
	fmt.Fprintf(w, "%s\n", t("policies.describe.targets.lotm"))
}
