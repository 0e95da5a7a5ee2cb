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
	// values (the scenario's weapon field).
	return append(yamlWords(t, data), strings.Split(name, "/")[0], "hp", "ac", "init", "melee", "long", "missile")
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

func TestTraceExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	bad := map[string]string{}
	for _, name := range scenarios.Names() {
		names := traceNames(t, name)
		for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
			for enc := 0; enc < 40; enc++ {
				code, out, errOut := cli(t, "trace", name, "--seed", "1", "--encounter", fmt.Sprint(enc), "--lang", string(l))
				if code != 0 {
					t.Fatalf("%s: %s", name, errOut)
				}
				for _, b := range i18ntest.EnglishLines(counterLines(out), names) {
					k := b[:strings.Index(b, "   ←")]
					if _, ok := bad[k]; !ok {
						bad[k] = name + " " + string(l) + ": " + b
					}
				}
			}
		}
	}
	var ks []string
	for _, v := range bad {
		ks = append(ks, v)
	}
	sort.Strings(ks)
	os.WriteFile(filepath.Join(os.TempDir(), "explore.txt"), []byte(strings.Join(ks, "\n")), 0o644)
	t.Logf("%d distinct", len(ks))
}
