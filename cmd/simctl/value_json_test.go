package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// valueRate is a rate as a tool reads value's JSON.
type valueRate struct {
	A, B    string
	Value   *float64        `json:"value"`
	Set     string          `json:"set"`
	Bounded bool            `json:"bounded"`
	Split   bool            `json:"split"`
	CI95    *[2]float64     `json:"ci95"`
	Rays    *[2][2]*float64 `json:"rays"`
}

// checkRates reads value's JSON rates and checks each set is stated
// consistently, with the estimate inside it; it returns the sets seen.
func checkRates(t *testing.T, what string, data []byte) map[string]bool {
	t.Helper()
	var doc struct {
		Rates []valueRate `json:"rates"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	seen := map[string]bool{}
	for _, r := range doc.Rates {
		seen[r.Set] = true
		switch r.Set {
		case "interval":
			if !r.Bounded || r.Split || r.CI95 == nil || r.Rays != nil || r.Value == nil || *r.Value < r.CI95[0] || *r.Value > r.CI95[1] {
				t.Errorf("%s: %s in %s: an interval stated wrong or not holding its estimate: %+v", what, r.A, r.B, r)
			}
		case "two rays":
			if r.Bounded || !r.Split || r.CI95 != nil || r.Rays == nil || r.Rays[0][0] != nil || r.Rays[1][1] != nil ||
				r.Rays[0][1] == nil || r.Rays[1][0] == nil || *r.Rays[0][1] >= *r.Rays[1][0] {
				t.Errorf("%s: %s in %s: two rays stated wrong: %+v", what, r.A, r.B, r)
			} else if v := r.Value; v != nil && *v > *r.Rays[0][1] && *v < *r.Rays[1][0] {
				t.Errorf("%s: %s in %s: the estimate %v lies in the excluded gap (%v, %v)", what, r.A, r.B, *v, *r.Rays[0][1], *r.Rays[1][0])
			}
		case "every value":
			if r.Bounded || r.Split || r.CI95 != nil || r.Rays != nil {
				t.Errorf("%s: %s in %s: the whole line stated wrong: %+v", what, r.A, r.B, r)
			}
		default:
			t.Errorf("%s: %s in %s: set %q", what, r.A, r.B, r.Set)
		}
		if r.Value != nil && (math.IsNaN(*r.Value) || math.IsInf(*r.Value, 0)) {
			t.Errorf("%s: value %v", what, *r.Value)
		}
	}
	return seen
}

// TestValueJSONUnboundedRates: the reproductions, each of which
// made `value --json` exit 1 with "json: unsupported value: +Inf" and no
// file; and the shards of such a run (split sets among them) merge into
// exactly the single-process document.
func TestValueJSONUnboundedRates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	seen := map[string]bool{}
	for _, args := range [][]string{
		{"value", "d20/duel", "-n", "40", "--params", "init,hp", "--seed", "1", "--json"},
		{"value", "d20/duel", "-n", "400", "--params", "hp,heroes.Fighter.speed", "--step", "heroes.Fighter.speed=5", "--set", "heroes.Fighter.speed=30", "--json"},
		{"value", "d20/duel", "-n", "3000", "--params", "init,hp", "--seed", "2", "--shard", "4/10", "--format", "json"},
	} {
		code, out, stderr := simctl(t, ctx, args...)
		if code != 0 {
			t.Fatalf("simctl %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		for k := range checkRates(t, strings.Join(args, " "), []byte(out)) {
			seen[k] = true
		}
	}
	// The shards of -n 3000 --seed 2, written to files and merged.
	var shards []string
	for k := 0; k < 10; k++ {
		f := filepath.Join(dir, "s"+itoa(int64(k))+".json")
		code, _, stderr := simctl(t, ctx, "value", "d20/duel", "-n", "3000", "--params", "init,hp", "--seed", "2", "--shard", itoa(int64(k))+"/10", "--format", "json", "-o", f)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
		}
		data, _ := os.ReadFile(f)
		for s := range checkRates(t, "shard "+itoa(int64(k)), data) {
			seen[s] = true
		}
		shards = append(shards, f)
	}
	merged, whole := filepath.Join(dir, "merged.json"), filepath.Join(dir, "whole.json")
	if code, _, stderr := simctl(t, ctx, append([]string{"merge", "-o", merged}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if code, _, stderr := simctl(t, ctx, "value", "d20/duel", "-n", "3000", "--params", "init,hp", "--seed", "2", "--format", "json", "-o", whole); code != 0 {
		t.Fatalf("whole: exit %d: %s", code, stderr)
	}
	m, w := readFigures(t, merged), readFigures(t, whole)
	if m != w {
		t.Errorf("merged shards differ from the whole run:\n%s\n%s", m, w)
	}
	for _, k := range []string{"interval", "two rays", "every value"} {
		if !seen[k] {
			t.Errorf("no %q set among the reproductions: the test no longer covers it", k)
		}
	}
}

// readFigures is a value document's figures (not its header's timing).
func readFigures(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, k := range []string{"effects", "rates", "swings", "joint", "warnings", "encounters"} {
		b.Write(doc[k])
		b.WriteString("\n")
	}
	return b.String()
}
