package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/experiment"
)

func fixtureContext() *results.Context {
	text := "name: Fighter vs Orc\nruleset: d20\n"
	return &results.Context{ScenarioYAML: text, ScenarioSHA256: results.ScenarioSum([]byte(text)), RosterSides: []int{0, 1},
		Options: []results.OptionValue{{Name: "dying", Value: "out-at-0", Default: true}}}
}

// fixtureValueDoc is fixtureValue as the value command writes it: with its
// command, parameters and scenario context.
func fixtureValueDoc() *results.Value {
	v := fixtureValue()
	v.File, v.Command, v.Context = "builtin:d20/duel.yaml", "simctl value d20/duel -n 20000 --seed 7 --params init,hp,ac --step hp=2", fixtureContext()
	v.ScenarioSHA256 = v.Context.ScenarioSHA256
	v.Params = []results.ValueParam{
		{Name: "init", Step: 1, Down: []string{"heroes.Fighter.init=0"}, Up: []string{"heroes.Fighter.init=2"}},
		{Name: "hp", Step: 2, Down: []string{"heroes.Fighter.hp=18"}, Up: []string{"heroes.Fighter.hp=22"}},
		{Name: "ac", Step: 1, Down: []string{"heroes.Fighter.ac=16"}, Up: []string{"heroes.Fighter.ac=18"}},
	}
	return v
}

// fixtureMatrixDoc is a merge of matrix shards (no command recorded),
// with an option name a Markdown or HTML page must not interpret.
func fixtureMatrixDoc() *results.Matrix {
	m := fixtureMatrix()
	m.File, m.Version = "builtin:cavaliers/duel.yaml", "0.1.0+test"
	m.Cols[2] = "<b>timing</b>"
	m.RowOptions = []results.NamedSets{{Name: "impulse", Sets: []string{"heroes.Cavalier.specialty=impulse"}},
		{Name: "vigilance", Sets: []string{"heroes.Cavalier.specialty=vigilance"}}, {Name: "timing", Sets: []string{"heroes.Cavalier.specialty=timing"}}}
	m.ColOptions = []results.NamedSets{{Name: "impulse", Sets: []string{"rivals.Rival.specialty=impulse"}},
		{Name: "vigilance", Sets: []string{"rivals.Rival.specialty=vigilance"}}, {Name: "<b>timing</b>", Sets: []string{"rivals.Rival.specialty=timing"}}}
	return m
}

// fixtureTournament is an interrupted tournament: two stages finished, one
// candidate out after stage 1. Its state is made by the selection's own
// Apply from stage sums written here, so its standings are consistent.
func fixtureTournament() *results.Tournament {
	t := &results.Tournament{Header: results.Header{Kind: "tournament", Scenario: "Braced spears", File: "builtin:d20/tactics-combo.yaml", Ruleset: "d20", Seed: 3,
		Version: "0.1.0+test", Command: "simctl tournament d20/tactics-combo --vary heroes.Wizard.tactics.params.crowd=1:3:1 -n 8000 --first 1000 --seed 3",
		Interrupted: true}, Format: results.TournamentFormat}
	for _, c := range []string{"1", "2", "3"} {
		s := "heroes.Wizard.tactics.params.crowd=" + c
		t.Options = append(t.Options, results.NamedSets{Name: s, Sets: []string{s}})
	}
	st, err := experiment.NewSelectState(3, experiment.SelectParams{First: 1000, Batch: 2000, Budget: 8000})
	if err != nil {
		panic(err)
	}
	for _, s := range []*experiment.StageSums{
		{Alive: []int{0, 1, 2}, Ranges: []sim.Range{{Lo: 0, Hi: 1000}}, Wins: []int64{640, 690, 700}, Only: [][2]int64{{20, 70}, {10, 70}, {40, 50}}},
		{Alive: []int{1, 2}, Ranges: []sim.Range{{Lo: 1000, Hi: 3000}}, Wins: []int64{1360, 1373}, Only: [][2]int64{{90, 103}}},
	} {
		if err := st.Apply(s); err != nil {
			panic(err)
		}
	}
	t.Selection = *st.Result(t.Names(), "heroes")
	return t
}

func analysisBundle() *Bundle {
	return &Bundle{Section: shipped, Title: "Balance analysis", Version: "0.1.0+test", Command: "simctl report value.json matrix.json tournament.json -o out",
		Inputs: []*results.Input{{Path: "value.json", Value: fixtureValueDoc()}, {Path: "matrix.json", Matrix: fixtureMatrixDoc()}, {Path: "tournament.json", Tournament: fixtureTournament()}}}
}

// TestGoldenAnalysisReport: the report sections of value, matrix and
// tournament documents, in Markdown, against testdata/report-analysis.md
// (-update rewrites it).
func TestGoldenAnalysisReport(t *testing.T) {
	b := analysisBundle()
	var secs []*Section
	for i, in := range b.Inputs {
		s, err := b.section(i+1, in)
		if err != nil {
			t.Fatal(err)
		}
		secs = append(secs, s)
	}
	var md bytes.Buffer
	b.markdown(&md, secs)
	golden(t, "report-analysis.md", md.Bytes())
	got := md.String()
	for _, want := range []string{
		"simctl value d20/duel -n 20000 --seed 7 --params init,hp,ac --step hp=2", // the recorded command
		// A merge records no command: the report rebuilds the one-process command.
		"simctl matrix cavaliers/duel -n 20000 --seed 1 --side heroes --row 'impulse=--set heroes.Cavalier.specialty=impulse'",
		"### Exchange rates", "### One at a time (tornado)", "(fig1-tornado.png)",
		"### Dominated options", "### Equilibrium: value", "with at least 95% confidence", "(fig2-matrix.png)",
		"### Ranking", "### Stages", "Not finished: 2 options left", "Warning: the tournament was interrupted",
		"| scenario SHA-256 | " + fixtureContext().ScenarioSHA256 + " |",
		"```yaml\nname: Fighter vs Orc",
		"&lt;b&gt;timing&lt;/b&gt;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	// Outside code blocks (where Markdown shows text as it is), no name's
	// HTML gets through.
	for i, part := range strings.Split(got, "```") {
		if i%2 == 0 && strings.Contains(part, "<b>") {
			t.Errorf("report.md passes an option name's HTML through: %q", part)
		}
	}
}

// TestAnalysisBundleFiles writes the report of value, matrix and
// tournament documents: the tornado and the heat map as PNG and inline
// SVG, the page self-contained, names escaped.
func TestAnalysisBundleFiles(t *testing.T) {
	dir := t.TempDir()
	files, err := analysisBundle().Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"report.md", "report.html", "fig1-tornado.png", "fig2-matrix.png"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", files, want)
	}
	h, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSelfContained(h); err != nil {
		t.Error(err)
	}
	if n := bytes.Count(h, []byte("<svg ")); n != 2 {
		t.Errorf("%d inline SVG figures, want 2", n)
	}
	for _, w := range []string{"<h3>Ranking</h3>", "<h3>Stages</h3>", "&lt;b&gt;timing&lt;/b&gt;", "<h3>Exchange rates</h3>"} {
		if !bytes.Contains(h, []byte(w)) {
			t.Errorf("report.html lacks %q", w)
		}
	}
}

// TestAnalysisStatusNotes: a shard, an incomplete merge and an interrupted
// run are each marked in their section, never read as the whole.
func TestAnalysisStatusNotes(t *testing.T) {
	b := &Bundle{Section: shipped}
	v := fixtureValueDoc()
	v.Shard = &results.Shard{K: 1, Of: 4, Start: 5000, N: 5000, Total: 20000}
	s, err := b.section(1, &results.Input{Path: "v.json", Value: v})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(s.notes, "\n"); !strings.Contains(n, "shard 2 of 4") || !strings.Contains(n, "simctl merge") {
		t.Errorf("shard not marked: %q", n)
	}
	m := fixtureMatrixDoc()
	m.Incomplete = true
	s, err = b.section(1, &results.Input{Path: "m.json", Matrix: m})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(s.notes, "\n"); !strings.Contains(n, "incomplete") || len(s.commands) != 0 {
		t.Errorf("incomplete merge: notes %q, commands %q (no command reproduces a partial merge)", n, s.commands)
	}
	v = fixtureValueDoc()
	v.Interrupted, v.Unplayed = true, [][2]int64{{100, 200}}
	s, err = b.section(1, &results.Input{Path: "v.json", Value: v})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(s.notes, "\n"); !strings.Contains(n, "interrupted") || !strings.Contains(n, "100..199") {
		t.Errorf("interrupted not marked: %q", n)
	}
}

// TestMdNoteNamesCannotOpenHTML: a name with an escaped backtick or a run
// of backticks, put in a note's code span, would pair otherwise in
// CommonMark than mdNote's one-by-one split and leave its tag raw; such a
// note is escaped whole.
func TestMdNoteNamesCannotOpenHTML(t *testing.T) {
	for _, name := range []string{"\\`<img src=x onerror=alert(1)>`", "``<b>x</b>``", "a`` <i>"} {
		out := mdNote("option `" + name + "` is dominated")
		if strings.Contains(out, "<img") || strings.Contains(out, "<b>") || strings.Contains(out, "<i>") {
			t.Errorf("name %q: the note keeps raw HTML: %s", name, out)
		}
	}
	if got := mdNote("run `simctl run x.yaml` again"); got != "run `simctl run x.yaml` again" {
		t.Errorf("a plain code span changed: %s", got)
	}
}
