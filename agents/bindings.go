package agents

import (
	"fmt"
	"io"
	"sort"
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
	Own      []string          // verbs no other ruleset has: seize (cavaliers), declare (acks2)
	Describe func(w io.Writer) // nil: the listing shows only the library
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

// BindingNames lists the rulesets with a tactics binding, sorted.
func BindingNames() []string {
	var out []string
	for n := range bindings {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func init() {
	d20.RegisterTactics(func(d *scenario.Decoder, g *d20.Game, self int, spec scenario.PolicySpec) d20.Policy {
		return compileD20Tactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "d20", Moments: d20Moments, Describe: describeD20})

	acks2.RegisterTactics(func(d *scenario.Decoder, g *acks2.Game, self int, spec scenario.PolicySpec) acks2.Policy {
		return compileAcksTactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "acks2", Moments: acksMoments, Own: []string{"declare", "retreat"}, Describe: describeAcks})

	cavaliers.RegisterTactics(func(d *scenario.Decoder, g *cavaliers.Game, self int, spec scenario.PolicySpec) cavaliers.Policy {
		return compileCavTactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "cavaliers", Moments: cavMoments, Own: []string{"seize", "interpose", "reprise", "block"}, Describe: describeCav})

	lotm.RegisterTactics(func(d *scenario.Decoder, g *lotm.Game, self int, spec scenario.PolicySpec) lotm.Policy {
		return compileLotmTactics(d, g, self, spec.Node, spec.Path)
	})
	RegisterBinding(Binding{Ruleset: "lotm", Moments: lotmMoments, Own: []string{"ambush", "feint", "limb_block", "borrow", "burn"}, Describe: describeLotm})
}

func describeD20(w io.Writer) {
	fmt.Fprintf(w, "\nfacts at turn (when:):\n")
	for _, f := range D20Facts() {
		fmt.Fprintf(w, "  %-28s %-6s %s\n", f.Spelling(), f.Type, f.Doc)
	}
	fmt.Fprintf(w, "\ndecisions (do:):\n  %s\n", strings.Join(D20Decisions, "\n  "))
	fmt.Fprintf(w, "\ntargets (target:): weakest, strongest, nearest, lowest_ac, casters_first, random, first, or an enemy's name; add \"in reach\" to consider only enemies within reach\n")
}

// describeMoments lists, per moment, its decisions and facts.
func describeMoments(w io.Writer, moments []string, decisions func(m int) []string, facts func(moment string) []tactics.Fact) {
	for m, moment := range moments {
		fmt.Fprintf(w, "\n%s:\n  decisions (do:): %s\n  facts (when:):\n", moment, strings.Join(decisions(m), ", "))
		for _, f := range facts(moment) {
			fmt.Fprintf(w, "    %-28s %-6s %s\n", f.Spelling(), f.Type, f.Doc)
		}
	}
}

func describeAcks(w io.Writer) {
	describeMoments(w, acksMoments, func(m int) []string { return AcksDecisions[m] }, AcksFacts)
	fmt.Fprintf(w, "\ntargets (target:): weakest, strongest, nearest, random, first, casters, or an enemy's name (falls through while it is out)\n")
}

func describeCav(w io.Writer) {
	describeMoments(w, cavMoments, func(m int) []string { return CavDecisions[m] }, CavFacts)
	fmt.Fprintf(w, "\ntargets (target:): weakest, strongest, random, first (among the enemies in its Area), or an enemy's name (falls through while it is not in its Area)\n")
}

func describeLotm(w io.Writer) {
	describeMoments(w, lotmMoments, func(m int) []string { return LotmDecisions[m] }, LotmFacts)
	fmt.Fprintf(w, "\nafter a turn decision (do:): %s\n", strings.Join(LotmModifiers, ", "))
	fmt.Fprintf(w, "targets (target:): weakest, strongest, nearest, first, random (a grappled enemy first, then one it can reach this turn)\n")
}
