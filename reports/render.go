package reports

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"
)

// markdown writes report.md: the same sections as the HTML, with the
// figures as PNG files beside it.
func (b *Bundle) markdown(w io.Writer, secs []*Section) {
	fmt.Fprintf(w, "# %s\n\n", mdInline(b.Title))
	fmt.Fprintf(w, "%s\n\n", b.intro())
	if len(secs) > 1 && answered(secs) {
		fmt.Fprintf(w, "## %s\n\n", b.Lang.T("answer.heading"))
		for _, s := range secs {
			if len(s.answer) > 0 {
				fmt.Fprintf(w, "- **%s**: %s\n", mdInline(s.title), mdNote(s.answer[0]))
			}
		}
		io.WriteString(w, "\n")
	}
	for _, s := range secs {
		fmt.Fprintf(w, "## %s\n\n", mdInline(s.title))
		for i, a := range s.answer {
			if i == 0 {
				fmt.Fprintf(w, "**%s:** %s\n\n", b.Lang.T("answer.label"), mdNote(a))
			} else {
				fmt.Fprintf(w, "%s\n\n", mdNote(a))
			}
		}
		ft := &table{left: 2, header: []string{"", ""}}
		for _, f := range s.facts {
			ft.add(f[0], f[1])
		}
		ft.markdown(w)
		if len(s.commands) > 0 {
			fmt.Fprintf(w, "\n%s\n\n%s", b.Lang.T("report.reproduce.md"), mdFence("sh", strings.Join(s.commands, "\n")))
		}
		for _, n := range s.notes {
			fmt.Fprintf(w, "\n%s\n", mdNote(n))
		}
		for _, t := range s.tables {
			fmt.Fprintf(w, "\n### %s\n\n", mdInline(t.title))
			t.t.markdown(w)
			if len(t.notes) > 0 {
				io.WriteString(w, "\n")
				for _, n := range t.notes {
					fmt.Fprintf(w, "- %s\n", mdNote(n))
				}
			}
		}
		if len(s.traces) > 0 {
			fmt.Fprintf(w, "\n### %s\n\n", b.Lang.T("report.traces"))
			for _, tr := range s.traces {
				fmt.Fprintf(w, "- [%s](%s)\n", mdInline(tr.Title), tr.file)
			}
		}
		if len(s.figures) > 0 {
			fmt.Fprintf(w, "\n### %s\n", b.Lang.T("report.figures"))
			for _, f := range s.figures {
				fmt.Fprintf(w, "\n![%s](%s.png)\n\n*%s*\n", mdAlt(f.Caption), f.Name, mdInline(f.Caption))
			}
		}
		if s.scenario != "" {
			fmt.Fprintf(w, "\n<details><summary>%s</summary>\n\n%s\n</details>\n", b.Lang.T("report.scenario_file"), mdFence("yaml", strings.TrimRight(s.scenario, "\n")))
		}
		io.WriteString(w, "\n")
	}
}

// mdNote renders a note for Markdown: its `code` spans as they are (a
// command line), the rest through mdInline, so a name in a note (a warning
// naming a parameter) cannot inject HTML or break the list item.
func mdNote(s string) string {
	parts := strings.Split(s, "`")
	// An unclosed span, or backticks CommonMark pairs otherwise than one
	// by one (an escaped one, a run of several, which a name may bring):
	// treat it all as text, so a name cannot close a span and open HTML.
	if len(parts)%2 == 0 || strings.Contains(s, "\\`") || strings.Contains(s, "``") {
		return mdInline(s)
	}
	for i := range parts {
		if i%2 == 0 {
			parts[i] = mdInline(parts[i])
		} else {
			parts[i] = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(parts[i])
		}
	}
	return strings.Join(parts, "`")
}

func mdAlt(s string) string { return mdInline(strings.NewReplacer("[", "(", "]", ")").Replace(s)) }

// mdInline makes text from names and files safe in Markdown: no raw HTML
// (a <script> name), no line breaks (they end a table row or heading), no
// table separators, code spans, emphasis or inline links. A "<" that no
// tag can start with (<0.0001) stays as it is, so the file reads as it
// renders.
func mdInline(s string) string {
	s = mdEscape.Replace(s)
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && (i+1 == len(s) || !mdTagStart(s[i+1])) {
			b.WriteByte('<')
			continue
		}
		if s[i] == '<' {
			b.WriteString("&lt;")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mdTagStart tells the bytes after "<" that CommonMark may read as raw
// HTML or an autolink: a letter, "/", "!" or "?".
func mdTagStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?'
}

var mdEscape = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "](", `]\(`,
	"&", "&amp;", ">", "&gt;",
	"\r\n", " ", "\n", " ", "\r", " ", "\t", " ",
)

// mdFence puts text in a fenced code block whose fence is longer than any
// run of backticks in the text, so the text cannot close it.
func mdFence(lang, text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + text + "\n" + f + "\n"
}

func (b *Bundle) intro() string {
	s := b.Lang.T("report.intro")
	if b.Command != "" {
		if b.Version != "" {
			s += "\n\n" + b.Lang.T("report.written_by_version", "`"+b.Command+"`", b.Version)
		} else {
			s += "\n\n" + b.Lang.T("report.written_by", "`"+b.Command+"`")
		}
	}
	return s
}

// html writes report.html: one XHTML-compatible file with the figures
// inlined as SVG and the style inline, so it opens anywhere and fetches
// nothing.
func (b *Bundle) html(w io.Writer, secs []*Section) error {
	var h strings.Builder
	e := html.EscapeString
	h.WriteString("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"" + string(b.Lang.Or()) + "\">\n<head>\n<meta charset=\"utf-8\"/>\n")
	h.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
	fmt.Fprintf(&h, "<meta name=\"generator\" content=\"simctl %s\"/>\n<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", e(b.Version), e(b.Title), css)
	fmt.Fprintf(&h, "<h1>%s</h1>\n", e(b.Title))
	for _, para := range strings.Split(b.intro(), "\n\n") {
		fmt.Fprintf(&h, "<p>%s</p>\n", inline(para))
	}
	if len(secs) > 1 {
		// The contents are the answers: each section's title and what it
		// found, before any section's detail.
		h.WriteString("<nav>\n")
		if answered(secs) {
			fmt.Fprintf(&h, "<h2>%s</h2>\n", e(b.Lang.T("answer.heading")))
		}
		h.WriteString("<ul>\n")
		for _, s := range secs {
			fmt.Fprintf(&h, "<li><a href=\"#%s\">%s</a>", s.id, e(s.title))
			if len(s.answer) > 0 {
				fmt.Fprintf(&h, "<br/><span class=\"answer\">%s</span>", inline(s.answer[0]))
			}
			h.WriteString("</li>\n")
		}
		h.WriteString("</ul></nav>\n")
	}
	for _, s := range secs {
		fmt.Fprintf(&h, "<section id=\"%s\">\n<h2>%s</h2>\n", s.id, e(s.title))
		for i, a := range s.answer {
			if i == 0 {
				fmt.Fprintf(&h, "<p class=\"answer\"><strong>%s:</strong> %s</p>\n", e(b.Lang.T("answer.label")), inline(a))
			} else {
				fmt.Fprintf(&h, "<p class=\"rule\">%s</p>\n", inline(a))
			}
		}
		h.WriteString("<table class=\"facts\">\n")
		for _, f := range s.facts {
			fmt.Fprintf(&h, "<tr><th>%s</th><td>%s</td></tr>\n", e(f[0]), e(f[1]))
		}
		h.WriteString("</table>\n")
		if len(s.commands) > 0 {
			fmt.Fprintf(&h, "<h3>%s</h3>\n<p>%s</p>\n<pre><code>", e(b.Lang.T("report.reproduce")), e(b.Lang.T("report.reproduce.html")))
			h.WriteString(e(strings.Join(s.commands, "\n")))
			h.WriteString("</code></pre>\n")
		}
		for _, n := range s.notes {
			fmt.Fprintf(&h, "<p>%s</p>\n", inline(n))
		}
		if len(s.traces) > 0 {
			// Inline, folded: the page stays one self-contained file (the
			// folder also has each trace as text).
			fmt.Fprintf(&h, "<h3>%s</h3>\n", e(b.Lang.T("report.traces")))
			for _, tr := range s.traces {
				fmt.Fprintf(&h, "<details><summary>%s</summary>\n<pre><code>%s</code></pre>\n</details>\n", e(tr.Title), e(tr.Text))
			}
		}
		for _, t := range s.tables {
			fmt.Fprintf(&h, "<h3>%s</h3>\n", e(t.title))
			t.t.html(&h)
			if len(t.notes) > 0 {
				h.WriteString("<ul class=\"notes\">\n")
				for _, n := range t.notes {
					fmt.Fprintf(&h, "<li>%s</li>\n", inline(n))
				}
				h.WriteString("</ul>\n")
			}
		}
		if len(s.figures) > 0 {
			fmt.Fprintf(&h, "<h3>%s</h3>\n", e(b.Lang.T("report.figures")))
			for _, f := range s.figures {
				var svg bytes.Buffer
				if err := f.SVG(&svg); err != nil {
					return err
				}
				fmt.Fprintf(&h, "<figure id=\"%s\" role=\"img\" aria-label=\"%s\">\n%s\n<figcaption>%s</figcaption>\n</figure>\n",
					e(f.Name), e(f.Caption), inlineSVG(svg.String()), e(f.Caption))
			}
		}
		if s.scenario != "" {
			fmt.Fprintf(&h, "<details><summary>%s</summary>\n<pre><code>%s</code></pre>\n</details>\n", e(b.Lang.T("report.scenario_file")), e(strings.TrimRight(s.scenario, "\n")))
		}
		h.WriteString("</section>\n")
	}
	h.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, h.String())
	return err
}

const css = `body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
h1, h2, h3 { line-height: 1.2; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-variant-numeric: tabular-nums; display: block; overflow-x: auto; max-width: 100%; }
th, td { border-bottom: 1px solid #e2e2e2; padding: 0.2rem 0.7rem; vertical-align: top; }
th { text-align: left; }
.num { text-align: right; white-space: nowrap; }
table.facts th { font-weight: normal; color: #555; white-space: nowrap; }
pre { background: #f5f5f5; padding: 0.6rem 0.8rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-family: "Liberation Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
figure { margin: 1.2rem 0; }
figure svg { width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.9em; }
ul.notes { color: #444; font-size: 0.9em; }
p.answer { font-size: 1.1em; background: #eef4fb; border-left: 4px solid #1f77b4; padding: 0.4rem 0.7rem; }
p.rule { color: #555; font-size: 0.9em; }
nav .answer { color: #333; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  table { display: table; overflow: visible; width: 100%; font-size: 8pt; }
  th, td { padding: 0.1rem 0.3rem; }
  td { overflow-wrap: anywhere; }
  .num, table.facts th { white-space: normal; overflow-wrap: normal; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; overflow: visible; font-size: 8pt; }
  figure { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
}
`

// inlineSVG strips the XML declaration of a standalone SVG document so it
// can sit inside the HTML.
func inlineSVG(s string) string {
	if strings.HasPrefix(s, "<?xml") {
		if i := strings.Index(s, "?>"); i >= 0 {
			s = s[i+2:]
		}
	}
	return strings.TrimSpace(s)
}

// inline escapes s for HTML and turns `code` spans into <code>.
func inline(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + html.EscapeString(p) + "</code>")
		} else {
			if i%2 == 1 {
				b.WriteString("`")
			}
			b.WriteString(html.EscapeString(p))
		}
	}
	return b.String()
}

func (t *table) html(w io.Writer) {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString("<table>\n<thead><tr>")
	for i, h := range t.header {
		cls := ""
		if i >= t.left {
			cls = " class=\"num\""
		}
		fmt.Fprintf(&b, "<th%s>%s</th>", cls, e(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.rows {
		b.WriteString("<tr>")
		for i, c := range r {
			cls := ""
			if i >= t.left {
				cls = " class=\"num\""
			}
			fmt.Fprintf(&b, "<td%s>%s</td>", cls, e(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	io.WriteString(w, b.String())
}

// answered tells whether any section has an answer to lead with.
func answered(secs []*Section) bool {
	for _, s := range secs {
		if len(s.answer) > 0 {
			return true
		}
	}
	return false
}
