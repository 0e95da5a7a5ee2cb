package reports

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
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
	if err := fixtureTournament().Write(&buf, JSON); err != nil {
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
