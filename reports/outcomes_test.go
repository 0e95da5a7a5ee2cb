package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The text table of a result with per-combatant figures: draw causes,
// any-death column, distributions, who came first by side and the copy
// groups' section (golden file).
func TestGoldenOutcomesText(t *testing.T) {
	var b bytes.Buffer
	if err := fixtureOutcomes(10000).WriteText(&b); err != nil {
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
	b := &Bundle{Title: "Balance report", Version: "0.1.0+test", Command: "simctl report run.json -o out",
		Inputs: []*Input{{Path: "run.json", Run: r}}}
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
