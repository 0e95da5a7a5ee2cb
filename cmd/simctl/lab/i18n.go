package lab

import (
	"net/http"
	"strings"

	"simctl/reports/i18n"
)

// handleI18n is GET /api/i18n?lang=ko: the page's texts in that language
// (the catalog's lab.* messages, unformatted: the page fills in their
// verbs as l.T would), so that app.js carries no words of its own and
// switches language without a reload.
func (s *server) handleI18n(w http.ResponseWriter, r *http.Request) {
	l := langOf(r)
	texts := map[string]string{}
	for _, k := range i18n.Keys(l) {
		if strings.HasPrefix(k, "lab.") {
			texts[k] = i18n.Text(l, k)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"lang": l, "texts": texts})
}
