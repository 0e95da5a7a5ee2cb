package experiment

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// traitSpace is --traits heroes.Fighter=a,b,c,d,e,f,g,h (written with one
// trait, sneak_attack, already) and a --vary of h's parameter.
func traitSpace(t *testing.T, where string) *Space {
	t.Helper()
	var base yaml.Node
	if err := yaml.Unmarshal([]byte("[sneak_attack]"), &base); err != nil {
		t.Fatal(err)
	}
	sp := &Space{Dims: []Dim{NewDim("heroes.Fighter.traits.h.params.trade", []string{"1", "2"})}}
	sp.AddTraits("heroes.Fighter", strings.Split("a,b,c,d,e,f,g,h", ","), base.Content[0].Content)
	if where != "" {
		if err := sp.Constrain(where); err != nil {
			t.Fatal(err)
		}
	}
	return sp
}

// TestSpaceTraits: every candidate writes the traits it takes after the
// ones written, in the --traits order; a parameter of a trait not taken is
// not written; --where counts the traits taken (heroes.Fighter.traits),
// reads each as 0 or 1, and path("...") names the count too.
func TestSpaceTraits(t *testing.T) {
	sp := traitSpace(t, `heroes.Fighter.traits == 2 and heroes.Fighter.traits.a + path("heroes.Fighter.traits") >= 2`)
	cands, cnt, err := sp.Enumerate(nameKey)
	if err != nil {
		t.Fatal(err)
	}
	// Pairs: C(8,2) = 28, each with both trade values; --where keeps them
	// all (a pair counts 2). The name of a candidate without h repeats for
	// its two trade values (the key merges them where optimize keys them).
	if cnt.Combinations != 512 || cnt.Excluded != 512-56 {
		t.Fatalf("count %+v, want 56 of 512", cnt)
	}
	for _, c := range cands {
		if len(sp.Taken(0, c.Index)) != 2 {
			t.Fatalf("%s: takes %v", c.Name, sp.Taken(0, c.Index))
		}
		if c.Sets[0].Path != "heroes.Fighter.traits" || !strings.HasPrefix(c.Sets[0].Value, "[sneak_attack, {name: ") {
			t.Fatalf("%s: sets %v", c.Name, c.Sets)
		}
		takesH := strings.Contains(c.Sets[0].Value, "{name: h, use: h}")
		if takesH != (len(c.Sets) == 2) {
			t.Fatalf("%s: h taken %v but sets %v", c.Name, takesH, c.Sets)
		}
		if !strings.HasPrefix(c.Name, "heroes.Fighter.traits=[") {
			t.Fatalf("name %q", c.Name)
		}
	}
	if _, ok := sp.Values(cands[0])["heroes.Fighter.traits"]; !ok {
		t.Fatalf("values %v: no traits label", sp.Values(cands[0]))
	}
	if err := traitSpace(t, "").Constrain("heroes.Fighter.trait <= 1"); err == nil || !strings.Contains(err.Error(), "did you mean heroes.Fighter.traits?") {
		t.Fatalf("a misspelt count: %v", err)
	}
}

// TestScreenTraitsCoarse: a space of traits large enough to be screened
// screens every combination of them: a trait's on/off has no grid to
// coarsen. Read as a numeric range 0..1 with the coarse stride of 2 (the
// reading of every other --vary), the coarse grid would hold only the
// candidates taking no trait at all, and a pair would never be screened.
func TestScreenTraitsCoarse(t *testing.T) {
	sp := traitSpace(t, "heroes.Fighter.traits <= 2")
	cands, _, err := sp.Enumerate(nameKey)
	if err != nil {
		t.Fatal(err)
	}
	st := NewScreenState(sp, cands, OptimizeConfig{First: 100, Budget: 1 << 20})
	// Every set of at most two traits, once each: the trade is a numeric
	// --vary, coarsened to its first value.
	seen := map[string]bool{}
	for _, k := range st.Alive {
		seen[strings.Join(sp.Taken(0, cands[k].Index), ",")] = true
	}
	if len(seen) != 1+8+28 || len(st.Alive) != 1+8+28 {
		t.Fatalf("coarse grid: %d candidates, %d sets of traits (want 37 and 37)", len(st.Alive), len(seen))
	}
}

// TestRuleSetText: a structure's --set, joined from each rule's text, is
// the text of the whole list marshalled, for every order of every subset
// of rule lists with flow and block mappings, quoted and multi-line
// scalars and characters flow style must quote.
func TestRuleSetText(t *testing.T) {
	for _, src := range []string{`
sides:
  - name: h
    combatants:
      - name: K
        tactics:
          turn:
            - {name: a, when: round == 1, do: attack}
            - name: b
              when: |
                self.hp_pct < 0.5 and
                round > 2
              do: full_attack
              target: weakest in reach
            - {name: 'c, d', do: "delay until Wizard"}
            - do: attack
`, `
sides:
  - name: h
    combatants:
      - name: K
        tactics:
          turn:
            - {name: focus, when: round <= $rounds and not ally("Wizard").acted, do: delay until Wizard}
            - {name: x, when: "a: b", do: '[x]'}
            - plain
`} {
		b, err := NewRuleBlock([]byte(src), nil, "h.K.tactics.turn", RulesBoth)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range b.Structures() {
			if got, want := b.Set(s), b.marshalSet(s); got != want {
				t.Fatalf("structure %v:\n%q\nmarshalled:\n%q", s, got.Value, want.Value)
			}
		}
	}
}
