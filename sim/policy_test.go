package sim

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"simctl/sim/scenario"
)

func TestPolicies(t *testing.T) {
	p := NewPolicies[func() int]("toy")
	p.Register("default", "the default", func() int { return 1 })
	p.Register("delay", "wait", func() int { return 2 })
	p.Register("test-script", "hidden", func() int { return 3 })
	if got := strings.Join(p.Names(), ","); got != "default,delay,test-script" {
		t.Fatalf("Names = %s", got)
	}
	if docs := p.Docs(); len(docs) != 2 || docs[0].Name != "default" || docs[1].Name != "delay" {
		t.Fatalf("Docs = %v, want default and delay only", docs)
	}
	rep := &scenario.Reporter{File: "f.yaml"}
	d := scenario.NewDecoder(rep)
	if mk, ok := p.Lookup(d, scenario.PolicySpec{}); !ok || mk() != 1 {
		t.Fatal("an unnamed policy is not the default")
	}
	if _, ok := p.Lookup(d, scenario.PolicySpec{Name: "dealy", Path: "sides[0].policy"}); ok {
		t.Fatal("unknown policy found")
	}
	if err := rep.Err(); err == nil || !strings.Contains(err.Error(), `unknown policy "dealy" (did you mean "delay"?)`) {
		t.Fatalf("error %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a duplicate registration did not panic")
		}
	}()
	p.Register("delay", "again", nil)
}

// TestDeciderOf: who decides for a combatant entry, the precedence every
// ruleset's Compile applies (own tactics, own policy, side tactics, side
// policy), the warnings about a policy a tactics: block overrides, and
// the constructor Maker hands back for each.
func TestDeciderOf(t *testing.T) {
	node := func(line int) *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Line: line, Column: 3} }
	sideTac, ownTac := node(5), node(9)
	sidePol := scenario.PolicySpec{Name: "delay", Node: node(4), Path: "sides[0].policy"}
	ownPol := scenario.PolicySpec{Name: "ready", Node: node(8), Path: "sides[0].combatants[0].policy"}
	const sp, cp = "sides[0]", "sides[0].combatants[0]"
	cases := []struct {
		name      string
		side      scenario.Side
		cs        scenario.Combatant
		spec      string     // the named policy decided on ("" with tactics)
		tac       *yaml.Node // the tactics block decided on
		path      string
		warnLines []int
	}{
		{"nothing given: the side's (default) policy", scenario.Side{Path: sp}, scenario.Combatant{Path: cp}, "", nil, "", nil},
		{"side policy", scenario.Side{Path: sp, Policy: sidePol}, scenario.Combatant{Path: cp}, "delay", nil, "", nil},
		{"own policy over side policy", scenario.Side{Path: sp, Policy: sidePol}, scenario.Combatant{Path: cp, Policy: ownPol}, "ready", nil, "", nil},
		{"side tactics over side policy (warned)", scenario.Side{Path: sp, Policy: sidePol, Tactics: sideTac}, scenario.Combatant{Path: cp}, "", sideTac, sp + ".tactics", []int{4}},
		{"own policy over side tactics", scenario.Side{Path: sp, Tactics: sideTac}, scenario.Combatant{Path: cp, Policy: ownPol}, "ready", nil, "", nil},
		{"own tactics over own policy (warned)", scenario.Side{Path: sp}, scenario.Combatant{Path: cp, Policy: ownPol, Tactics: ownTac}, "", ownTac, cp + ".tactics", []int{8}},
		{"own tactics over everything (both warned)", scenario.Side{Path: sp, Policy: sidePol, Tactics: sideTac}, scenario.Combatant{Path: cp, Policy: ownPol, Tactics: ownTac}, "", ownTac, cp + ".tactics", []int{8, 4}},
	}
	p := NewPolicies[func() string]("toy")
	p.Register("default", "", func() string { return "default" })
	p.Register("delay", "", func() string { return "delay" })
	p.Register("ready", "", func() string { return "ready" })
	for _, c := range cases {
		rep := &scenario.Reporter{File: "f.yaml"}
		d := scenario.NewDecoder(rep)
		dc := DeciderOf(d, &c.side, &c.cs)
		if dc.Spec.Name != c.spec && c.tac == nil || dc.Tactics != c.tac || (c.tac != nil && dc.Path != c.path) {
			t.Errorf("%s: decider %+v, want policy %q, tactics %p at %q", c.name, dc, c.spec, c.tac, c.path)
		}
		var lines []int
		for _, w := range rep.Warns {
			if !strings.Contains(w.Error(), "ignored: tactics: decides for this") {
				t.Errorf("%s: warning %v", c.name, w)
			}
			lines = append(lines, w.Line)
		}
		if !slices.Equal(lines, c.warnLines) {
			t.Errorf("%s: warnings at lines %v, want %v", c.name, lines, c.warnLines)
		}
		// Without a tactics compiler a block is an error at the block;
		// with one, Maker hands it the block as its spec.
		mk, spec, ok := p.Maker(d, dc)
		if c.tac == nil {
			want := c.spec
			if want == "" {
				want = "default"
			}
			if !ok || mk() != want || spec.Name != c.spec {
				t.Errorf("%s: Maker gave %v %+v, want %s", c.name, ok, spec, want)
			}
			continue
		}
		if ok || rep.Err() == nil || !strings.Contains(rep.Err().Error(), "tactics are not linked") {
			t.Errorf("%s: Maker without a tactics compiler: %v, %v", c.name, ok, rep.Err())
		}
	}
	p.RegisterTactics(func() string { return "tactics" })
	rep := &scenario.Reporter{File: "f.yaml"}
	d := scenario.NewDecoder(rep)
	dc := DeciderOf(d, &scenario.Side{Path: sp}, &scenario.Combatant{Path: cp, Tactics: ownTac})
	if mk, spec, ok := p.Maker(d, dc); !ok || mk() != "tactics" || spec.Node != ownTac || spec.Path != cp+".tactics" {
		t.Errorf("Maker with a tactics compiler: %v %+v", ok, spec)
	}
}

// TestPoliciesMake: Make makes every recorded combatant's policy in the
// order recorded, with its index and spec, and skips (after reporting it)
// one whose policy is unknown, so that the others are still made.
func TestPoliciesMake(t *testing.T) {
	p := NewPolicies[func() string]("toy")
	p.Register("default", "the default", func() string { return "default" })
	p.Register("delay", "wait", func() string { return "delay" })
	rep := &scenario.Reporter{File: "f.yaml"}
	d := scenario.NewDecoder(rep)
	var ds Deciders
	ds.Add(Decider{Spec: scenario.PolicySpec{Name: "delay"}}, 2)
	ds.Add(Decider{Spec: scenario.PolicySpec{Name: "dealy", Path: "sides[0].policy"}}, 0)
	ds.Add(Decider{}, 1)
	var got []string
	p.Make(d, &ds, func(i int, mk func() string, spec scenario.PolicySpec) {
		got = append(got, strconv.Itoa(i)+":"+mk()+":"+spec.Name)
	})
	if want := []string{"2:delay:delay", "1:default:"}; !slices.Equal(got, want) {
		t.Errorf("Make made %v, want %v", got, want)
	}
	if err := rep.Err(); err == nil || !strings.Contains(err.Error(), `unknown policy "dealy"`) {
		t.Errorf("the unknown policy was not reported: %v", err)
	}
}
