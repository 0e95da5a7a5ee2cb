package app

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/rulesets"
	"simctl/sim"
)

// -update rewrites the generated English catalogs (catalog/en/rules.txt and
// the generated part of catalog/en/policies.txt) from the rulesets' Docs
// and the tactics library.
var update = flag.Bool("update", false, "rewrite the generated English catalogs")

const (
	catalogDir  = "../../../reports/i18n/catalog/"
	regenerate  = "go test ./cmd/simctl/app -run 'RulesCatalogCurrent|PoliciesCatalogCurrent' -update, then translate the changed keys in catalog/ko and catalog/ru"
	policiesCut = "# Generated below:"
)

// catalogLine is one "key = text" line, escaped as i18n's parser reads it.
func catalogLine(e CatalogEntry) string {
	return e.Key + " = " + strings.NewReplacer("%", "%%", "\n", `\n`).Replace(e.Text) + "\n"
}

func rulesCatalogFile() string {
	var b strings.Builder
	b.WriteString(`# The rulesets' own documentation (simctl rules NAME), one line per text.
# Generated from each ruleset's Doc (rulesets/NAME/doc.go) by
# go test ./cmd/simctl/app -run RulesCatalogCurrent -update; the test fails
# when the English here and the Doc differ. %% is a percent sign, \n a line break.
# Option, field, policy and counter names are the file format and stay English;
# an action's .name is a heading and is translated.
`)
	for _, n := range rulesets.Names() {
		r, _ := rulesets.Lookup(n)
		fmt.Fprintf(&b, "\n# %s\n", n)
		for _, e := range RulesCatalog(r.Doc()) {
			b.WriteString(catalogLine(e))
		}
	}
	return b.String()
}

// checkGenerated compares the catalog file path with want, or writes it
// with -update. The embedded catalog is what the program prints, so each
// entry is checked there too, to name the keys that differ.
func checkGenerated(t *testing.T, path, want string, entries []CatalogEntry) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, e := range entries {
		switch {
		case !i18n.Has(i18n.En, e.Key):
			t.Errorf("%s has no key %s for %q", path, e.Key, e.Text)
		case i18n.En.T(e.Key) != e.Text:
			t.Errorf("%s: %s is\n\t%q\nbut the source says\n\t%q", path, e.Key, i18n.En.T(e.Key), e.Text)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not what the generator writes (order, comments or keys)", path)
	}
	if t.Failed() {
		t.Errorf("regenerate: %s", regenerate)
	}
}

// TestRulesCatalogCurrent: catalog/en/rules.txt is exactly what each
// ruleset's Doc says, every Doc entry has its key, and no action slug
// names two actions.
func TestRulesCatalogCurrent(t *testing.T) {
	var entries []CatalogEntry
	for _, n := range rulesets.Names() {
		r, _ := rulesets.Lookup(n)
		seen := map[string]string{}
		for _, a := range r.Doc().Actions {
			k := RulesKey(n, "action", a.Name)
			if other, dup := seen[k]; dup {
				t.Errorf("%s: actions %q and %q have the same key %s", n, other, a.Name, k)
			}
			seen[k] = a.Name
		}
		entries = append(entries, RulesCatalog(r.Doc())...)
	}
	checkGenerated(t, catalogDir+"en/rules.txt", rulesCatalogFile(), entries)
	// A key left over from a removed Doc entry would be translated for nothing.
	want := map[string]bool{}
	for _, e := range entries {
		want[e.Key] = true
	}
	for _, k := range i18n.Keys(i18n.En) {
		if strings.HasPrefix(k, "rules.") && !want[k] {
			t.Errorf("en/rules.txt has %s, which no ruleset's Doc has; %s", k, regenerate)
		}
	}
}

// TestPoliciesCatalogCurrent: the generated part of catalog/en/policies.txt
// is the library tactics' first comments.
func TestPoliciesCatalogCurrent(t *testing.T) {
	path := catalogDir + "en/policies.txt"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(data), policiesCut)
	if !ok {
		t.Fatalf("%s has no line %q", path, policiesCut)
	}
	lines := strings.SplitAfterN(string(data)[len(head):], "\n", 4)
	var b strings.Builder
	b.WriteString(head + strings.Join(lines[:3], ""))
	es := PoliciesCatalog()
	for _, e := range es {
		b.WriteString(catalogLine(e))
	}
	checkGenerated(t, path, b.String(), es)
}

// Words that may stand in Korean and Russian output as written: the names
// of the scenario format (options, fields, policies, counters, option
// values, facts), dice and code-like tokens are taken out first, by
// formatWords and the regexps of englishLeft.
var (
	codeLike  = regexp.MustCompile(`[\p{Hangul}\p{Cyrillic}]\s*\([^()]*\)|[\w-]+(\s*\|\s*[\w-]+)+|\bsimctl( [a-z0-9]+)+( [A-Z/]+\b)?|"[^"]*"|“[^”]*”|«[^»]*»|「[^」]*」|『[^』]*』|\{[^{}]*\}|\[[^\[\]]*\]|\b\w+[_.:/=<>]\S*|\b[A-Z][a-z]+[A-Z]\w*`)
	paramName = regexp.MustCompile(`\b([a-z_]+) \(`)
	asciiRun  = regexp.MustCompile(`[A-Za-z][A-Za-z'-]*(?:[\s,;()]+[A-Za-z][A-Za-z'-]*){2,}`)
)

// keptEnglish are words of the tactics language and the scenario format
// the rulesets' texts list as written (decisions, parameter values, NAME).
const keptEnglish = "NAME COUNT TRIGGER SPECIALTY weakest strongest nearest first random casters advance follow hold seize interpose block reprise pass to for distance referee ward wounded target focus move enemy protect any none"

// formatWords are the names of r's scenario format and the ruleset's own
// spellings, which stay English in every language.
func formatWords(d sim.RulesDoc) map[string]bool {
	w := map[string]bool{d.Name: true}
	add := func(s string) {
		for _, f := range strings.FieldsFunc(s, func(r rune) bool {
			return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			w[f] = true
		}
	}
	for _, o := range d.Options {
		add(o.Name + " " + o.Default + " " + o.Valid)
	}
	for _, fs := range [][]sim.Field{d.Fields, d.Policies, d.Counters} {
		for _, f := range fs {
			add(f.Name)
		}
	}
	// A policy's parameters: "Params: target (weakest|...), charge (...)".
	for _, p := range d.Policies {
		if _, ps, ok := strings.Cut(p.Doc, "Params:"); ok {
			for _, m := range paramName.FindAllStringSubmatch(ps, -1) {
				w[m[1]] = true
			}
		}
	}
	add(strings.Join(sim.BaseCounters, " ") + " " + commonFields + " " + keptEnglish)
	return w
}

// englishLeft lists the lines of out with three or more English words in
// a row once format names, quoted names and code-like tokens are taken out:
// a sentence of simctl's own left untranslated. skip says which lines are
// allowed to (the source line names the English book).
func englishLeft(out string, words map[string]bool, skip func(string) bool) []string {
	var bad []string
	for _, line := range strings.Split(out, "\n") {
		if skip != nil && skip(line) {
			continue
		}
		s := codeLike.ReplaceAllString(line, " ")
		var kept []string
		for _, f := range strings.Fields(s) {
			if !words[strings.Trim(f, ",;:.()")] {
				kept = append(kept, f)
			}
		}
		if m := asciiRun.FindString(strings.Join(kept, " ")); m != "" {
			bad = append(bad, m+"   ← "+strings.TrimSpace(line))
		}
	}
	return bad
}

// hasCatalog tells whether l has a rules catalog yet (the Russian one is
// written in parallel; until it is merged its tests are skipped).
func hasCatalog(l i18n.Lang, key string) bool { return i18n.Has(l, key) }

// TestRulesTranslated: simctl rules NAME in Korean and Russian holds no
// English sentence of simctl's own, for every ruleset: each catalog text
// it prints is checked whole (a quote or gloss wrapped over two lines
// still reads as one); the English texts are flagged (the check is not
// blind). The source names the English book and is not checked.
func TestRulesTranslated(t *testing.T) {
	for _, n := range rulesets.Names() {
		r, _ := rulesets.Lookup(n)
		d := r.Doc()
		words := formatWords(d)
		keys := []string{"rulesdoc.options", "rulesdoc.policies", "rulesdoc.actions"}
		for _, e := range RulesCatalog(d) {
			if !strings.HasSuffix(e.Key, ".source") {
				keys = append(keys, e.Key)
			}
		}
		if bad := englishTexts(i18n.En, keys, words); len(bad) < len(keys)/2 {
			t.Errorf("%s: %d of %d English texts flagged only: the check is blind", n, len(bad), len(keys))
		}
		for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
			if !hasCatalog(l, "rules."+n+".title") {
				t.Logf("%s: no %s rules catalog yet", n, l)
				continue
			}
			missing := false
			for _, k := range keys {
				if !i18n.Has(l, k) {
					t.Errorf("%s: catalog/%s has no %s (simctl rules %s --lang %s would panic)", n, l, k, n, l)
					missing = true
				}
			}
			if missing {
				continue
			}
			for _, line := range englishTexts(l, keys, words) {
				t.Errorf("%s %s: English left: %s", n, l, line)
			}
		}
	}
}

// englishTexts runs englishLeft on l's text of each key.
func englishTexts(l i18n.Lang, keys []string, words map[string]bool) []string {
	var bad []string
	for _, k := range keys {
		for _, b := range englishLeft(l.T(k), words, nil) {
			bad = append(bad, k+": "+b)
		}
	}
	return bad
}

// TestPoliciesTranslated: simctl policies [RULESET] in Korean and Russian
// holds no English sentence of simctl's own: each policies.* text (the
// headings, the library tactics' descriptions, the facts' docs) is checked
// whole; the tactics' and facts' names stay.
func TestPoliciesTranslated(t *testing.T) {
	words := map[string]bool{"Go": true}
	for _, n := range rulesets.Names() {
		r, _ := rulesets.Lookup(n)
		for w := range formatWords(r.Doc()) {
			words[w] = true
		}
		for _, l := range i18n.Langs {
			if _, err := Policies(n, l); err != nil { // every key is there
				t.Fatal(err)
			}
		}
	}
	var keys []string
	for _, k := range i18n.Keys(i18n.En) {
		if strings.HasPrefix(k, "policies.") {
			keys = append(keys, k)
		}
	}
	if bad := englishTexts(i18n.En, keys, words); len(bad) < len(keys)/2 {
		t.Errorf("%d of %d English texts flagged only: the check is blind", len(bad), len(keys))
	}
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		for _, line := range englishTexts(l, keys, words) {
			t.Errorf("%s: English left: %s", l, line)
		}
	}
}

// TestWrapColumns: Wrap counts terminal columns, two per Hangul syllable,
// one per Cyrillic letter, so no line of Korean or Russian overflows.
func TestWrapColumns(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("선제공격 순서에서 ", 30),
		strings.Repeat("инициатива по порядку ", 30),
		strings.Repeat("a — b ", 40),
	} {
		lines := strings.Split(Wrap(s, 40, "  "), "\n")
		for _, line := range lines[:len(lines)-1] {
			if w := i18n.Width(line); w > 40 || w < 30 {
				t.Errorf("line of %d columns (want 30..40): %q", w, line)
			}
		}
	}
	if i18n.Width("선제공격 a") != 10 || i18n.Width("бой") != 3 {
		t.Errorf("Width: %d, %d", i18n.Width("선제공격 a"), i18n.Width("бой"))
	}
}
