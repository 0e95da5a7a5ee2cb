package results

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"simctl/sim"
	"simctl/sim/experiment"
	"strings"
	"testing"
)

// TestParseTournamentHostile: a tournament document with any one number
// changed to an out-of-range value is read without a panic: refused with
// an error (the state is checked, and the standings must be the state's),
// or, when the change is harmless, accepted. The unchanged document is
// accepted, and one of the old format is refused saying so.
func TestParseTournamentHostile(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, hostileTournament()); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, err := parseTournament("t.json", good); err != nil {
		t.Fatalf("the fixture is refused: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(good, &doc); err != nil {
		t.Fatal(err)
	}
	// Every path to a number in the document.
	type path []any
	var paths []path
	var walk func(v any, p path)
	walk = func(v any, p path) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, append(append(path(nil), p...), k))
			}
		case []any:
			for i, e := range x {
				walk(e, append(append(path(nil), p...), i))
			}
		case float64:
			paths = append(paths, p)
		}
	}
	walk(doc, nil)
	if len(paths) < 50 {
		t.Fatalf("only %d numbers in the document", len(paths))
	}
	set := func(root any, p path, v float64) {
		for _, k := range p[:len(p)-1] {
			switch x := root.(type) {
			case map[string]any:
				root = x[k.(string)]
			case []any:
				root = x[k.(int)]
			}
		}
		switch x := root.(type) {
		case map[string]any:
			x[p[len(p)-1].(string)] = v
		case []any:
			x[p[len(p)-1].(int)] = v
		}
	}
	r := rand.New(rand.NewPCG(4, 4))
	refused := 0
	for _, p := range paths {
		for _, v := range []float64{-1, 0, 1e18, 0.5, float64(r.IntN(5000))} {
			var d map[string]any
			json.Unmarshal(good, &d)
			set(d, p, v)
			data, _ := json.Marshal(d)
			func() {
				defer func() {
					if e := recover(); e != nil {
						t.Fatalf("%v = %v: panic %v", p, v, e)
					}
				}()
				if _, err := parseTournament("t.json", data); err != nil {
					refused++
				}
			}()
		}
	}
	t.Logf("%d numbers, %d edits refused of %d", len(paths), refused, 5*len(paths))
	var d map[string]any
	json.Unmarshal(good, &d)
	d["tournament_format"] = 1.0
	data, _ := json.Marshal(d)
	if _, err := parseTournament("t.json", data); err == nil || !strings.Contains(err.Error(), "older simctl") {
		t.Errorf("a tournament of format 1: %v", err)
	}
}

// hostileTournament is reports' fixtureTournament: an interrupted
// tournament of three options after two stages.
func hostileTournament() *Tournament {
	t := &Tournament{Header: Header{Kind: "tournament", Scenario: "Braced spears", File: "builtin:d20/tactics-combo.yaml", Ruleset: "d20", Seed: 3,
		Version: "0.1.0+test", Command: "simctl tournament d20/tactics-combo --vary heroes.Wizard.tactics.params.crowd=1:3:1 -n 8000 --first 1000 --seed 3",
		Interrupted: true}, Format: TournamentFormat}
	for _, c := range []string{"1", "2", "3"} {
		s := "heroes.Wizard.tactics.params.crowd=" + c
		t.Options = append(t.Options, NamedSets{Name: s, Sets: []string{s}})
	}
	st, err := experiment.NewSelectState(3, experiment.SelectParams{First: 1000, Batch: 2000, Budget: 8000})
	if err != nil {
		panic(err)
	}
	for _, s := range []*experiment.StageSums{
		{Alive: []int{0, 1, 2}, Ranges: []sim.Range{{Lo: 0, Hi: 1000}}, Wins: []int64{640, 690, 700}, Only: [][2]int64{{20, 70}, {10, 70}, {40, 50}}},
		{Alive: []int{1, 2}, Ranges: []sim.Range{{Lo: 1000, Hi: 3000}}, Wins: []int64{1360, 1373}, Only: [][2]int64{{90, 103}}},
	} {
		if err := st.Apply(s); err != nil {
			panic(err)
		}
	}
	t.Selection = *st.Result(t.Names(), "heroes")
	return t
}
