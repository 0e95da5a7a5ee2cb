package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/scenario"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// firstOfFew matches a caption that claims to show the first 20 of fewer
// than 21.
var firstOfFew = regexp.MustCompile(`the first 20 of ([0-9]|1[0-9]|20)\)`)

// jsString is s as a JavaScript string literal (JSON is one).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pageCounts is what the page shows of a finished run.
type pageCounts struct {
	Encounters int64    `json:"encounters"`
	Wins       [2]int64 `json:"wins"`
	Draws      int64    `json:"draws"`
}

// get runs one action that returns a value, failing the test on error.
func get[T any](t *testing.T, c context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(c, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// chromium finds Debian's headless-capable browser. The end-to-end test
// skips only when it is missing and SIMCTL_E2E is unset; CI sets
// SIMCTL_E2E=1 after installing it, so there a missing browser fails.
func chromium(t *testing.T) string {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SIMCTL_E2E") != "" {
		t.Fatal("SIMCTL_E2E is set but chromium is not installed (apt-get install chromium)")
	}
	t.Skip("chromium is not installed; set SIMCTL_E2E=1 to make this an error")
	return ""
}

// TestServeE2E drives the page in headless Chromium: pick a built-in,
// type an error and see it at its line, fix it, run and watch the interval
// narrow on the plot, trace, sweep, compare, cancel a long run, and open a
// permalink in a fresh page to get the same counts. With
// SIMCTL_SCREENSHOTS=DIR it saves the screenshots of docs/img.
func TestServeE2E(t *testing.T) {
	if raceEnabled {
		// The browser drives the same handlers the serve tests run under
		// -race; under the detector its timed steps take minutes.
		t.Skip("the browser test runs in the ordinary go test")
	}
	bin := chromium(t)
	shots := os.Getenv("SIMCTL_SCREENSHOTS")
	saveDir := t.TempDir()
	s, ts := testServer(t, Config{MaxEncounters: 1 << 40, Workers: 2, Dir: saveDir, AllowSave: true})

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()

	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// waitJS polls a JavaScript condition (the page's state) until true.
	waitJS := func(c context.Context, what, cond string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			ok, err := chromedp.Run(c, chromedp.Evaluate[bool](cond))
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				status, _ := chromedp.Run(c, chromedp.Evaluate[string](`document.querySelector("#job-status").textContent + " | " + document.querySelector("#check-status").textContent`))
				t.Fatalf("%s: timed out waiting for %s (page says %q)", what, cond, status)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// The figures are inline SVG drawn in the Liberation Sans the lab
	// serves (the font gonum/plot measured their text in): every label
	// lies inside its figure.
	const figuresShown = `document.querySelectorAll("#results figure").length > 0 && document.querySelectorAll("#results figure svg[data-ready]").length === document.querySelectorAll("#results figure").length`
	checkFigures := func(c context.Context, what string) {
		t.Helper()
		waitJS(c, what+": Liberation Sans loaded", `[...document.fonts].some(f => f.family.replace(/"/g, "") === "Liberation Sans" && f.status === "loaded")`)
		bad := get(t, c, what+" figures", chromedp.Evaluate[[]string](`(() => { const bad = [];
			for (const svg of document.querySelectorAll("#results figure svg")) {
				const r = svg.getBoundingClientRect();
				for (const x of svg.querySelectorAll("text")) {
					const b = x.getBoundingClientRect();
					if (b.width > 0 && (b.right > r.right + 1 || b.left < r.left - 1)) bad.push(svg.closest("figure").dataset.figure + ": " + JSON.stringify(x.textContent) + " is cut");
					if (!getComputedStyle(x).fontFamily.includes("Liberation Sans")) bad.push("font " + getComputedStyle(x).fontFamily);
				}
			}
			return bad })()`))
		if len(bad) > 0 {
			t.Errorf("%s: %s", what, strings.Join(bad, "; "))
		}
	}
	// tablesFit: at 1280 px no results table scrolls sideways.
	tablesFit := func(c context.Context, what string) {
		t.Helper()
		if fit := get(t, c, what+" tables fit", chromedp.Evaluate[string](`[...document.querySelectorAll("#results .scroll")].filter(p => p.scrollWidth > p.clientWidth + 1).map(p => (p.querySelector("table").id || p.querySelector("caption")?.textContent || "a table") + " is " + p.scrollWidth + " px wide in " + p.clientWidth).join("; ")`)); fit != "" {
			t.Errorf("%s at 1280 px: %s", what, fit)
		}
	}
	shot := func(c context.Context, name string) { t.Helper(); screenshot(t, c, shots, name) }

	// Load the page and pick a built-in.
	step("load", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`body[data-ready="1"]`))
	step("pick", chromedp.SetValue("#scenario-pick", "builtin:d20/ambush"), chromedp.Click("#load-scenario"))
	waitJS(bctx, "ambush loaded", `document.querySelector("#file-name").textContent === "builtin:d20/ambush.yaml" && document.querySelector("#check-status").classList.contains("ok")`)
	step("pick duel", chromedp.SetValue("#scenario-pick", "builtin:d20/duel"), chromedp.Click("#load-scenario"))
	waitJS(bctx, "duel valid", `document.querySelector("#file-name").textContent === "builtin:d20/duel.yaml" && document.querySelector("#check-status").classList.contains("ok")`)
	text := get(t, bctx, "read editor", chromedp.Value("#editor"))
	at := strings.Index(text, "ac: 17")
	if at < 0 {
		t.Fatalf("the duel has no ac: 17:\n%s", text)
	}
	line := 1 + strings.Count(text[:at], "\n")

	// Type an error: "ac: 17x". The validator's message appears at its line.
	get(t, bctx, "caret", chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector("#editor"); e.focus(); e.setSelectionRange(%d, %d); return true })()`, at+6, at+6)))
	step("type", chromedp.SendKeys("#editor", "x"))
	waitJS(bctx, "error shown at its line", fmt.Sprintf(`!!document.querySelector('#problems li[data-line="%d"]') && !!document.querySelector('#gutter span.err[data-line="%d"]')`, line, line))
	msg := get(t, bctx, "message", chromedp.Text(fmt.Sprintf(`#problems li[data-line="%d"]`, line)))
	if !strings.Contains(msg, fmt.Sprintf("line %d", line)) || !strings.Contains(msg, "ac") {
		t.Errorf("the problem reads %q", msg)
	}
	shot(bctx, "editor-error")
	// Fix it.
	step("fix", chromedp.SendKeys("#editor", kb.Backspace))
	waitJS(bctx, "fixed", `document.querySelector("#check-status").classList.contains("ok") && document.querySelectorAll("#problems li").length === 0 && !document.querySelector("#gutter span.err")`)

	// Completion from the JSON Schema: on a new line of the Fighter, the
	// d20 combatant fields; a click inserts one.
	crit := strings.Index(text, "crit: 19-20/x2") + len("crit: 19-20/x2")
	get(t, bctx, "caret", chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector("#editor"); e.focus(); e.setSelectionRange(%d, %d); return true })()`, crit, crit)))
	step("new line", chromedp.SendKeys("#editor", "\n        "))
	get(t, bctx, "ctrl+space", chromedp.Evaluate[bool](`document.querySelector("#editor").dispatchEvent(new KeyboardEvent("keydown", {key: " ", ctrlKey: true, bubbles: true, cancelable: true}))`))
	waitJS(bctx, "completions", `!document.querySelector("#completions").hidden && !!document.querySelector('#completions-list button[data-field="uncanny_dodge"]') && !document.querySelector('#completions-list button[data-field="morale"]')`)
	step("insert", chromedp.Click(`#completions-list button[data-field="uncanny_dodge"]`), chromedp.SendKeys("#editor", "true"))
	waitJS(bctx, "completed field valid", `document.querySelector("#editor").value.includes("crit: 19-20/x2\n        uncanny_dodge: true") && document.querySelector("#check-status").classList.contains("ok")`)
	// Load over edits asks first (confirm answered yes here).
	get(t, bctx, "stub confirm", chromedp.Evaluate[bool](`(() => { window.confirmAsked = 0; window.confirm = () => { window.confirmAsked++; return true }; return true })()`))
	step("reload duel", chromedp.Click("#load-scenario"))
	waitJS(bctx, "discard warned", `window.confirmAsked === 1`)
	waitJS(bctx, "duel again", `document.querySelector("#editor").value === `+jsString(text)+` && document.querySelector("#check-status").classList.contains("ok")`)

	// Run and watch the interval narrow.
	const n, seed = 400_000, 7
	step("run", chromedp.SetValue("#n", fmt.Sprint(n)), chromedp.SetValue("#seed", fmt.Sprint(seed)), chromedp.Click("#run"))
	waitJS(bctx, "two interim results", `window.simctlLab.widths.length >= 2`)
	w := get(t, bctx, "widths", chromedp.Evaluate[[]float64](`window.simctlLab.widths.slice(0, 2)`))
	if !(w[1] < w[0]) {
		t.Errorf("the interval did not narrow: %v", w)
	}
	waitJS(bctx, "run done", `document.querySelector("#job-status").dataset.state === "done" && window.simctlLab.counts !== null`)
	waitJS(bctx, "plot", `document.querySelectorAll("#conv-plot svg path.band, #conv-plot svg path.est").length === 2 && !document.querySelector("#conv").hidden`)
	// Every label of the convergence plot lies inside it (the last tick,
	// 100,000, was cut to "100,00" at the right edge).
	for _, bad := range get(t, bctx, "conv labels", chromedp.Evaluate[[]string](`(() => { const svg = document.querySelector("#conv-plot svg"), r = svg.getBoundingClientRect(), bad = [];
		for (const x of svg.querySelectorAll("text")) { const b = x.getBoundingClientRect(); if (b.right > r.right + 0.5 || b.left < r.left - 0.5) bad.push(JSON.stringify(x.textContent) + " is cut"); }
		return bad })()`)) {
		t.Errorf("convergence plot: %s", bad)
	}
	counts := get(t, bctx, "counts", chromedp.Evaluate[pageCounts](`window.simctlLab.counts`))
	want := directRun(t, text, seed, n)
	if counts.Encounters != n || counts.Wins != want.Wins || counts.Draws != want.Draws {
		t.Errorf("the page's counts %+v, simctl run's %v draws %d", counts, want.Wins, want.Draws)
	}
	waitJS(bctx, "figures", `document.querySelectorAll("#results figure").length >= 4 && document.querySelectorAll("#results figure svg[data-ready]").length === document.querySelectorAll("#results figure").length`)
	checkFigures(bctx, "run")
	tablesFit(bctx, "run")
	shot(bctx, "run")

	// The kept result in a fresh tab: the same numbers, and no job run.
	keep := get(t, bctx, "keep link", chromedp.Evaluate[string](`document.querySelector("#keep-link").href`))
	s.mu.Lock()
	jobsBefore := len(s.jobs)
	s.mu.Unlock()
	kctx, cancelK := chromedp.NewContext(bctx)
	if err := chromedp.Do(kctx, chromedp.Navigate(keep), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatal(err)
	}
	waitJS(kctx, "kept shown", `document.querySelector("#job-status").dataset.state === "kept" && window.simctlLab.counts !== null`)
	if kc := get(t, kctx, "kept counts", chromedp.Evaluate[pageCounts](`window.simctlLab.counts`)); kc != counts {
		t.Errorf("the kept result's counts %+v, the run's %+v", kc, counts)
	}
	s.mu.Lock()
	jobsAfter := len(s.jobs)
	s.mu.Unlock()
	if jobsAfter != jobsBefore {
		t.Errorf("opening the kept result started %d job(s)", jobsAfter-jobsBefore)
	}
	shot(kctx, "kept")
	cancelK()

	// The permalink of this run.
	step("permalink", chromedp.Click("#permalink-btn"))
	waitJS(bctx, "permalink ready", `document.querySelector("#permalink").value.includes("#p=")`)
	link := get(t, bctx, "read permalink", chromedp.Value("#permalink"))

	// Trace the longest fight.
	step("trace", chromedp.Click("#trace-longest"))
	waitJS(bctx, "trace shown", `document.querySelector("#trace").textContent.includes("simctl trace")`)
	step("scroll to trace", chromedp.ScrollIntoView("#trace"))
	shot(bctx, "trace")

	// A sweep: its table and figure.
	step("sweep", chromedp.Click("#tab-sweep"), chromedp.SetValue("#n", "3000"), chromedp.SetValue("#vary1", "heroes.Fighter.init=0:6:2"), chromedp.Click("#run"))
	waitJS(bctx, "sweep done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#sweep-slider")`)
	waitJS(bctx, "sweep figure", figuresShown)
	step("scroll", chromedp.ScrollIntoView("#results"))
	tablesFit(bctx, "sweep")
	// The history names the sweep by its own N (3,000 per point, not the
	// 12,000 of its four points nor the form's default) and its headline.
	if h := get(t, bctx, "sweep history", chromedp.Evaluate[string](`document.querySelector("#history li:first-child").textContent`)); !strings.Contains(h, "· 3,000 encounters ·") || !strings.Contains(h, "heroes wins most at heroes.Fighter.init=") {
		t.Errorf("the sweep's history entry reads %q", h)
	}
	shot(bctx, "sweep")

	// A comparison: its interim tables come while it plays, the
	// baseline's interval narrowing.
	// Interim documents every 20 ms: enough of them even when the
	// comparison is short (or slow, under -race).
	defer func(e time.Duration, s int64) { interimEvery, interimSegment = e, s }(interimEvery, interimSegment)
	interimEvery, interimSegment = 20*time.Millisecond, 256
	step("compare", chromedp.Click("#tab-compare"), chromedp.SetValue("#n", "200000"), chromedp.SetValue("#options", "base:\ninit+4: heroes.Fighter.init=5"), chromedp.Click("#run"))
	waitJS(bctx, "two interim comparisons", `window.simctlLab.interimWidths.length >= 2`)
	cw := get(t, bctx, "interim widths", chromedp.Evaluate[[]float64](`window.simctlLab.interimWidths.slice(0, 2)`))
	if !(cw[1] < cw[0]) {
		t.Errorf("the comparison's interval did not narrow: %v", cw)
	}
	waitJS(bctx, "compare done", `document.querySelector("#job-status").dataset.state === "done" && document.querySelector("#results").textContent.includes("vs baseline")`)
	waitJS(bctx, "compare figure", figuresShown)
	step("scroll", chromedp.ScrollIntoView("#results"))
	checkFigures(bctx, "compare")
	// The comparison fits the results column at 1280 px: no sideways
	// scrolling, its key columns first.
	tablesFit(bctx, "compare")
	if head := get(t, bctx, "compare head", chromedp.Evaluate[string](`[...document.querySelectorAll("#compare-table th")].slice(0, 4).map(h => h.textContent).join(" | ")`)); head != "option | win rate | Δ vs baseline | paired 95% interval" {
		t.Errorf("the comparison's first columns: %s", head)
	}
	// p as simctl prints it: +4 initiative over 200,000 paired
	// encounters is far below 0.0001, never "0.0000".
	if p := get(t, bctx, "compare p", chromedp.Evaluate[string](`document.querySelectorAll("#compare-table tbody tr")[1].children[5].textContent`)); p != "<0.0001" {
		t.Errorf("the compare table's p for init+4 reads %q, want <0.0001 as simctl compare prints it", p)
	}
	shot(bctx, "compare")
	// The longest fight of the second option: its overrides replayed.
	step("trace an option", chromedp.SetValue("#trace-target", "option=init%2B4"), chromedp.Click("#trace-longest"))
	waitJS(bctx, "option traced", `document.querySelector("#trace").textContent.includes("--set heroes.Fighter.init=5") && document.querySelector("#trace-title-text").textContent.startsWith("option init+4: the longest fight")`)

	// History: the run and the comparison side by side.
	step("history pick", chromedp.Click(`#history li:nth-child(1) input`), chromedp.Click(`#history li:last-child input`))
	waitJS(bctx, "side by side", `document.querySelectorAll("#side-by-side .sbs-col table").length >= 2 && !document.querySelector("#side-by-side").hidden`)
	step("scroll", chromedp.ScrollIntoView("#history-box"))
	// Two results too wide to sit side by side in the results column
	// stack; nothing in them scrolls the page sideways.
	if sbs := get(t, bctx, "side by side fits", chromedp.Evaluate[string](`(() => { const b = document.querySelector("#side-by-side"), c = b.querySelectorAll(".sbs-col, .sbs-col .scroll");
		return b.scrollWidth <= b.clientWidth + 1 && [...c].every(x => x.scrollWidth <= x.clientWidth + 1) ? "" : "side by side " + b.scrollWidth + " px in " + b.clientWidth + ", columns and tables " + [...c].map(x => x.scrollWidth + "/" + x.clientWidth).join(" ") })()`)); sbs != "" {
		t.Errorf("history at 1280 px: %s", sbs)
	}
	shot(bctx, "history")

	// A matrix: the grid and the equilibrium.
	step("matrix", chromedp.Click("#tab-matrix"), chromedp.Click("#run"))
	waitJS(bctx, "matrix done", `document.querySelector("#job-status").dataset.state === "done" && (document.querySelector("#equilibrium")?.textContent || "").includes("heroes plays")`)
	step("scroll", chromedp.ScrollIntoView("#results"))
	tablesFit(bctx, "matrix")
	shot(bctx, "matrix")

	// Value: what a step of each parameter is worth, and the tornado.
	step("value", chromedp.Click("#tab-value"), chromedp.SetValue("#n", "20000"), chromedp.SetValue("#params", "init,hp,ac"), chromedp.Click("#run"))
	waitJS(bctx, "value done", `document.querySelector("#job-status").dataset.state === "done" && document.querySelector("#results").textContent.includes("Exchange rates")`)
	waitJS(bctx, "tornado", figuresShown)
	step("scroll", chromedp.ScrollIntoView("#results"))
	checkFigures(bctx, "value")
	tablesFit(bctx, "value")
	shot(bctx, "value")

	// Another built-in: Compare and Matrix prefilled from its own sides,
	// combatants and tactics parameters, and they run.
	combo, _, _ := scenarios.Read("d20/tactics-combo")
	step("pick combo", chromedp.SetValue("#scenario-pick", "builtin:d20/tactics-combo"), chromedp.Click("#load-scenario"))
	waitJS(bctx, "combo prefilled", `document.querySelector("#editor").value === `+jsString(string(combo))+` && document.querySelector("#options").value.includes("heroes.") && document.querySelector("#options").value.includes("tactics.params") && !document.querySelector("#options").value.includes("Fighter") && document.querySelector("#cols").value.includes("raiders.")`)
	// Completion inside a tactics rule's when: the ruleset's facts
	// (simctl policies d20), self.hp_pct among them.
	whenAt := strings.Index(string(combo), "when: not self.engaged and enemies.count > 0") + len("when: not self.engaged and enemies.count > 0")
	get(t, bctx, "caret in when", chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector("#editor"); e.focus(); e.setSelectionRange(%d, %d); return e.dispatchEvent(new KeyboardEvent("keydown", {key: " ", ctrlKey: true, bubbles: true, cancelable: true})) || true })()`, whenAt, whenAt)))
	waitJS(bctx, "tactics facts offered", `!document.querySelector("#completions").hidden && document.querySelector("#completions-title").textContent.startsWith("Facts a when: may test (d20)") && !!document.querySelector('#completions-list button[data-field="self.hp_pct"]') && !document.querySelector('#completions-list button[data-field="uncanny_dodge"]')`)
	get(t, bctx, "escape", chromedp.Evaluate[bool](`document.querySelector("#editor").dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: true})) || true`))
	waitJS(bctx, "completions closed", `document.querySelector("#completions").hidden`)
	step("combo compare", chromedp.Click("#tab-compare"), chromedp.SetValue("#n", "4000"), chromedp.SetValue("#seed", "1"), chromedp.Click("#run"))
	waitJS(bctx, "combo compare done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#compare-table")`)
	step("combo matrix", chromedp.Click("#tab-matrix"), chromedp.Click("#run"))
	waitJS(bctx, "combo matrix done", `document.querySelector("#job-status").dataset.state === "done" && (document.querySelector("#equilibrium")?.textContent || "").includes("heroes plays")`)
	// The search tabs, prefilled from the scenario too.
	step("combo tournament", chromedp.Click("#tab-tournament"), chromedp.SetValue("#n", "20000"), chromedp.Click("#run"))
	waitJS(bctx, "tournament done", `document.querySelector("#job-status").dataset.state === "done" && /^(Best|Selected|Not separated|Not finished): .*Guarantee: /.test(document.querySelector("#tournament-outcome")?.textContent || "") && document.querySelectorAll("#tournament-table tbody tr").length >= 3`)
	step("scroll", chromedp.ScrollIntoView("#results"))
	tablesFit(bctx, "tournament")
	shot(bctx, "tournament")
	step("combo optimize", chromedp.Click("#tab-optimize"), chromedp.SetValue("#n", "6000"), chromedp.Click("#run"))
	waitJS(bctx, "optimize done", `document.querySelector("#job-status").dataset.state === "done" && (document.querySelector("#optimize-best")?.textContent || "").startsWith("Best found:") && !!document.querySelector("#optimize-table")`)
	step("scroll", chromedp.ScrollIntoView("#results"))
	if u := get(t, bctx, "uniform design", chromedp.Evaluate[string](`(document.querySelector("#optimize-uniform") || {}).textContent || ""`)); !strings.HasPrefix(u, "This search spent ") || !strings.Contains(u, " encounters. Playing every candidate the same number of encounters for the same guarantee would take ") {
		t.Errorf("the optimize tab's uniform allocation reads %q", u)
	}
	// Done: no bar left part-way, and the ranking's caption counts what
	// it shows (it said "the first 20 of 5").
	if st := get(t, bctx, "optimize finish", chromedp.Evaluate[string](`(document.querySelector("#job-bar").hidden ? "" : "a progress bar at " + document.querySelector("#job-bar").value + " of " + document.querySelector("#job-bar").max) + " | " + document.querySelector("#optimize-table caption").textContent`)); strings.Contains(st, "progress bar") || firstOfFew.MatchString(st) {
		t.Errorf("the finished optimize shows %q", st)
	}
	tablesFit(bctx, "optimize")
	shot(bctx, "optimize")
	t.Logf("optimize: %d interim selections shown while it played", get(t, bctx, "optimize interims", chromedp.Evaluate[int](`window.simctlLab.interimWidths.length`)))
	step("combo find", chromedp.Click("#tab-find"), chromedp.SetValue("#n", "2000"), chromedp.Click("#run"))
	waitJS(bctx, "find done", `document.querySelector("#job-status").dataset.state === "done" && (document.querySelector("#find-count")?.textContent || "").includes("encounters")`)
	waitJS(bctx, "a match", `!!document.querySelector(".find-list button[data-encounter]")`)
	step("trace a match", chromedp.Click(".find-list button[data-encounter]"))
	waitJS(bctx, "match traced", `document.querySelectorAll("#timeline .tl-round").length >= 1`)

	// The timeline of a traced fight: encounter 1 of seed 1 has the
	// Knight's delays.
	step("combo run", chromedp.Click("#tab-run"), chromedp.SetValue("#n", "2000"), chromedp.Click("#run"))
	waitJS(bctx, "combo run done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#trace-go")`)
	step("trace 1", chromedp.SetValue("#trace-i", "1"), chromedp.SetValue("#trace-seed", "1"), chromedp.Click("#trace-go"))
	waitJS(bctx, "timeline", `document.querySelectorAll("#timeline .tl-round").length >= 2 && !!document.querySelector("#timeline .tl-delay") && !!document.querySelector("#timeline .tl-resume")`)
	step("scroll", chromedp.ScrollIntoView("#timeline"))
	shot(bctx, "timeline")
	step("back to duel", chromedp.SetValue("#scenario-pick", "builtin:d20/duel"), chromedp.Click("#load-scenario"))
	waitJS(bctx, "duel back", `document.querySelector("#editor").value === `+jsString(text))

	// Open a file from this computer, save it into --dir, and a second
	// save over a file changed on disk since is refused unless confirmed.
	local := filepath.Join(t.TempDir(), "mine-open.yaml")
	opened := text + "# opened from disk\n"
	os.WriteFile(local, []byte(opened), 0o644)
	step("open a file", chromedp.SetUploadFiles("#open-file", []string{local}))
	waitJS(bctx, "opened", `document.querySelector("#editor").value === `+jsString(opened)+` && document.querySelector("#file-name").textContent === "mine-open.yaml" && document.querySelector("#options").value.includes("heroes.Fighter")`)
	get(t, bctx, "stub prompt", chromedp.Evaluate[bool](`(() => { window.prompt = () => "saved.yaml"; return true })()`))
	step("save", chromedp.Click("#save"))
	waitJS(bctx, "saved", `document.querySelector("#banner").textContent === "Saved saved.yaml."`)
	if b, err := os.ReadFile(filepath.Join(saveDir, "saved.yaml")); err != nil || string(b) != opened {
		t.Fatalf("saved.yaml: %q, %v", b, err)
	}
	os.WriteFile(filepath.Join(saveDir, "saved.yaml"), []byte("changed elsewhere\n"), 0o644)
	get(t, bctx, "edit and refuse", chromedp.Evaluate[bool](`(() => { const e = document.querySelector("#editor"); e.value += "# v2\n"; e.dispatchEvent(new Event("input"));
		window.confirm = () => { window.confirmAsked++; return false }; return true })()`))
	step("save again", chromedp.Click("#save"))
	waitJS(bctx, "conflict", `document.querySelector("#banner").textContent.startsWith("Not saved: saved.yaml: not saved: it was changed on disk")`)
	if b, _ := os.ReadFile(filepath.Join(saveDir, "saved.yaml")); string(b) != "changed elsewhere\n" {
		t.Fatalf("a refused save replaced the file: %q", b)
	}
	get(t, bctx, "confirm yes", chromedp.Evaluate[bool](`(() => { window.confirm = () => true; return true })()`))
	step("duel again", chromedp.SetValue("#scenario-pick", "builtin:d20/duel"), chromedp.Click("#load-scenario"))
	waitJS(bctx, "duel again after save", `document.querySelector("#editor").value === `+jsString(text))

	// Cancel a long run: the workers stop and the page says so.
	step("long run", chromedp.Click("#tab-run"), chromedp.SetValue("#n", "1e9"), chromedp.Click("#run"))
	waitJS(bctx, "long run going", `window.simctlLab.widths.length >= 1 && document.querySelector("#job-status").dataset.state === "running"`)
	step("cancel", chromedp.Click("#cancel"))
	waitJS(bctx, "cancelled", `document.querySelector("#job-status").dataset.state === "cancelled"`)
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.mu.Lock()
		running := s.running
		s.mu.Unlock()
		if running == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled job is still running")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The permalink in a fresh page gives the same counts.
	fctx, cancelF := chromedp.NewContext(bctx)
	defer cancelF()
	if err := chromedp.Do(fctx, chromedp.Navigate(link), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatal(err)
	}
	text2 := get(t, fctx, "permalink editor", chromedp.Value("#editor"))
	n2 := get(t, fctx, "permalink n", chromedp.Value("#n"))
	if text2 != text || n2 != fmt.Sprint(n) {
		t.Fatalf("the permalink page has n=%s and a different scenario", n2)
	}
	if err := chromedp.Do(fctx, chromedp.Click("#run")); err != nil {
		t.Fatal(err)
	}
	waitJS(fctx, "permalink run done", `document.querySelector("#job-status").dataset.state === "done" && window.simctlLab.counts !== null`)
	counts2 := get(t, fctx, "permalink counts", chromedp.Evaluate[pageCounts](`window.simctlLab.counts`))
	if counts2 != counts {
		t.Errorf("the permalink's counts %+v, the original's %+v", counts2, counts)
	}
}

// e2eBrowser starts headless Chromium for a browser test (skipped as
// TestServeE2E is), closed when the test ends.
func e2eBrowser(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	if raceEnabled {
		t.Skip("the browser test runs in the ordinary go test")
	}
	bin := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA(); cancel() })
	return bctx
}

// waitPage polls a JavaScript condition until it holds.
func waitPage(t *testing.T, c context.Context, what, cond string) {
	t.Helper()
	// 90 s: on two cores shared with the rest of go test ./..., a run of
	// the page once passed 30 s; a page that never gets there still fails.
	deadline := time.Now().Add(90 * time.Second)
	for {
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](cond))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			status, _ := chromedp.Run(c, chromedp.Evaluate[string](`document.documentElement.lang + " | " + document.querySelector("#job-status").textContent + " | " + document.querySelector("#check-status").textContent`))
			t.Fatalf("%s: timed out waiting for %s (page says %q)", what, cond, status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestServeE2ELanguages switches the page to Korean and to Russian live:
// the page's texts, a finished run's result tables, a validation problem
// with its line and column, a refusal of the server, all said again in
// the language chosen, <html lang> with them; the permalink keeps the
// language and a fresh page opens in it. With SIMCTL_SCREENSHOTS=DIR it
// saves serve-ko.png and serve-ru.png.
func TestServeE2ELanguages(t *testing.T) {
	bctx := e2eBrowser(t, 120*time.Second)
	shots := os.Getenv("SIMCTL_SCREENSHOTS")
	_, ts := testServer(t, Config{MaxEncounters: 1 << 40, Workers: 2})
	do := func(c context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(c, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	shot := func(c context.Context, name string) { t.Helper(); screenshot(t, c, shots, name) }
	// The texts the page shows of these keys, in l (the static page).
	static := []string{"lab.experiment", "lab.start_from", "lab.load", "lab.history", "lab.reference", "lab.permalink.copy", "lab.cancel", "lab.doc.rules", "lab.tab.sweep", "lab.encounters"}
	pageSays := func(c context.Context, l i18n.Lang) {
		t.Helper()
		// The page's own words: not the ruleset's reference texts nor a
		// trace, which are the rulesets' and the narration's (English
		// until they speak the language).
		body := get(t, c, "body text", chromedp.Evaluate[string](`(() => { const b = document.body.cloneNode(true);
			b.querySelectorAll("#doc-rules, #doc-policies, #doc-fields, #trace, #lang").forEach((e) => e.remove()); return b.textContent })()`))
		for _, k := range static {
			if !strings.Contains(body, i18n.Text(l, k)) {
				t.Errorf("%s: the page does not say %s (%q)", l, k, i18n.Text(l, k))
			}
			if l != i18n.En && strings.Contains(body, i18n.Text(i18n.En, k)) {
				t.Errorf("%s: the page still says %q (%s) in English", l, i18n.Text(i18n.En, k), k)
			}
		}
		if got := get(t, c, "html lang", chromedp.Evaluate[string](`document.documentElement.lang`)); got != string(l) {
			t.Errorf("<html lang=%q>, want %q", got, l)
		}
		if got := get(t, c, "run button", chromedp.Evaluate[string](`document.querySelector("#run").textContent`)); got != l.T("lab.go.run") {
			t.Errorf("%s: the run button says %q", l, got)
		}
		if got := get(t, c, "placeholder", chromedp.Evaluate[string](`document.querySelector("#permalink").placeholder`)); got != l.T("lab.permalink.placeholder") {
			t.Errorf("%s: the permalink's placeholder says %q", l, got)
		}
		// Longer words fit: at 1280 px the page does not scroll sideways.
		if w := get(t, c, "width", chromedp.Evaluate[string](`document.documentElement.scrollWidth > document.documentElement.clientWidth + 1 ? document.documentElement.scrollWidth + " px in " + document.documentElement.clientWidth : ""`)); w != "" {
			t.Errorf("%s: the page is %s", l, w)
		}
	}
	switchTo := func(c context.Context, l i18n.Lang) {
		t.Helper()
		get(t, c, "switch", chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const s = document.querySelector("#lang"); s.value = %q; s.dispatchEvent(new Event("change")); return true })()`, l)))
		waitPage(t, c, "switched to "+string(l), fmt.Sprintf(`document.documentElement.lang === %q && location.hash.includes("lang=%s") === %v`, l, l, l != i18n.En))
	}
	heads := func(c context.Context) []string {
		return get(t, c, "table heads", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#results table")[0].querySelectorAll("thead th")].map(h => h.textContent)`))
	}
	wantHeads := func(l i18n.Lang) string {
		var hs []string
		for _, k := range []string{"side", "wins", "win_rate", "ci95", "survivors", "any_death"} {
			hs = append(hs, l.T("lab.col."+k))
		}
		return strings.Join(hs, " | ")
	}

	// English, as the browser asks.
	do(bctx, "load", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitPage(t, bctx, "duel valid", `document.querySelector("#check-status").classList.contains("ok")`)
	pageSays(bctx, i18n.En)
	text := get(t, bctx, "read editor", chromedp.Value("#editor"))

	// Korean, live: the page, then a run's result.
	switchTo(bctx, i18n.Ko)
	pageSays(bctx, i18n.Ko)
	waitPage(t, bctx, "check in Korean", `document.querySelector("#check-status").textContent.startsWith(`+jsString(strings.SplitN(i18n.Text(i18n.Ko, "lab.check.ok"), ":", 2)[0])+`)`)
	do(bctx, "run", chromedp.SetValue("#n", "3000"), chromedp.SetValue("#seed", "3"), chromedp.Click("#run"))
	waitPage(t, bctx, "run done", `document.querySelector("#job-status").dataset.state === "done" && !!document.querySelector("#results table")`)
	if got := strings.Join(heads(bctx), " | "); got != wantHeads(i18n.Ko) {
		t.Errorf("ko: the result's table heads %q, want %q", got, wantHeads(i18n.Ko))
	}
	// The timeline of a traced fight, in Korean: drawn from the referee's
	// events, its rounds, turns and ending in the page's words (it was
	// empty: read off the narration with English patterns).
	duelSrc := &app.Source{Name: "builtin:d20/duel.yaml", Display: "builtin:d20/duel.yaml", Data: []byte(text)}
	_, game, err := duelSrc.Compile(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := sim.Replay(game, 3, 0, nil)
	if o.Winner < 0 {
		t.Fatal("encounter 0 of seed 3 is a draw: pick another for the test")
	}
	sideNames := []string{"heroes", "monsters"}
	timelineEnd := func(l i18n.Lang) string { return l.T("lab.tl.end.win", sideNames[o.Winner], o.Rounds) }
	do(bctx, "trace in Korean", chromedp.SetValue("#trace-i", "0"), chromedp.Click("#trace-go"))
	waitPage(t, bctx, "ko timeline", fmt.Sprintf(`document.querySelectorAll("#timeline .tl-round").length === %d && document.querySelectorAll("#timeline .tl-turn").length >= 2 && (document.querySelector("#timeline-end") || {}).textContent === %s && document.querySelector("#timeline .tl-label").textContent === %s`,
		o.Rounds, jsString(timelineEnd(i18n.Ko)), jsString(i18n.Ko.T("lab.tl.round", 1))))
	// Each turn names its combatant (with its count) and takes its side's
	// colour.
	if bad := get(t, bctx, "ko timeline turns", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#timeline .tl-turn")].map(m => m.textContent + " " + m.className).filter(x => !/^(Fighter \S+ .*tl-side0|Orc \S+ .*tl-side1)$/.test(x))`)); len(bad) > 0 {
		t.Errorf("ko: timeline turns without their combatant or side: %q", bad)
	}
	waitPage(t, bctx, "figures", `document.querySelectorAll("#results figure svg[data-ready]").length >= 4`)
	// The figures are drawn in Korean, every label inside its figure.
	figs := get(t, bctx, "ko figures", chromedp.Evaluate[[]string](`(() => { const out = [];
		for (const svg of document.querySelectorAll("#results figure svg")) {
			const r = svg.getBoundingClientRect();
			let hangul = false;
			for (const x of svg.querySelectorAll("text")) {
				const b = x.getBoundingClientRect();
				hangul = hangul || /[\uac00-\ud7a3]/.test(x.textContent);
				if (b.width > 0 && (b.right > r.right + 1 || b.left < r.left - 1 || b.top < r.top - 1)) out.push(svg.closest("figure").dataset.figure + ": " + JSON.stringify(x.textContent) + " is cut");
			}
			if (!hangul) out.push(svg.closest("figure").dataset.figure + " has no Korean");
		}
		return out })()`))
	for _, f := range figs {
		t.Errorf("ko: %s", f)
	}
	do(bctx, "to the results", chromedp.ScrollIntoView("#results"))
	shot(bctx, "ko")

	// A validation problem: at its line and column, in Korean, as the
	// server says it in Korean.
	at := strings.Index(text, "ac: 17")
	line := 1 + strings.Count(text[:at], "\n")
	bad := strings.Replace(text, "ac: 17", "ac: 17x", 1)
	get(t, bctx, "type an error", chromedp.Evaluate[bool](`(() => { const e = document.querySelector("#editor"); e.value = `+jsString(bad)+`; e.dispatchEvent(new Event("input")); return true })()`))
	problem := func(l i18n.Lang) string {
		src := &app.Source{Name: "builtin:d20/duel.yaml", Display: "builtin:d20/duel.yaml", Data: []byte(bad)}
		_, _, _, err := src.CompileWarn(nil)
		var es scenario.Errors
		if !errors.As(err, &es) || es[0].Line != line {
			t.Fatalf("ac: 17x: %v", err)
		}
		e := es[0]
		return fmt.Sprintf("%s: %s: %s", l.T("lab.where.line_col", e.Line, e.Col), e.Path, l.Msg(e.Text))
	}
	li := fmt.Sprintf(`document.querySelector('#problems li[data-line="%d"]')`, line)
	waitPage(t, bctx, "ko problem", `!!`+li+` && `+li+`.textContent === `+jsString(problem(i18n.Ko)))
	if got := get(t, bctx, "check status", chromedp.Evaluate[string](`document.querySelector("#check-status").textContent`)); got != i18n.Ko.T("lab.check.bad", 1) {
		t.Errorf("ko: the check says %q", got)
	}
	// Russian, live: what is shown is said again, the results drawn again.
	switchTo(bctx, i18n.Ru)
	pageSays(bctx, i18n.Ru)
	waitPage(t, bctx, "ru timeline", fmt.Sprintf(`document.querySelectorAll("#timeline .tl-round").length === %d && (document.querySelector("#timeline-end") || {}).textContent === %s`, o.Rounds, jsString(timelineEnd(i18n.Ru))))
	waitPage(t, bctx, "ru problem", `!!`+li+` && `+li+`.textContent === `+jsString(problem(i18n.Ru)))
	if got := strings.Join(heads(bctx), " | "); got != wantHeads(i18n.Ru) {
		t.Errorf("ru: the result's table heads %q, want %q", got, wantHeads(i18n.Ru))
	}
	if got := get(t, bctx, "results heading", chromedp.Evaluate[string](`document.querySelector("#results h3").textContent`)); got != i18n.Ru.T("lab.results") {
		t.Errorf("ru: the results' heading %q", got)
	}
	if got := get(t, bctx, "report link", chromedp.Evaluate[string](`document.querySelector("#dl-zip").href`)); !strings.HasSuffix(got, "report.zip?lang=ru") {
		t.Errorf("ru: the report is downloaded from %q", got)
	}
	shot(bctx, "ru")

	// A refusal of the server (a run clears the results shown), said
	// again when the language changes.
	do(bctx, "find", chromedp.Click("#tab-find"))
	get(t, bctx, "no condition", chromedp.Evaluate[bool](`(() => { document.querySelector("#where").value = ""; return true })()`))
	get(t, bctx, "fix", chromedp.Evaluate[bool](`(() => { const e = document.querySelector("#editor"); e.value = `+jsString(text)+`; e.dispatchEvent(new Event("input")); return true })()`))
	waitPage(t, bctx, "fixed", `document.querySelector("#check-status").classList.contains("ok") && !document.querySelector("#problems li")`)
	do(bctx, "find", chromedp.Click("#run"))
	refusal := func(l i18n.Lang) string {
		return l.Msg(msg.New(`where: find needs a condition, e.g. side("heroes").won and rounds >= 5`))
	}
	waitPage(t, bctx, "ru refusal", `document.querySelector("#job-status").textContent === `+jsString(refusal(i18n.Ru)))
	switchTo(bctx, i18n.Ko)
	waitPage(t, bctx, "ko refusal", `document.querySelector("#job-status").textContent === `+jsString(refusal(i18n.Ko)))
	switchTo(bctx, i18n.Ru)
	waitPage(t, bctx, "ru refusal again", `document.querySelector("#job-status").textContent === `+jsString(refusal(i18n.Ru)))
	do(bctx, "back to run", chromedp.Click("#tab-run"))

	// The permalink keeps the language; a fresh page opens in it.
	get(t, bctx, "fix again", chromedp.Evaluate[bool](`(() => { const e = document.querySelector("#editor"); e.value = `+jsString(text)+`; e.dispatchEvent(new Event("input")); return true })()`))
	do(bctx, "permalink", chromedp.Click("#permalink-btn"))
	waitPage(t, bctx, "permalink ready", `document.querySelector("#permalink").value.includes("#p=")`)
	link := get(t, bctx, "read permalink", chromedp.Value("#permalink"))
	if !strings.HasSuffix(link, "&lang=ru") {
		t.Errorf("the permalink %q does not keep the language", link)
	}
	fctx, cancelF := chromedp.NewContext(bctx)
	defer cancelF()
	do(fctx, "open the permalink", chromedp.Navigate(link), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitPage(t, fctx, "permalink in Russian", `document.documentElement.lang === "ru" && document.querySelector("#check-status").classList.contains("ok")`)
	pageSays(fctx, i18n.Ru)
	if got := get(t, fctx, "banner", chromedp.Evaluate[string](`document.querySelector("#banner").textContent`)); !strings.HasPrefix(got, strings.SplitN(i18n.Text(i18n.Ru, "lab.permalink.opened"), ":", 2)[0]) {
		t.Errorf("ru: the permalink's banner says %q", got)
	}
	// And back to English, live, with nothing left in Russian.
	switchTo(fctx, i18n.En)
	pageSays(fctx, i18n.En)
	if got := get(t, fctx, "banner", chromedp.Evaluate[string](`document.querySelector("#banner").textContent`)); !strings.HasPrefix(got, "Opened a permalink: ") {
		t.Errorf("en: the permalink's banner says %q", got)
	}
}

// screenshot saves the page as DIR/serve-NAME.png when DIR is set
// (SIMCTL_SCREENSHOTS).
func screenshot(t *testing.T, c context.Context, dir, name string) {
	t.Helper()
	if dir == "" {
		return
	}
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "serve-"+name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPageLanguageRules: the page picks Korean particles and Russian
// noun forms as reports/i18n does for the server's texts (Particles,
// Agree), on the same cases.
func TestPageLanguageRules(t *testing.T) {
	if raceEnabled {
		t.Skip("the browser test runs in the ordinary go test")
	}
	bin := chromium(t)
	_, ts := testServer(t, Config{MaxEncounters: 1 << 20, Workers: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	actx, cancelA := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(bin), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()))
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	if err := chromedp.Do(bctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatal(err)
	}
	cases := []string{"전사은(는)", "진영이(가)", "활(으)로", "검(으)로", "도끼(으)로", "6(으)로", "7(으)로", "10이(가)", "3.5이(가)",
		"5,000은(는)", "50%을(를)", "2.5%p(으)로", `"전사"은(는)`, "검(sword)을(를)", "Hobgoblin은(는)", "heroes(으)로", "전사 은(는)",
		"숫자(이)어야", "문자열(이)어야", "번째 (샤드 1/2)은(는)", "Hobgoblin#1..#5은(는)"}
	for _, c := range cases {
		got := get(t, bctx, c, chromedp.Evaluate[string](fmt.Sprintf("simctlLanguageRules.particles(%q)", c)))
		if want := i18n.Particles(c); got != want {
			t.Errorf("page particles(%q) = %q, reports/i18n %q", c, got, want)
		}
	}
	for _, n := range []string{"0", "1", "2", "4", "5", "11", "12", "21", "22", "101", "111", "5,000", "5\u202f001", "1,5", "0.5", "нет"} {
		c := n + " [[бой|боя|боёв]], из " + n + " [[боя|боёв|боёв]]"
		got := get(t, bctx, c, chromedp.Evaluate[string](fmt.Sprintf("simctlLanguageRules.agree(%q)", c)))
		if want := i18n.Agree(c); got != want {
			t.Errorf("page agree(%q) = %q, reports/i18n %q", c, got, want)
		}
	}
}
