package main

// A new analysis kind, "toy-wins", written and registered entirely from
// this test file, as docs/CONTRIBUTING-analyses.md walks through: its
// table entry (flags with defaults, the lab's check, play, merge,
// renderer), its experiment (here a run, counted one way) and its
// document. Nothing outside this file names it; the CLI runs it by its
// name, simctl merge adds its documents, simctl report gives them their
// section, and the lab plays it as a job and archives its report.

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim/msg"
)

// toyDoc is the toy's document: how often a side won with at least a
// given number of hit points left (its winner's).
type toyDoc struct {
	Kind       string `json:"kind"` // "toy-wins"
	Command    string `json:"command"`
	Side       string `json:"side"`
	MinHP      int    `json:"min_hp"`
	Encounters int64  `json:"encounters"`
	Wins       int64  `json:"wins"`
}

var toyOnce, noSectionOnce sync.Once

// registerOnce registers the toy without a section once (the test may
// run more than once: -count).
func registerOnce(a *app.Analysis) { noSectionOnce.Do(func() { app.Register(a) }) }

// checkToyReport checks that the report in dir says each of want in
// its Markdown and in its HTML.
func checkToyReport(t *testing.T, dir string, want []string) {
	t.Helper()
	for _, name := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if name == "report.html" {
			text = html.UnescapeString(text)
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not say %q:\n%s", name, w, text)
			}
		}
	}
}

func registerToy() {
	toyOnce.Do(func() {
		app.Register(&app.Analysis{
			Name:    "toy-wins",
			Summary: "how often a side wins with hit points to spare",
			Flags: []app.Flag{
				{Name: "side", Field: "side", Usage: "`NAME` the side counted (default: the first)"},
				{Name: "min-hp", Type: app.Int, Default: "3", Usage: "`HP` count only the wins whose winner has at least HP left"},
			},
			Check: func(f *app.Form) (int64, msg.Text, msg.Text) {
				return 1, msg.New("encounters"), msg.Text{}
			},
			Play:   playToy,
			Decode: func(path string, data []byte) (any, error) { var d toyDoc; return &d, json.Unmarshal(data, &d) },
			Merge: func(docs []any, _ []string) (*app.Merged, error) {
				m := *docs[0].(*toyDoc)
				for _, d := range docs[1:] {
					m.Encounters += d.(*toyDoc).Encounters
					m.Wins += d.(*toyDoc).Wins
				}
				return &app.Merged{Doc: &m}, nil
			},
			// Its section in a report: the answer, how it was made, a
			// table.
			Section: func(l i18n.Lang, k int, in *results.Input) (*reports.Section, error) {
				d := in.Doc.(*toyDoc)
				s := reports.NewSection(k, fmt.Sprintf("%d. Wins with %d hp to spare", k, d.MinHP))
				s.Answer(fmt.Sprintf("%s won %d of %d encounters with at least %d hp left.", d.Side, d.Wins, d.Encounters, d.MinHP))
				s.Fact("encounters", strconv.FormatInt(d.Encounters, 10))
				s.Command(d.Command)
				s.Table("Toy wins", []string{"side", "wins", "encounters"},
					[][]string{{d.Side, strconv.FormatInt(d.Wins, 10), strconv.FormatInt(d.Encounters, 10)}}, 1, "Counted from the winners' hit points left.")
				return s, nil
			},
			Write: func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error {
				d := doc.(*toyDoc)
				if f == reports.JSON {
					return results.WriteJSON(w, d)
				}
				_, err := fmt.Fprintf(w, "%s won %d of %d encounters with at least %d hp left\n", d.Side, d.Wins, d.Encounters, d.MinHP)
				return err
			},
		})
	})
}

// playToy is the toy's experiment: a run, whose histogram of the winners'
// hit points left, per side, gives the count.
func playToy(ctx context.Context, c *app.Common, f *app.Form, obs *app.Observer) (*app.Done, error) {
	k := app.Lookup("toy-wins")
	minHP, err := strconv.Atoi(k.Get(f, "min-hp"))
	if err != nil {
		return nil, err
	}
	ran, err := app.Run(ctx, &app.RunRequest{Source: c.Source, Sets: c.Sets, Seed: c.Seed, N: c.N, Workers: c.Workers, Command: c.Command}, obs)
	if err != nil {
		return nil, err
	}
	r := ran.Result
	si := 0
	if side := k.Get(f, "side"); side != "" {
		for i, s := range r.Sides {
			if s.Name == side {
				si = i
			}
		}
	}
	doc := &toyDoc{Kind: "toy-wins", Command: c.Command, Side: r.Sides[si].Name, MinHP: minHP, Encounters: r.Encounters}
	doc.Wins = hpAtLeast(r.Raw.WinnerHP[si], minHP)
	return &app.Done{Doc: doc, Interrupted: r.Interrupted}, nil
}

// hpAtLeast counts the entries of h of at least v.
func hpAtLeast(h results.HistRaw, v int) int64 {
	n := h.Over
	for x, c := range h.Counts {
		if x >= v {
			n += c
		}
	}
	return n
}

// toyWant is the exact count from simctl run's own document.
func toyWant(t *testing.T, seed string, minHP int) int64 {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"run", "d20/duel", "-n", "300", "--seed", seed, "--json"}, &out, &errb); code != 0 {
		t.Fatalf("simctl run: exit %d: %s", code, errb.String())
	}
	var r results.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	want := hpAtLeast(r.Raw.WinnerHP[0], minHP)
	if want == 0 || want == r.Sides[0].Wins {
		t.Fatalf("at least %d hp left: %d of %d wins; pick a bound that separates them", minHP, want, r.Sides[0].Wins)
	}
	return want
}

func TestToyAnalysisKind(t *testing.T) {
	registerToy()
	ctx := context.Background()
	want1, want2 := toyWant(t, "1", 8), toyWant(t, "2", 8)

	// The CLI: the kind's own flags (--min-hp), the common ones, each
	// format through the kind's renderer.
	dir := t.TempDir()
	var docs []string
	for _, seed := range []string{"1", "2"} {
		p := filepath.Join(dir, "toy"+seed+".json")
		var out, errb bytes.Buffer
		args := []string{"toy-wins", "d20/duel", "-n", "300", "--seed", seed, "--side", "heroes", "--min-hp", "8", "--format", "json", "-o", p}
		if code := Main(ctx, args, &out, &errb); code != 0 {
			t.Fatalf("simctl %v: exit %d: %s", args, code, errb.String())
		}
		docs = append(docs, p)
	}
	var d toyDoc
	data, _ := os.ReadFile(docs[0])
	if err := json.Unmarshal(data, &d); err != nil || d.Wins != want1 || d.Encounters != 300 || d.MinHP != 8 || d.Side != "heroes" {
		t.Fatalf("simctl toy-wins: %+v (%v), want %d wins of 300 with 8 hp left", d, err, want1)
	}
	var text, errb bytes.Buffer
	if code := Main(ctx, []string{"toy-wins", "d20/duel", "-n", "300", "--seed", "1", "--min-hp", "8"}, &text, &errb); code != 0 ||
		text.String() != fmt.Sprintf("heroes won %d of 300 encounters with at least 8 hp left\n", want1) {
		t.Fatalf("simctl toy-wins (text): exit %d: %q %s", code, text.String(), errb.String())
	}
	// Its help: the table's summary and flags, and a line in the overview.
	var help bytes.Buffer
	if code := Main(ctx, []string{"help", "toy-wins", "--lang", "en"}, &help, &errb); code != 0 ||
		!strings.Contains(help.String(), "simctl toy-wins — how often a side wins with hit points to spare") ||
		!strings.Contains(help.String(), "--min-hp HP") || !strings.Contains(help.String(), "(default 3)") {
		t.Fatalf("simctl help toy-wins: exit %d:\n%s%s", code, help.String(), errb.String())
	}
	help.Reset()
	if Main(ctx, []string{"help", "--lang", "en"}, &help, &errb); !strings.Contains(help.String(), "simctl toy-wins SCENARIO [--side NAME] [--min-hp HP]") {
		t.Fatalf("simctl help lists no toy-wins:\n%s", help.String())
	}
	// A flag the kind does not have is the CLI's usual refusal.
	errb.Reset()
	if code := Main(ctx, []string{"toy-wins", "d20/duel", "--vary", "x=1:2"}, io.Discard, &errb); code != exitUsage || !strings.Contains(errb.String(), "-vary") {
		t.Fatalf("simctl toy-wins --vary: exit %d: %s", code, errb.String())
	}

	// merge reads the kind's documents (results.ParseInput through the
	// table's Decode) and adds them with its Merge.
	var merged bytes.Buffer
	errb.Reset()
	if code := Main(ctx, append([]string{"merge", "--format", "json"}, docs...), &merged, &errb); code != 0 {
		t.Fatalf("simctl merge: exit %d: %s", code, errb.String())
	}
	if err := json.Unmarshal(merged.Bytes(), &d); err != nil || d.Wins != want1+want2 || d.Encounters != 600 {
		t.Fatalf("simctl merge: %+v (%v), want %d wins of 600", d, err, want1+want2)
	}
	// report gives it its section (the table's Section), in Markdown
	// and HTML, beside a shipped kind's document.
	mergedPath := filepath.Join(dir, "merged.json")
	if err := os.WriteFile(mergedPath, merged.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	rdir := filepath.Join(dir, "r")
	if code := Main(ctx, []string{"report", docs[0], mergedPath, "-o", rdir, "--quiet"}, io.Discard, &errb); code != 0 {
		t.Fatalf("simctl report of toy documents: exit %d: %s", code, errb.String())
	}
	checkToyReport(t, rdir, []string{
		fmt.Sprintf("heroes won %d of 300 encounters with at least 8 hp left.", want1),
		fmt.Sprintf("heroes won %d of 600 encounters with at least 8 hp left.", want1+want2),
		"2. Wins with 8 hp to spare", "Toy wins", "Counted from the winners' hit points left.", "merged.json"})
	// A kind without a section is refused, saying why.
	sectionless := *app.Lookup("toy-wins")
	sectionless.Name, sectionless.Section = "toy-nosection", nil
	registerOnce(&sectionless)
	bare := filepath.Join(dir, "bare.json")
	os.WriteFile(bare, bytes.Replace(data, []byte(`"toy-wins"`), []byte(`"toy-nosection"`), 1), 0o644)
	errb.Reset()
	if code := Main(ctx, []string{"report", bare, "-o", filepath.Join(dir, "r2")}, io.Discard, &errb); code == 0 || !strings.Contains(errb.String(), "toy-nosection document has no section in a report") {
		t.Fatalf("simctl report of a kind without a section: exit %d: %s", code, errb.String())
	}

	// The lab: simctl serve plays the kind as a job from its form (the
	// side from the form's field; --min-hp left at its default, 3, so
	// the count is a third one).
	want3 := toyWant(t, "1", 3)
	sctx, stop := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	served := make(chan int, 1)
	go func() {
		served <- Main(sctx, []string{"serve", "--addr", "127.0.0.1:0", "--workers", "1"}, pw, io.Discard)
		pw.Close()
	}()
	defer func() { stop(); <-served }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("simctl serve said nothing: %v", err)
	}
	go io.Copy(io.Discard, pr)
	base := regexp.MustCompile(`http://[^/ ]+`).FindString(line)
	if base == "" {
		t.Fatalf("simctl serve: no address in %q", line)
	}
	body, _ := json.Marshal(map[string]any{"kind": "toy-wins", "file": "builtin:d20/duel.yaml", "n": 300, "seed": 1, "side": "heroes"})
	resp, err := http.Post(base+"/api/jobs", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var accepted struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&accepted)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || accepted.ID == "" {
		t.Fatalf("POST /api/jobs: %s", resp.Status)
	}
	var st struct {
		State  string
		Error  string
		Result toyDoc
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(base + "/api/jobs/" + accepted.ID)
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if st.State != "queued" && st.State != "running" || time.Now().After(deadline) {
			break
		}
	}
	if st.State != "done" || st.Result.Wins != want3 || st.Result.Encounters != 300 || st.Result.MinHP != 3 {
		t.Fatalf("the lab's toy-wins job: %s %s %+v, want %d wins of 300 with 3 hp left", st.State, st.Error, st.Result, want3)
	}
	// Its document records the command line that reproduces it: the
	// kind's flags the form gave, from the table.
	want := "simctl toy-wins d20/duel.yaml -n 300 --seed 1 --side heroes --format json"
	if runtime.GOMAXPROCS(0) != 1 {
		want += " --workers 1"
	}
	if st.Result.Command != want {
		t.Fatalf("the job's command line: %q, want %q", st.Result.Command, want)
	}
	// The lab's report archive of the job: the same section.
	resp, err = http.Get(base + "/api/jobs/" + accepted.ID + "/report.zip")
	if err != nil {
		t.Fatal(err)
	}
	zdata, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET report.zip of the toy job: %s: %s", resp.Status, zdata)
	}
	zr, err := zip.NewReader(bytes.NewReader(zdata), int64(len(zdata)))
	if err != nil {
		t.Fatal(err)
	}
	zdir := t.TempDir()
	for _, f := range zr.File {
		if name := path.Base(f.Name); name == "report.md" || name == "report.html" {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			os.WriteFile(filepath.Join(zdir, name), b, 0o644)
		}
	}
	checkToyReport(t, zdir, []string{fmt.Sprintf("heroes won %d of 300 encounters with at least 3 hp left.", want3), "Toy wins"})
	var again bytes.Buffer
	errb.Reset()
	if code := Main(ctx, strings.Fields(want)[1:], &again, &errb); code != 0 {
		t.Fatalf("%s: exit %d: %s", want, code, errb.String())
	}
	if err := json.Unmarshal(again.Bytes(), &d); err != nil || d.Wins != want3 || d.MinHP != 3 {
		t.Fatalf("%s: %+v (%v), want %d wins", want, d, err, want3)
	}
}
