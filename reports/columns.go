package reports

import (
	"io"
	"strings"
	"text/tabwriter"

	"simctl/reports/i18n"
)

// text/tabwriter measures a cell in runes, but a terminal draws Hangul (and
// Han, kana) two columns wide, so Korean headers and names would push their
// columns out of line. columns counts such a rune twice by writing an
// invisible marker after it; unwiden takes the markers out of the finished
// text. ASCII and Cyrillic text is written unchanged.
const wideMark = '\uE000' // private use: never in a catalog or a scenario's names

// columns is a tabwriter whose cells are measured in terminal columns.
type columns struct{ tw *tabwriter.Writer }

// newColumns is the text tables' tabwriter (padding 2, blanks) on w.
func newColumns(w io.Writer, flags uint) *columns {
	return &columns{tabwriter.NewWriter(w, 0, 0, 2, ' ', flags)}
}

func (c *columns) Write(p []byte) (int, error) {
	s := string(p)
	if strings.IndexFunc(s, i18n.Wide) >= 0 {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
			if i18n.Wide(r) {
				b.WriteRune(wideMark)
			}
		}
		s = b.String()
	}
	if _, err := io.WriteString(c.tw, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the buffered table.
func (c *columns) Flush() error { return c.tw.Flush() }

// unwiden removes columns' markers from finished text.
func unwiden(s string) string {
	if !strings.ContainsRune(s, wideMark) {
		return s
	}
	return strings.ReplaceAll(s, string(wideMark), "")
}
