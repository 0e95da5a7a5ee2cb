package reports

import (
	"bytes"
	"strings"
	"testing"
	"unicode"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// fixtureOutcomesTactics is fixtureOutcomes with tactics counts, so the
// text table has every section.
func fixtureOutcomesTactics() *results.Result {
	r := fixtureOutcomes(10000)
	r.Raw.Tactics = []results.RuleCount{
		{Combatant: "Fighter", Moment: "turn", Rule: "power", Event: "fired", Count: 4210},
		{Combatant: "Fighter", Moment: "turn", Rule: "power", Event: "fell through: no target", Count: 37},
		{Combatant: "Hobgoblin#1", Moment: "turn", Rule: "fallback", Event: "fired", Count: 12000},
	}
	return r
}

// The text table of simctl run in Korean and Russian (golden files): the
// same numbers as the English table, simctl's words from the catalogs.
func TestGoldenOutcomesTextLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		var b bytes.Buffer
		if err := WriteResultText(fixtureOutcomesTactics(), &b, l); err != nil {
			t.Fatal(err)
		}
		golden(t, "outcomes."+string(l)+".txt", b.Bytes())
		if strings.ContainsRune(b.String(), wideMark) {
			t.Errorf("%s: a column marker was left in the output", l)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if n := i18n.Width(line); n > 100 && !strings.HasPrefix(line, i18n.Text(l, "text.combatants.note")[:8]) && !strings.Contains(line, "fired") {
				t.Errorf("%s: line of %d columns: %q", l, n, line)
			}
		}
	}
}

// Every fixed word of the text table's catalog is printed in every
// language (a key added to the catalog but not wired, or wired to the
// English text, fails here).
func TestTextTableWords(t *testing.T) {
	old := fixtureOutcomes(10000)
	old.Combatants = nil // a result from before per-combatant figures
	old.Interrupted = true
	old.Raw.Traits = []results.TraitCount{{Combatant: "Rogue", Moment: "hit", Trait: "Sneak Attack", Fired: 1200, Added: 8400}}
	for _, l := range i18n.Langs {
		var b strings.Builder
		for _, r := range []*results.Result{fixtureOutcomesTactics(), old} {
			if err := WriteResultText(r, &b, l); err != nil {
				t.Fatal(err)
			}
		}
		out := b.String()
		for _, k := range i18n.Keys(l) {
			if strings.HasPrefix(k, "text.") && k != "text.shard" && !strings.Contains(i18n.Text(l, k), "%") {
				if !strings.Contains(out, i18n.Text(l, k)) {
					t.Errorf("%s: %s (%q) is not in the text table", l, k, i18n.Text(l, k))
				}
			}
		}
	}
}

// A terminal draws Hangul two columns wide: in the Korean table every row
// of a right-aligned block ends in the same column, names in Hangul
// included (tabwriter alone counts runes, and the rows would not).
func TestTextColumnsHangul(t *testing.T) {
	r := fixtureOutcomes(10000)
	for i := range r.Groups {
		if r.Groups[i].Name == "Cleric" {
			r.Groups[i].Name = "성직자"
		}
	}
	var b bytes.Buffer
	if err := WriteResultText(r, &b, i18n.Ko); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	checked := 0
	for i, line := range lines {
		// The blocks: win rates (from its header to the draws row) and the
		// per-combatant rows (header to the note), side-name rows aside.
		var block []string
		switch {
		case strings.HasPrefix(strings.TrimLeft(line, " "), i18n.Ko.T("col.side")+" ") && strings.Contains(line, i18n.Ko.T("col.wins")):
			block = lines[i : i+3]
		case strings.HasPrefix(strings.TrimLeft(line, " "), i18n.Ko.T("col.combatant")):
			for _, l := range lines[i:] {
				if strings.HasPrefix(l, i18n.Ko.T("text.combatants.note")[:6]) {
					break
				}
				if !strings.HasSuffix(l, ":") {
					block = append(block, l)
				}
			}
		default:
			continue
		}
		w := termWidth(strings.TrimRight(block[0], " "))
		for _, l := range block[1:] {
			if got := termWidth(strings.TrimRight(l, " ")); got != w {
				t.Errorf("row ends at column %d, header at %d:\n%s\n%s", got, w, block[0], l)
			}
		}
		checked++
	}
	if checked != 2 || !strings.Contains(b.String(), "성직자") {
		t.Fatalf("found %d blocks (want 2) or no Hangul name:\n%s", checked, b.String())
	}
}

// termWidth is the columns a terminal gives s, counted here apart from
// the code under test: two for a Hangul syllable, one for the rest of
// what these tables hold.
func termWidth(s string) int {
	n := 0
	for _, r := range s {
		n++
		if unicode.Is(unicode.Hangul, r) {
			n++
		}
	}
	return n
}

// The text tables of simctl compare and simctl value in Korean and
// Russian (golden files), with a shard's heading line on the value
// document; every fixed word of their catalog entries is printed.
func TestGoldenCompareValueTextLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		var c, v bytes.Buffer
		if err := WriteCompare(fixtureCompare(), &c, Text, l); err != nil {
			t.Fatal(err)
		}
		golden(t, "compare."+string(l)+".txt", c.Bytes())
		val := fixtureValue()
		val.Shard = &results.Shard{K: 1, Of: 4, Start: 2500, N: 2500, Total: 10000}
		val.Incomplete = true
		if err := WriteValue(val, &v, Text, l); err != nil {
			t.Fatal(err)
		}
		golden(t, "value."+string(l)+".txt", v.Bytes())
		out := c.String() + v.String()
		for _, k := range []string{"compare.text.economy", "value.text.rates", "value.text.swings", "doc.incomplete", "col.option", "col.ci95.paired", "fact.baseline", "value.col.param"} {
			if s := l.T(k); !strings.Contains(out, s) {
				t.Errorf("%s: %s (%q) is not printed", l, k, s)
			}
		}
		if strings.ContainsRune(out, wideMark) {
			t.Errorf("%s: a column marker was left in the output", l)
		}
	}
}
