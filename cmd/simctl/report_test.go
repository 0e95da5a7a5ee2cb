package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReport makes a report folder from a run, a sweep and a comparison,
// as a designer would, and checks what it holds. (The figures and the
// HTML's self-containment are checked in package reports; this is the
// command around them.)
func TestReport(t *testing.T) {
	dir := t.TempDir()
	run, sw, cmp, out := filepath.Join(dir, "run.json"), filepath.Join(dir, "sweep.json"), filepath.Join(dir, "cmp.json"), filepath.Join(dir, "report")
	for _, args := range [][]string{
		{"run", "d20/duel", "-n", "4000", "--seed", "5", "--set", "options.dying=srd", "--json", "-o", run},
		{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=0:4:2", "-n", "2000", "--format", "json", "-o", sw},
		{"compare", "d20/duel", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=5", "-n", "2000", "--results", cmp},
	} {
		if code, _, errOut := cli(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	inputs := []string{run, sw, cmp}
	if raceEnabled {
		inputs = inputs[:2] // fewer PNGs to render under -race
	}
	code, stdout, errOut := cli(t, append(append([]string{"report"}, inputs...), "-o", out)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("stderr: %s", errOut)
	}
	written := strings.Fields(stdout)
	want := []string{"report.md", "report.html", "fig1-rounds.png", "fig1-economy.png", "fig1-first.png",
		"fig1-trace-shortest.txt", "fig1-trace-median.txt", "fig1-trace-longest.txt", "fig2-sweep.png", "fig3-compare.png"}
	if raceEnabled {
		want = want[:len(want)-1]
	}
	for _, f := range want {
		p := filepath.Join(out, f)
		if _, err := os.Stat(p); err != nil || !contains(written, p) {
			t.Errorf("%s: %v (listed: %v)", f, err, contains(written, p))
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{
		"# Balance report: Fighter vs Orc",
		"dying: srd; surprise_ends_flat_footed: false (default)", // the run's ruleset options, read back from its scenario
		"| overrides | --set options.dying=srd |",
		"| seed | 5 |",
		"### Representative fights", "(fig1-trace-longest.txt)", // the run's extremes, replayed
		"simctl sweep d20/duel --vary heroes.Fighter.init=0:4:2 -n 2000 --format json -o " + sw,
		"simctl run d20/duel -n 2000 --seed 1 --set heroes.Fighter.init=0", // the first sweep point
		"```yaml\nname: Fighter vs Orc",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	d := xml.NewDecoder(bytes.NewReader(html))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("report.html is not well-formed: %v", err)
		}
		if s, ok := tok.(xml.StartElement); ok {
			for _, a := range s.Attr {
				if (a.Name.Local == "href" || a.Name.Local == "src") && !strings.HasPrefix(a.Value, "#") {
					t.Errorf("report.html refers to %q", a.Value)
				}
			}
			if s.Name.Local == "script" || s.Name.Local == "link" || s.Name.Local == "img" {
				t.Errorf("report.html has <%s>", s.Name.Local)
			}
		}
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	junk := tempFile(t, "junk.json", "not json")
	// A run whose scenario file is gone: the report shows the scenario
	// the result embeds, never opening the file.
	yaml := tempFile(t, "gone.yaml", strings.Replace(mustBuiltin(t), "Fighter vs Orc", "Gone", 1))
	res := filepath.Join(dir, "gone.json")
	if code, _, errOut := cli(t, "run", yaml, "-n", "300", "--json", "-o", res); code != 0 {
		t.Fatal(errOut)
	}
	os.Remove(yaml)
	// The same result without its scenario text (an older simctl): a
	// warning says what the report leaves out.
	old := filepath.Join(dir, "old.json")
	data, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "scenario_text")
	delete(doc, "scenario_sha256")
	data, _ = json.Marshal(doc)
	if err := os.WriteFile(old, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", junk}, exitUsage, "give the RESULT.json files and -o DIR"},
		{[]string{"report", "-o", dir}, exitUsage, "give the RESULT.json files and -o DIR"},
		{[]string{"report", junk, "-o", dir}, exitFailure, "not a simctl JSON document"},
		{[]string{"report", res, "-o", filepath.Join(dir, "r")}, exitOK, ""},
		{[]string{"report", old, "-o", filepath.Join(dir, "o")}, exitOK, "warning: " + old + ": the result carries no scenario text"},
	} {
		code, _, errOut := cli(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, errOut, c.want)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "r", "report.md"))
	if err != nil || !strings.Contains(string(md), "name: Gone") {
		t.Errorf("the report of a run whose file is gone lacks its embedded scenario (%v)", err)
	}
}

func mustBuiltin(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../scenarios/d20/duel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Names are printable but may hold HTML and Markdown: the report escapes
// them everywhere (no <script> in report.html or report.md, no table row
// broken), and a second report in the folder clears the first's figures.
func TestReportEscapesNamesAndClearsOldFigures(t *testing.T) {
	oneGoroutineUnderRace(t)
	yaml := strings.NewReplacer("name: Fighter vs Orc", `name: "<script>alert(1)</script> *x* [a](http://e)"`,
		"name: Fighter", "name: \"Fi`ghter<b>\"").Replace(mustBuiltin(t))
	scen := tempFile(t, "evil.yaml", yaml+"# ``` fence breaker\n")
	dir := t.TempDir()
	sw := filepath.Join(dir, "sweep.json")
	if code, _, errOut := cli(t, "sweep", scen, "-n", "200", "--vary", "heroes.Fi`ghter<b>.init=1,2", "--format", "json", "-o", sw); code != 0 {
		t.Fatal(errOut)
	}
	run := filepath.Join(dir, "run.json")
	if code, _, errOut := cli(t, "run", scen, "-n", "200", "--json", "-o", run); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(dir, "rep")
	if code, _, errOut := cli(t, "report", sw, "-o", out); code != 0 {
		t.Fatal(errOut)
	}
	figs := func() []string {
		var fs []string
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".png") {
				fs = append(fs, e.Name())
			}
		}
		return fs
	}
	first := figs()
	os.WriteFile(filepath.Join(out, "mine.txt"), []byte("keep"), 0o644)
	if code, _, errOut := cli(t, "report", run, "-o", out); code != 0 {
		t.Fatal(errOut)
	}
	for _, f := range first {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil && !slices.Contains(figs(), f) {
			t.Errorf("old figure %s left beside the new report", f)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "mine.txt")); err != nil {
		t.Error("the report removed a file it did not write")
	}
	for _, name := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if name == "report.md" {
			// The scenario file is shown verbatim inside its code fence.
			text, _, _ = strings.Cut(text, "<details>")
			if strings.Contains(text, "[a](http") {
				t.Errorf("%s: a name became a link", name)
			}
		}
		if strings.Contains(text, "<script") || strings.Contains(text, "<b>") {
			t.Errorf("%s carries a name unescaped", name)
		}
		if name == "report.md" && !strings.Contains(string(b), "````yaml") {
			t.Errorf("report.md: the scenario's ``` would close its code fence")
		}
	}
}

// The report's representative fights are the run's extremes, replayed
// exactly as simctl trace prints them (the command on the first line
// replays the same fight).
func TestReportTracesAreTheExtremes(t *testing.T) {
	oneGoroutineUnderRace(t)
	dir := t.TempDir()
	run, out := filepath.Join(dir, "run.json"), filepath.Join(dir, "report")
	if code, _, errOut := cli(t, "run", "d20/duel", "-n", "3000", "--seed", "4", "--json", "-o", run); code != 0 {
		t.Fatalf("run: %d %s", code, errOut)
	}
	if code, _, errOut := cli(t, "report", run, "-o", out); code != 0 {
		t.Fatalf("report: %d %s", code, errOut)
	}
	for _, which := range []string{"shortest", "longest"} {
		data, err := os.ReadFile(filepath.Join(out, "fig1-trace-"+which+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		first, rest, _ := strings.Cut(string(data), "\n")
		args := strings.Fields(strings.TrimPrefix(first, "# simctl "))
		code, traced, errOut := cli(t, args...)
		if code != 0 || traced != rest {
			t.Errorf("%s: %s does not replay the same fight (exit %d, %s)", which, first, code, errOut)
		}
		_, metric, _ := cli(t, "trace", "d20/duel", "--seed", "4", "-n", "3000", "--pick", map[string]string{"shortest": "min", "longest": "max"}[which], "--metric", "rounds")
		if !strings.HasSuffix(metric, rest) {
			t.Errorf("%s: the report's fight is not trace --pick's", which)
		}
	}
}

// TestReportAnalysisDocuments runs value, matrix and tournament at small N
// and makes a report of their JSON: each is a section with its command,
// its tables, its figure and the scenario it ran, which the document
// itself carries (the scenario file is gone by report time).
func TestReportAnalysisDocuments(t *testing.T) {
	dir := t.TempDir()
	yaml := tempFile(t, "duel.yaml", strings.Replace(mustBuiltin(t), "Fighter vs Orc", "Temporary duel", 1))
	v, m, tr, out := filepath.Join(dir, "v.json"), filepath.Join(dir, "m.json"), filepath.Join(dir, "t.json"), filepath.Join(dir, "report")
	for _, args := range [][]string{
		{"value", yaml, "--params", "init,hp", "-n", "1500", "--seed", "4", "--format", "json", "-o", v},
		{"matrix", "cavaliers/duel", "-n", "1000", "--row", "impulse=--set heroes.Cavalier.specialty=impulse", "--row", "timing=--set heroes.Cavalier.specialty=timing",
			"--col", "none=", "--col", "vigilance=--set rivals.Rival.specialty=vigilance", "--results", m},
		{"tournament", "d20/tactics-combo", "-n", "2000", "--first", "500", "--vary", "heroes.Wizard.tactics.params.crowd=1:3:1", "--results", tr},
	} {
		if code, _, errOut := cli(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	os.Remove(yaml)
	code, stdout, errOut := cli(t, "report", v, m, tr, "-o", out)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, f := range []string{"report.md", "report.html", "fig1-tornado.png", "fig2-matrix.png"} {
		p := filepath.Join(out, f)
		if _, err := os.Stat(p); err != nil || !contains(strings.Fields(stdout), p) {
			t.Errorf("%s: %v (listed in %q)", f, err, stdout)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{
		"# Balance report\n",
		"## 1. Temporary duel: what each parameter of heroes is worth",
		"simctl value " + yaml + " --params init,hp -n 1500 --seed 4 --format json -o " + v,
		"### Exchange rates", "### One at a time (tornado)", "(fig1-tornado.png)",
		"```yaml\nname: Temporary duel", // from the document: the file is gone
		"## 2. Cavalier vs Rival: matrix of heroes options against rivals options",
		"raise_on: 6; spend: budget", // the ruleset options in effect
		"### Win rate of heroes for each pairing", "### Equilibrium: value", "(fig2-matrix.png)",
		"## 3. Braced spears, a focused blast, and a finisher: tournament of 3 options for heroes",
		"### Ranking", "### Stages", "| 1 | 500 | 500 |",
		"| scenario SHA-256 | ",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	// A document edited after the fact (its scenario text no longer the
	// one its SHA-256 names) is refused, not reported.
	data, _ := os.ReadFile(m)
	bad := filepath.Join(dir, "edited.json")
	os.WriteFile(bad, bytes.Replace(data, []byte("name: Cavalier vs Rival"), []byte("name: Cavalier vs Rivals"), 1), 0o644)
	if code, _, errOut := cli(t, "report", bad, "-o", filepath.Join(dir, "r2")); code != exitFailure || !strings.Contains(errOut, "the file was edited") {
		t.Errorf("edited matrix: exit %d, stderr %q", code, errOut)
	}
}
