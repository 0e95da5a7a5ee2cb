package reports

import (
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"simctl/sim/experiment"
)

// Header is what every experiment document records about how it was made,
// so each number can be traced to its command and seed.
type Header struct {
	Kind        string   `json:"kind"`
	Scenario    string   `json:"scenario"`
	File        string   `json:"file"`
	Ruleset     string   `json:"ruleset"`
	Seed        uint64   `json:"seed"`
	Version     string   `json:"version"`
	Command     string   `json:"command,omitempty"`
	Sets        []string `json:"sets,omitempty"`
	Interrupted bool     `json:"interrupted,omitempty"`
	Elapsed     float64  `json:"elapsed_seconds"`

	// The SHA-256 of the scenario text the experiment ran, which resume
	// and merge compare (reliability); empty on documents written before.
	ScenarioSHA256 string `json:"scenario_sha256,omitempty"`
	// Context is the scenario text as run, its ruleset options and the
	// roster's sides, which a report shows (absent on documents written
	// before reports took these kinds).
	Context *Context `json:"context,omitempty"`
	// Shard is set on one shard (--shard k/K) of a value or matrix run:
	// every game played encounters Start..Start+N-1 of Total.
	Shard *Shard `json:"shard,omitempty"`
	// Unplayed lists, on an interrupted value, matrix or compare run, the
	// encounter index ranges [lo, hi) it did not play: --resume plays
	// exactly those.
	Unplayed [][2]int64 `json:"unplayed,omitempty"`
	// Incomplete is set on a merge missing shards (--allow-partial).
	Incomplete bool `json:"incomplete,omitempty"`
}

// NamedSets is one named setting of a side: the --set overrides it applies.
type NamedSets struct {
	Name string   `json:"name"`
	Sets []string `json:"sets"`
}

// Matrix is the document `simctl matrix` writes.
type Matrix struct {
	Header
	RowOptions []NamedSets `json:"row_options"`
	ColOptions []NamedSets `json:"col_options"`
	experiment.MatrixResult
}

// Write renders the matrix in format f: the win-rate grid with intervals,
// dominated options, and the equilibrium.
func (m *Matrix) Write(w io.Writer, f Format) error {
	switch f {
	case JSON:
		return writeJSON(w, m)
	case CSV:
		return m.grid(true).csv(w)
	}
	md := f == Markdown
	var b strings.Builder
	b.WriteString(shardLine(&m.Header))
	fmt.Fprintf(&b, "%s (%s), seed %d: %s win rate for each option of %s (rows) against each option of %s (columns), %s encounters per cell on common random numbers\n\n",
		m.Scenario, m.Ruleset, m.Seed, m.RowSide, m.RowSide, m.ColSide, thousands(m.Encounters))
	render := func(t *table) {
		if md {
			t.markdown(&b)
		} else {
			t.text(&b)
		}
		b.WriteString("\n")
	}
	render(m.grid(false))
	if len(m.Dominated) > 0 {
		b.WriteString("Dominated (never better, significantly worse against at least one opposing option):\n")
		for _, d := range m.Dominated {
			fmt.Fprintf(&b, "  %s: %s, by %s\n", d.Side, d.Option, d.By)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("No option is dominated.\n\n")
	}
	fmt.Fprintf(&b, "Equilibrium (zero-sum: %s maximises its win rate, %s minimises it), value %s [%s, %s]:\n",
		m.RowSide, m.ColSide, pct(m.Eq.Value), pct(m.Eq.ValueCI[0]), pct(m.Eq.ValueCI[1]))
	weights := &table{header: []string{"side", "option", "weight"}, left: 2}
	for i, o := range m.Rows {
		weights.add(m.RowSide, o, pct(m.Eq.RowWeights[i]))
	}
	for i, o := range m.Cols {
		weights.add(m.ColSide, o, pct(m.Eq.ColWeights[i]))
	}
	render(weights)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	footnotes(w, m.Notes, md)
	return nil
}

// grid is the win-rate table: one row per row option, a column per column
// option (with its interval below in text, raw numbers in CSV).
func (m *Matrix) grid(raw bool) *table {
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
func MatrixFigure(m *Matrix) (*Figure, error) {
	if m.Encounters == 0 {
		return nil, ErrNoData
	}
	p := newPlot(fmt.Sprintf("%s win rate: %s options (down) against %s options (across)\n%s, seed %d, %s encounters per cell",
		m.RowSide, m.RowSide, m.ColSide, m.Scenario, m.Seed, thousands(m.Encounters)), m.ColSide+" option", m.RowSide+" option")
	h := cells{nx: len(m.Cols), ny: len(m.Rows), labels: true}
	for c := range m.Cols {
		for r := range m.Rows {
			h.v = append(h.v, 100*m.Win[r][c])
		}
	}
	p.Add(h)
	xs := make([]string, len(m.Cols))
	for c, o := range m.Cols {
		xs[c] = fmt.Sprintf("%s (%.0f%%)", o, 100*m.Eq.ColWeights[c])
	}
	ys := make([]string, len(m.Rows))
	for r, o := range m.Rows {
		ys[r] = fmt.Sprintf("%s (%.0f%%)", o, 100*m.Eq.RowWeights[r])
	}
	p.NominalX(xs...)
	p.NominalY(ys...)
	p.X.Padding, p.Y.Padding = 0, 0
	const barW = 1.25 * vg.Inch
	f := &Figure{Name: "matrix", W: 8 * vg.Inch, H: vg.Length(2+0.5*float64(len(m.Rows))) * vg.Inch,
		Caption: fmt.Sprintf("Heat map of the %s win rate in percent for each pairing of options; the equilibrium weight of each option is in brackets.", m.RowSide)}
	f.draw = func(dc draw.Canvas) {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		main := draw.Crop(dc, 0, -barW, 0, 0)
		p.Draw(main)
		colourBar(dc, p.DataCanvas(main), dc.Max.X-barW+vg.Points(14), m.RowSide+" win rate (%)")
	}
	return f, nil
}

// Tournament is the document `simctl tournament` writes.
type Tournament struct {
	Header
	Candidates []NamedSets `json:"candidates"`
	// First and Budget are the encounters of the first round and the most
	// a candidate plays (--first, -n), which a resume must share.
	First  int64 `json:"first_round_encounters,omitempty"`
	Budget int64 `json:"budget,omitempty"`
	experiment.TournamentResult
}

// Write renders the ranking in format f.
func (t *Tournament) Write(w io.Writer, f Format) error {
	switch f {
	case JSON:
		return writeJSON(w, t)
	case CSV:
		return t.ranking(true).csv(w)
	}
	md := f == Markdown
	var b strings.Builder
	total := int64(0)
	for _, e := range t.Entrants {
		total += e.Encounters
	}
	fmt.Fprintf(&b, "%s (%s), seed %d: %d options for %s ranked by successive elimination on common random numbers (%s encounters in all, %d round(s))\n\n",
		t.Scenario, t.Ruleset, t.Seed, max(len(t.Entrants), len(t.Candidates)), t.Side, thousands(total), len(t.Rounds))
	tab := t.ranking(false)
	if md {
		tab.markdown(&b)
	} else {
		tab.text(&b)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return err
	}
	notes := []string{"a candidate is dropped when its paired difference to the leader is below 0 with 95% confidence, Bonferroni-adjusted over the comparisons of that round; the difference shown is on the encounters both played"}
	if t.Interrupted {
		notes = append(notes, "interrupted: the ranking stands as of the last round that finished; simctl tournament ... --resume FILE with this tournament's JSON goes on from there")
	}
	footnotes(w, notes, md)
	return nil
}

// rankCells are entrant e's cells of a tournament's ranking, e at rank i+1:
// the round it went out after ("—" for none), and its difference to the
// best with the interval ("best" for the best itself).
func rankCells(i int, e *experiment.Standing) (out, diff, ci string) {
	out = "—"
	if e.Out > 0 {
		out = strconv.Itoa(e.Out)
	}
	diff = "best"
	if i > 0 {
		diff, ci = signedPP(e.Diff), ppCI(e.DiffCI[0], e.DiffCI[1])
	}
	return out, diff, ci
}

func (t *Tournament) ranking(raw bool) *table {
	tab := &table{header: []string{"rank", "option", "encounters", "win rate", "out after round", "vs best", "95% CI"}, left: 2}
	for i, e := range t.Entrants {
		out, diff, ci := rankCells(i, &e)
		if raw {
			tab.add(strconv.Itoa(i+1), e.Name, rawInt(e.Encounters), raw2(e.WinRate), strconv.Itoa(e.Out), raw2(e.Diff), "")
			continue
		}
		tab.add(strconv.Itoa(i+1), e.Name, thousands(e.Encounters), pct(e.WinRate), out, diff, ci)
	}
	return tab
}

func raw2(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
