package reports

import (
	"fmt"
	"image/color"
	"io"
	"regexp"
	"simctl/reports/i18n"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"simctl/reports/results"
	"simctl/sim/experiment"
)

// WriteMatrix renders the matrix in format f: the win-rate grid with intervals,
// dominated options, and the equilibrium.
//
// It writes the text table's own words in l (JSON,
// CSV and Markdown stay English; the numbers keep the point in every language).
func WriteMatrix(m *results.Matrix, w io.Writer, f Format, l i18n.Lang) error {
	switch f {
	case JSON:
		return writeJSON(w, m)
	case CSV:
		return matrixGrid(m, true).csv(w)
	}
	md := f == Markdown
	if md {
		l = i18n.En
	}
	var b strings.Builder
	b.WriteString(shardLineLang(l, &m.Header))
	b.WriteString(l.T("matrix.text.head", m.Scenario, m.Ruleset, m.Seed, m.RowSide, m.RowSide, m.ColSide, thousands(m.Encounters)) + "\n\n")
	render := func(t *table) {
		if md {
			t.markdown(&b)
		} else {
			t.text(&b, l)
		}
		b.WriteString("\n")
	}
	render(matrixGrid(m, false))
	if len(m.Dominated) > 0 {
		b.WriteString(l.T("matrix.text.dominated") + "\n")
		for _, d := range m.Dominated {
			b.WriteString("  " + l.T("matrix.text.by", d.Side, d.Option, d.By, identicalNoteLang(l, d)) + "\n")
		}
		b.WriteString("\n")
	} else {
		b.WriteString(l.T("matrix.text.none_dominated") + "\n\n")
	}
	b.WriteString(l.T("matrix.text.eq", m.RowSide, m.ColSide, pct(m.Eq.Value), pct(m.Eq.ValueCI[0]), pct(m.Eq.ValueCI[1])) + "\n")
	render(matrixWeightsLang(m, l))
	if _, err := io.WriteString(w, readable(l, b.String())); err != nil {
		return err
	}
	footnotes(w, matrixNotes(l, m), md)
	return nil
}

// identicalNote says against which opposing options a dominated option
// played the same fights as the one dominating it, and what that bounds.
func identicalNote(d experiment.Domination) string { return identicalNoteLang(i18n.En, d) }

func identicalNoteLang(l i18n.Lang, d experiment.Domination) string {
	if len(d.Identical) == 0 {
		return ""
	}
	return " " + l.T("matrix.identical", strings.Join(d.Identical, ", "), fmt.Sprintf("%.2f", 100*d.IdenticalBound))
}

// matrixWeights is the equilibrium's table: each option's weight, and the range
// its weight may take in any game within the cells' simultaneous bounds
// (an option of a class of identical ones shows its class).
func matrixWeights(m *results.Matrix) *table { return matrixWeightsLang(m, i18n.En) }

func matrixWeightsLang(m *results.Matrix, l i18n.Lang) *table {
	t := &table{header: []string{l.T("col.side"), l.T("col.option"), l.T("matrix.col.weight"), l.T("matrix.col.range")}, left: 2}
	rng := func(r [][2]float64, i int) string {
		if i >= len(r) {
			return ""
		}
		return pctCI(r[i][0], r[i][1])
	}
	add := func(side string, names []string, w []float64, r [][2]float64, cls [][]string) {
		in := map[string]string{}
		for _, cl := range cls {
			for _, o := range cl[1:] {
				in[o] = cl[0]
			}
		}
		for i, o := range names {
			if rep, ok := in[o]; ok {
				t.add(side, o, l.T("matrix.in_class", rep), "")
				continue
			}
			t.add(side, o, pct(w[i]), rng(r, i))
		}
	}
	add(m.RowSide, m.Rows, m.Eq.RowWeights, m.Eq.RowRange, m.RowClasses)
	add(m.ColSide, m.Cols, m.Eq.ColWeights, m.Eq.ColRange, m.ColClasses)
	return t
}

// matrixGrid is the win-rate table: one row per row option, a column per column
// option (with its interval below in text, raw numbers in CSV).
func matrixGrid(m *results.Matrix, raw bool) *table {
	t := &table{header: append([]string{m.RowSide + " \\ " + m.ColSide}, m.Cols...), left: 1}
	for r, name := range m.Rows {
		cells := []string{name}
		for c := range m.Cols {
			if raw {
				cells = append(cells, strconv.FormatFloat(m.Win[r][c], 'f', -1, 64))
			} else {
				cells = append(cells, fmt.Sprintf("%s %s", pct(m.Win[r][c]), pctCI(m.CI95[r][c][0], m.CI95[r][c][1])))
			}
		}
		t.add(cells...)
	}
	return t
}

// MatrixFigure draws the matrix as a heat map labelled in percent, the
// equilibrium's weights beside the option names.
//
// Its words (titles, axes, legends, captions) are in l.
func MatrixFigure(l i18n.Lang, m *results.Matrix) (*Figure, error) {
	if m.Encounters == 0 {
		return nil, ErrNoData
	}
	p := newPlot(l, l.T("matrix.fig.title", m.RowSide, m.RowSide, m.ColSide, m.Scenario, m.Seed, l.Int(m.Encounters)),
		l.T("matrix.fig.axis", m.ColSide), l.T("matrix.fig.axis", m.RowSide))
	// The first row at the top, as in the table: y counts upwards.
	h := cells{l: l, nx: len(m.Cols), ny: len(m.Rows), labels: true}
	for c := range m.Cols {
		for r := range m.Rows {
			h.v = append(h.v, 100*m.Win[len(m.Rows)-1-r][c])
		}
	}
	h.span = heatSpan(h.v)
	p.Add(h)
	xs := make([]string, len(m.Cols))
	for c, o := range m.Cols {
		xs[c] = o + " (" + figPct(l, 100*m.Eq.ColWeights[c], 0) + ")"
	}
	ys := make([]string, len(m.Rows))
	for r, o := range m.Rows {
		ys[len(m.Rows)-1-r] = o + " (" + figPct(l, 100*m.Eq.RowWeights[r], 0) + ")"
	}
	p.NominalX(xs...)
	p.NominalY(ys...)
	p.X.Padding, p.Y.Padding = 0, 0
	const barW = 1.25 * vg.Inch
	f := &Figure{Name: "matrix", W: 8 * vg.Inch, H: vg.Length(2+0.5*float64(len(m.Rows))) * vg.Inch,
		Caption: l.T("matrix.fig.caption", m.RowSide)}
	f.draw = func(dc draw.Canvas) {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		main := draw.Crop(dc, 0, -barW, 0, 0)
		drawPlot(p, main)
		colourBar(l, dc, p.DataCanvas(main), dc.Max.X-barW+vg.Points(14), l.T("matrix.fig.bar", m.RowSide), h.span)
	}
	return f, nil
}

// WriteTournament renders the ranking in format f.
//
// It writes the text table's own words in l
// (JSON, CSV and Markdown stay English; the numbers keep the point in every
// language).
func WriteTournament(t *results.Tournament, w io.Writer, f Format, l i18n.Lang) error {
	switch f {
	case JSON:
		return writeJSON(w, t)
	case CSV:
		return tournamentRanking(t, true).csv(w)
	}
	md := f == Markdown
	if md {
		l = i18n.En
	}
	var b strings.Builder
	b.WriteString(l.T("tour.text.head", t.Scenario, t.Ruleset, t.Seed, len(t.Options), t.Side, thousands(t.Encounters), len(t.Stages)) + "\n\n")
	switch tab := tournamentRankingLang(t, l); {
	case len(t.Stages) == 0:
		b.WriteString(l.T("tour.text.no_stage") + "\n")
	case md:
		b.WriteString(tournamentVerdictLang(t, l) + "\n\n")
		tab.markdown(&b)
	default:
		b.WriteString(tournamentVerdictLang(t, l) + "\n\n")
		tab.text(&b, l)
	}
	_, err := io.WriteString(w, readable(l, b.String()))
	if err != nil {
		return err
	}
	notes := tournamentNotesLang(t, l)
	if t.Interrupted {
		notes = append(notes, l.T("tour.text.interrupted"))
	}
	footnotes(w, notes, md)
	return nil
}

// tournamentName is candidate k's name ("?" out of range: a document being read).
func tournamentName(t *results.Tournament, k int) string {
	if k >= 0 && k < len(t.Candidates) {
		return t.Candidates[k].Name
	}
	return "?"
}

// tournamentVerdict says in a line what the tournament decided.
func tournamentVerdict(t *results.Tournament) string { return tournamentVerdictLang(t, i18n.En) }

func tournamentVerdictLang(t *results.Tournament, l i18n.Lang) string {
	d := proseG(l, "%.4g", 100*t.Guarantee.Delta)
	switch t.Outcome {
	case experiment.OutcomeSeparated:
		return l.T("tour.verdict.separated", tournamentName(t, t.Selected))
	case experiment.OutcomeWithinDelta:
		return l.T("tour.verdict.within", tournamentName(t, t.Selected), d, len(t.Group)-1)
	case experiment.OutcomeNotSeparated:
		return l.T("tour.verdict.not_separated", len(t.Group), d, tournamentName(t, t.Leader))
	}
	return l.T("tour.verdict.unfinished", len(t.Group), len(t.Stages), tournamentName(t, t.Leader))
}

// tournamentNotes are the guarantee and what each interval means.
func tournamentNotes(t *results.Tournament) []string { return tournamentNotesLang(t, i18n.En) }

func tournamentNotesLang(t *results.Tournament, l i18n.Lang) []string {
	g := t.Guarantee
	k := g.Candidates
	var within string
	if t.Outcome == experiment.OutcomeWithinDelta {
		within = "; " + l.T("tour.note.within")
	}
	return []string{
		l.T("tour.note.guarantee", statementLang(l, g.Statement), proseG(l, "%.4g", g.Alpha), proseG(l, "%.4g", 100*g.Delta), k),
		l.T("tour.note.stages", proseG(l, "%.3g", g.Alpha/float64(2*k*max(k-1, 1))), proseG(l, "%.3g", g.Alpha/float64(2*max(k-1, 1)))),
		l.T("tour.note.intervals", tournamentRefLabelLang(t, l), k*(k-1)/2, proseG(l, "%.4g", 100*(1-g.Alpha)), within, k),
	}
}

// statementForms are the guarantee statements experiment.Select writes
// (kept in English in the document), by catalog key.
var statementForms = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^with probability at least ([0-9.e+-]+)% over the whole procedure, no candidate with the best win rate among these ([0-9]+) was eliminated, so the one left is the best$`), "tour.st.separated"},
	{regexp.MustCompile(`^with probability at least ([0-9.e+-]+)% over the whole procedure, no candidate with the best win rate among these ([0-9]+) was eliminated and the selected one is within ([0-9.e+-]+) pp of the best; the others left are not separated from it$`), "tour.st.within"},
	{regexp.MustCompile(`^with probability at least ([0-9.e+-]+)% over the whole procedure, no candidate with the best win rate among these ([0-9]+) was eliminated: the budget ended before the ([0-9]+) left were separated, or shown within ([0-9.e+-]+) pp of each other; none is called best$`), "tour.st.not_separated"},
	{regexp.MustCompile(`^with probability at least ([0-9.e+-]+)% over the whole procedure, no candidate with the best win rate among these ([0-9]+) was eliminated so far$`), "tour.st.unfinished"},
}

// statementLang says a recorded guarantee statement in l; English, and a
// statement simctl does not know, as recorded.
func statementLang(l i18n.Lang, s string) string {
	if l.Or() == i18n.En {
		return s
	}
	for _, f := range statementForms {
		if m := f.re.FindStringSubmatch(s); m != nil {
			args := make([]any, len(m)-1)
			for i, a := range m[1:] {
				args[i] = proseNumber(l, a)
			}
			return l.T(f.key, args...)
		}
	}
	return s
}

// proseG writes x with format (a %g verb) as l writes a number in prose:
// a decimal comma in Russian.
func proseG(l i18n.Lang, format string, x float64) string {
	return proseNumber(l, fmt.Sprintf(format, x))
}

// proseNumber turns a number written in English into l's prose form.
func proseNumber(l i18n.Lang, s string) string {
	if l.Or() == i18n.Ru {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// tournamentRefLabel names the reference of the differences.
func tournamentRefLabel(t *results.Tournament) string { return tournamentRefLabelLang(t, i18n.En) }

func tournamentRefLabelLang(t *results.Tournament, l i18n.Lang) string {
	if t.Selected >= 0 {
		return l.T("tour.ref.selected")
	}
	return l.T("tour.ref.leader")
}

// tournamentRankCells are candidate k's status, stage out ("—" for none), and its
// difference to the reference with the interval ("—" for the reference).
func tournamentRankCells(t *results.Tournament, k int) (status, out, diff, ci string) {
	return tournamentRankCellsLang(t, i18n.En, k)
}

func tournamentRankCellsLang(t *results.Tournament, l i18n.Lang, k int) (status, out, diff, ci string) {
	c := &t.Candidates[k]
	status, out, diff = c.Status, "—", "—"
	if key := "tour.status." + strings.ReplaceAll(c.Status, " ", "_"); i18n.Has(l, key) {
		status = l.T(key)
	}
	if c.Out > 0 {
		out = strconv.Itoa(c.Out)
	}
	if k == t.Reference {
		if k != t.Selected {
			status += " " + l.T("tour.status.leader")
		}
		return status, out, diff, ""
	}
	return status, out, signedPP(c.Diff), ppCI(c.DiffCI[0], c.DiffCI[1])
}

func tournamentRanking(t *results.Tournament, raw bool) *table {
	if !raw {
		return tournamentRankingLang(t, i18n.En)
	}
	ref := "vs " + tournamentRefLabel(t)
	tab := &table{header: []string{"rank", "option", "status", "encounters", "win rate", "95% CI", "out after stage", ref, "CI (all pairs)"}, left: 3}
	if raw {
		tab.header = []string{"rank", "option", "status", "encounters", "wins", "win rate", "out after stage", "eliminated by", ref, ref + " lo", ref + " hi"}
	}
	if len(t.Stages) == 0 {
		return tab // nothing played: no rows of nothing
	}
	for i, k := range t.Ranking {
		if k < 0 || k >= len(t.Candidates) {
			continue
		}
		c := &t.Candidates[k]
		if raw {
			tab.add(strconv.Itoa(i+1), c.Name, c.Status, rawInt(c.Encounters), rawInt(c.Wins), raw2(c.WinRate), strconv.Itoa(c.Out), c.By, raw2(c.Diff), raw2(c.DiffCI[0]), raw2(c.DiffCI[1]))
			continue
		}
		status, out, diff, ci := tournamentRankCells(t, k)
		tab.add(strconv.Itoa(i+1), c.Name, status, thousands(c.Encounters), pct(c.WinRate), pctCI(c.CI95[0], c.CI95[1]), out, diff, ci)
	}
	return tab
}

// tournamentRankingLang is the text table of the ranking with its words in l.
func tournamentRankingLang(t *results.Tournament, l i18n.Lang) *table {
	// The win-rate intervals are Wilson's, one per option, not adjusted
	// for the selection (an eliminated option stopped when it looked
	// bad): the header says so where they are printed.
	tab := &table{header: []string{l.T("tour.col.rank"), l.T("col.option"), l.T("tour.col.status"), l.T("fact.encounters"), l.T("col.win_rate"), l.T("tour.col.ci95_unadjusted"),
		l.T("tour.col.out"), l.T("tour.col.vs", tournamentRefLabelLang(t, l)), l.T("tour.col.ci_pairs")}, left: 3}
	if len(t.Stages) == 0 {
		return tab
	}
	for i, k := range t.Ranking {
		if k < 0 || k >= len(t.Candidates) {
			continue
		}
		c := &t.Candidates[k]
		status, out, diff, ci := tournamentRankCellsLang(t, l, k)
		tab.add(strconv.Itoa(i+1), c.Name, status, thousands(c.Encounters), pct(c.WinRate), pctCI(c.CI95[0], c.CI95[1]), out, diff, ci)
	}
	return tab
}

func raw2(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// matrixNoteForms are the notes experiment.Matrix writes (in English, into
// the document's "notes", which stay as they are): each pattern and the
// catalog key that says it in another language, with how many decimals
// each number argument has (0: a count; -1: a name, copied as it is).
var matrixNoteForms = []struct {
	re   *regexp.Regexp
	key  string
	decs []int
}{
	{regexp.MustCompile(`^the game's value \(the row side's win rate under optimal play by both\) lies in \[(-?[0-9.]+)%, (-?[0-9.]+)%\] with at least 95% confidence$`), "matrix.n.value", []int{2, 2}},
	{regexp.MustCompile(`^(.+) played the same fights on all ([0-9]+) encounters against every opposing option: one class, solved as one option, its weight shown on (.+) \(a difference too rare to show, under ([0-9.]+) pp, is not excluded\)$`), "matrix.n.class", []int{-1, 0, -1, 3}},
	{regexp.MustCompile(`^multiplicity: the grid prints ([0-9]+) cell intervals at 95% each, not jointly \(about 1 in 20 may miss by chance\); the value's interval, the weight ranges and the settled/not settled verdict rest on bounds that hold for all cells together at 95%; each dominance claim holds at 95% over the opposing options, not jointly across the ([0-9]+) pairs of options tested$`), "matrix.n.multiplicity", []int{0, 0}},
	{regexp.MustCompile(`^which options belong in the optimal mix is not settled: within the cells' simultaneous 95% bounds some option \(or class\) may or may not be played; the weights are estimates \(their ranges say how far they may move\); more encounters \(-n\) may settle them, and options that are exact equals on different dice never will$`), "matrix.n.unsettled", nil},
	{regexp.MustCompile(`^which options belong in the optimal mix is settled with at least 95% confidence: every option is provably in or out within the cells' simultaneous bounds \(the weights themselves still move within their ranges\)$`), "matrix.n.settled", nil},
}

// matrixNote finds the catalog key and arguments of an English matrix
// note; ok is false for a note simctl does not know (a newer simctl's).
func matrixNote(l i18n.Lang, note string) (key string, args []any, ok bool) {
	for _, f := range matrixNoteForms {
		m := f.re.FindStringSubmatch(note)
		if m == nil {
			continue
		}
		for i, s := range m[1:] {
			switch d := f.decs[i]; {
			case d > 0:
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return "", nil, false
				}
				args = append(args, l.Decimal(x, d))
			case d == 0 && l.Or() != i18n.En:
				n, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return "", nil, false
				}
				args = append(args, l.Int(n)) // a count, grouped as l writes it
			default:
				args = append(args, s) // a name, or English's count as recorded
			}
		}
		return f.key, args, true
	}
	return "", nil, false
}

// matrixNotes says a matrix document's notes in l: English as recorded,
// another language by key; a note simctl does not know stays as recorded.
func matrixNotes(l i18n.Lang, m *results.Matrix) []string {
	if l.Or() == i18n.En {
		return m.Notes
	}
	out := make([]string, len(m.Notes))
	for i, n := range m.Notes {
		out[i] = n
		key, args, ok := matrixNote(l, n)
		if !ok {
			continue
		}
		if key == "matrix.n.class" {
			// The class's names, joined in English by the note: joined
			// again in l (matched against the document's classes, so a
			// name holding " and " is not split).
			for _, cl := range append(append([][]string(nil), m.RowClasses...), m.ColClasses...) {
				if joinNames(i18n.En, cl) == args[0] {
					args[0] = joinNames(l, cl)
					break
				}
			}
		}
		out[i] = l.T(key, args...)
	}
	return out
}

// joinNames lists names as experiment's notes do: "a, b and c" in English.
func joinNames(l i18n.Lang, names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return l.T("list.last", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// TournamentWords are a tournament document's own words in a language,
// for a front end that lays the document out itself (the web lab): what
// the tournament decided, its guarantee and each candidate's status, as
// the report says them.
type TournamentWords struct {
	Verdict   string   `json:"verdict"`
	Guarantee string   `json:"guarantee,omitempty"`
	Status    []string `json:"status"` // by candidate
}

// TournamentWordsIn are t's words in l.
func TournamentWordsIn(l i18n.Lang, t *results.Tournament) TournamentWords {
	w := TournamentWords{Verdict: tournamentVerdictLang(t, l), Status: make([]string, len(t.Candidates))}
	if t.Guarantee.Statement != "" {
		w.Guarantee = statementLang(l, t.Guarantee.Statement)
	}
	for k := range t.Candidates {
		w.Status[k], _, _, _ = tournamentRankCellsLang(t, l, k)
	}
	return w
}
