package reports

import (
	"fmt"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// SectionFunc builds the section of a report that a document of one kind
// gets: k is its number in the report (its title's, and its files'
// fig3-...), l the report's language, in the document as read (the
// kind's field of results.Input, or Input.Doc for a registered kind).
// A kind of analysis names its SectionFunc in its table entry
// (cmd/simctl/app.Analysis.Section), which Bundle.Section looks up.
type SectionFunc func(l i18n.Lang, k int, in *results.Input) (*Section, error)

// NewSection starts section k of a report, titled title.
func NewSection(k int, title string) *Section {
	s := newSection(k)
	s.title = title
	return s
}

func newSection(k int) *Section {
	return &Section{id: fmt.Sprintf("s%d", k), prefix: fmt.Sprintf("fig%d-", k)}
}

// Answer sets the lines the section opens with (and the report's
// summary its first): what the document answers, as prose.
func (s *Section) Answer(lines ...string) { s.answer = lines }

// Fact adds a line to the section's list of how the numbers were made.
func (s *Section) Fact(label, value string) { s.facts = append(s.facts, [2]string{label, value}) }

// Command adds a command line that reproduces the section's numbers.
func (s *Section) Command(line string) { s.commands = append(s.commands, line) }

// Table adds a table: its title, header and rows, the first left
// columns left-aligned (names; the rest are numbers), and notes under it.
func (s *Section) Table(title string, header []string, rows [][]string, left int, notes ...string) {
	t := &table{header: header, left: left}
	for _, r := range rows {
		t.add(r...)
	}
	s.tables = append(s.tables, titled{title: title, t: t, notes: notes})
}

// Figure adds a figure; its file is named after the section (fig3-NAME).
func (s *Section) Figure(f *Figure) {
	f.Name = s.prefix + f.Name
	s.figures = append(s.figures, f)
}

// Note adds a note under the section's tables.
func (s *Section) Note(text string) { s.notes = append(s.notes, text) }

// Scenario sets the scenario YAML the section shows.
func (s *Section) Scenario(yaml string) { s.scenario = yaml }

// Trace adds a replayed fight, written beside the report
// (fig3-trace-NAME.txt).
func (s *Section) Trace(tr results.FightTrace) {
	s.traces = append(s.traces, namedTrace{tr, s.prefix + "trace-" + tr.Name + ".txt"})
}

// The sections of the documents simctl's analyses write, as their table
// entries name them.

// SweepSection is a sweep's section: its table and curve.
func SweepSection(l i18n.Lang, k int, in *results.Input) (*Section, error) {
	s := newSection(k)
	(&Bundle{Lang: l}).sweepSection(s, k, in.Sweep, s.prefix)
	return s, nil
}

// CompareSection is a comparison's section: its answer, tables and
// figure.
func CompareSection(l i18n.Lang, k int, in *results.Input) (*Section, error) {
	s := newSection(k)
	(&Bundle{Lang: l}).compareSection(s, k, in.Compare, s.prefix)
	s.answer = compareAnswerLines(in.Compare, l)
	return s, nil
}

// ValueSection is a value run's section: its rates, swings and tornado.
func ValueSection(l i18n.Lang, k int, in *results.Input) (*Section, error) {
	s := newSection(k)
	(&Bundle{Lang: l}).valueSection(s, k, in.Value, s.prefix)
	s.answer = valueAnswer(in.Value, l)
	return s, nil
}

// MatrixSection is a matrix's section: its grid, dominated options and
// equilibrium.
func MatrixSection(l i18n.Lang, k int, in *results.Input) (*Section, error) {
	s := newSection(k)
	(&Bundle{Lang: l}).matrixSection(s, k, in.Matrix, s.prefix)
	s.answer = matrixAnswer(in.Matrix, l)
	return s, nil
}

// TournamentSection is a tournament's section: its ranking and stages.
func TournamentSection(l i18n.Lang, k int, in *results.Input) (*Section, error) {
	s := newSection(k)
	(&Bundle{Lang: l}).tournamentSection(s, k, in.Tournament)
	s.answer = tournamentAnswer(in.Tournament, l)
	return s, nil
}

// OptimizeSection is an optimization's section: its answer and
// guarantee, ranking, figures and the best candidate's median fight
// (in.Traces).
func OptimizeSection(l i18n.Lang, k int, in *results.Input) (*Section, error) {
	s := newSection(k)
	(&Bundle{Lang: l}).optimizeSection(s, k, in.Optimize, s.prefix)
	for _, tr := range in.Traces {
		s.Trace(tr)
	}
	s.answer = optimizeAnswer(in.Optimize, l)
	return s, nil
}
