package sim

import (
	"strings"
	"testing"

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
