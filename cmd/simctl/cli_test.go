package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/scenario"
	"simctl/stats"
)

// goldenCLI compares a command's exit code, stdout and stderr with
// testdata/cli/NAME.golden (go test ./cmd/simctl -run TestCLIGolden -update
// rewrites them).
func goldenCLI(t *testing.T, name string, args ...string) {
	t.Helper()
	code, stdout, stderr := simctl(t, context.Background(), args...)
	noPanic(t, stdout, stderr)
	got := fmt.Sprintf("$ simctl %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(args, " "), code, stdout, stderr)
	path := filepath.Join(goldenDir, name+".golden")
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/simctl -run TestCLIGolden -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("simctl %s differs from %s\n--- got\n%s\n--- want\n%s", strings.Join(args, " "), path, got, want)
	}
}

// goldenDir is absolute: the error cases run in a temporary directory so
// that the file names in their messages are short and stable.
var goldenDir = func() string {
	d, _ := filepath.Abs(filepath.Join("testdata", "cli"))
	return d
}()

// Every help text, and `CMD -h` is `help CMD`.
func TestCLIGoldenHelp(t *testing.T) {
	t.Setenv("LC_ALL", "C") // English, whatever the developer's locale
	goldenCLI(t, "help", "help")
	goldenCLI(t, "help_flags", "help", "flags")
	goldenCLI(t, "no_args", []string{}...)
	for _, c := range commands {
		goldenCLI(t, "help_"+c, "help", c)
		if c == "help" {
			continue
		}
		for _, h := range []string{"-h", "--help"} {
			code, stdout, stderr := simctl(t, context.Background(), c, h)
			_, want, _ := simctl(t, context.Background(), "help", c)
			if code != exitOK || stdout != want || stderr != "" {
				t.Errorf("simctl %s %s: exit %d, stderr %q, and its stdout differs from simctl help %s", c, h, code, stderr, c)
			}
		}
	}
}

// The command-line mistakes of issue 12, each with its message.
func TestCLIGoldenErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, text string) {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := simctl(t, context.Background(), "sweep", "d20/duel", "--vary", "heroes.Fighter.init=0:2:1", "-n", "200", "--quiet", "--format", "json", "-o", "sweep.json"); code != exitOK {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	write("junk.json", `{"scenario": "x", "sides": ["a", "b"]}`)
	write("typo-policy.yaml", edit(t, "  - name: heroes\n    combatants:\n      - name: Fighter\n",
		"  - name: heroes\n    policy: deley\n    combatants:\n      - name: Fighter\n        policy: default\n"))
	write("typo-until.yaml", edit(t, "        crit: 19-20/x2\n", "        crit: 19-20/x2\n        policy: {name: delay, until: Orx}\n"))
	write("two-problems.yaml", edit(t, "hp: 20", "hp: -5")+"extra: 1\n")
	write("d20.yaml", "exists\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"n_garbage", []string{"run", "d20/duel", "-n", "1.5k5"}},
		{"sweep_fractional_step_init", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=0:2:0.25"}},
		{"n_fractional_count", []string{"run", "d20/duel", "-n", "2.5"}},
		{"n_negative", []string{"run", "d20/duel", "-n", "-1e3"}},
		{"unknown_flag", []string{"run", "d20/duel", "--bogus"}},
		{"unknown_command", []string{"rnu", "d20/duel"}},
		{"format_mismatch", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=0:2", "--format", "csv", "-o", "x.json"}},
		{"format_twice", []string{"run", "d20/duel", "--json", "--format", "csv"}},
		{"o_html", []string{"run", "d20/duel", "-o", "x.html"}},
		{"bad_seed", []string{"run", "d20/duel", "--seed", "-1"}},
		{"rules_unknown", []string{"rules", "d2O"}},
		{"scenarios_show_unknown", []string{"scenarios", "show", "d20/duell"}},
		{"scenarios_bad_arg", []string{"scenarios", "d20/duel"}},
		{"merge_sweep", []string{"merge", "sweep.json"}},
		{"merge_junk", []string{"merge", "junk.json"}},
		{"report_junk", []string{"report", "junk.json", "-o", "out"}},
		{"side_policy_typo", []string{"run", "typo-policy.yaml"}},
		{"until_typo", []string{"run", "typo-until.yaml"}},
		{"sweep_fractional_step", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.hp=10:30:0.5"}},
		{"init_exists", []string{"init"}},
		{"init_unknown", []string{"init", "acks"}},
		{"check_invalid", []string{"check", "two-problems.yaml", "typo-policy.yaml", "d20/duel"}},
		{"precision_and_shard", []string{"run", "d20/duel", "--precision", "2pp", "--shard", "1/2"}},
		{"help_unknown", []string{"help", "rnu"}},
	} {
		t.Run(tc.name, func(t *testing.T) { goldenCLI(t, "err_"+tc.name, tc.args...) })
	}
}

func TestParseCount(t *testing.T) {
	for in, want := range map[string]int64{
		"1": 1, "100000": 100000, "1e6": 1000000, "1E6": 1000000, "100k": 100000, "100K": 100000,
		"1_000_000": 1000000, "1,000,000": 1000000, "2.5M": 2500000, "2.5m": 2500000, "1.5e3": 1500,
		"3G": 3000000000, "1e18": 1e18, " 7 ": 7,
	} {
		got, err := parseCount(in)
		if err != nil || got != want {
			t.Errorf("parseCount(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"1.5": "not a whole number", "2.5e-4k": "not a whole number", "1.0000001e6": "not a whole number",
		"-5": "negative", "-1e3": "negative", "0": "at least one", "0k": "at least one",
		"": "expected a whole number", "k": "expected a whole number", "1e": "expected a whole number",
		"0x10": "expected a whole number", "1/2": "expected a whole number", "ten": "expected a whole number",
		"1e19": "too large", "NaN": "expected a whole number", "Inf": "expected a whole number",
	} {
		if got, err := parseCount(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("parseCount(%q) = %d, %v; want an error saying %q", in, got, err, msg)
		}
	}
}

// -o's extension sets the format; a contradicting --format is refused.
func TestOutputFormatFromExtension(t *testing.T) {
	dir := t.TempDir()
	for ext, check := range map[string]func(string) bool{
		".json": func(s string) bool { return json.Valid([]byte(s)) },
		".csv":  func(s string) bool { return strings.HasPrefix(s, "scenario,ruleset,seed,encounters,side,wins,") },
		".md":   func(s string) bool { return strings.Contains(s, "| side | wins |") },
		".txt":  func(s string) bool { return strings.Contains(s, "side  wins  win rate") },
	} {
		f := filepath.Join(dir, "r"+ext)
		code, _, stderr := simctl(t, context.Background(), "run", "d20/duel", "-n", "300", "-o", f)
		data, _ := os.ReadFile(f)
		if code != exitOK || !check(string(data)) {
			t.Errorf("run -o %s: exit %d %s; wrote\n%s", f, code, stderr, data)
		}
		// merge takes the same flags
		if ext == ".json" {
			g := filepath.Join(dir, "m.csv")
			code, _, stderr := simctl(t, context.Background(), "merge", f, "-o", g)
			data, _ := os.ReadFile(g)
			if code != exitOK || !strings.HasPrefix(string(data), "scenario,ruleset") {
				t.Errorf("merge -o m.csv: exit %d %s\n%s", code, stderr, data)
			}
		}
	}
	// --json stays an alias, and agrees with a .json extension.
	f := filepath.Join(dir, "a.json")
	if code, _, stderr := simctl(t, context.Background(), "run", "d20/duel", "-n", "300", "--json", "-o", f); code != exitOK {
		t.Errorf("--json -o a.json: exit %d %s", code, stderr)
	}
	code, _, stderr := simctl(t, context.Background(), "run", "d20/duel", "-n", "300", "--json", "-o", filepath.Join(dir, "a.csv"))
	if code != exitUsage || !strings.Contains(stderr, "is a csv file but the format asked for is json") {
		t.Errorf("--json -o a.csv: exit %d %s", code, stderr)
	}
}

// run --precision applies the sweep's stopping rule: it stops at the
// first batch boundary where the auxiliary sample predicts both sides'
// Wilson intervals narrower than W (experiment.PrecisionRule), and not one
// batch earlier; the run's own intervals are narrower than W there.
func TestRunPrecision(t *testing.T) {
	const batch = 500
	code, stdout, stderr := simctl(t, context.Background(), "run", "d20/duel", "--precision", "3pp", "--batch", "500", "-n", "1M", "--json", "--seed", "4")
	if code != exitOK || !strings.Contains(stderr, "reached after") {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var r results.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	narrow := func(n int64) bool {
		_, out, _ := simctl(t, context.Background(), "run", "d20/duel", "-n", itoa(n), "--json", "--seed", "4")
		var x results.Result
		if err := json.Unmarshal([]byte(out), &x); err != nil {
			t.Fatal(err)
		}
		for s := 0; s < 2; s++ {
			ci := stats.Wilson95(x.Raw.Wins[s], x.Encounters)
			if ci.Hi-ci.Lo >= 0.03 {
				return false
			}
		}
		return true
	}
	n := r.Encounters
	src, _, _ := scenarios.Read("d20/duel")
	sc, err := scenario.Load("duel.yaml", src, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	stops := func(n int64) bool {
		ok, err := experiment.NewPrecisionRule([]sim.Game{g}, 0.03, 4, 1).Stop(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if n%batch != 0 || n < 2*batch || !narrow(n) || !stops(n) || stops(n-batch) {
		t.Errorf("stopped after %d encounters: narrow there %v, the rule stops there %v and one batch earlier %v; want a batch multiple where the rule first holds", n, narrow(n), stops(n), stops(n-batch))
	}
	// Without reaching it, -n caps the run and a warning says so.
	code, stdout, stderr = simctl(t, context.Background(), "run", "d20/duel", "--precision", "0.1pp", "--batch", "500", "-n", "1000")
	if code != exitOK || !strings.Contains(stderr, "not reached within -n 1,000") || !strings.Contains(stdout, "1,000 encounters") {
		t.Errorf("cap: exit %d\n%s%s", code, stdout, stderr)
	}
}

// compare --precision stops once every option meets the rule, at a batch
// boundary, and each option's counts equal a plain run of that length.
func TestComparePrecision(t *testing.T) {
	code, stdout, stderr := simctl(t, context.Background(), "compare", "d20/duel", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=6",
		"--precision", "4pp", "--batch", "400", "-n", "1M", "--format", "json", "--seed", "2")
	if code != exitOK || !strings.Contains(stderr, "reached after") {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var c results.Compare
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatal(err)
	}
	n := c.Options[0].Result.Encounters
	if n%400 != 0 || n == 1000000 {
		t.Fatalf("stopped after %d", n)
	}
	for _, o := range c.Options {
		for s := 0; s < 2; s++ {
			ci := stats.Wilson95(o.Result.Raw.Wins[s], o.Result.Encounters)
			if ci.Hi-ci.Lo >= 0.04 {
				t.Errorf("option %s side %d: interval %.4f wide after stopping", o.Name, s, ci.Hi-ci.Lo)
			}
		}
	}
	sets := map[string][]string{"base": nil, "fast": {"--set", "heroes.Fighter.init=6"}}
	for _, o := range c.Options {
		args := append([]string{"run", "d20/duel", "-n", itoa(n), "--seed", "2", "--json"}, sets[o.Name]...)
		_, out, _ := simctl(t, context.Background(), args...)
		var r results.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Raw.Wins != o.Result.Raw.Wins {
			t.Errorf("option %s: wins %v, simctl run -n %d gives %v", o.Name, o.Result.Raw.Wins, n, r.Raw.Wins)
		}
	}
}

// The compare table fits in 100 columns.
func TestCompareWidth(t *testing.T) {
	_, stdout, _ := simctl(t, context.Background(), "compare", "d20/duel", "--option", "base=", "--option", "init+4=--set heroes.Fighter.init=5", "-n", "2000", "--quiet")
	for _, l := range strings.Split(stdout, "\n") {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("%d columns: %s", n, l)
		}
	}
}

// A shard's table says which shard it is.
func TestShardTableSaysWhichShard(t *testing.T) {
	_, stdout, _ := simctl(t, context.Background(), "run", "d20/duel", "-n", "3000", "--shard", "1/3")
	if !strings.HasPrefix(stdout, "shard 2 of 3 (k=1/3): encounters 1,000 to 1,999 of a 3,000-encounter run;") {
		t.Errorf("shard table:\n%s", stdout)
	}
}

// After an interruption with stdout not a terminal, the closing message
// does not point at a result "above" that the user cannot see.
func TestInterruptedMessage(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, _, stderr := simctl(t, ctx, "run", "d20/duel", "-n", "1000")
	if code != exitInterrupted || strings.Contains(stderr, "above") || !strings.Contains(stderr, "written to stdout") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	f := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr = simctl(t, ctx, "run", "d20/duel", "-n", "1000", "-o", f)
	if code != exitInterrupted || !strings.Contains(stderr, "is in "+f) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// The progress bar's first frame does not divide a burst of encounters
// by the microseconds since its first draw: its clock starts with the bar.
func TestProgressFirstFrameRate(t *testing.T) {
	var buf syncBuffer
	var done atomic.Int64
	stop := startProgress(context.Background(), "always", 10_000_000, &done, &buf)
	done.Store(1_000_000) // a burst before the first tick (100 ms)
	time.Sleep(250 * time.Millisecond)
	stop()
	rates := regexp.MustCompile(`(\d+) enc/s`).FindAllStringSubmatch(buf.String(), -1)
	if len(rates) == 0 {
		t.Fatalf("no rate drawn:\n%q", buf.String())
	}
	for _, m := range rates {
		// At least 100 ms passed before any update was drawn.
		if r := atoiT(t, m[1]); r > 10_000_000 {
			t.Errorf("a frame shows %s enc/s: more than 1,000,000 encounters in 100 ms", m[1])
		}
	}
}

func atoiT(t *testing.T, s string) int64 {
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// scenarios show prints exactly the built-in, for every built-in.
func TestScenariosShow(t *testing.T) {
	for _, n := range scenarios.Names() {
		code, stdout, _ := simctl(t, context.Background(), "scenarios", "show", n)
		data, _, _ := scenarios.Read(n)
		if code != exitOK || stdout != string(data) {
			t.Errorf("scenarios show %s: exit %d", n, code)
		}
	}
	// An error position pasted whole finds the file.
	if code, stdout, _ := simctl(t, context.Background(), "scenarios", "show", "builtin:d20/duel.yaml:9:9"); code != exitOK || !strings.HasPrefix(stdout, "name: Fighter vs Orc") {
		t.Errorf("show builtin:d20/duel.yaml:9:9: exit %d", code)
	}
}

// A range with a fractional but whole-landing step (10:14:2.0) gives whole
// values a whole-number field accepts, not "10.0".
func TestSweepWholeValuesOfDecimalStep(t *testing.T) {
	code, stdout, stderr := simctl(t, context.Background(), "sweep", "d20/duel", "--vary", "heroes.Fighter.hp=10:14:2.0", "-n", "200", "--format", "csv", "--quiet")
	if code != exitOK || !strings.Contains(stdout, "\n10,") || !strings.Contains(stdout, "\n14,") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}
