package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"simctl/reports/i18n/i18ntest"
	"simctl/reports/results"
	"simctl/rulesets"
	"simctl/scenarios"
)

// TestHostileInputs runs simctl on hostile inputs and command lines and
// compares each exit code and message with testdata/hostile.golden
// (go test ./cmd/simctl -run TestHostileInputs -update rewrites it).
// Temporary paths print as $T.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	T := func(name string) string { return filepath.Join(dir, name) }
	put := func(name, text string) string {
		if err := os.WriteFile(T(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return T(name)
	}
	duel := mustBuiltin(t)
	put("empty.yaml", "")
	put("multidoc.yaml", duel+"---\nname: second\n")
	put("newline-name.yaml", strings.Replace(duel, "name: Fighter vs Orc", `name: "Fighter\nvs Orc"`, 1))
	put("pipe-name.yaml", strings.Replace(duel, "- name: heroes", "- name: heroes|x", 1))
	put("blank-name.yaml", strings.Replace(duel, "- name: Fighter", `- name: "   "`, 1))
	put("syntax.yaml", "name: [unclosed\nruleset: d20\n")
	put("ruleset.yaml", "name: x\nruleset: d21\nsides:\n  - name: a\n    combatants: [{name: A, hp: 5, damage: 1d4}]\n  - name: b\n    combatants: [{name: B, hp: 5, damage: 1d4}]\n")
	put("junk.json", "not json at all")
	put("in.yaml", duel)
	os.Mkdir(T("folder"), 0o755)
	os.Symlink(T("nowhere"), T("dangling"))
	os.Mkdir(T("realdir"), 0o755)
	os.Symlink(T("realdir"), T("linkdir"))

	// Shard results and tampered copies.
	for k := 0; k < 2; k++ {
		if code, _, e := simctl(t, context.Background(), "run", "d20/duel", "-n", "300", "--shard", fmt.Sprintf("%d/2", k), "--json", "-o", T(fmt.Sprintf("s%d.json", k))); code != 0 {
			t.Fatal(e)
		}
	}
	if code, _, e := simctl(t, context.Background(), "run", "d20/duel", "-n", "300", "--shard", "0/3", "--json", "-o", T("t0.json")); code != 0 {
		t.Fatal(e)
	}
	tamper := func(from, to string, edit func(map[string]any)) {
		b, err := os.ReadFile(T(from))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		edit(doc)
		b, _ = json.MarshalIndent(doc, "", "  ")
		put(to, string(b))
	}
	tally := func(doc map[string]any) map[string]any { return doc["tally"].(map[string]any) }
	shard := func(doc map[string]any) map[string]any { return doc["shard"].(map[string]any) }
	tamper("s1.json", "version.json", func(d map[string]any) { d["version"] = "0.0.1" })
	tamper("s1.json", "edited.json", func(d map[string]any) {
		text := d["scenario_text"].(string) + "# edited\n"
		d["scenario_text"], d["scenario_sha256"] = text, sum(text)
	})
	tamper("s1.json", "lying-sum.json", func(d map[string]any) { d["scenario_text"] = d["scenario_text"].(string) + "# edited\n" })
	tamper("s1.json", "wins.json", func(d map[string]any) {
		w := tally(d)["wins"].([]any)
		w[0] = w[0].(float64) + 1000
	})
	tamper("s1.json", "negative.json", func(d map[string]any) { shard(d)["start"] = -150.0 })
	tamper("s1.json", "beyond.json", func(d map[string]any) { shard(d)["n"] = 400.0 })
	tamper("s1.json", "k.json", func(d map[string]any) { shard(d)["k"] = 5.0 })
	tamper("s1.json", "no-tally.json", func(d map[string]any) { delete(d, "tally") })
	if code, _, e := simctl(t, context.Background(), "run", "d20/duel", "-n", "300", "--json", "-o", T("whole.json")); code != 0 {
		t.Fatal(e)
	}
	sweepArgs := []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "-n", "200", "--format", "json", "-o"}
	if code, _, e := simctl(t, context.Background(), append(sweepArgs, T("sweep.json"))...); code != 0 {
		t.Fatal(e)
	}

	// Shards and whole runs of the experiments on common random numbers.
	valueArgs := []string{"value", "d20/duel", "--params", "init", "-n", "300", "--format", "json", "-o"}
	for k := 0; k < 2; k++ {
		if code, _, e := simctl(t, context.Background(), append(append([]string(nil), valueArgs...), T(fmt.Sprintf("v%d.json", k)), "--shard", fmt.Sprintf("%d/2", k))...); code != 0 {
			t.Fatal(e)
		}
	}
	if code, _, e := simctl(t, context.Background(), append(valueArgs, T("value.json"))...); code != 0 {
		t.Fatal(e)
	}
	tamper("v1.json", "v-version.json", func(d map[string]any) { d["version"] = "0.0.1" })
	tamper("v1.json", "v-joint.json", func(d map[string]any) {
		s := d["joint"].(map[string]any)["Sum"].([]any)
		s[1] = s[1].(float64) + 1000
	})
	matrixArgs := []string{"matrix", "d20/duel", "--row", "a=", "--row", "b=--set heroes.Fighter.init=4", "--col", "x=", "-n", "300", "--format", "json", "-o", T("m0.json"), "--shard", "0/2"}
	if code, _, e := simctl(t, context.Background(), matrixArgs...); code != 0 {
		t.Fatal(e)
	}
	compareArgs := []string{"compare", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.init=4", "-n", "300", "--format", "json", "-o"}
	for k := 0; k < 2; k++ {
		if code, _, e := simctl(t, context.Background(), append(append([]string(nil), compareArgs...), T(fmt.Sprintf("c%d.json", k)), "--shard", fmt.Sprintf("%d/2", k))...); code != 0 {
			t.Fatal(e)
		}
	}
	tamper("c1.json", "c-paired.json", func(d map[string]any) {
		diff := d["options"].([]any)[1].(map[string]any)["diff"].([]any)
		p := diff[1].(map[string]any)["paired"].(map[string]any)
		p["N"] = p["N"].(float64) + 7
	})
	tourArgs := []string{"tournament", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.init=-4", "--first", "100", "-n", "300", "--format", "json", "-o"}
	if code, _, e := simctl(t, context.Background(), append(tourArgs, T("tour.json"))...); code != 0 {
		t.Fatal(e)
	}
	// A tournament of the format before the selection with a guarantee,
	// and one whose standings were edited apart from its sums.
	tamper("tour.json", "tour-old.json", func(d map[string]any) { delete(d, "tournament_format") })
	tamper("tour.json", "tour-edited.json", func(d map[string]any) {
		c := d["candidates"].([]any)[1].(map[string]any)
		c["win_rate"] = c["win_rate"].(float64) + 0.01
	})
	// Interrupted documents edited by hand in a way every check but the
	// resume digest lets through: an unplayed range shifted with its
	// length kept (the audit's [1368340,1370112] to [0,1772]), a finished
	// sweep point's win moved to the other side.
	interrupted := func(at int64, args []string, name string) {
		if code, _, e := interruptAfter(t, at, append(args, T(name))...); code != exitInterrupted {
			t.Fatalf("%s: exit %d, want %d; %s", name, code, exitInterrupted, e)
		}
	}
	shiftUnplayed := func(d map[string]any) {
		first := d["unplayed"].([]any)[0].([]any)
		first[0], first[1] = 0.0, first[1].(float64)-first[0].(float64)
	}
	runPartArgs := []string{"run", "d20/duel", "-n", "400000", "--workers", "1", "--json", "-o"}
	interrupted(5000, runPartArgs, "run-part.json")
	tamper("run-part.json", "run-shifted.json", shiftUnplayed)
	comparePartArgs := []string{"compare", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.init=4", "-n", "300000", "--workers", "1", "--format", "json", "-o"}
	interrupted(5000, comparePartArgs, "compare-part.json")
	tamper("compare-part.json", "compare-shifted.json", shiftUnplayed)
	sweepPartArgs := []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=0,1,2", "-n", "20000", "--workers", "1", "--format", "json", "-o"}
	interrupted(30000, sweepPartArgs, "sweep-part.json")
	tamper("sweep-part.json", "sweep-edited.json", func(d map[string]any) {
		w := d["points"].([]any)[0].(map[string]any)["result"].(map[string]any)["tally"].(map[string]any)["wins"].([]any)
		w[0], w[1] = w[0].(float64)-1, w[1].(float64)+1
	})
	resumeOf := func(args []string, name string) []string {
		return append(append([]string(nil), args[:len(args)-1]...), "--resume", T(name))
	}

	cases := []struct {
		name string
		args []string
	}{
		{"no arguments", nil},
		{"unknown command", []string{"fly"}},
		{"run without scenario", []string{"run"}},
		{"run missing file", []string{"run", T("missing.yaml")}},
		{"run a folder", []string{"run", T("folder")}},
		{"run /dev/zero", []string{"run", "/dev/zero"}},
		{"run empty file", []string{"run", T("empty.yaml")}},
		{"run two YAML documents", []string{"run", T("multidoc.yaml")}},
		{"run newline in a name", []string{"run", T("newline-name.yaml")}},
		{"run | in a name", []string{"run", T("pipe-name.yaml")}},
		{"run blank name", []string{"run", T("blank-name.yaml")}},
		{"run YAML syntax error", []string{"run", T("syntax.yaml")}},
		{"run unknown ruleset", []string{"run", T("ruleset.yaml")}},
		{"run -n 0", []string{"run", "d20/duel", "-n", "0"}},
		{"run -n negative", []string{"run", "d20/duel", "-n", "-5"}},
		{"run -n not a number", []string{"run", "d20/duel", "-n", "many"}},
		{"run --workers negative", []string{"run", "d20/duel", "--workers", "-1"}},
		{"run --shard k beyond K", []string{"run", "d20/duel", "--shard", "3/2"}},
		{"run --shard negative", []string{"run", "d20/duel", "--shard", "-1/2"}},
		{"run --shard of zero", []string{"run", "d20/duel", "--shard", "1/0"}},
		{"run --shard words", []string{"run", "d20/duel", "--shard", "abc"}},
		{"run --progress bad", []string{"run", "d20/duel", "--progress", "sometimes"}},
		{"run -o a folder", []string{"run", "d20/duel", "-o", T("folder")}},
		{"run -o missing folder", []string{"run", "d20/duel", "-o", T("nope/x.json")}},
		{"run -o under a file", []string{"run", "d20/duel", "-o", T("junk.json/x.json")}},
		{"run -o dangling link", []string{"run", "d20/duel", "-o", T("dangling")}},
		{"run -o empty", []string{"run", "d20/duel", "-o", ""}},
		{"run --plot empty", []string{"run", "d20/duel", "--plot", ""}},
		{"run -o the scenario it reads", []string{"run", T("in.yaml"), "-o", T("in.yaml")}},
		{"run -o a complete result", []string{"run", "d20/duel", "-n", "300", "--json", "-o", T("whole.json")}},
		{"sweep --results a complete result", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "-n", "200", "--results", T("sweep.json")}},
		{"merge -o one of its inputs", []string{"merge", "-o", T("s0.json"), T("s0.json"), T("s1.json")}},
		{"run --set without =", []string{"run", "d20/duel", "--set", "nonsense"}},
		{"run --set unknown path", []string{"run", "d20/duel", "--set", "heroes.Nobody.hp=3"}},
		{"run --resume junk", []string{"run", "d20/duel", "--resume", T("junk.json")}},
		{"run --resume a whole run", []string{"run", "d20/duel", "-n", "300", "--resume", T("whole.json")}},
		{"merge nothing", []string{"merge"}},
		{"merge missing file", []string{"merge", T("missing.json")}},
		{"merge junk", []string{"merge", T("junk.json")}},
		{"merge without tally", []string{"merge", T("no-tally.json")}},
		{"merge other version", []string{"merge", T("s0.json"), T("version.json")}},
		{"merge edited scenario", []string{"merge", T("s0.json"), T("edited.json")}},
		{"merge sum not of text", []string{"merge", T("s0.json"), T("lying-sum.json")}},
		{"merge tampered wins", []string{"merge", T("s0.json"), T("wins.json")}},
		{"merge negative shard", []string{"merge", T("s0.json"), T("negative.json")}},
		{"merge shard past the end", []string{"merge", T("s0.json"), T("beyond.json")}},
		{"merge shard index out of range", []string{"merge", T("s0.json"), T("k.json")}},
		{"merge the same shard twice", []string{"merge", T("s0.json"), T("s0.json"), T("s1.json")}},
		{"merge shards of different -n splits", []string{"merge", T("s0.json"), T("t0.json")}},
		{"merge a missing shard", []string{"merge", T("s0.json")}},
		{"merge a missing shard, allowed", []string{"merge", "--allow-partial", "-o", T("partial.json"), T("s0.json")}},
		{"merge -o a folder", []string{"merge", "-o", T("folder"), T("s0.json"), T("s1.json")}},
		{"merge a sweep and a run", []string{"merge", T("sweep.json"), T("s0.json")}},
		{"merge a sweep that is no shard", []string{"merge", T("sweep.json")}},
		{"sweep --shard with --precision", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "--precision", "2pp", "--shard", "0/2"}},
		{"sweep --shard with no encounters", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "-n", "1", "--shard", "0/2"}},
		{"sweep without --vary", []string{"sweep", "d20/duel"}},
		{"sweep bad range", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=5:1:0"}},
		{"sweep three axes", []string{"sweep", "d20/duel", "--vary", "a=1,2", "--vary", "b=1,2", "--vary", "c=1,2"}},
		{"sweep --plot not an image", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "--plot", T("x.txt")}},
		{"sweep --plot missing folder", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "--plot", T("nope/x.png")}},
		{"sweep --resume junk", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "-n", "200", "--resume", T("junk.json")}},
		{"sweep --resume a run result", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "-n", "200", "--resume", T("s0.json")}},
		{"sweep --resume other seed", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,2", "-n", "200", "--seed", "9", "--resume", T("sweep.json")}},
		{"sweep --resume other range", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=1,3", "-n", "200", "--resume", T("sweep.json")}},
		{"compare one option", []string{"compare", "d20/duel", "--option", "a="}},
		{"compare --shard with --precision", []string{"compare", "d20/duel", "--option", "a=", "--option", "b=", "--precision", "2pp", "--shard", "0/2"}},
		{"compare --resume with --precision", []string{"compare", "d20/duel", "--option", "a=", "--option", "b=", "--precision", "2pp", "--resume", T("s0.json")}},
		{"merge compare shards, one with edited paired sums", []string{"merge", T("c0.json"), T("c-paired.json")}},
		{"compare --resume a run result", []string{"compare", "d20/duel", "--option", "a=", "--option", "b=", "--resume", T("s0.json")}},
		{"value --shard with no encounters", []string{"value", "d20/duel", "-n", "1", "--shard", "0/2"}},
		{"value --resume a finished run", append(append([]string(nil), valueArgs[:len(valueArgs)-3]...), "--resume", T("value.json"))},
		{"value --resume a matrix", append(append([]string(nil), valueArgs[:len(valueArgs)-3]...), "--resume", T("m0.json"))},
		{"matrix --resume junk", append(append([]string(nil), matrixArgs[:len(matrixArgs)-6]...), "--resume", T("junk.json"))},
		{"run --resume an unplayed range shifted by hand", resumeOf(runPartArgs, "run-shifted.json")},
		{"compare --resume an unplayed range shifted by hand", resumeOf(comparePartArgs, "compare-shifted.json")},
		{"sweep --resume a finished point edited by hand", resumeOf(sweepPartArgs, "sweep-edited.json")},
		{"tournament --resume a finished one", append(append([]string(nil), tourArgs[:len(tourArgs)-3]...), "--resume", T("tour.json"))},
		{"merge value shards of two versions", []string{"merge", T("v0.json"), T("v-version.json")}},
		{"merge a tampered joint", []string{"merge", T("v0.json"), T("v-joint.json")}},
		{"merge a missing value shard", []string{"merge", T("v0.json")}},
		{"merge the same value shard twice", []string{"merge", T("v0.json"), T("v0.json"), T("v1.json")}},
		{"merge a whole value run", []string{"merge", T("value.json")}},
		{"merge a value and a matrix", []string{"merge", T("v0.json"), T("m0.json")}},
		{"merge a tournament", []string{"merge", T("tour.json")}},
		{"report a tournament of the old format", []string{"report", T("tour-old.json"), "-o", T("rep")}},
		{"report an edited tournament", []string{"report", T("tour-edited.json"), "-o", T("rep")}},
		{"tournament --delta out of range", []string{"tournament", "d20/duel", "--option", "a=", "--option", "b=", "--delta", "2"}},
		{"tournament --alpha out of range", []string{"tournament", "d20/duel", "--option", "a=", "--option", "b=", "--alpha", "0"}},
		{"report a value run", []string{"report", T("value.json"), "-o", T("rep")}},
		{"compare option name with |", []string{"compare", "d20/duel", "--option", "a|b=", "--option", "c="}},
		{"report without -o", []string{"report", T("s0.json")}},
		{"report into a linked folder", []string{"report", T("s0.json"), "-o", T("linkdir")}},
		{"report junk", []string{"report", T("junk.json"), "-o", T("rep")}},
		{"report -o under missing folder", []string{"report", T("s0.json"), "-o", T("nope/rep")}},
		{"trace negative encounter", []string{"trace", "d20/duel", "--encounter", "-1"}},
		{"rules unknown", []string{"rules", "d99"}},
	}
	// The table runs in English (testdata/hostile.golden), then again
	// under a Korean and a Russian locale (hostile.ko.golden,
	// hostile.ru.golden): every message of simctl's own is translated,
	// with its positions kept (hostileLang).
	var english []string
	run := func(golden string) []string {
		var got bytes.Buffer
		var outs []string
		for _, c := range cases {
			code, _, stderr := simctl(t, context.Background(), c.args...)
			noPanic(t, stderr)
			line := strings.ReplaceAll(strings.Join(c.args, " "), dir, "$T")
			out := normalize(strings.ReplaceAll(stderr, dir, "$T"))
			outs = append(outs, out)
			fmt.Fprintf(&got, "## %s\n$ simctl %s\nexit %d\n%s\n", c.name, line, code, out)
		}
		golden = filepath.Join("testdata", golden)
		if *update {
			if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("hostile inputs differ from %s (go test -run TestHostileInputs -update rewrites it):\n%s", golden, firstDiff(got.String(), string(want)))
		}
		return outs
	}
	english = run("hostile.golden")
	if len(cases) < 40 {
		t.Errorf("%d cases; the table keeps at least forty", len(cases))
	}
	for _, l := range []string{"ko", "ru"} {
		t.Run(l, func(t *testing.T) {
			t.Setenv("LC_ALL", l+"_"+strings.ToUpper(map[string]string{"ko": "kr", "ru": "ru"}[l])+".UTF-8")
			outs := run("hostile." + l + ".golden")
			for i, c := range cases {
				hostileLang(t, l, c.name, c.args, dir, english[i], outs[i])
			}
		})
	}
}

// hostileLang checks one case's messages in language l against its
// English ones: no English word of simctl's own is left (the case's
// arguments, file names and flags are the user's), and the positions
// (FILE:LINE:COL) and the number of lines are the English ones.
func hostileLang(t *testing.T, l, name string, args []string, dir, en, out string) {
	t.Helper()
	// The user's words: the case's arguments (and the folders of its
	// paths), the commands and built-in scenarios simctl names, the
	// placeholders and values its messages quote (SCENARIO, k/K, 1e6,
	// auto), the scenario's own names.
	names := append(append([]string{"help", "see", "[usage]", "SCENARIO", "PATH", "RANGE", "VALUE", "DIR", "RESULT", "NAME",
		"RULESET", "k/K", "k", "K", "100k", "1e6", "2.5M", ".yaml", ".json", ".png", ".svg", ".txt", ".csv", ".md",
		"stdout", "MiB", "auto", "always", "never", "tally", "within-delta", "base", "fast", "init", "hp", "ac",
		"json", "Fighter vs Orc", "Fighter", "Orc", "heroes", "monsters", "U+000A",
		// the scenario format's field names the messages list
		"name", "ruleset", "sides", "aware", "referee", "policy", "tactics"}, commands...), scenarios.Names()...)
	names = append(names, rulesets.Names()...)
	for _, a := range args {
		a = strings.ReplaceAll(a, dir, "$T")
		names = append(names, a)
		if k, v, ok := strings.Cut(a, "="); ok {
			names = append(names, k, v)
		}
		for d := filepath.Dir(a); strings.HasPrefix(d, "$T"); d = filepath.Dir(d) {
			names = append(names, d)
		}
	}
	// A quoted value is the user's ("Fighter\nvs Orc", "heroes|x").
	text := quoted.ReplaceAllString(libraryText.ReplaceAllString(out, ""), " ")
	text = shortSum.ReplaceAllString(text, "")
	text = fieldPath.ReplaceAllString(text, "$1")
	for _, line := range i18ntest.EnglishLines(text, names) {
		t.Errorf("%s: %s: English left: %s", l, name, line)
	}
	if got, want := positions.FindAllString(out, -1), positions.FindAllString(en, -1); !slices.Equal(got, want) {
		t.Errorf("%s: %s: positions %q, English %q", l, name, got, want)
	}
	if got, want := strings.Count(out, "\n"), strings.Count(en, "\n"); got != want {
		t.Errorf("%s: %s: %d lines, English %d:\n%s", l, name, got, want, out)
	}
}

// positions are a message's places in a file: $T/x.yaml:7:11, line 21.
var positions = regexp.MustCompile(`(\$T/|builtin:)[\w./-]+(:\d+)+`)

// libraryText is what the libraries simctl uses say in English inside a
// translated message: YAML's and encoding/json's syntax errors.
var libraryText = regexp.MustCompile(`did not find expected [^\n]*|invalid character '.' [^()\n]*(\([^()\n]*\))?`)

// quoted is a value a message quotes: the user's words, as written.
var quoted = regexp.MustCompile(`"(\\.|[^"\\])*"`)

// fieldPath is the scenario field a message's position names, after the
// position (sides[0].name: is the file format's words).
var fieldPath = regexp.MustCompile(`(?m)^(\S+:\d+(:\d+)?: )[\w\[\].]+:`)

// shortSum is a SHA-256 shortened to 12 hex digits, as merge names one.
var shortSum = regexp.MustCompile(`\b[0-9a-f]{12}\b`)

// normalize keeps the golden file to this table's concern: the usage
// texts and flag lists that follow some messages, and the list of
// built-in scenarios, belong to other tests (and change as the CLI grows).
func normalize(s string) string {
	s = builtinList.ReplaceAllString(s, "built-ins: [list] (")
	// The overview (simctl with no arguments) in any language starts
	// "simctl — " (Russian ties the dash with a no-break space).
	if strings.HasPrefix(strings.ReplaceAll(s, "\u00a0", " "), "simctl — ") {
		return "[usage]\n"
	}
	for _, cut := range []string{"Usage of ", "usage: simctl sweep SCENARIO --vary PATH=RANGE [--vary PATH2=RANGE] [flags]"} {
		if i := strings.Index(s, cut); i > 0 {
			s = s[:i] + "[usage]\n"
		}
	}
	return s
}

var builtinList = regexp.MustCompile(`built-ins: [^(]*\(`)

func sum(text string) string { return reportsSum(text) }

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, x, y)
		}
	}
	return ""
}

func reportsSum(text string) string { return results.ScenarioSum([]byte(text)) }
