package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"simctl/reports/i18n"
	"simctl/reports/i18n/i18ntest"
	"simctl/rulesets/lotm"
	"simctl/scenarios"
)

// yamlWords are the words a scenario's author wrote as values (names,
// spell names, option values, tactics rules and conditions): a translated
// trace keeps them as written. Keys (the file format's field names) are
// not among them, except the ones narration writes itself (checked by the
// catalog).
func yamlWords(t *testing.T, data []byte) []string {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	add := func(v string) {
		seen[v] = true
		for _, w := range strings.FieldsFunc(v, func(r rune) bool {
			return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			seen[w] = true
		}
	}
	// parent is the key n is the value of; the keys of a tactics block
	// are its moments (turn, reactions, move), which narration names.
	var walk func(n *yaml.Node, parent string)
	walk = func(n *yaml.Node, parent string) {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, parent)
			}
		case yaml.MappingNode:
			for k := 0; k+1 < len(n.Content); k += 2 {
				key := n.Content[k].Value
				if parent == "tactics" || parent == "rules" {
					add(key)
				}
				walk(n.Content[k+1], key)
			}
		case yaml.ScalarNode:
			// A description is prose, not a name: it is never printed
			// by a trace.
			if parent != "description" {
				add(n.Value)
			}
		}
	}
	walk(&n, "")
	var out []string
	for w := range seen {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// traceNames are what a translated trace of the built-in scenario keeps
// in English: the author's words, the scenario's ruleset, and the
// counters of the closing tally (the result's own names).
func traceNames(t *testing.T, name string) []string {
	data, _, ok := scenarios.Read(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	// hp, ac, init: the scenario's field names, as the narration's
	// stat lines print them; melee, long, missile: ACKS II's weapon
	// values (the scenario's weapon field); LotM's action kinds (attack,
	// swift, …) are the values its scenarios write (invisibility: swift,
	// a combo's delay), printed as written.
	names := append(yamlWords(t, data), strings.Split(name, "/")[0], "hp", "ac", "init", "melee", "long", "missile")
	if strings.HasPrefix(name, "lotm/") {
		names = append(names, lotm.KindNames...)
	}
	return names
}

// counterLines drops the closing tally's counter lines ("  heroes:
// attacks=3 hits=2"): the counters are the result's JSON names.
func counterLines(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  ") && strings.Contains(l, "=") && !strings.Contains(l, " = ") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// traceCases are encounters of built-in scenarios whose narration fires
// each ruleset's surprise, delay, ready and tactics rules (want: what the
// English trace must show, so the case keeps testing what it is meant to).
var traceCases = []struct {
	scenario string
	enc      int
	want     []string
}{
	{"d20/ambush", 0, []string{"-- surprise round"}},
	{"d20/tactics-combo", 1, []string{"delays until", "tactics rule"}},
	{"d20/ready-vs-caster", 2, []string{"readies", "readied"}},
	{"acks2/tactics-shieldwall", 3, []string{"ready against a charge", "delays to count", "tactics rule"}},
	{"acks2/declared-casters", 0, []string{"declares", "saves"}},
	{"cavaliers/tactics-ward", 2, []string{"tactics rule", "interposes"}},
	{"cavaliers/bodyguard", 3, []string{"interposes", "seizes the initiative"}},
	{"lotm/ambush", 0, []string{"Ambush Round"}},
	{"lotm/grapple-combo", 0, []string{"delays its", "grapples"}},
	{"lotm/tactics-ambush-feint", 2, []string{"tactics rule", "Ambush Round"}},
}

// TestTraceNoEnglish: the narration of every ruleset, surprise, delay,
// ready and tactics lines included, in Korean and Russian has no English
// word of simctl's own left: only the scenario's names and values, its
// field names in the stat lines, and the closing tally's counters (the
// result's JSON names).
func TestTraceNoEnglish(t *testing.T) {
	for _, c := range traceCases {
		enc := fmt.Sprint(c.enc)
		code, en, errOut := cli(t, "trace", c.scenario, "--seed", "1", "--encounter", enc, "--lang", "en")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.scenario, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(en, w) {
				t.Errorf("%s encounter %s: the English trace has no %q: the case no longer covers it", c.scenario, enc, w)
			}
		}
		names := traceNames(t, c.scenario)
		for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
			code, out, errOut := cli(t, "trace", c.scenario, "--seed", "1", "--encounter", enc, "--lang", string(l))
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", c.scenario, l, code, errOut)
			}
			if n, m := strings.Count(out, "\n"), strings.Count(en, "\n"); n != m {
				t.Errorf("%s %s: %d lines, English %d", c.scenario, l, n, m)
			}
			for _, b := range i18ntest.EnglishLines(counterLines(out), names) {
				t.Errorf("%s %s encounter %s: English left: %s", c.scenario, l, enc, b)
			}
		}
	}
}

// TestTraceGolden: simctl trace of a built-in in Korean and Russian,
// glossary terms and Russian plurals in place (-update rewrites).
func TestTraceGolden(t *testing.T) {
	for _, l := range []string{"ko", "ru"} {
		code, out, errOut := cli(t, "trace", "d20/delay-combo", "--seed", "1", "--encounter", "0", "--lang", l)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", l, code, errOut)
		}
		golden := filepath.Join("testdata", "trace_delay-combo."+l+".golden")
		if *update {
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s trace differs from %s (go test -run TestTraceGolden -update):\n%s", l, golden, out)
		}
	}
}

// TestTraceLangFromEnv: the locale chooses the narration's language and
// --lang overrides it; a bad --lang is a usage error.
func TestTraceLangFromEnv(t *testing.T) {
	t.Setenv("LANG", "ru_RU.UTF-8")
	_, out, _ := cli(t, "trace", "d20/duel", "--seed", "1")
	if !strings.Contains(out, "-- раунд 1") {
		t.Errorf("LANG=ru_RU: not Russian:\n%s", out)
	}
	_, out, _ = cli(t, "trace", "d20/duel", "--seed", "1", "--lang", "en")
	if !strings.Contains(out, "-- round 1") {
		t.Errorf("--lang en: not English:\n%s", out)
	}
	if code, _, errOut := cli(t, "trace", "d20/duel", "--lang", "fr"); code != 2 || !strings.Contains(errOut, "en, ko, ru") {
		t.Errorf("--lang fr: exit %d: %s", code, errOut)
	}
}

// TestReportTracesLang: simctl report --lang ko and ru narrate the
// representative fights (trace-*.txt, the titles in report.md) in the
// report's language.
func TestReportTracesLang(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run.json")
	if code, _, errOut := cli(t, "run", "d20/delay-combo", "-n", "200", "--seed", "3", "--json", "-o", run); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	names := append(traceNames(t, "d20/delay-combo"), "trace")
	for _, l := range []string{"ko", "ru"} {
		out := filepath.Join(dir, l)
		if code, _, errOut := cli(t, "report", run, "-o", out, "--lang", l); code != 0 {
			if strings.Contains(errOut, "fonts-nanum") {
				t.Skipf("%s: no Hangul font: %s", l, errOut)
			}
			t.Fatalf("%s: exit %d: %s", l, code, errOut)
		}
		files, _ := filepath.Glob(filepath.Join(out, "*trace-*.txt"))
		if len(files) != 3 {
			t.Fatalf("%s: %d trace files, want 3: %v", l, len(files), files)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range i18ntest.EnglishLines(counterLines(string(data)), names) {
				t.Errorf("%s %s: English left: %s", l, filepath.Base(f), b)
			}
		}
		md, _ := os.ReadFile(filepath.Join(out, "report.md"))
		want := map[string]string{"ko": "가장 긴 조우", "ru": "самый долгий бой"}[l]
		if !strings.Contains(string(md), want) {
			t.Errorf("%s report.md: no trace title %q", l, want)
		}
	}
}
