package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"simctl/sim/msg"
	"strconv"
	"strings"
	"text/tabwriter"

	"simctl/reports/results"
	"simctl/stats"

	"simctl/reports/i18n"
)

// Format is an output format of the sweep and compare tables.
type Format string

// Output formats (--format).
const (
	Text     Format = "text"
	CSV      Format = "csv"
	JSON     Format = "json"
	Markdown Format = "markdown"
)

// ParseFormat reads --format; "md" is Markdown.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "text", "":
		return Text, nil
	case "csv":
		return CSV, nil
	case "json":
		return JSON, nil
	case "markdown", "md":
		return Markdown, nil
	}
	return "", msg.Errorf("--format %q: expected text, csv, json or markdown", s)
}

// intervalWilson is the interval method of every win rate a document
// records.
const intervalWilson = results.IntervalWilson

// pp formats a proportion as percentage points.
func pp(f float64) string { return strconv.FormatFloat(100*f, 'f', -1, 64) + " pp" }

// Num is a float64 that encodes NaN and ±Inf as JSON null (stats.Num).
type Num = stats.Num

// table is a grid of cells with a header, rendered as aligned text, a
// Markdown pipe table or CSV. Text and Markdown show the display cells;
// CSV has its own raw, unformatted cells (numbers a tool can read).
type table struct {
	header []string
	rows   [][]string
	left   int // the first `left` columns are left-aligned (names), the rest right-aligned (numbers)
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) text(w io.Writer, l i18n.Lang) {
	// The cells for reading in l first (a Russian 93,94 % is a column
	// wider than 93.94%), then measured.
	rows := append([][]string{t.header}, t.rows...)
	if l.Or() != i18n.En {
		rows = make([][]string, 0, len(t.rows)+1)
		for _, r := range append([][]string{t.header}, t.rows...) {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = l.ReadingCell(c)
			}
			rows = append(rows, cells)
		}
	}
	// tabwriter aligns every column one way; pad the left-aligned ones
	// by hand.
	// Widths in terminal columns, so Korean headers line up.
	widths := make([]int, len(t.header))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], i18n.Width(c))
		}
	}
	var b strings.Builder
	tw := newColumns(&b, tabwriter.AlignRight, i18n.En) // the cells are l's already
	for _, r := range rows {
		for i, c := range r {
			if i < t.left {
				c += strings.Repeat(" ", widths[i]-i18n.Width(c))
			}
			io.WriteString(tw, c+"\t")
		}
		io.WriteString(tw, "\n")
	}
	tw.Flush()
	out := unwiden(b.String())
	if l.Or() != i18n.En {
		out = strings.ReplaceAll(out, "\n", string(tableMark)+"\n")
	}
	io.WriteString(w, out)
}

func (t *table) markdown(w io.Writer) {
	esc := mdInline
	var b strings.Builder
	b.WriteString("|")
	for _, h := range t.header {
		b.WriteString(" " + esc(h) + " |")
	}
	b.WriteString("\n|")
	for i := range t.header {
		if i < t.left {
			b.WriteString(":---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + esc(c) + " |")
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}

func (t *table) csv(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(t.header)
	for _, r := range t.rows {
		cw.Write(r)
	}
	cw.Flush()
	return cw.Error()
}

// writeJSON writes v as indented JSON (results.WriteJSON).
func writeJSON(w io.Writer, v any) error { return results.WriteJSON(w, v) }

// Display helpers: percentages with two decimals, signed percentage points
// for differences, raw numbers for CSV.

func pctCI(lo, hi float64) string { return "[" + pct(lo) + ", " + pct(hi) + "]" }

func signedPP(f float64) string { return fmt.Sprintf("%+.2f pp", 100*f) }

func ppCI(lo, hi float64) string {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "—"
	}
	return fmt.Sprintf("[%+.2f, %+.2f] pp", 100*lo, 100*hi)
}

func pvalue(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 1e-4:
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}

func factor(f float64) string {
	switch {
	case math.IsNaN(f):
		return "—"
	case math.IsInf(f, 1):
		return "∞"
	}
	return fmt.Sprintf("%.2f", f)
}

func raw(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return ""
	}
	return strconv.FormatFloat(f, 'g', 10, 64)
}

func rawInt(n int64) string { return strconv.FormatInt(n, 10) }

// footnotes prints numbered notes under a text table.
func footnotes(w io.Writer, notes []string, md bool) {
	if len(notes) == 0 {
		return
	}
	io.WriteString(w, "\n")
	for _, n := range notes {
		if md {
			fmt.Fprintf(w, "- %s\n", n)
		} else {
			fmt.Fprintf(w, "%s\n", wrapText(n, 100, "  "))
		}
	}
}

// wrapText wraps s at width, indenting continuation lines. It breaks at
// blanks only: a no-break space keeps what it ties on one line (Russian
// 10 000, 65,61 %, +1,25 п. п.).
func wrapText(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) {
		if line != "" && i18n.Width(line)+1+i18n.Width(w) > width {
			lines = append(lines, line)
			line = indent
		}
		if line != "" && line != indent {
			line += " "
		}
		line += w
	}
	if strings.TrimSpace(line) != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
