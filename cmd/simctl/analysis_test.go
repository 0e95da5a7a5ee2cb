package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The analysis commands' outputs at a fixed seed (exact counts, so the
// golden files are stable) and their errors in simctl's words.
func TestCLIGoldenAnalysis(t *testing.T) {
	goldenCLI(t, "value_duel", "value", "d20/duel", "-n", "4000", "--params", "init,hp,ac", "--step", "hp=2")
	goldenCLI(t, "matrix_duel", "matrix", "d20/duel", "-n", "4000",
		"--row", "base=", "--row", "tough=--set heroes.Fighter.hp=24",
		"--col", "base=", "--col", "armoured=--set monsters.Orc.ac=17")
	goldenCLI(t, "tournament_duel", "tournament", "d20/duel", "-n", "16000", "--first", "1000",
		"--vary", "heroes.Fighter.ac=15:18:1")
	goldenCLI(t, "find_duel", "find", "d20/duel", "-n", "5000", "--limit", "5",
		"--where", `side("heroes").won and combatant("Fighter").hp <= 2`)
	goldenCLI(t, "trace_pick", "trace", "d20/duel", "-n", "2000", "--pick", "max", "--metric", "rounds")

	goldenCLI(t, "err_value_param", "value", "d20/duel", "--params", "init,speed")
	goldenCLI(t, "err_value_half_step", "value", "d20/duel", "--params", "hp", "--step", "hp=0.5")
	goldenCLI(t, "err_value_side", "value", "d20/duel", "--side", "heros")
	goldenCLI(t, "err_value_invalid_step", "value", "d20/duel", "--set", "heroes.Fighter.hp=1", "--params", "hp")
	goldenCLI(t, "err_matrix_one", "matrix", "d20/duel", "--row", "base=")
	goldenCLI(t, "err_tournament_one", "tournament", "d20/duel", "--option", "a=")
	goldenCLI(t, "err_find_fact", "find", "d20/duel", "--where", "side(\"heroes\").wins")
	goldenCLI(t, "err_find_type", "find", "d20/duel", "--where", "rounds + 1")
	goldenCLI(t, "err_trace_pick", "trace", "d20/duel", "--pick", "p200", "--metric", "rounds")
	goldenCLI(t, "err_trace_metric_bool", "trace", "d20/duel", "--pick", "max", "--metric", "draw")
}

// value --format json carries the exact sums; the tornado is drawn; every
// document records the command that made it.
func TestValueJSONAndPlot(t *testing.T) {
	dir := t.TempDir()
	out, plot := filepath.Join(dir, "v.json"), filepath.Join(dir, "t.svg")
	code, _, stderr := simctl(t, context.Background(), "value", "d20/duel", "-n", "3000", "--params", "hp,ac", "-o", out, "--plot", plot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Kind    string `json:"kind"`
		Command string `json:"command"`
		Joint   struct {
			K     int     `json:"K"`
			N     int64   `json:"N"`
			Sum   []int64 `json:"Sum"`
			Cross []int64 `json:"Cross"`
		} `json:"joint"`
		Rates []struct{ A, B string } `json:"rates"`
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "value" || doc.Joint.K != 5 || doc.Joint.N != 3000 || len(doc.Joint.Cross) != 25 || len(doc.Rates) != 2 ||
		!strings.Contains(doc.Command, "simctl value d20/duel") {
		t.Errorf("value JSON: %+v", doc)
	}
	svg, err := os.ReadFile(plot)
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("tornado: %v", err)
	}
}
