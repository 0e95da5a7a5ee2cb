package lab

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports/results"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestServeE2EKeptKinds (issue 36 item 5): a kept result of every kind,
// opened in a fresh tab, reopens as it was: the scenario's text and name,
// Start from on it (on none for the editor's text), the kind's tab and
// every field of its form, N and the seed, its headline and figures, and
// no "NaN" anywhere (a kept optimize said "NaN encounters", with an empty
// editor named scenario.yaml, empty space and constraint fields and Start
// from on another scenario).
func TestServeE2EKeptKinds(t *testing.T) {
	bctx := e2eBrowser(t, 240*time.Second)
	shots := os.Getenv("SIMCTL_SCREENSHOTS")
	_, ts := testServer(t, Config{MaxEncounters: 1 << 40, Workers: 2, Dir: t.TempDir()})
	duel := duelText(t)
	edited := strings.Replace(duel, "hp: 20", "hp: 24", 1)
	const file = "builtin:d20/duel.yaml"
	opts := []results.NamedSets{{Name: "base", Sets: []string{}}, {Name: "ac19", Sets: []string{"heroes.Fighter.ac=19"}}, {Name: "init3", Sets: []string{"heroes.Fighter.init=3"}}}
	cases := []struct {
		req      jobRequest
		headline string // a selector of the kind's headline
		fields   map[string]string
	}{
		{jobRequest{Kind: "run", File: file, Text: duel, N: 2000, Seed: 5, Sets: []string{"monsters.Orc.hp=24"}}, "#counts", nil},
		{jobRequest{Kind: "sweep", File: file, Text: duel, N: 300, Seed: 6, Vary: []string{"heroes.Fighter.init=0:4:2"}}, "#sweep-slider", map[string]string{"#vary1": "heroes.Fighter.init=0:4:2", "#vary2": ""}},
		{jobRequest{Kind: "compare", File: file, Text: duel, N: 1000, Seed: 7, Options: opts[:2]}, "#compare-table", map[string]string{"#options": "base:\nac19: heroes.Fighter.ac=19"}},
		{jobRequest{Kind: "matrix", File: file, Text: duel, N: 500, Seed: 8, Side: "heroes", Rows: opts[:2], Cols: []results.NamedSets{{Name: "base", Sets: []string{}}, {Name: "tough", Sets: []string{"monsters.Orc.hp=26"}}}},
			"#equilibrium", map[string]string{"#rows": "base:\nac19: heroes.Fighter.ac=19", "#cols": "base:\ntough: monsters.Orc.hp=26", "#side": "heroes"}},
		{jobRequest{Kind: "value", File: file, Text: duel, N: 500, Seed: 9, Params: "init,hp", Side: "heroes"}, "#results table", map[string]string{"#params": "init,hp", "#value-side": "heroes"}},
		{jobRequest{Kind: "tournament", File: file, Text: duel, N: 3000, Seed: 10, Options: opts, Side: "heroes"}, "#tournament-outcome", map[string]string{"#t-options": "base:\nac19: heroes.Fighter.ac=19\ninit3: heroes.Fighter.init=3", "#t-side": "heroes"}},
		{jobRequest{Kind: "optimize", File: file, Text: duel, N: 3000, Seed: 11, Vary: []string{"heroes.Fighter.init=1:3", "heroes.Fighter.ac=17:18"}, Where: "heroes.Fighter.init + heroes.Fighter.ac <= 20", Side: "heroes"},
			"#optimize-best", map[string]string{"#o-vary": "heroes.Fighter.init=1:3\nheroes.Fighter.ac=17:18", "#o-where": "heroes.Fighter.init + heroes.Fighter.ac <= 20", "#o-side": "heroes"}},
		{jobRequest{Kind: "find", File: file, Text: duel, N: 500, Seed: 12, Where: `side("heroes").won and rounds >= 3`}, "#find-count", map[string]string{"#where": `side("heroes").won and rounds >= 3`}},
		// The editor's text, named by the designer: Start from on none, and
		// the note that its command line's file is that text.
		{jobRequest{Kind: "run", File: "my duel.yaml", Text: edited, N: 1500, Seed: 13}, "#command-note", nil},
	}
	for _, c := range cases {
		id := startJob(t, ts, c.req)
		st := jobResult(t, ts, id)
		figures, _ := st["figures"].([]any)
		kctx, cancelK := chromedp.NewContext(bctx)
		what := c.req.Kind + " " + c.req.File
		if err := chromedp.Do(kctx, chromedp.Navigate(ts.URL+"/#job="+id), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		waitPage(t, kctx, what+" kept", `document.querySelector("#job-status").dataset.state === "kept" && !!document.querySelector(`+jsString(c.headline)+`)`)
		waitPage(t, kctx, what+" figures", fmt.Sprintf(`document.querySelectorAll("#results figure svg[data-ready]").length === %d`, len(figures)))
		pick := "builtin:d20/duel"
		if !strings.HasPrefix(c.req.File, "builtin:") {
			pick = ""
		}
		type form struct {
			Text, File, Name, Pick, N, Seed, Sets, Tab, Banner, History, Body string
			Fields                                                            map[string]string
		}
		sel := []string{}
		for k := range c.fields {
			sel = append(sel, jsString(k))
		}
		got := get(t, kctx, what+" form", chromedp.Evaluate[form](`(() => ({Text: document.querySelector("#editor").value, File: window.simctlLab.file, Name: document.querySelector("#file-name").textContent,
			Pick: document.querySelector("#scenario-pick").value, N: document.querySelector("#n").value, Seed: document.querySelector("#seed").value, Sets: document.querySelector("#sets").value,
			Tab: document.querySelector('.tabs button[aria-selected="true"]').dataset.kind, Banner: document.querySelector("#banner").textContent,
			History: document.querySelector("#history li").textContent, Body: document.body.innerText,
			Fields: Object.fromEntries([`+strings.Join(sel, ",")+`].map((k) => [k, document.querySelector(k).value]))}))()`))
		want := form{Text: c.req.Text, File: c.req.File, Name: c.req.File, Pick: pick, N: fmt.Sprint(c.req.N), Seed: fmt.Sprint(c.req.Seed), Sets: strings.Join(c.req.Sets, "\n"), Tab: c.req.Kind}
		if got.Text != want.Text || got.File != want.File || got.Name != want.Name || got.Pick != want.Pick || got.N != want.N || got.Seed != want.Seed || got.Sets != want.Sets || got.Tab != want.Tab {
			t.Errorf("%s: the kept result reopens with file %q (shown %q), Start from %q, n %q, seed %q, sets %q, tab %q, its text the job's: %v; want file %q, Start from %q, n %q, seed %q, sets %q, tab %q",
				what, got.File, got.Name, got.Pick, got.N, got.Seed, got.Sets, got.Tab, got.Text == want.Text, want.File, want.Pick, want.N, want.Seed, want.Sets, want.Tab)
		}
		for k, v := range c.fields {
			if got.Fields[k] != v {
				t.Errorf("%s: the field %s reads %q, want %q", what, k, got.Fields[k], v)
			}
		}
		n := commas(c.req.N)
		if strings.Contains(got.Body, "NaN") || !strings.Contains(got.Banner, " "+n+" encounters") || !strings.Contains(got.History, "· "+n+" encounters ·") {
			t.Errorf("%s: the banner reads %q and the history %q (want %s encounters; NaN shown: %v)", what, got.Banner, got.History, n, strings.Contains(got.Body, "NaN"))
		}
		if pick == "" {
			name := "my duel.yaml"
			if !strings.Contains(got.Banner, name+" (the editor's text)") || !strings.Contains(got.History, name+" (the editor's text)") {
				t.Errorf("%s: the banner %q and history %q do not say the scenario is the editor's text", what, got.Banner, got.History)
			}
			note := get(t, kctx, "note", chromedp.Text("#command-note"))
			if !strings.HasPrefix(note, name+" in this command is the editor's text as this job played it") {
				t.Errorf("%s: the note under the command reads %q", what, note)
			}
		}
		// The report download is offered for every kind simctl report
		// reads (optimize's too), not for find's.
		if zip := get(t, kctx, what+" report", chromedp.Evaluate[bool](`!!document.querySelector("#dl-zip")`)); zip != (c.req.Kind != "find") {
			t.Errorf("%s: the report download is offered: %v", what, zip)
		}
		if c.req.Kind == "optimize" {
			screenshot(t, kctx, shots, "kept-optimize")
		}
		cancelK()
	}
}

// TestServeE2EScenarioName (issue 36 item 3): the designer names the
// editor's text (no --allow-save needed); the job's command line names it,
// the page says it is the editor's text and not a file, and the download
// beside it is the exact text the job played under that name. An
// unedited built-in's result has no such note.
func TestServeE2EScenarioName(t *testing.T) {
	bctx := e2eBrowser(t, 120*time.Second)
	_, ts := testServer(t, Config{MaxEncounters: 1 << 40, Workers: 2})
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do("load", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitPage(t, bctx, "duel", `document.querySelector("#file-name").textContent === "builtin:d20/duel.yaml" && document.querySelector("#check-status").classList.contains("ok")`)
	// The built-in as it is: its command replays it, nothing to add.
	do("run the built-in", chromedp.SetValue("#n", "1000"), chromedp.SetValue("#seed", "4"), chromedp.Click("#run"))
	waitPage(t, bctx, "built-in done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#command")`)
	if c := get(t, bctx, "command", chromedp.Evaluate[string](`document.querySelector("#command").textContent + (document.querySelector("#command-note") ? " | a note" : "")`)); !strings.HasPrefix(c, "simctl run d20/duel.yaml -n 1000 --seed 4") || strings.Contains(c, "a note") {
		t.Errorf("the built-in's reproduce line reads %q", c)
	}
	// Edit it: hp 20 becomes 24.
	text := get(t, bctx, "editor", chromedp.Value("#editor"))
	at := strings.Index(text, "hp: 20") + len("hp: 2")
	get(t, bctx, "caret", chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector("#editor"); e.focus(); e.setSelectionRange(%d, %d); return true })()`, at, at+1)))
	do("edit", chromedp.SendKeys("#editor", "4"))
	waitPage(t, bctx, "edited", `document.querySelector("#file-name").textContent === "duel.yaml (edited)"`)
	// A name a scenario cannot have is refused, in words.
	get(t, bctx, "stub prompt", chromedp.Evaluate[bool](`(() => { window.prompt = () => "../x.txt"; return true })()`))
	do("bad name", chromedp.Click("#rename"))
	waitPage(t, bctx, "refused", `document.querySelector("#banner").textContent.startsWith("\"../x.txt\" cannot name a scenario") && window.simctlLab.file === "duel.yaml"`)
	get(t, bctx, "stub prompt", chromedp.Evaluate[bool](`(() => { window.prompt = () => "my duel.yaml"; return true })()`))
	do("name it", chromedp.Click("#rename"))
	waitPage(t, bctx, "named", `document.querySelector("#file-name").textContent === "my duel.yaml (edited)" && window.simctlLab.file === "my duel.yaml"`)
	// Typing on keeps the name.
	do("type on", chromedp.SendKeys("#editor", kb.End+"  # tougher"))
	waitPage(t, bctx, "still named", `document.querySelector("#file-name").textContent === "my duel.yaml (edited)" && document.querySelector("#check-status").classList.contains("ok")`)
	played := get(t, bctx, "editor", chromedp.Value("#editor"))
	do("run it", chromedp.Click("#run"))
	waitPage(t, bctx, "named done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#command-note")`)
	type shown struct{ Command, Note, Href, Download, History, Text string }
	if h := get(t, bctx, "download row", chromedp.Evaluate[string](`document.querySelector("#dl-scenario").getAttribute("href")`)); !strings.HasSuffix(h, "/scenario.yaml") {
		t.Errorf("the downloads offer the scenario played at %q", h)
	}
	got := get(t, bctx, "shown", chromedp.Evaluate[shown](`(async () => { const a = document.querySelector("#note-scenario");
		return {Command: document.querySelector("#command").textContent, Note: document.querySelector("#command-note span").textContent, Href: a.getAttribute("href"), Download: a.getAttribute("download"),
			History: document.querySelector("#history li").textContent, Text: await (await fetch(a.href)).text()} })()`, chromedp.EvalAwaitPromise))
	if !strings.HasPrefix(got.Command, "simctl run 'my duel.yaml' -n 1000 --seed 4") {
		t.Errorf("the reproduce line reads %q, want it to name my duel.yaml", got.Command)
	}
	if !strings.HasPrefix(got.Note, "my duel.yaml in this command is the editor's text as this job played it") {
		t.Errorf("the note reads %q", got.Note)
	}
	if got.Text != played || got.Download != "my duel.yaml" || !strings.HasSuffix(got.Href, "/scenario.yaml") {
		t.Errorf("the download %s as %q is the text played: %v", got.Href, got.Download, got.Text == played)
	}
	if !strings.Contains(got.History, "my duel.yaml (the editor's text)") {
		t.Errorf("the history reads %q", got.History)
	}
	do("scroll", chromedp.ScrollIntoView("#results"))
	screenshot(t, bctx, os.Getenv("SIMCTL_SCREENSHOTS"), "named")
}

// TestServeE2ETraits (issue 33 item 6): the editor checks traits and house
// rules as it checks tactics (the problem at its line and column, with
// the did-you-mean), completes a trait's on: with the ruleset's moments and
// its do: with its effects (not tactics' decisions), and a run shows each
// trait's counts: how often it fired and what it added.
func TestServeE2ETraits(t *testing.T) {
	bctx := e2eBrowser(t, 120*time.Second)
	_, ts := testServer(t, Config{MaxEncounters: 1 << 40, Workers: 2})
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do("load", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitPage(t, bctx, "duel", `document.querySelector("#check-status").classList.contains("ok")`)
	duel := duelText(t)
	withTraits := func(on string) string {
		s := strings.Replace(duel, "        crit: 19-20/x2\n", "        crit: 19-20/x2\n        traits:\n          - name: Sneak Attack\n            on: "+on+"\n            when: target.flat_footed\n            do: damage += 2d6\n", 1)
		return strings.Replace(s, "  - name: monsters\n", "  - name: monsters\n    traits:\n      - name: DR 2\n        on: hit_taken\n        do: damage -= 2\n", 1)
	}
	set := func(text string) {
		t.Helper()
		get(t, bctx, "set text", chromedp.Evaluate[bool](`(() => { const e = document.querySelector("#editor"); e.value = `+jsString(text)+`; e.dispatchEvent(new Event("input")); return true })()`))
	}
	bad := withTraits("hitt")
	set(bad)
	line := 1 + strings.Count(bad[:strings.Index(bad, "on: hitt")], "\n")
	li := fmt.Sprintf(`document.querySelector('#problems li[data-line="%d"]')`, line)
	waitPage(t, bctx, "trait problem", `!!`+li+` && !!document.querySelector('#gutter span.err[data-line="`+fmt.Sprint(line)+`"]')`)
	if p := get(t, bctx, "problem", chromedp.Evaluate[string](li+`.textContent`)); !strings.HasPrefix(p, fmt.Sprintf("line %d, col 17: sides[0].combatants[0].traits[0].on: d20 has no moment \"hitt\" (did you mean \"hit\"?)", line)) {
		t.Errorf("the trait's problem reads %q", p)
	}
	good := withTraits("hit")
	set(good)
	waitPage(t, bctx, "fixed", `document.querySelector("#check-status").classList.contains("ok") && !document.querySelector("#problems li")`)
	// Completion on the trait's on: and do:.
	complete := func(after string) {
		t.Helper()
		at := strings.Index(good, after) + len(after)
		get(t, bctx, "complete", chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector("#editor"); e.focus(); e.setSelectionRange(%d, %d); return e.dispatchEvent(new KeyboardEvent("keydown", {key: " ", ctrlKey: true, bubbles: true, cancelable: true})) || true })()`, at, at)))
	}
	complete("            on: hit")
	waitPage(t, bctx, "moments offered", `!document.querySelector("#completions").hidden && document.querySelector("#completions-title").textContent === "Moments a trait can fire at (on:) (d20): click to insert" && !!document.querySelector('#completions-list button[data-field="hit_taken"]') && !!document.querySelector('#completions-list button[data-field="initiative"]') && !document.querySelector('#completions-list button[data-field="full_attack"]')`)
	complete("        do: damage -= 2")
	waitPage(t, bctx, "effects offered", `document.querySelector("#completions-title").textContent.startsWith("Effects (do:)") && !!document.querySelector('#completions-list button[data-field="damage += "]') && !!document.querySelector('#completions-list button[data-field="apply shaken"]') && !document.querySelector('#completions-list button[data-field="full_attack"]')`)
	// Only what hit_taken changes: damage, not init (an error there).
	if q := get(t, bctx, "quantities", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#completions-list button")].map((b) => b.dataset.field).filter((f) => f.endsWith(" += "))`)); strings.Join(q, "|") != "damage += " {
		t.Errorf("a hit_taken trait's do: offers %q, want only damage", q)
	}
	// A run: each trait's counts, as the job's JSON has them.
	do("run", chromedp.SetValue("#n", "4000"), chromedp.SetValue("#seed", "2"), chromedp.Click("#run"))
	waitPage(t, bctx, "run done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#traits-table")`)
	rows := get(t, bctx, "traits table", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#traits-table tbody tr")].map((r) => [...r.children].map((c) => c.textContent).join(" | "))`))
	want := []string{}
	tally := directTraits(t, good, 2, 4000, "")
	for _, x := range tally {
		want = append(want, fmt.Sprintf("%s | %s | %s | %s | %.3f | %s | %.3f", x.Combatant, x.Moment, x.Trait, commas(x.Fired), float64(x.Fired)/4000, commas(x.Added), float64(x.Added)/4000))
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") || len(want) != 2 {
		t.Errorf("the traits table reads\n%s\nwant (simctl run's counts)\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	do("scroll", chromedp.ScrollIntoView("#traits-table"))
	screenshot(t, bctx, os.Getenv("SIMCTL_SCREENSHOTS"), "traits")
	// A comparison: each option's trait counts per encounter, as simctl run
	// counts them with the option's overrides (common random numbers: the
	// same seed's encounters).
	do("compare", chromedp.Click("#tab-compare"), chromedp.SetValue("#n", "2000"), chromedp.SetValue("#options", "base:\nac19: heroes.Fighter.ac=19"), chromedp.Click("#run"))
	waitPage(t, bctx, "compare done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#compare-traits")`)
	rows = get(t, bctx, "compare traits", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#compare-traits tbody tr")].map((r) => [...r.children].map((c) => c.textContent).join(" | "))`))
	want = nil
	for _, o := range []struct{ name, set string }{{"base", ""}, {"ac19", "heroes.Fighter.ac=19"}} {
		for _, x := range directTraits(t, good, 2, 2000, o.set) {
			want = append(want, fmt.Sprintf("%s | %s | %s | %s | %.3f | %.3f", o.name, x.Combatant, x.Moment, x.Trait, float64(x.Fired)/2000, float64(x.Added)/2000))
		}
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") || len(want) != 4 {
		t.Errorf("the comparison's traits table reads\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// directTraits is what simctl run counts of the scenario's traits, with
// one override (or none).
func directTraits(t *testing.T, text string, seed uint64, n int64, set string) []results.TraitCount {
	t.Helper()
	var sets []string
	if set != "" {
		sets = []string{set}
	}
	ss, err := app.FormSets(sets, "sets")
	if err != nil {
		t.Fatal(err)
	}
	ran, err := app.Run(context.Background(), &app.RunRequest{Source: &app.Source{Name: "x.yaml", Display: "x.yaml", Data: []byte(text)}, Sets: ss, Seed: seed, N: n, Workers: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ran.Result.Raw.Traits
}

// commas writes n as the page's English tables do (1,234; -1,234).
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
