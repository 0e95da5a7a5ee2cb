package reports

import (
	"bytes"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/i18n/i18ntest"
	"simctl/reports/results"
)

// TestGoldenTablesLang: the text tables of simctl sweep, matrix,
// tournament and optimize in Korean and Russian (testdata/KIND.LANG.txt;
// optimize's in TestGoldenOptimizeText), with no English word of
// simctl's own left in them.
func TestGoldenTablesLang(t *testing.T) {
	oneGoroutineUnderRace(t)
	_, names := everyKind(t, i18n.En)
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		for _, c := range []struct {
			name  string
			write func(*bytes.Buffer, bool) error
		}{
			{"sweep", func(b *bytes.Buffer, check bool) error {
				for _, s := range []*results.Sweep{fixtureSweep1(), fixtureSweepPrecision(), fixtureSweep2()} {
					if check {
						s.Warnings = nil // stored in English: warnings stay English for now
					}
					if err := WriteSweep(s, b, Text, l); err != nil {
						return err
					}
					b.WriteString("\n")
				}
				return nil
			}},
			{"matrix", func(b *bytes.Buffer, _ bool) error {
				c := classMatrix()
				c.Interrupted, c.Unplayed = true, [][2]int64{{20000, 30000}}
				for _, m := range []*results.Matrix{fixtureMatrix(), fixtureMatrixDoc(), c} {
					if err := WriteMatrix(m, b, Text, l); err != nil {
						return err
					}
					b.WriteString("\n")
				}
				return nil
			}},
			{"tournament", func(b *bytes.Buffer, _ bool) error {
				none := tournamentAfter(fixtureTournament().State.Params, 3)
				for _, tt := range append(outcomeTournaments(), none) {
					if err := WriteTournament(tt, b, Text, l); err != nil {
						return err
					}
					b.WriteString("\n")
				}
				return nil
			}},
		} {
			var b, check bytes.Buffer
			if err := c.write(&b, false); err != nil {
				t.Fatal(err)
			}
			golden(t, c.name+"."+string(l)+".txt", b.Bytes())
			leftovers(t, l, b.String())
			if err := c.write(&check, true); err != nil {
				t.Fatal(err)
			}
			for _, line := range i18ntest.EnglishLines(check.String(), names) {
				t.Errorf("%s %s: English left: %s", l, c.name, line)
			}
		}
	}
	// Markdown stays English, as run's, compare's and value's do.
	var en, ko bytes.Buffer
	if err := WriteMatrix(fixtureMatrix(), &en, Markdown, i18n.En); err != nil {
		t.Fatal(err)
	}
	if err := WriteMatrix(fixtureMatrix(), &ko, Markdown, i18n.Ko); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(en.Bytes(), ko.Bytes()) {
		t.Error("the matrix's Markdown in Korean differs from English")
	}
}

// TestOptimizeTextNoEnglishLeft: the optimize text tables too.
func TestOptimizeTextNoEnglishLeft(t *testing.T) {
	oneGoroutineUnderRace(t)
	_, names := everyKind(t, i18n.En)
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		var b bytes.Buffer
		for _, o := range optimizeDocs(t) {
			if err := WriteOptimize(o, &b, Text, l); err != nil {
				t.Fatal(err)
			}
		}
		for _, line := range i18ntest.EnglishLines(b.String(), names) {
			t.Errorf("%s optimize: English left: %s", l, line)
		}
	}
}
