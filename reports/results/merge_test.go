package results_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	_ "simctl/agents" // the d20 policies
	"simctl/reports/results"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

func duel(t *testing.T) sim.Game {
	t.Helper()
	data, display, _ := scenarios.Read("d20/duel")
	sc, err := scenario.Load(display, data, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

var meta = results.Meta{Scenario: "Fighter vs Orc", Ruleset: "d20", Version: "test", Seed: 7,
	Sides: [2]string{"heroes", "monsters"}, Elapsed: 1}

// shard runs encounters [lo, hi) of a run of total and returns its result
// as shard k of of (of 0: an unsharded result).
func shard(t *testing.T, g sim.Game, k, of int, lo, hi, total int64) *results.Result {
	t.Helper()
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: meta.Seed, Start: lo, N: hi - lo, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	m := meta
	if of > 0 {
		m.Shard = &results.Shard{K: k, Of: of, Start: lo, N: hi - lo, Total: total}
	}
	return results.New(m, g, tally)
}

// roundTrip writes r as JSON and reads it back, as simctl merge does.
func roundTrip(t *testing.T, r *results.Result) *results.Result {
	t.Helper()
	p := filepath.Join(t.TempDir(), "r.json")
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestMergeIsExact(t *testing.T) {
	g := duel(t)
	const n = 5000
	whole := shard(t, g, 0, 0, 0, n, n)
	parts := []*results.Result{
		roundTrip(t, shard(t, g, 2, 3, 3333, n, n)),
		roundTrip(t, shard(t, g, 0, 3, 0, 1666, n)),
		roundTrip(t, shard(t, g, 1, 3, 1666, 3333, n)),
	}
	m, err := results.Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Raw, whole.Raw) {
		t.Errorf("merged tally\n%+v\nwhole run\n%+v", m.Raw, whole.Raw)
	}
	if !reflect.DeepEqual(m.Sides, whole.Sides) || m.Rounds != whole.Rounds || m.Encounters != n || m.Shard != nil {
		t.Errorf("merged figures differ: %+v / %+v", m.Sides, whole.Sides)
	}
	if c, w := results.Coverage(parts); c != n || w != n {
		t.Errorf("Coverage = %d of %d, want %d of %d", c, w, n, n)
	}
	// Merging does not change its inputs.
	if parts[1].Raw.Encounters != 1666 {
		t.Errorf("Merge modified an input: %d encounters", parts[1].Raw.Encounters)
	}
}

// Empty shards (-n smaller than K) merge like any other.
func TestMergeEmptyShards(t *testing.T) {
	g := duel(t)
	const n = 2
	var parts []*results.Result
	for k := 2; k >= 0; k-- { // shard 0 of 2 over 3 is empty
		lo, hi := int64(k)*n/3, int64(k+1)*n/3
		parts = append(parts, shard(t, g, k, 3, lo, hi, n))
	}
	m, err := results.Merge(parts)
	if err != nil {
		t.Fatalf("Merge with an empty shard: %v", err)
	}
	if whole := shard(t, g, 0, 0, 0, n, n); !reflect.DeepEqual(m.Raw, whole.Raw) {
		t.Errorf("merged %+v, whole %+v", m.Raw, whole.Raw)
	}
}

func TestMergeRefuses(t *testing.T) {
	g := duel(t)
	a := shard(t, g, 0, 2, 0, 500, 1000)
	b := shard(t, g, 1, 2, 500, 1000, 1000)
	seed := *b
	seed.Seed = 8
	sets := *b
	sets.Sets = []string{"max_rounds=5"}
	otherN := *b
	otherN.Shard = &results.Shard{K: 1, Of: 2, Start: 500, N: 500, Total: 2000}
	scen := *b
	scen.Scenario = "another"
	whole := shard(t, g, 0, 0, 0, 1000, 1000)
	// Reliability: versions, scenario texts, shard ranges, tampered counts.
	ver := *b
	ver.Version = "0.0.9"
	withSum := func(r *results.Result, text string) *results.Result {
		c := *r
		c.ScenarioText, c.ScenarioSHA256 = text, results.ScenarioSum([]byte(text))
		return &c
	}
	textA, textB := withSum(a, "name: Fighter vs Orc\n"), withSum(b, "name: Fighter vs Orc\n# edited\n")
	lied := withSum(b, "name: Fighter vs Orc\n")
	lied.ScenarioText = "name: Fighter vs Orc\n# edited\n"
	negative := *b
	negative.Shard = &results.Shard{K: 1, Of: 2, Start: -500, N: 500, Total: 1000}
	beyond := *b
	beyond.Shard = &results.Shard{K: 1, Of: 2, Start: 500, N: 600, Total: 1000}
	badK := *b
	badK.Shard = &results.Shard{K: 2, Of: 2, Start: 500, N: 500, Total: 1000}
	tampered := *b
	tampered.Raw.Wins = [2]int64{b.Raw.Wins[0] + 1000, b.Raw.Wins[1]}
	negWins := *b
	negWins.Raw.Wins = [2]int64{-1, b.Raw.Wins[1] + b.Raw.Wins[0] + 1}
	hist := *b
	hist.Raw.Rounds = append([]int64(nil), b.Raw.Rounds...)
	hist.Raw.Rounds[1] += 7
	for _, tc := range []struct {
		name string
		rs   []*results.Result
		want string
	}{
		{"nothing", nil, "no results"},
		{"seeds", []*results.Result{a, &seed}, "seeds 7 and 8 differ"},
		{"sets", []*results.Result{a, &sets}, "--set overrides"},
		{"-n", []*results.Result{a, &otherN}, "share -n"},
		{"scenario", []*results.Result{a, &scen}, "different scenarios"},
		{"same shard twice", []*results.Result{a, b, a}, "shard 0/2 overlaps shard 0/2"},
		{"unsharded twice", []*results.Result{whole, whole}, "an unsharded result overlaps an unsharded result"},
		{"whole and a shard", []*results.Result{b, whole}, "shard 1/2 overlaps an unsharded result"},
		{"versions", []*results.Result{a, &ver}, "shard 0/2 was made by simctl test and shard 1/2 by simctl 0.0.9"},
		{"scenario text", []*results.Result{textA, textB}, "ran different scenario texts (SHA-256 "},
		{"sum of another text", []*results.Result{a, lied}, "scenario_sha256 is not the SHA-256 of scenario_text"},
		{"negative shard", []*results.Result{a, &negative}, "shard 1/2 covering encounters -500 to -1 of 1000 is out of range"},
		{"shard past the end", []*results.Result{a, &beyond}, "shard 1/2 covering encounters 500 to 1099 of 1000 is out of range"},
		{"shard index", []*results.Result{a, &badK}, "shard 2/2 covering encounters 500 to 999 of 1000 is out of range"},
		{"wins beyond encounters", []*results.Result{a, &tampered}, "do not add up to its 500 encounters"},
		{"negative wins", []*results.Result{a, &negWins}, "negative count"},
		{"rounds histogram", []*results.Result{a, &hist}, "rounds histogram counts 507 encounters, not 500"},
	} {
		m, err := results.Merge(tc.rs)
		if err == nil || !strings.Contains(err.Error(), tc.want) || m != nil {
			t.Errorf("%s: Merge = %v, %v; want an error containing %q", tc.name, m, err, tc.want)
		}
	}
}

func TestCoverageOfMissingShard(t *testing.T) {
	g := duel(t)
	a := shard(t, g, 0, 3, 0, 10, 30)
	c := shard(t, g, 2, 3, 20, 30, 30)
	m, err := results.Merge([]*results.Result{a, c})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Incomplete {
		t.Error("a merge missing shard 1/3 is not marked incomplete")
	}
	if all, _ := results.Merge([]*results.Result{a, shard(t, g, 1, 3, 10, 20, 30), c}); all.Incomplete {
		t.Error("a complete merge is marked incomplete")
	}
	if cov, whole := results.Coverage([]*results.Result{a, c}); cov != 20 || whole != 30 {
		t.Errorf("Coverage = %d of %d, want 20 of 30", cov, whole)
	}
}

// The JSON keys tools read (DESIGN.md, "What simctl run --json prints").
func TestJSONContract(t *testing.T) {
	r := shard(t, duel(t), 0, 0, 0, 300, 300)
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"scenario", "ruleset", "seed", "encounters", "version", "sides", "draws", "rounds",
		"action_economy", "initiative", "elapsed_seconds", "encounters_per_second", "tally"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON result has no %q", k)
		}
	}
	side := m["sides"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "wins", "win_rate", "win_ci95", "survivors_mean"} {
		if _, ok := side[k]; !ok {
			t.Errorf("sides[0] has no %q", k)
		}
	}
	rounds := m["rounds"].(map[string]any)
	for _, k := range []string{"mean", "p50", "p90", "max"} {
		if _, ok := rounds[k]; !ok {
			t.Errorf("rounds has no %q", k)
		}
	}
	ae := m["action_economy"].(map[string]any)["heroes"].(map[string]any)
	for _, k := range []string{"turns", "actions", "delays", "readies", "readies_triggered", "readies_wasted",
		"interrupts", "seizes", "interposes", "reprises", "ambushes", "actions_lost", "damage_dealt_mean"} {
		if _, ok := ae[k]; !ok {
			t.Errorf("action_economy.heroes has no %q", k)
		}
	}
	fa := m["initiative"].(map[string]any)["first_actor"].(map[string]any)
	if fa["Fighter"].(float64)+fa["Orc"].(float64) != 1 {
		t.Errorf("first_actor fractions %v do not add up to 1", fa)
	}
	in := m["initiative"].(map[string]any)
	for _, k := range []string{"first_actor", "first_in_order", "first_actor_side", "first_in_order_side", "nobody_acted", "nobody_had_a_turn"} {
		if _, ok := in[k]; !ok {
			t.Errorf("initiative has no %q", k)
		}
	}
	if fs := in["first_in_order_side"].(map[string]any); fs["heroes"].(float64)+fs["monsters"].(float64) != 1 {
		t.Errorf("first_in_order_side fractions %v do not add up to 1", fs)
	}
	dc := m["draw_causes"].(map[string]any)
	if _, ok := dc["max_rounds"]; !ok {
		t.Errorf("draw_causes has no max_rounds: %v", dc)
	}
	if _, ok := dc["all_gone"]; !ok {
		t.Errorf("draw_causes has no all_gone: %v", dc)
	}
	for _, k := range []string{"any_death_rate", "any_death_ci95", "damage_dealt", "hp_left_when_won"} {
		if _, ok := side[k]; !ok {
			t.Errorf("sides[0] has no %q", k)
		}
	}
	for _, k := range []string{"n", "mean", "p10", "p50", "p90", "max"} {
		if _, ok := side["damage_dealt"].(map[string]any)[k]; !ok {
			t.Errorf("sides[0].damage_dealt has no %q", k)
		}
	}
	for _, list := range []string{"combatants", "groups"} {
		cs, _ := m[list].([]any)
		if len(cs) != 2 {
			t.Fatalf("%s: %v, want Fighter and Orc", list, m[list])
		}
		for _, k := range []string{"name", "side", "copies", "death_rate", "out_rate", "damage_dealt_mean", "damage_taken_mean",
			"kills_mean", "turns_mean", "actions_lost_mean", "hp_left_when_won", "first_actor", "first_in_order"} {
			if _, ok := cs[0].(map[string]any)[k]; !ok {
				t.Errorf("%s[0] has no %q", list, k)
			}
		}
	}
	tally := m["tally"].(map[string]any)
	for _, k := range []string{"roster_sides", "draws_max_rounds", "draws_all_gone", "first_in_order", "no_order", "ended",
		"combatants", "any_down", "damage_hist", "winner_hp_hist"} {
		if _, ok := tally[k]; !ok {
			t.Errorf("tally has no %q", k)
		}
	}
	// Exact integer counts.
	if m["encounters"].(float64) != 300 || m["sides"].([]any)[0].(map[string]any)["wins"].(float64)+
		m["sides"].([]any)[1].(map[string]any)["wins"].(float64)+m["draws"].(float64) != 300 {
		t.Errorf("wins and draws do not add up to the encounters")
	}
}

func TestReadFileRejectsDamagedResults(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"empty.json":     ``,
		"text.json":      `Fighter vs Orc (d20)  seed 3`,
		"notally.json":   `{"scenario": "x", "sides": [{"name": "a"}, {"name": "b"}]}`,
		"shapes.json":    `{"scenario": "x", "sides": [{"name": "a"}, {"name": "b"}], "tally": {"counters": ["turns"], "counts": [1]}}`,
		"oneside.json":   `{"scenario": "x", "sides": [{"name": "a"}], "tally": {"counters": [], "counts": []}}`,
		"wrongtype.json": `{"scenario": 3}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		if r, err := results.ReadFile(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("ReadFile(%s) = %v, %v; want an error naming the file", name, r, err)
		}
	}
	if _, err := results.ReadFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("ReadFile of a missing file: no error")
	}
}

// Shards merge into the whole run byte for byte, the per-combatant figures,
// copy groups, draw causes and distributions included (d20/ambush has five
// Hobgoblin copies; max_rounds 3 makes draws).
func TestMergeByteForByte(t *testing.T) {
	data, display, _ := scenarios.Read("d20/ambush")
	set, err := scenario.ParseSet("max_rounds=3")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(display, data, []scenario.Set{set}, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	whole := shard(t, g, 0, 0, 0, n, n)
	if whole.Draws == 0 || whole.DrawCauses.MaxRounds != whole.Draws || len(whole.Groups) >= len(whole.Combatants) {
		t.Fatalf("the test needs draws and copies: draws %d %+v, %d groups of %d combatants",
			whole.Draws, whole.DrawCauses, len(whole.Groups), len(whole.Combatants))
	}
	m, err := results.Merge([]*results.Result{
		roundTrip(t, shard(t, g, 1, 2, 1234, n, n)),
		roundTrip(t, shard(t, g, 0, 2, 0, 1234, n)),
	})
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := whole.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("merged JSON differs from the whole run's:\n%s\n----\n%s", b.String(), a.String())
	}
}

// A forged distribution cap (10^11, 2^63−1) in a 15 kB result is refused
// when the result is read, before anything allocates its bins: merge and
// report died with `fatal error: out of memory` or "internal error:
// makeslice" (issue 31 item 7). Measured: what reading the file allocates.
func TestForgedHistCapRefusedBeforeAllocating(t *testing.T) {
	g := duel(t)
	var good bytes.Buffer
	if err := shard(t, g, 0, 2, 0, 200, 400).WriteJSON(&good); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i, forged := range []string{`"cap": 100000000000`, `"cap": 9223372036854775807`, `"cap": -1`, `"cap": 65537`} {
		data := bytes.Replace(good.Bytes(), []byte(`"cap": 1000`), []byte(forged), 1)
		if bytes.Equal(data, good.Bytes()) {
			t.Fatal(`the result has no "cap": 1000 to forge`)
		}
		p := filepath.Join(dir, fmt.Sprintf("forged%d.json", i))
		os.WriteFile(p, data, 0o644)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := results.ReadFile(p)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "damage_hist of side 0 has") || !strings.Contains(err.Error(), "the file is damaged") {
			t.Errorf("%s: got %v", forged, err)
		}
		if b := after.TotalAlloc - before.TotalAlloc; b > 4<<20 {
			t.Errorf("%s: reading allocated %d bytes", forged, b)
		}
	}
	// The largest cap allowed reads, merges and restores.
	ok := bytes.Replace(good.Bytes(), []byte(`"cap": 1000`), []byte(`"cap": 65536`), 1)
	p := filepath.Join(dir, "ok.json")
	os.WriteFile(p, ok, 0o644)
	if _, err := results.ReadFile(p); err != nil {
		t.Errorf("cap 65536: %v", err)
	}
}
