package reports

import (
	"strings"
	"testing"
	"unicode"

	"simctl/reports/i18n"
)

// TestDocumentWords: the words the lab lays out are the report's, in the
// language asked: the verdict and statuses of every tournament outcome,
// an optimize document's guarantee and statuses; English as recorded.
func TestDocumentWords(t *testing.T) {
	script := map[i18n.Lang]*unicode.RangeTable{i18n.Ko: unicode.Hangul, i18n.Ru: unicode.Cyrillic}
	has := func(s string, l i18n.Lang) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(script[l], r) })
	}
	for _, tt := range outcomeTournaments() {
		en := TournamentWordsIn(i18n.En, tt)
		if en.Verdict != tournamentVerdict(tt) || en.Guarantee != tt.Guarantee.Statement {
			t.Errorf("English words %+v are not the report's", en)
		}
		for l := range script {
			w := TournamentWordsIn(l, tt)
			if !has(w.Verdict, l) || (tt.Guarantee.Statement != "" && !has(w.Guarantee, l)) {
				t.Errorf("%s: %+v", l, w)
			}
			for k, s := range w.Status {
				if want, _, _, _ := tournamentRankCellsLang(tt, l, k); s != want || !has(s, l) {
					t.Errorf("%s: status %d %q, the report says %q", l, k, s, want)
				}
			}
		}
	}
	n := 0
	for _, o := range optimizeDocs(t) {
		for l := range script {
			w := OptimizeWordsIn(l, o)
			n += len(w.Status)
			if o.Guarantee.Statement != "" && !has(w.Guarantee, l) {
				t.Errorf("%s: guarantee %q", l, w.Guarantee)
			}
			if o.Search != nil && len(w.Status) != len(o.Search.Ranked) {
				t.Errorf("%s: %d statuses for %d ranked", l, len(w.Status), len(o.Search.Ranked))
			}
			for _, s := range w.Status {
				if !has(s, l) {
					t.Errorf("%s: status %q", l, s)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no optimize fixture has ranked candidates: the statuses went unchecked")
	}
}
