package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"simctl/scenarios"
)

// shardFiles runs every shard of a run of name and returns their files.
func shardFiles(t *testing.T, dir, name string, n int64, of int) []string {
	t.Helper()
	var files []string
	for k := range of {
		f := filepath.Join(dir, strings.ReplaceAll(name, "/", "-")+"-"+strconv.Itoa(k)+".json")
		code, _, errOut := cli(t, "run", name, "-n", strconv.FormatInt(n, 10), "--seed", "9", "--shard", strconv.Itoa(k)+"/"+strconv.Itoa(of),
			"--workers", "1", "-o", f, "--json", "--quiet")
		if code != exitOK {
			t.Fatalf("%s shard %d: exit %d: %s", name, k, code, errOut)
		}
		files = append(files, f)
	}
	return files
}

// TestMergeGenuineShards: the consistency checks hold for every genuine
// result: the shards of every built-in scenario merge (a check that
// refused a genuine document would show here).
func TestMergeGenuineShards(t *testing.T) {
	dir := t.TempDir()
	for _, name := range scenarios.Names() {
		files := shardFiles(t, dir, name, 1500, 3)
		code, _, errOut := cli(t, append([]string{"merge", "--json", "-o", filepath.Join(dir, "merged.json")}, files...)...)
		if code != exitOK {
			t.Errorf("%s: merge of genuine shards: exit %d: %s", name, code, errOut)
		}
	}
}

// editJSON rewrites one shard file through f (on its generic JSON).
func editJSON(t *testing.T, src, dst string, f func(doc map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	out, _ := json.Marshal(doc)
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMergeRefusesForgedCounts: the hand edits of issue 21 (each of
// which merged with exit 0 before) are refused with a message naming
// the inconsistency, and an overflow across shards is refused.
func TestMergeRefusesForgedCounts(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, "d20/duel", 3000, 3)
	tally := func(doc map[string]any) map[string]any { return doc["tally"].(map[string]any) }
	num := func(v any) int64 { n, _ := v.(json.Number).Int64(); return n }
	cases := []struct {
		name string
		edit func(doc map[string]any)
		want string
	}{
		{"rounds_sum + 1e6", func(d map[string]any) { tally(d)["rounds_sum"] = num(tally(d)["rounds_sum"]) + 1_000_000 }, "rounds sum"},
		{"a combatant's damage_dealt × 10", func(d map[string]any) {
			c := tally(d)["combatants"].([]any)[0].(map[string]any)
			c["damage_dealt"] = num(c["damage_dealt"]) * 10
		}, "damage_dealt"},
		{"counts[0] + 12345", func(d map[string]any) {
			// With its sum of squares raised as well, so the older check
			// (squares at least the sum) does not see it.
			cs, sq := tally(d)["counts"].([]any), tally(d)["counts_sq"].([]any)
			cs[0], sq[0] = num(cs[0])+12345, num(sq[0])+12345
		}, "turns"},
		{"a damage histogram bin + 1", func(d map[string]any) {
			h := tally(d)["damage_hist"].([]any)[0].(map[string]any)
			bins := h["counts"].([]any)
			bins[len(bins)-1] = num(bins[len(bins)-1]) + 1
		}, "damage_hist"},
		{"rounds_max below the histogram", func(d map[string]any) { tally(d)["rounds_max"] = 1 }, "max"},
	}
	for _, c := range cases {
		forged := filepath.Join(dir, "forged.json")
		editJSON(t, files[1], forged, c.edit)
		code, _, errOut := cli(t, "merge", "--json", "-o", filepath.Join(dir, "m.json"), files[0], forged, files[2])
		if code == exitOK || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "damaged") {
			t.Errorf("%s: exit %d, %q; want a refusal naming %q", c.name, code, errOut, c.want)
		}
	}
	// rounds_sum 2^62 in every shard: each alone is consistent with a
	// histogram whose rounds lie above its cap, but their sum overflows.
	var big []string
	for k, f := range files {
		g := filepath.Join(dir, "big"+strconv.Itoa(k)+".json")
		editJSON(t, f, g, func(d map[string]any) {
			tl := tally(d)
			// Every encounter above the cap, at most 2^62 rounds each.
			n := num(tl["encounters"])
			hist := tl["rounds_hist"].([]any)
			for i := range hist {
				hist[i] = 0
			}
			tl["rounds_over"], tl["rounds_sum"], tl["rounds_max"] = n, int64(1)<<62, int64(1)<<62
		})
		big = append(big, g)
	}
	code, _, errOut := cli(t, append([]string{"merge", "--json", "-o", filepath.Join(dir, "m.json")}, big...)...)
	if code == exitOK || !strings.Contains(errOut, "overflow") {
		t.Errorf("rounds_sum 2^62 in three shards: exit %d, %q; want an overflow refused", code, errOut)
	}
}
