package reports

import (
	"bytes"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/experiment"
)

// classMatrix is a matrix whose first two row options played exactly the
// same fights (one class) and whose options all settle, so its notes carry
// the forms fixtureMatrix's do not.
func classMatrix() *results.Matrix {
	j := jointFixture(20000, []float64{0.50, 0.45, 0.40, 0.50, 0.45, 0.40, 0.60, 0.35, 0.50})
	res, err := experiment.Matrix(j, "heroes", "rivals", []string{"impulse", "vigilance", "timing"}, []string{"impulse", "vigilance", "timing"})
	if err != nil {
		panic(err)
	}
	return &results.Matrix{Header: results.Header{Kind: "matrix", Scenario: "Cavalier vs Rival", File: "builtin:cavaliers/duel.yaml", Ruleset: "cavaliers", Seed: 1, Version: "0.1.0+test"}, MatrixResult: *res}
}

// TestMatrixNoteForms: every note experiment.Matrix writes is one simctl
// knows by key, and the English text of that key with the arguments read
// back from it is the note itself, byte for byte (so a translation says
// what the note says, with the same numbers).
func TestMatrixNoteForms(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range []*results.Matrix{fixtureMatrix(), classMatrix()} {
		for _, n := range m.Notes {
			key, args, ok := matrixNote(i18n.En, n)
			if !ok {
				t.Errorf("note not known to the reports: %q", n)
				continue
			}
			seen[key] = true
			if got := i18n.En.T(key, args...); got != n {
				t.Errorf("%s does not say the note again:\n got %q\nwant %q", key, got, n)
			}
			for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
				if got := matrixNotes(l, &results.Matrix{MatrixResult: experiment.MatrixResult{Notes: []string{n}, RowClasses: m.RowClasses, ColClasses: m.ColClasses}})[0]; got == n || strings.Contains(got, " and ") {
					t.Errorf("%s: note left in English: %q", l, n)
				}
			}
		}
	}
	for _, f := range matrixNoteForms {
		if f.key != "matrix.n.settled" && f.key != "matrix.n.unsettled" && !seen[f.key] {
			t.Errorf("no fixture writes %s", f.key)
		}
	}
	if !seen["matrix.n.settled"] && !seen["matrix.n.unsettled"] {
		t.Error("no fixture writes the settled verdict")
	}
	// Russian decimals are written with a comma in the notes' prose.
	if got := matrixNotes(i18n.Ru, fixtureMatrix())[0]; !strings.Contains(got, ",") || strings.Contains(got, "%.") {
		t.Errorf("ru value note: %q", got)
	}
}

// TestGoldenMatrixLang: the matrix section of simctl report in Korean and
// Russian (one matrix with a dominated option, one with a class of
// identical options, interrupted) against testdata/report-matrix.LANG.md,
// with no English sentence of the catalog left in it or its figure.
func TestGoldenMatrixLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		c := classMatrix()
		c.Interrupted, c.Unplayed = true, [][2]int64{{20000, 30000}}
		b := &Bundle{Section: shipped, Title: l.T("report.title.scenario", "Cavalier vs Rival"), Lang: l, Version: "0.1.0+test",
			Command: "simctl report matrix.json class.json -o out --lang " + string(l),
			Inputs:  []*results.Input{{Path: "matrix.json", Matrix: fixtureMatrixDoc()}, {Path: "class.json", Matrix: c}}}
		secs := langSections(t, b)
		var md bytes.Buffer
		b.markdown(&md, secs)
		golden(t, "report-matrix."+string(l)+".md", md.Bytes())
		var figText strings.Builder
		for _, s := range secs {
			for _, f := range s.figures {
				var svg bytes.Buffer
				if err := f.SVG(&svg); err != nil {
					t.Fatal(err)
				}
				figText.WriteString(f.Caption + "\n" + svg.String())
			}
		}
		leftovers(t, l, md.String()+figText.String())
	}
}

// TestStatusNotesLang: the notes of a document that is not a whole
// experiment (interrupted, one shard, no command recorded) are in the
// report's language in the value and matrix sections.
func TestStatusNotesLang(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		v := fixtureValueDoc()
		v.Command, v.Interrupted, v.Unplayed = "", true, [][2]int64{{5, 9}}
		m := fixtureMatrixDoc()
		m.Command, m.Shard = "", &results.Shard{K: 1, Of: 2, Start: 10000, N: 10000, Total: 20000}
		b := &Bundle{Section: shipped, Title: "t", Lang: l, Version: "0.1.0+test",
			Inputs: []*results.Input{{Path: "value.json", Value: v}, {Path: "matrix.json", Matrix: m}}}
		var notes []string
		for _, s := range langSections(t, b) {
			notes = append(notes, s.notes...)
		}
		all := strings.Join(notes, "\n")
		if len(notes) < 3 || !strings.Contains(all, "5..8") || !strings.Contains(all, "--shard 1/2") {
			t.Errorf("%s: status notes missing: %q", l, all)
		}
		leftovers(t, l, all)
	}
}
