package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/stats"
)

func fixtureBundle(t *testing.T) (*Bundle, string) {
	t.Helper()
	dir := t.TempDir()
	r := fixtureResult(10000, 0.6, 0.01, []string{"heroes.Fighter.init=3"})
	ctx := &results.Context{ScenarioYAML: "name: Fighter vs Orc\nruleset: d20\n", RosterSides: []int{0, 1},
		Options: []results.OptionValue{{Name: "dying", Value: "out-at-0", Default: true}, {Name: "confirm_crits", Value: "false"}}}
	sw := fixtureSweep1()
	sw.Context = ctx
	c := fixtureCompare()
	c.Context = ctx
	if raceEnabled {
		c.Options = c.Options[:2] // fewer PNGs to render under -race
		c.Finish([][2]stats.Paired{{}, {c.Options[1].Diff[0].Paired, c.Options[1].Diff[1].Paired}})
	}
	b := &Bundle{Section: shipped, Title: "Balance report: Fighter vs Orc", Version: "0.1.0+test", Command: "simctl report run.json sweep.json compare.json -o out",
		Inputs: []*results.Input{{Path: "run.json", Run: r, Context: ctx}, {Path: "sweep.json", Sweep: sw}, {Path: "compare.json", Compare: c}}}
	return b, dir
}

// TestBundle writes one report folder and checks it (it is slow to
// render, so the checks share it).
func TestBundle(t *testing.T) {
	b, dir := fixtureBundle(t)
	files, err := b.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("files", func(t *testing.T) { checkBundleFiles(t, dir, files) })
	t.Run("html", func(t *testing.T) { checkBundleHTML(t, dir) })
}

// checkBundleFiles: the folder holds report.md, report.html and a PNG of
// every figure the Markdown links to.
func checkBundleFiles(t *testing.T, dir string, files []string) {
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	pngs := 0
	for _, f := range files {
		if !strings.HasSuffix(f, ".png") {
			continue
		}
		pngs++
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if !bytes.Contains(md, []byte("("+f+")")) {
			t.Errorf("report.md does not show %s", f)
		}
	}
	// run: 3 figures; sweep: 1; compare: 1 (not each option's run figures
	// again).
	if pngs != 3+1+1 {
		t.Errorf("%d PNG figures: %v", pngs, files)
	}
	// Everything a reader needs to reproduce the numbers.
	for _, want := range []string{
		"Fighter vs Orc (builtin:d20/duel.yaml)",          // scenario
		"dying: out-at-0 (default); confirm_crits: false", // ruleset options
		"| seed | 7 |", "| simctl version | 0.1.0 |", "10,000 (encounter indices 0..9999)", // seed, version, N
		"Wilson score interval, 95%", results.PairedMethod, // interval methods
		"simctl run d20/duel -n 10000 --seed 7", // the run's command
		"simctl sweep d20/duel --vary heroes.Fighter.init=-4:8:2 -n 10000 --seed 7",
		"simctl run d20/duel -n 10000 --seed 7 --set heroes.Fighter.init=-4", // a sweep point
		"--set heroes.Fighter.init=3",                                        // overrides
		"| heroes | 5,940 | 59.40% | [58.43%, 60.36%] |",                     // win-rate table
		"### Who acts first", "### Action economy", "Rounds to finish",
		"| counter | side | base | Δ init+4 | 95% CI (paired) |", // the comparison's economy changes with intervals
		"```yaml\nname: Fighter vs Orc",                          // scenario text
		"simctl report run.json sweep.json compare.json -o out",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// checkBundleHTML: report.html is well-formed XHTML (strict XML),
// inlines every figure as SVG, and refers to nothing outside itself: no
// http(s) or file URL in src, href or xlink:href, no script, no linked
// style sheet, no url() or @import.
func checkBundleHTML(t *testing.T, dir string) {
	data, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSelfContained(data); err != nil {
		t.Error(err)
	}
	if n, want := bytes.Count(data, []byte("<svg ")), 5; n != want {
		t.Errorf("%d inline SVG figures, want %d", n, want)
	}
	for _, want := range []string{"<h3>Reproduce</h3>", "Fighter vs Orc (builtin:d20/duel.yaml)", "dying: out-at-0 (default)", "Who acts first"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// The checker itself catches what it is for.
	for _, bad := range []string{
		`<html><body><img src="http://example.com/x.png"/></body></html>`,
		`<html><head><link rel="stylesheet" href="style.css"/></head></html>`,
		`<html><body><script>alert(1)</script></body></html>`,
		`<html><body><svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://x/y.png"/></svg></body></html>`,
		`<html><head><style>body { background: url(https://x/y.png) }</style></head></html>`,
		`<html><body><p>unclosed</body></html>`,
		`<html><body><p>&nbsp;</p></body></html>`,
	} {
		if checkSelfContained([]byte(bad)) == nil {
			t.Errorf("not caught: %s", bad)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func checkSelfContained(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = x.Name.Local
			}
			switch strings.ToLower(x.Name.Local) {
			case "script", "link", "iframe", "object", "embed", "img", "audio", "video", "source", "base":
				return fmt.Errorf("<%s> element: the report must fetch nothing", x.Name.Local)
			}
			for _, a := range x.Attr {
				n := strings.ToLower(a.Name.Local)
				if n == "src" || n == "href" || n == "srcset" || n == "action" || n == "data" {
					v := strings.TrimSpace(a.Value)
					if !strings.HasPrefix(v, "#") && !strings.HasPrefix(v, "data:") {
						return fmt.Errorf("<%s %s=%q>: an external reference", x.Name.Local, a.Name.Local, v)
					}
				}
				if n == "style" && (strings.Contains(a.Value, "url(") || strings.Contains(a.Value, "@import")) {
					return fmt.Errorf("<%s style=%q>: an external reference", x.Name.Local, a.Value)
				}
			}
		case xml.CharData:
			s := string(x)
			if strings.Contains(s, "@import") || (strings.Contains(s, "url(") && !strings.Contains(s, "url(data:")) {
				return fmt.Errorf("text %q: a style sheet fetching something", s)
			}
		}
	}
	if root != "html" {
		return fmt.Errorf("root element %q, want html", root)
	}
	return nil
}

func TestReadInputKinds(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, w func(io.Writer) error) string {
		p := filepath.Join(dir, name)
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, b.Bytes(), 0o644)
		return p
	}
	r := fixtureResult(1000, 0.5, 0, nil)
	c := fixtureCompare()
	// A difference with no spread at all has an infinite reduction factor:
	// JSON has no Inf, so it travels as null.
	c.Options[1].Diff[0].VarianceReduction = Num(math.Inf(1))
	for _, x := range []struct {
		path string
		kind string
	}{
		{write("run.json", r.WriteJSON), "run"},
		{write("sweep.json", func(w io.Writer) error { return WriteSweep(fixtureSweep2(), w, JSON, i18n.En) }), "sweep"},
		{write("compare.json", func(w io.Writer) error { return WriteCompare(c, w, JSON, i18n.En) }), "compare"},
	} {
		in, err := results.ReadInput(x.path)
		if err != nil {
			t.Fatalf("%s: %v", x.path, err)
		}
		got := map[bool]string{in.Run != nil: "run", in.Sweep != nil: "sweep", in.Compare != nil: "compare"}[true]
		if got != x.kind {
			t.Errorf("%s read as %s", x.path, got)
		}
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"kind": "banana"}`), 0o644)
	if _, err := results.ReadInput(bad); err == nil || !strings.Contains(err.Error(), "banana") {
		t.Errorf("unknown kind: %v", err)
	}
}
