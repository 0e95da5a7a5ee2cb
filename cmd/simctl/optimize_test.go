package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The command, verbatim (but --workers, to compare).
var pointBuyArgs = []string{"optimize", "d20/duel", "--side", "heroes", "--vary", "heroes.Fighter.init=1:5", "--vary", "heroes.Fighter.ac=17:21",
	"--vary", "heroes.Fighter.hp=20:28:2", "--where", "(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 4",
	"--delta", "0.5pp", "--json"}

type optimizeDoc struct {
	Kind string `json:"kind"`
	Best struct {
		Name     string            `json:"name"`
		Settings map[string]string `json:"settings"`
		WinRate  float64           `json:"win_rate"`
		CI95     [2]float64        `json:"ci95"`
	} `json:"best"`
	Guarantee struct {
		Alpha      float64 `json:"alpha"`
		Delta      float64 `json:"delta"`
		Evaluated  int     `json:"evaluated"`
		Space      int64   `json:"space"`
		Encounters int64   `json:"encounters"`
	} `json:"guarantee"`
	Search json.RawMessage `json:"search"`
}

// TestOptimizeVerbatim: the command works on d20/duel and its JSON
// carries best.settings, best.win_rate, best.ci95 and the guarantee; the
// same seed gives the same document byte for byte (but timing and the
// command line) whatever --workers is.
func TestOptimizeVerbatim(t *testing.T) {
	var docs [2]map[string]json.RawMessage
	for i, w := range []string{"1", "3"} {
		code, stdout, stderr := simctl(t, context.Background(), append(append([]string(nil), pointBuyArgs...), "--workers", w)...)
		noPanic(t, stdout, stderr)
		if code != exitOK {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		var d optimizeDoc
		if err := json.Unmarshal([]byte(stdout), &d); err != nil {
			t.Fatal(err)
		}
		if d.Kind != "optimize" || len(d.Best.Settings) != 3 || d.Best.Settings["heroes.Fighter.ac"] == "" || !(d.Best.CI95[0] <= d.Best.WinRate && d.Best.WinRate <= d.Best.CI95[1]) {
			t.Fatalf("best %+v", d.Best)
		}
		if g := d.Guarantee; g.Alpha != 0.05 || g.Delta != 0.005 || g.Space != 35 || g.Evaluated != 35 || g.Encounters <= 0 {
			t.Fatalf("guarantee %+v", g)
		}
		json.Unmarshal([]byte(stdout), &docs[i])
		delete(docs[i], "elapsed_seconds")
		delete(docs[i], "command")
	}
	if a, b := mustJSON(t, docs[0]), mustJSON(t, docs[1]); a != b {
		t.Errorf("--workers 1 and 3 differ:\n%s\n%s", a, b)
	}
}

// TestOptimizeBadInput: every mistake is a usage error in simctl's words,
// never a crash, and nothing runs.
func TestOptimizeBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--where", "heroes.Fighter.init + > 2"}, "^"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--where", "heroes.Fighter.ini > 2"}, "did you mean heroes.Fighter.init?"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--where", "heroes.Fighter.init > 9"}, "excludes every one of the 5"},
		{[]string{"d20/duel"}, "an empty space"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--delta", "2"}, "--delta"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--alpha", "0"}, "--alpha"},
		{[]string{"d20/duel", "--rules", "subset"}, "--rules and --block go together"},
		{[]string{"d20/duel", "--rules", "sometimes", "--block", "heroes.tactics.turn"}, "expected subset"},
		{[]string{"acks2/tactics-shieldwall", "--rules", "order", "--block", "foot.tactics"}, "not a list of rules"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--baseline", "fast"}, "no --option of that name"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--side", "heros"}, "did you mean"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--both"}, "give monsters a space too"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--both", "--shard", "0/2"}, "--shard does not apply to --both"},
		// Issue 35: an option whose side cannot be told is an error saying how to write it.
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--option", "frail=--set monsters.Orc.hp=10", "--option", "base=", "--both"},
			"--option 'monsters:base='"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--vary", "max_rounds=5,7", "--both"}, "--vary max_rounds: with --both"},
		{[]string{"d20/duel", "--vary", "heroes.Fighter.init=1:5", "--shard", "0/2"}, "--shard writes JSON"},
	} {
		code, stdout, stderr := simctl(t, context.Background(), append([]string{"optimize"}, tc.args...)...)
		noPanic(t, stdout, stderr)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("optimize %v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
	// An invalid candidate is a scenario error naming it; nothing runs.
	code, stdout, stderr := simctl(t, context.Background(), "optimize", "d20/duel", "--vary", "heroes.Fighter.hp=-2:2:2")
	if code != exitScenario || !strings.Contains(stderr, "candidate heroes.Fighter.hp=-2") || stdout != "" {
		t.Errorf("invalid candidate: exit %d, stderr %q", code, stderr)
	}
}

// TestOptimizeRulesAndReport: a rule-structure search on the ACKS II
// shield wall lists each distinct structure once (orders that differ only
// after an unconditional rule are one), and simctl report draws its
// section with the best's median fight.
func TestOptimizeRulesAndReport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "opt.json")
	code, _, stderr := simctl(t, context.Background(), "optimize", "acks2/tactics-shieldwall", "--side", "foot", "--rules", "both",
		"--block", "foot.tactics.before_initiative", "-n", "5000", "--confirm", "2000", "--json", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	data, _ := os.ReadFile(out)
	var d struct {
		Search struct {
			Space struct{ Combinations, Duplicates, Candidates int64 } `json:"space"`
		} `json:"search"`
	}
	json.Unmarshal(data, &d)
	// Two rules: [a], [b], [a, b], [b, a]; "nothing" has no when: so
	// [nothing, fall back] is [nothing].
	if s := d.Search.Space; s.Combinations != 4 || s.Duplicates != 1 || s.Candidates != 3 {
		t.Errorf("space %+v; want 4 combinations, 1 duplicate, 3 candidates", s)
	}
	code, stdout, stderr := simctl(t, context.Background(), "report", out, "-o", filepath.Join(dir, "rep"))
	noPanic(t, stdout, stderr)
	if code != exitOK || !strings.Contains(stdout, "trace-best-median.txt") || !strings.Contains(stdout, "optimize-incumbent.png") {
		t.Errorf("report: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestOptimizeBoth: the double oracle runs on the duel, both sides
// searching initiative, and reports a mix for each and bounded value.
func TestOptimizeBoth(t *testing.T) {
	code, stdout, stderr := simctl(t, context.Background(), "optimize", "d20/duel", "--both", "--side", "heroes",
		"--vary", "heroes.Fighter.ac=17:19", "--vary", "monsters.Orc.ac=13:15", "-n", "4000", "--json")
	noPanic(t, stdout, stderr)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var d struct {
		Oracle struct {
			RowMix []struct{ Weight float64 } `json:"row_mix"`
			Bounds [2]float64                 `json:"value_bounds"`
			Value  float64                    `json:"value"`
		} `json:"oracle"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	// More AC only helps its owner: the pure equilibrium is ac 19 against
	// ac 15, one candidate each.
	if len(d.Oracle.RowMix) == 0 || !(d.Oracle.Bounds[0] <= d.Oracle.Value && d.Oracle.Value <= d.Oracle.Bounds[1]) {
		t.Errorf("oracle %+v", d.Oracle)
	}
	if !strings.Contains(stdout, `"name": "heroes.Fighter.ac=19"`) || !strings.Contains(stdout, `"name": "monsters.Orc.ac=15"`) {
		t.Errorf("the equilibrium is not ac 19 against ac 15:\n%s", stdout)
	}
}

// TestOptimizeShardedStages: the selection's stages played as shards on
// "several machines" (--shard k/K, merge, --resume from the merged stage,
// twice) make exactly the decisions and state of one uninterrupted run;
// a merge missing a shard is refused, and so is resuming from one shard.
func TestOptimizeShardedStages(t *testing.T) {
	dir := t.TempDir()
	f := func(name string) string { return filepath.Join(dir, name) }
	args := append([]string(nil), pointBuyArgs[:len(pointBuyArgs)-1]...) // without --json
	args = append(args, "--quiet")
	run := func(extra ...string) (int, string) {
		t.Helper()
		code, stdout, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), extra...)...)
		noPanic(t, stdout, stderr)
		return code, stderr
	}
	must := func(code int, stderr string) {
		t.Helper()
		if code != exitOK {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
	}
	merge := func(out string, parts ...string) (int, string) {
		code, stdout, stderr := simctl(t, context.Background(), append(append([]string{"merge"}, parts...), "-o", out)...)
		noPanic(t, stdout, stderr)
		return code, stderr
	}
	must(run("--shard", "0/2", "-o", f("p0.json")))
	must(run("--shard", "1/2", "-o", f("p1.json")))
	must(merge(f("s1.json"), f("p0.json"), f("p1.json")))
	for k := 0; k < 3; k++ {
		must(run("--resume", f("s1.json"), "--shard", strconv.Itoa(k)+"/3", "-o", f("q"+strconv.Itoa(k)+".json")))
	}
	if code, stderr := merge(f("bad.json"), f("q0.json"), f("q2.json")); code == exitOK || !strings.Contains(stderr, "a shard is missing") {
		t.Errorf("a merge missing a shard: exit %d, %s", code, stderr)
	}
	if code, stderr := run("--resume", f("q0.json"), "--json", "-o", f("x.json")); code != exitUsage || !strings.Contains(stderr, "merge every shard first") {
		t.Errorf("resuming from one shard: exit %d, %s", code, stderr)
	}
	must(merge(f("s2.json"), f("q0.json"), f("q1.json"), f("q2.json")))
	must(run("--resume", f("s2.json"), "--json", "-o", f("sharded.json")))
	must(run("--json", "-o", f("whole.json")))
	read := func(name string) map[string]json.RawMessage {
		data, err := os.ReadFile(f(name))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		json.Unmarshal(data, &m)
		var s map[string]json.RawMessage
		json.Unmarshal(m["search"], &s)
		return map[string]json.RawMessage{"best": m["best"], "selection": s["selection"], "ranked": s["ranked"], "incumbent": s["incumbent"]}
	}
	if a, b := mustJSON(t, read("sharded.json")), mustJSON(t, read("whole.json")); a != b {
		t.Errorf("the sharded search differs from the whole one:\n%s\n%s", a, b)
	}
}

// TestOptimizeInterruptResume: a search interrupted part way writes a
// document marked interrupted with the selection's state; --resume goes on
// and the answer equals an uninterrupted search's, every count and figure
// (timings and the command line aside), for a space that is screened
// (interrupted in screening or in the selection) and one that is not.
func TestOptimizeInterruptResume(t *testing.T) {
	dir := t.TempDir()
	screened := []string{"optimize", "d20/duel", "--side", "heroes", "--vary", "heroes.Fighter.init=0:8", "--vary", "heroes.Fighter.ac=14:24",
		"--vary", "heroes.Fighter.hp=10:40:2", "--where", "(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 6", "--quiet", "--confirm", "5000"}
	point := append(append([]string(nil), pointBuyArgs[:len(pointBuyArgs)-1]...), "--quiet", "--confirm", "5000")
	for i, c := range []struct {
		args []string
		at   int64
	}{{point, 2500}, {screened, 2500}, {screened, 15_500}} {
		if raceEnabled && i > 0 {
			// The screened cases resume the same one-goroutine search
			// bookkeeping at other points; the point-buy case already
			// interrupts and resumes the concurrent play under -race.
			break
		}
		whole := filepath.Join(dir, fmt.Sprintf("whole%d.json", i))
		part := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
		code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), c.args...), "--json", "-o", whole)...)
		if code != exitOK {
			t.Fatalf("whole: exit %d\n%s", code, stderr)
		}
		code, stdout, stderr := interruptAfter(t, c.at, append(append([]string(nil), c.args...), "--json", "-o", part)...)
		noPanic(t, stdout, stderr)
		if code != exitInterrupted {
			t.Fatalf("case %d: interrupted run: exit %d\n%s", i, code, stderr)
		}
		code, _, stderr = simctl(t, context.Background(), append(append([]string(nil), c.args...), "--json", "-o", part, "--resume", part)...)
		if code != exitOK {
			t.Fatalf("case %d: resume: exit %d\n%s", i, code, stderr)
		}
		if a, b := countsOf(t, whole), countsOf(t, part); !bytes.Equal(a, b) {
			os.WriteFile(filepath.Join(os.TempDir(), fmt.Sprintf("opt-whole%d.json", i)), a, 0o644)
			os.WriteFile(filepath.Join(os.TempDir(), fmt.Sprintf("opt-part%d.json", i)), b, 0o644)
			t.Errorf("case %d: the resumed search differs from the whole one", i)
		}
	}
	// A finished search has nothing to resume.
	code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), point...), "--json", "-o", filepath.Join(dir, "x.json"), "--resume", filepath.Join(dir, "whole0.json"))...)
	if code != exitUsage || !strings.Contains(stderr, "nothing to resume") {
		t.Errorf("resuming a finished search: exit %d, %s", code, stderr)
	}
}

// TestOptimizeLandscape: a search over two numeric paths draws the
// landscape heat map in its report, and its Markdown table renders.
func TestOptimizeLandscape(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "l.json")
	args := []string{"optimize", "d20/duel", "--vary", "heroes.Fighter.init=0:2", "--vary", "heroes.Fighter.ac=16:18", "-n", "5000", "--confirm", "2000"}
	code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--json", "-o", out)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := simctl(t, context.Background(), "report", out, "-o", filepath.Join(dir, "rep"))
	if code != exitOK || !strings.Contains(stdout, "optimize-landscape.png") {
		t.Errorf("report: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = simctl(t, context.Background(), append(append([]string(nil), args...), "--format", "markdown")...)
	noPanic(t, stdout, stderr)
	if code != exitOK || !strings.Contains(stdout, "| rank | candidate |") || !strings.Contains(stdout, "candidates confirmed") {
		t.Errorf("markdown: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestOptimizeUnreadParamDedupe: the Knight's $low is read only by its
// focus rule, so with focus off (or never reached) its three values play
// the same game and are one candidate. Counted by hand: 3 values x 7
// subsets of [focus, full, close] = 21 combinations; the 3 structures
// without focus ([full, close], [full], [close]) keep one value each: 6
// duplicates ("full" is a full attack, which falls through when nobody
// is in reach, so close after it can fire and no structure merges).
func TestOptimizeUnreadParamDedupe(t *testing.T) {
	oneGoroutineUnderRace(t)
	code, stdout, stderr := simctl(t, context.Background(), "optimize", "d20/tactics-combo", "--side", "heroes",
		"--vary", "heroes.Knight.tactics.params.low=0.25:0.75:0.25", "--rules", "subset", "--block", "heroes.Knight.tactics.turn",
		"-n", "1000", "--first", "500", "--confirm", "1000", "--json")
	noPanic(t, stdout, stderr)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var d struct {
		Search struct {
			Space  struct{ Combinations, Duplicates, Candidates int64 } `json:"space"`
			Ranked []struct {
				Name string `json:"name"`
			} `json:"ranked"`
		} `json:"search"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if s := d.Search.Space; s.Combinations != 21 || s.Duplicates != 6 || s.Candidates != 15 {
		t.Fatalf("space %+v; want 21 combinations, 6 duplicates, 15 candidates", s)
	}
	for _, r := range d.Search.Ranked {
		if !strings.Contains(r.Name, "focus") && !strings.Contains(r.Name, "low=0.25 ") {
			t.Errorf("%s: a structure without focus kept a later value of $low (the first is kept)", r.Name)
		}
	}
	// Orders: "close" (attack the nearest) cannot fall through, so what
	// follows it never fires. Of the 6 orders x 3 values (18), focus is
	// dead in [full, close, focus], [close, focus, full], [close, full,
	// focus], so $low is unread there (one value each), and the two
	// orders starting with close are one: 9 + 1 + 1 = 11 candidates.
	code, stdout, stderr = simctl(t, context.Background(), "optimize", "d20/tactics-combo", "--side", "heroes",
		"--vary", "heroes.Knight.tactics.params.low=0.25:0.75:0.25", "--rules", "order", "--block", "heroes.Knight.tactics.turn",
		"-n", "1000", "--first", "500", "--confirm", "1000", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if s := d.Search.Space; s.Combinations != 18 || s.Duplicates != 7 || s.Candidates != 11 {
		t.Fatalf("orders: space %+v; want 18 combinations, 7 duplicates, 11 candidates", s)
	}
}

// TestOptimizeCSVIntervals: the CSV carries every confirmed interval as
// its two ends, around its estimate, and leaves them empty only for the
// unconfirmed (and the best's difference to itself).
func TestOptimizeCSVIntervals(t *testing.T) {
	code, stdout, stderr := simctl(t, context.Background(), "optimize", "d20/duel", "--side", "heroes", "--vary", "heroes.Fighter.ac=17:19",
		"-n", "2000", "--first", "500", "--confirm", "2000", "--format", "csv")
	noPanic(t, stdout, stderr)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(rows) != 4 {
		t.Fatalf("%d rows, %v\n%s", len(rows), err, stdout)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	num := func(r []string, name string) float64 {
		f, err := strconv.ParseFloat(r[col[name]], 64)
		if err != nil {
			t.Fatalf("column %s: %q: %v\n%s", name, r[col[name]], err, stdout)
		}
		return f
	}
	for i, r := range rows[1:] {
		for _, c := range [][3]string{{"confirmed_win_rate", "confirmed_ci_lo", "confirmed_ci_hi"}, {"gain_over_baseline", "gain_ci_lo", "gain_ci_hi"}, {"diff_to_best", "diff_ci_lo", "diff_ci_hi"}} {
			if i == 0 && c[0] == "diff_to_best" {
				if r[col[c[0]]] != "" || r[col[c[1]]] != "" {
					t.Errorf("the best has a difference to itself: %v", r)
				}
				continue
			}
			if v, lo, hi := num(r, c[0]), num(r, c[1]), num(r, c[2]); !(lo <= v && v <= hi && lo < hi) {
				t.Errorf("row %d %s %v not in [%v, %v]", i+1, c[0], v, lo, hi)
			}
		}
	}
}

// TestOptimizeShardedScreening: a space too big for the budget is
// screened, and its screening rungs shard like the selection's stages:
// every rung and then every selection stage is played as shards (2 or 3
// parts, alternately), merged and resumed from, and the answer equals one
// uninterrupted process's, every count and figure (timings and the
// command line aside).
func TestOptimizeShardedScreening(t *testing.T) {
	if raceEnabled {
		t.Skip("shard arithmetic, checked by the ordinary go test; the detector makes it cost a quarter of a minute")
	}
	dir := t.TempDir()
	f := func(name string) string { return filepath.Join(dir, name) }
	args := []string{"optimize", "d20/duel", "--side", "heroes", "--vary", "heroes.Fighter.init=0:8", "--vary", "heroes.Fighter.ac=14:24",
		"--vary", "heroes.Fighter.hp=10:40:2", "--where", "(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 6",
		"--quiet", "--confirm", "5000"}
	run := func(extra ...string) (int, string) {
		t.Helper()
		code, stdout, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), extra...)...)
		noPanic(t, stdout, stderr)
		return code, stderr
	}
	merge := func(out string, parts ...string) {
		t.Helper()
		code, stdout, stderr := simctl(t, context.Background(), append(append([]string{"merge"}, parts...), "-o", out)...)
		noPanic(t, stdout, stderr)
		if code != exitOK {
			t.Fatalf("merge: exit %d\n%s", code, stderr)
		}
	}
	rungs, stages := 0, 0
	prev := ""
	for step := 0; ; step++ {
		if step > 20 {
			t.Fatal("the sharded search did not finish in 20 stages")
		}
		k := 2 + step%2
		var parts []string
		for i := 0; i < k; i++ {
			part := f(fmt.Sprintf("s%d-%d.json", step, i))
			extra := []string{"--shard", fmt.Sprintf("%d/%d", i, k), "-o", part, "--json"}
			if prev != "" {
				extra = append(extra, "--resume", prev)
			}
			code, stderr := run(extra...)
			if code == exitUsage && strings.Contains(stderr, "the selection has finished") {
				break
			}
			if code != exitOK {
				t.Fatalf("step %d shard %d/%d: exit %d\n%s", step, i, k, code, stderr)
			}
			parts = append(parts, part)
		}
		if len(parts) == 0 {
			break
		}
		data, _ := os.ReadFile(parts[0])
		if bytes.Contains(data, []byte(`"screening": {`)) {
			rungs++
		} else {
			stages++
		}
		prev = f(fmt.Sprintf("m%d.json", step))
		merge(prev, parts...)
	}
	if rungs < 2 || stages < 1 {
		t.Fatalf("%d screening rungs and %d selection stages sharded; the test needs at least 2 and 1", rungs, stages)
	}
	if code, stderr := run("--resume", prev, "--json", "-o", f("sharded.json")); code != exitOK {
		t.Fatalf("final resume: exit %d\n%s", code, stderr)
	}
	if code, stderr := run("--json", "-o", f("whole.json")); code != exitOK {
		t.Fatalf("whole: exit %d\n%s", code, stderr)
	}
	if a, b := countsOf(t, f("whole.json")), countsOf(t, f("sharded.json")); !bytes.Equal(a, b) {
		os.WriteFile(filepath.Join(os.TempDir(), "opt-screen-whole.json"), a, 0o644)
		os.WriteFile(filepath.Join(os.TempDir(), "opt-screen-sharded.json"), b, 0o644)
		t.Errorf("the sharded screened search differs from the whole one (see %s)", os.TempDir())
	}
	t.Logf("%d screening rungs and %d selection stages played as shards", rungs, stages)
}

// TestOptimizeBothTraits: --traits with --both (refused before): each
// list is its combatant's side's on/off dimensions. Weapon Focus (+1 to
// attack) and Dodge (+1 AC) help only their owner, so each side's best
// response is both traits whatever the other takes: the equilibrium is
// the pure pair, and the value is that cell's win rate, which a long run
// of the pair (its SE about 0.1 pp) must put inside the value bounds.
func TestOptimizeBothTraits(t *testing.T) {
	code, stdout, stderr := simctl(t, context.Background(), "optimize", "d20/duel", "--both", "--side", "heroes",
		"--traits", "heroes.Fighter=weapon_focus,dodge", "--traits", "monsters.Orc=weapon_focus,dodge", "-n", "4000", "--json")
	noPanic(t, stdout, stderr)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var d struct {
		Oracle struct {
			RowSpace []string `json:"row_space"`
			ColSpace []string `json:"col_space"`
			RowMix   []struct {
				Name   string
				Weight float64
			} `json:"row_mix"`
			ColMix []struct {
				Name   string
				Weight float64
			} `json:"col_mix"`
			Bounds [2]float64 `json:"value_bounds"`
		} `json:"oracle"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	o := d.Oracle
	if len(o.RowSpace) != 4 || len(o.ColSpace) != 4 || !strings.HasPrefix(o.ColSpace[0], "monsters.Orc.traits=") {
		t.Errorf("spaces %v and %v; want the 4 trait sets of each side", o.RowSpace, o.ColSpace)
	}
	if len(o.RowMix) == 0 || o.RowMix[0].Name != "heroes.Fighter.traits=[weapon_focus, dodge]" || o.RowMix[0].Weight != 1 ||
		len(o.ColMix) == 0 || o.ColMix[0].Name != "monsters.Orc.traits=[weapon_focus, dodge]" || o.ColMix[0].Weight != 1 {
		t.Errorf("mixes %+v and %+v; want both traits on each side, pure", o.RowMix, o.ColMix)
	}
	code, stdout, stderr = simctl(t, context.Background(), "run", "d20/duel", "--set", "heroes.Fighter.traits=[weapon_focus, dodge]",
		"--set", "monsters.Orc.traits=[weapon_focus, dodge]", "-n", "200000", "--json")
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	var r struct {
		Sides []struct {
			WinRate float64 `json:"win_rate"`
		} `json:"sides"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || len(r.Sides) != 2 {
		t.Fatalf("run --json: %v", err)
	}
	if w := r.Sides[0].WinRate; !(o.Bounds[0] <= w && w <= o.Bounds[1]) {
		t.Errorf("the equilibrium cell wins %.4f, outside the value bounds %v", w, o.Bounds)
	}
}
