package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"simctl/cmd/simctl/app"
	"simctl/reports/results"
)

// TestServeSearchKinds: the Tournament, Find and Optimize tabs' jobs give
// the documents the commands print (the same selection, the same
// encounters found), and an optimize job hands the page its incumbent
// after each stage.
func TestServeSearchKinds(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	cases := []struct {
		req  jobRequest
		cli  []string
		keys []string
	}{
		{jobRequest{Kind: "tournament", Text: text, N: 6000, Seed: 3, Side: "heroes", Options: []results.NamedSets{{Name: "base"}, {Name: "fast", Sets: []string{"heroes.Fighter.init=5"}}, {Name: "slow", Sets: []string{"heroes.Fighter.init=0"}}}},
			[]string{"tournament", "d20/duel", "-n", "6000", "--seed", "3", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=5", "--option", "slow=--set heroes.Fighter.init=0", "--side", "heroes"}, []string{"candidates", "best", "outcome"}},
		{jobRequest{Kind: "find", Text: text, N: 3000, Seed: 3, Where: `side("heroes").won and rounds >= 6`},
			[]string{"find", "d20/duel", "-n", "3000", "--seed", "3", "--where", `side("heroes").won and rounds >= 6`}, []string{"matches", "encounters"}},
		{jobRequest{Kind: "optimize", Text: text, N: 20000, Seed: 3, Side: "heroes", Vary: []string{"heroes.Fighter.init=1:3", "heroes.Fighter.ac=17:18"}},
			[]string{"optimize", "d20/duel", "-n", "20000", "--seed", "3", "--vary", "heroes.Fighter.init=1:3", "--vary", "heroes.Fighter.ac=17:18", "--side", "heroes"}, []string{"best", "guarantee"}},
	}
	for _, c := range cases {
		id := startJob(t, ts, c.req)
		m := jobResult(t, ts, id)
		var out bytes.Buffer
		if code := cliMain(context.Background(), append(c.cli, "--format", "json"), &out, io.Discard); code != 0 {
			t.Fatalf("%v: exit %d", c.cli, code)
		}
		var want map[string]any
		if err := json.Unmarshal(out.Bytes(), &want); err != nil {
			t.Fatalf("%v: %v", c.cli, err)
		}
		got, _ := m["result"].(map[string]any)
		if got == nil {
			t.Fatalf("%s: no result: %v", c.req.Kind, m)
		}
		compared := 0
		for _, k := range c.keys {
			if want[k] == nil {
				continue
			}
			compared++
			if !equalIgnoring(got[k], want[k]) {
				t.Errorf("%s: %s differs from simctl %s's:\n%v\n%v", c.req.Kind, k, c.req.Kind, got[k], want[k])
			}
		}
		if compared == 0 {
			t.Errorf("%s: none of %v in the CLI's document (keys %v)", c.req.Kind, c.keys, keysOf(want))
		}
		if w, ok := m["warnings"].([]any); ok && len(w) > 0 {
			t.Logf("%s: warnings %v", c.req.Kind, w)
		}
	}
	// The live incumbent: optimize hands each stage's document to the
	// observer's interim hook (as the server's job does; a finished job's
	// interim events are dropped, so the hook is asked directly).
	var docs []any
	obs := &app.Observer{Interim: func(d any) { docs = append(docs, app.Lookup("optimize").Slim(d)) }}
	areq := &app.OptimizeRequest{Source: &app.Source{Name: "d20/duel", Display: "d20/duel", Data: []byte(text)}, Side: "heroes",
		Alpha: app.OptimizeAlpha, Delta: app.OptimizeDelta, Budget: app.OptimizeBudget, First: app.OptimizeFirst, Confirm: app.OptimizeConfirm, Cap: 20000, Seed: 3}
	for _, v := range cases[2].req.Vary {
		a, err := results.ParseVary(v)
		if err != nil {
			t.Fatal(err)
		}
		areq.Axes = append(areq.Axes, a)
	}
	if _, err := app.Optimize(context.Background(), areq, obs); err != nil {
		t.Fatalf("optimize with an interim observer: %v", err)
	}
	if len(docs) == 0 {
		t.Fatal("optimize: no interim document")
	}
	for _, d := range docs {
		o, ok := d.(*results.Optimize)
		if !ok || o.Search == nil || len(o.Search.Incumbent) == 0 || o.Context != nil {
			t.Fatalf("optimize interim %T: no search with its incumbent, or the context kept", d)
		}
		if _, err := json.Marshal(d); err != nil {
			t.Fatalf("optimize interim: %v", err)
		}
	}
	for _, bad := range []jobRequest{
		{Kind: "find", Text: text, N: 10},
		{Kind: "tournament", Text: text, N: 10, Options: []results.NamedSets{{Name: "base"}}},
		{Kind: "optimize", Text: text, N: 10},
		{Kind: "optimize", Text: text, N: 10, Vary: []string{"heroes.Fighter.init=0:3000", "heroes.Fighter.ac=0:3000"}},
	} {
		st, m, _ := call(t, ts, "POST", "/api/jobs", bad)
		if st != http.StatusBadRequest {
			t.Errorf("%s %+v: %d %v", bad.Kind, bad, st, m)
		}
	}
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
