package main

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/reports/i18n/i18ntest"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
)

// The non-error output of find, scenarios, check and init in Korean and
// Russian: no English word of simctl's own left (names, conditions,
// paths, commands and the file format's words stay as written).

func TestFindLang(t *testing.T) {
	names := append(append(traceNames(t, "d20/duel"), formatWords(t)...), "rounds", "d20/duel")
	for _, l := range []string{"ko", "ru"} {
		code, out, errOut := cli(t, "find", "d20/duel", "--where", "rounds >= 5", "-n", "500", "--lang", l)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", l, code, errOut)
		}
		if n := strings.Count(out, "\n"); n != 3 {
			t.Errorf("%s: %d lines, want 3:\n%s", l, n, out)
		}
		for _, b := range i18ntest.EnglishLines(out, names) {
			t.Errorf("%s: English left: %s", l, b)
		}
	}
	_, out, _ := cli(t, "find", "d20/duel", "--where", "rounds >= 5", "-n", "500", "--lang", "ru")
	if !strings.Contains(out, "\u00a0%") || !strings.Contains(out, "первые ") {
		t.Errorf("ru: no Russian percentage or plural:\n%s", out)
	}
}

// builtinNames are the built-ins' list names and their scenarios' names
// (names, which a list prints as they are).
func builtinNames(t *testing.T) []string {
	var names []string
	for _, n := range scenarios.Names() {
		names = append(names, n)
		data, _, _ := scenarios.Read(n)
		names = append(names, yamlWords(t, data)...)
	}
	return names
}

// formatWords are the words simctl's output keeps as the file format and
// the command line write them: the commands, the scenario's field names
// (every key of the built-ins), the rulesets' names and titles (ACKS II,
// SRD, LotM are the games' names), and what each ruleset's documentation
// says of its options (their names, defaults and valid values).
func formatWords(t *testing.T) []string {
	words := append([]string(nil), commands...)
	words = append(words, "show") // simctl scenarios show
	for _, n := range scenarios.Names() {
		data, _, _ := scenarios.Read(n)
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var keys func(n *yaml.Node)
		keys = func(n *yaml.Node) {
			for k, c := range n.Content {
				if n.Kind == yaml.MappingNode && k%2 == 0 {
					words = append(words, c.Value)
				}
				keys(c)
			}
		}
		keys(&doc)
	}
	for _, r := range rulesets.Names() {
		rs, _ := rulesets.Lookup(r)
		d := rs.Doc()
		words = append(words, r, d.Title, "ACKS II", "SRD", "LotM", "target", "description", "combatants", "sides", "aware")
		words = append(words, strings.Fields(d.Source)...)
		words = append(words, strings.FieldsFunc(d.Title, func(r rune) bool { return r == ' ' || r == ',' || r == ':' })...)
		for _, o := range d.Options {
			words = append(words, o.Name, o.Default)
			words = append(words, strings.Fields(o.Valid)...)
		}
	}
	return words
}

func TestScenariosLang(t *testing.T) {
	oneGoroutineUnderRace(t)
	names := append(append(builtinNames(t), formatWords(t)...), "NAME")
	for _, l := range []string{"ko", "ru"} {
		code, out, errOut := cli(t, "scenarios", "--lang", l)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", l, code, errOut)
		}
		for _, b := range i18ntest.EnglishLines(out, names) {
			t.Errorf("%s: English left: %s", l, b)
		}
		for _, line := range strings.Split(out, "\n") {
			if w := columns([]rune(line)); w > listWidth {
				t.Errorf("%s: %d columns: %s", l, w, line)
			}
		}
	}
}

func TestCheckLang(t *testing.T) {
	bad := tempFile(t, "bad.yaml", "name: bad\nruleset: d20\nsides: []\n")
	for _, l := range []string{"ko", "ru"} {
		code, out, errOut := cli(t, "check", "builtin:d20/duel.yaml", "--lang", l)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", l, code, errOut)
		}
		for _, b := range i18ntest.EnglishLines(out, append(traceNames(t, "d20/duel"), "builtin")) {
			t.Errorf("%s: English left: %s", l, b)
		}
		code, _, errOut = cli(t, "check", bad, "--lang", l)
		if code != exitScenario {
			t.Fatalf("%s: bad scenario: exit %d", l, code)
		}
		// The summary, the last line (the problems above it are
		// messages, translated with the errors).
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		for _, b := range i18ntest.EnglishLines(lines[len(lines)-1], nil) {
			t.Errorf("%s: summary: English left: %s", l, b)
		}
	}
	_, out, _ := cli(t, "check", "builtin:d20/duel.yaml", "--lang", "ru")
	if !strings.Contains(out, "2 бойца") {
		t.Errorf("ru: no plural for 2 combatants: %s", out)
	}
}

// TestInitLang: simctl init --lang writes the starter with simctl's own
// comments translated and the scenario itself (keys, values) unchanged;
// the ruleset's documentation (the same text simctl rules prints) is the
// ruleset's own, the same lines as in English.
func TestInitLang(t *testing.T) {
	oneGoroutineUnderRace(t)
	for _, r := range rulesets.Names() {
		_, en, _ := cli(t, "init", r, "-o", "-", "--lang", "en")
		enLines := map[string]bool{}
		for _, line := range strings.Split(en, "\n") {
			enLines[strings.TrimSpace(strings.TrimPrefix(line, "#"))] = true
		}
		body := en[strings.Index(en, "\nname:")+1:]
		for _, l := range []string{"ko", "ru"} {
			code, out, errOut := cli(t, "init", r, "-o", "-", "--lang", l)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", r, l, code, errOut)
			}
			if !strings.HasSuffix(out, body) {
				t.Errorf("%s %s: the scenario below the comments differs from English", r, l)
			}
			// The ruleset's own documentation is simctl rules' text, checked
			// by app.TestRulesTranslated (which knows its format words).
			rs, _ := rulesets.Lookup(r)
			docLines := map[string]bool{}
			d := app.RulesDoc(rs, i18n.Lang(l))
			texts := []string{d.Source, d.Summary}
			for _, o := range d.Options {
				texts = append(texts, o.Doc)
			}
			for _, f := range append(append([]sim.Field(nil), d.Fields...), d.Policies...) {
				texts = append(texts, f.Doc)
			}
			for _, tx := range texts {
				for _, indent := range []string{"", "  ", "    ", "      "} {
					for _, line := range strings.Split(app.Wrap(tx, 86, indent), "\n") {
						docLines[strings.TrimSpace(line)] = true
					}
				}
			}
			var own []string
			for _, line := range strings.Split(out, "\n") {
				c := strings.TrimSpace(strings.TrimPrefix(line, "#"))
				if !strings.HasPrefix(line, "#") || enLines[c] || docLines[c] {
					continue
				}
				own = append(own, line)
			}
			if len(own) < 12 {
				t.Errorf("%s %s: only %d lines differ from English", r, l, len(own))
			}
			names := []string{r, rs.Doc().Title, "yaml-language-server", "FILE", "NAME", "param", "value"}
			for _, b := range i18ntest.EnglishLines(strings.Join(own, "\n"), append(append(names, builtinNames(t)...), formatWords(t)...)) {
				t.Errorf("%s %s: English left: %s", r, l, b)
			}
		}
	}
}
