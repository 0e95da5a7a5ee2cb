package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/experiment"
)

// traitDoc is an optimize document over the space --traits builds
// (experiment.Space.AddTraits, and a --vary path when vary is set), with
// every candidate's settings as the search records them (Space.Values)
// and a win rate that says which candidate it is: 0.1 per trait taken
// in the --traits order's weights plus the --vary value's hundredth.
// Candidates in skip did not play.
func traitDoc(t *testing.T, lists []results.TraitList, vary *results.Axis, skip map[int]bool) (*results.Optimize, map[string]float64) {
	t.Helper()
	sp := &experiment.Space{}
	o := &results.Optimize{Side: "heroes", Traits: lists, Search: &experiment.OptimizeResult{}}
	if vary != nil {
		sp.Dims = append(sp.Dims, experiment.NewDim(vary.Path, vary.Values))
		o.Vary = []results.Axis{*vary}
	}
	for _, tl := range lists {
		sp.AddTraits(tl.Owner, tl.Names, nil)
	}
	points, _, err := sp.Enumerate(func(p experiment.Point) (string, error) { return p.Name, nil })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{} // by candidate name
	for k, p := range points {
		w := 0.0
		for c := range lists {
			for i, n := range lists[c].Names {
				for _, taken := range sp.Taken(c, p.Index) {
					if taken == n {
						w += 0.1 * float64(i+1) / float64(c+1)
					}
				}
			}
		}
		if vary != nil {
			w += 0.01 * float64(p.Index[0])
		}
		if skip[k] {
			o.Search.Ranked = append(o.Search.Ranked, experiment.Ranked{Point: k, Name: p.Name, Settings: sp.Values(p)})
			continue
		}
		want[p.Name] = w
		o.Search.Ranked = append(o.Search.Ranked, experiment.Ranked{Point: k, Name: p.Name, Settings: sp.Values(p), Encounters: 1000, WinRate: w})
	}
	return o, want
}

// The trait-set landscape: every set of the --traits lists is a row
// (fewer traits first), and each cell holds the win rate of the candidate
// with that set (and --vary value), blank where none played. Checked
// against the candidates' own rates, with the settings the search writes.
func TestTraitLandscapeGrid(t *testing.T) {
	fighter := results.TraitList{Owner: "heroes.Fighter", Names: []string{"dodge", "weapon_focus", "power_attack"}}
	o, want := traitDoc(t, []results.TraitList{fighter}, nil, map[int]bool{2: true})
	sets, xs, v, ok := traitGrid(o)
	wantSets := "[] [dodge] [weapon_focus] [power_attack] [dodge, weapon_focus] [dodge, power_attack] [weapon_focus, power_attack] [dodge, weapon_focus, power_attack]"
	if !ok || xs != nil || strings.Join(sets, " ") != wantSets {
		t.Fatalf("sets %q (ok %v, xs %v), want %q", sets, ok, xs, wantSets)
	}
	blank := 0
	for j, set := range sets {
		w, played := want["heroes.Fighter.traits="+set]
		switch {
		case !played && math.IsNaN(v[j]):
			blank++
		case !played || math.Abs(v[j]-100*w) > 1e-9:
			t.Errorf("set %s: cell %v, want %v (played %v)", set, v[j], 100*w, played)
		}
	}
	if blank != 1 {
		t.Errorf("%d blank cells, want the one candidate that did not play", blank)
	}

	// Two lists and a --vary path: a cell per (value, set), the sets
	// named with their owner.
	orc := results.TraitList{Owner: "monsters.Orc", Names: []string{"dodge"}}
	o, want = traitDoc(t, []results.TraitList{fighter, orc}, &results.Axis{Path: "heroes.Fighter.init", Values: []string{"1", "2", "3"}}, nil)
	sets, xs, v, ok = traitGrid(o)
	if !ok || len(sets) != 16 || len(xs) != 3 || len(v) != 48 || sets[1] != "heroes.Fighter=[]; monsters.Orc=[dodge]" {
		t.Fatalf("%d sets (%q...), %d values, %d cells", len(sets), sets[:2], len(xs), len(v))
	}
	for _, r := range o.Search.Ranked {
		i := r.Settings["heroes.Fighter.init"]
		set := traitSetOf(o, r.Settings)
		ix, jx := strings.Index("123", i), -1
		for j, s := range sets {
			if s == set {
				jx = j
			}
		}
		if jx < 0 || math.Abs(v[ix*len(sets)+jx]-100*want[r.Name]) > 1e-9 {
			t.Errorf("%s: at (%d, %d) the grid has %v, want %v", r.Name, ix, jx, v[max(ix*len(sets)+jx, 0)], 100*want[r.Name])
		}
	}
	// Each figure draws, in every language.
	for _, l := range []i18n.Lang{i18n.En, i18n.Ko, i18n.Ru} {
		for _, doc := range []*results.Optimize{o, func() *results.Optimize { d, _ := traitDoc(t, []results.TraitList{fighter}, nil, nil); return d }()} {
			f := traitLandscape(l, doc)
			var b bytes.Buffer
			if f == nil || f.SVG(&b) != nil || b.Len() == 0 {
				t.Errorf("%s: no trait landscape", l)
			}
		}
	}

	// The report's figures hold it (they held none with --traits before).
	o.Search.Incumbent = []experiment.IncumbentPoint{{Encounters: 1000, WinRate: 0.5}}
	names := ""
	for _, f := range optimizeFigures(i18n.En, o) {
		names += f.Name + " "
	}
	if names != "optimize-incumbent optimize-landscape " {
		t.Errorf("optimize figures with --traits: %s", names)
	}

	// No landscape where the sets would mix with more of the space.
	for name, d := range map[string]func(*results.Optimize){
		"an option":     func(d *results.Optimize) { d.Options = []results.NamedSets{{Name: "x"}} },
		"two --vary":    func(d *results.Optimize) { d.Vary = append(d.Vary, d.Vary[0]) },
		"a trait param": func(d *results.Optimize) { d.Vary[0].Path = "heroes.Fighter.traits.power_attack.params.trade" },
		"a rule list":   func(d *results.Optimize) { d.Rules = "subset" },
	} {
		doc, _ := traitDoc(t, []results.TraitList{fighter}, &results.Axis{Path: "heroes.Fighter.init", Values: []string{"1", "2"}}, nil)
		d(doc)
		if _, _, _, ok := traitGrid(doc); ok {
			t.Errorf("%s: a trait landscape", name)
		}
	}
	big := results.TraitList{Owner: "heroes.Fighter", Names: []string{"a", "b", "c", "d", "e", "f"}}
	if _, _, _, ok := traitGrid(&results.Optimize{Traits: []results.TraitList{big}, Search: &experiment.OptimizeResult{}}); ok {
		t.Error("64 trait sets: a landscape")
	}
}
