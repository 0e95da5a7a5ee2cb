package lab

import (
	"net/http"
	"strings"

	"simctl/reports/i18n"
)

// handleI18n is GET /api/i18n?lang=ko: the page's texts in that language
// (the catalog's lab.* messages, unformatted: the page fills in their
// verbs as l.T would, and the table labels counter.*, moment.*, event.*),
// so that app.js carries no words of its own and switches language
// without a reload.
func (s *server) handleI18n(w http.ResponseWriter, r *http.Request) {
	l := langOf(r)
	texts := map[string]string{}
	for _, k := range i18n.Keys(l) {
		if pageText(k) {
			texts[k] = i18n.Text(l, k)
		}
	}
	// The messages without arguments, which the results carry in English
	// (a tactics rule's reason for falling through: "no charge possible").
	phrases := map[string]string{}
	if l != i18n.En {
		for _, f := range i18n.MsgFormats() {
			if !strings.Contains(f, "%") {
				if s, ok := i18n.MsgText(l, f); ok {
					phrases[f] = s
				}
			}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"lang": l, "texts": texts, "phrases": phrases})
}

// pageText tells whether the page needs the catalog text k.
func pageText(k string) bool {
	for _, p := range []string{"lab.", "counter.", "moment.", "event."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return k == "rule.fallback"
}
