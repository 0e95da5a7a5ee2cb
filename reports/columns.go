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

// A table's cells are written for reading in its language (numbers as
// l.ReadingCell writes them) before they are measured; every line of a
// table then ends with tableMark, so that readable, which writes the
// prose around the tables for reading, passes over them rather than
// rewrite a number twice (a Russian 4,780 is four and some, not 4780).
const tableMark = '\uE001'

// columns is a tabwriter whose cells are measured in terminal columns.
type columns struct {
	tw *tabwriter.Writer
	l  i18n.Lang
}

// newColumns is the text tables' tabwriter (padding 2, blanks) on w, its
// cells written for reading in l.
func newColumns(w io.Writer, flags uint, l i18n.Lang) *columns {
	return &columns{tabwriter.NewWriter(w, 0, 0, 2, ' ', flags), l}
}

func (c *columns) Write(p []byte) (int, error) {
	s := string(p)
	if c.l.Or() != i18n.En {
		s = strings.ReplaceAll(c.l.ReadingCell(s), "\n", string(tableMark)+"\n")
	}
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

// readable is the finished text output s for reading in l: its prose lines
// through l.Reading, its table lines (written by columns, already for
// reading) as they are, the markers gone.
func readable(l i18n.Lang, s string) string {
	s = unwiden(s)
	if l.Or() == i18n.En {
		return strings.ReplaceAll(s, string(tableMark), "")
	}
	lines := strings.SplitAfter(s, "\n")
	for i, line := range lines {
		body := strings.TrimSuffix(line, "\n")
		if strings.HasSuffix(body, string(tableMark)) {
			lines[i] = strings.TrimSuffix(body, string(tableMark)) + line[len(body):]
		} else {
			lines[i] = l.Reading(line)
		}
	}
	return strings.Join(lines, "")
}
