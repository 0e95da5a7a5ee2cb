package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// The text table of a result with per-combatant figures: draw causes,
// any-death column, distributions, who came first by side and the copy
// groups' section (golden file).
func TestGoldenOutcomesText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteResultText(fixtureOutcomes(10000), &b, i18n.En); err != nil {
		t.Fatal(err)
	}
	golden(t, "outcomes.txt", b.Bytes())
	for _, l := range strings.Split(b.String(), "\n") {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

// A report of a run with per-combatant figures carries their tables and
// the three new figures.
func TestBundleOutcomes(t *testing.T) {
	dir := t.TempDir()
	r := fixtureOutcomes(10000)
	b := &Bundle{Section: shipped, Title: "Balance report", Version: "0.1.0+test", Command: "simctl report run.json -o out",
		Inputs: []*results.Input{{Path: "run.json", Run: r}}}
	files, err := b.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	var pngs []string
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			pngs = append(pngs, f)
		}
	}
	if len(pngs) != 6 {
		t.Errorf("%d figures, want rounds, economy, first, combatants, damage, hpleft: %v", len(pngs), pngs)
	}
	for _, want := range []string{"Deaths, damage and how close it was", "Per combatant", "Hobgoblin ×3", "Who comes first",
		"first in order", "side hobgoblins", "Draws by cause: max_rounds reached with both sides fighting 200, nobody left fighting on either side 100.",
		"combatants.png", "damage.png", "hpleft.png"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// A result written before per-combatant recording (no roster sides, first
// in order, combatants or distributions in its tally) still reads, merges
// with its kind and prints the old way; a merge with a newer result is
// refused rather than summed into nonsense.
func TestOlderResults(t *testing.T) {
	old := fixtureResult(1000, 0.6, 0.02, nil)
	dir := t.TempDir()
	path := filepath.Join(dir, "old.json")
	var b bytes.Buffer
	if err := old.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := results.ReadFile(path)
	if err != nil {
		t.Fatalf("an older result is refused: %v", err)
	}
	var txt strings.Builder
	if err := WriteResultText(r, &txt, i18n.En); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "acts first:") || strings.Contains(txt.String(), "combatant") {
		t.Errorf("older result printed:\n%s", txt.String())
	}
	if _, err := CombatantsFigure(i18n.En, r); err != ErrNoCombatants {
		t.Errorf("CombatantsFigure of an older result: %v, want ErrNoCombatants", err)
	}
	newer := fixtureOutcomes(1000)
	newer.Raw.Roster, newer.Raw.Counters = r.Raw.Roster, r.Raw.Counters
	newer.Raw.RosterSides = []int{0, 1}
	newer.Raw.FirstInOrder = []int64{1000, 0}
	newer.Raw.Combatants = newer.Raw.Combatants[:2]
	newer.Sides, newer.Scenario = r.Sides, r.Scenario
	newer.Shard = &results.Shard{K: 1, Of: 2, Start: 1000, N: 1000, Total: 2000}
	r.Shard = &results.Shard{K: 0, Of: 2, Start: 0, N: 1000, Total: 2000}
	// Refused, whichever check sees it first (the version, or the tally
	// sections an older result lacks); never summed.
	if _, err := results.Merge([]*results.Result{r, newer}); err == nil || !strings.Contains(err.Error(), "different simctl versions") && !strings.Contains(err.Error(), "not a whole simctl run result") {
		t.Errorf("merge of an older and a newer result: %v", err)
	}
}
