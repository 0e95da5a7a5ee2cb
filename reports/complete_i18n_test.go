package reports

import (
	"bytes"
	"context"
	"strings"
	"testing"

	_ "simctl/agents" // the d20 policies
	"simctl/reports/i18n"
	"simctl/reports/i18n/i18ntest"
	"simctl/reports/narrate"
	"simctl/reports/results"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim/scenario"
)

// fightTraces are a run's representative fights as simctl report makes
// them (app.FightTracesIn): d20/delay-combo's encounters narrated in l,
// a delayed action among them, under the titles of the catalog, one cut
// short with the note naming the command for the rest.
func fightTraces(t *testing.T, l i18n.Lang) []results.FightTrace {
	t.Helper()
	data, display, _ := scenarios.Read("d20/delay-combo")
	sc, err := scenario.Load(display, data, nil, rulesets.Schema)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesets.Compile(sc)
	if err != nil {
		t.Fatal(err)
	}
	var out []results.FightTrace
	for k, name := range []string{"shortest", "median", "longest"} {
		cmd := "simctl trace builtin:d20/delay-combo.yaml --seed 1 --encounter " + string(rune('0'+k))
		var b strings.Builder
		lim := narrate.TraceLimit{Lang: l, Command: cmd}
		if name == "longest" {
			lim.Lines = 10
		}
		if err := narrate.TraceContext(context.Background(), &b, sc, g, 1, int64(k), lim); err != nil {
			t.Fatal(err)
		}
		out = append(out, results.FightTrace{Name: name, Text: "# " + cmd + "\n" + b.String(),
			Title: l.T("trace.title."+name, k, 3.0, 0, 99)})
	}
	return out
}

// The completeness check of a translated report: every kind of document's
// section (run, compare, value, sweep, matrix, tournament, optimize)
// rendered in Korean and Russian, figures included, and no line of
// simctl's own words left in English. leftovers (the other tests) finds a
// catalog sentence where a surface was still wired to English; this finds
// English that never was in a catalog (a hardcoded "Candidates", a figure
// label).

// everyKind is a report with one document of every kind simctl report
// reads, in l, and the names its documents' users wrote.
func everyKind(t *testing.T, l i18n.Lang) (*Bundle, []string) {
	b := langBundle(l)
	b.Inputs[0].Traces = fightTraces(t, l)
	b.Inputs = append(b.Inputs, &results.Input{Path: "sweep.json", Sweep: fixtureSweep1()}, &results.Input{Path: "sweep2.json", Sweep: fixtureSweep2()},
		&results.Input{Path: "matrix.json", Matrix: fixtureMatrixDoc()}, &results.Input{Path: "class.json", Matrix: classMatrix()})
	for i, tt := range outcomeTournaments() {
		b.Inputs = append(b.Inputs, &results.Input{Path: "t" + string(rune('1'+i)) + ".json", Tournament: tt})
	}
	for i, o := range optimizeDocs(t) {
		b.Inputs = append(b.Inputs, &results.Input{Path: "o" + string(rune('1'+i)) + ".json", Optimize: o})
	}
	names := []string{"Fighter vs Orc", "Cavalier vs Rival", "Braced spears", "The invisible assassin", "Fighter", "Orc", "Hobgoblin",
		"heroes", "monsters", "rivals", "guards", "assassin", "d20", "cavaliers", "lotm", "impulse", "vigilance", "timing",
		"init", "hp", "ac", "out-at-0", "dying", "confirm_crits", "surprise_ends_flat_footed",
		"ambush", "default", "aim",
		// the representative fights' scenario (d20/delay-combo): its
		// names, as its author wrote them, and the command that replays one
		"Wizard softens, fighter finishes", "Wizard", "Gnoll", "gnolls", "acid arrow", "trace"}
	// What the documents record as their users or their results wrote it:
	// options' names and overrides, counters (figures write them with
	// spaces). The warnings documents store are translated from their
	// messages (warnings_msg), so they are not allowed English here.
	for _, in := range b.Inputs {
		var rs []*results.Result
		switch {
		case in.Run != nil:
			rs = append(rs, in.Run)
		case in.Compare != nil:
			names = append(names, in.Compare.Baseline)
			for _, o := range in.Compare.Options {
				names = append(names, o.Name)
				names = append(names, o.Result.Sets...)
				rs = append(rs, o.Result)
			}
		}
		for _, r := range rs {
			for _, c := range r.Raw.Counters {
				names = append(names, c, strings.ReplaceAll(c, "_", " "))
			}
		}
	}
	return b, names
}

// render is the report's Markdown, its figures' captions and the text
// they draw.
func render(t *testing.T, b *Bundle, secs []*Section) string {
	var md bytes.Buffer
	b.markdown(&md, secs)
	var all strings.Builder
	all.Write(md.Bytes())
	for _, s := range secs {
		// The representative fights, as the bundle writes them
		// (trace-*.txt, and the HTML's details).
		for _, tr := range s.traces {
			all.WriteString("\n" + tr.Text)
		}
		for _, f := range s.figures {
			var svg bytes.Buffer
			if err := f.SVG(&svg); err != nil {
				t.Fatal(err)
			}
			all.WriteString("\n" + f.Caption + "\n")
			for _, m := range i18ntest.SVGText.FindAllStringSubmatch(svg.String(), -1) {
				all.WriteString(m[1] + "\n")
			}
		}
	}
	return all.String()
}

// TestReportNoEnglishLeft: a report holding every kind of document, in
// Korean and Russian, has no English word of simctl's own.
func TestReportNoEnglishLeft(t *testing.T) {
	oneGoroutineUnderRace(t)
	for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
		b, names := everyKind(t, l)
		secs := langSections(t, b)
		kinds := map[string]bool{}
		for _, in := range b.Inputs {
			switch {
			case in.Run != nil:
				kinds["run"] = true
			case in.Compare != nil:
				kinds["compare"] = true
			case in.Value != nil:
				kinds["value"] = true
			case in.Sweep != nil:
				kinds["sweep"] = true
			case in.Matrix != nil:
				kinds["matrix"] = true
			case in.Tournament != nil:
				kinds["tournament"] = true
			case in.Optimize != nil:
				kinds["optimize"] = true
			}
		}
		if len(kinds) != 7 {
			t.Fatalf("the report covers %d kinds of document, want 7: %v", len(kinds), kinds)
		}
		for _, line := range i18ntest.EnglishLines(render(t, b, secs), names) {
			t.Errorf("%s: English left: %s", l, line)
		}
	}
}

// TestEnglishLinesCatches: the check finds English where it is: the same
// report in English is flagged on nearly every line of prose, and so is
// the optimize section as it was before it was translated (its words,
// hardcoded).
func TestEnglishLinesCatches(t *testing.T) {
	oneGoroutineUnderRace(t)
	b, names := everyKind(t, i18n.En)
	if n := len(i18ntest.EnglishLines(render(t, b, langSections(t, b)), names)); n < 100 {
		t.Errorf("the English report is flagged on %d lines only", n)
	}
	for _, old := range []string{
		"### Candidates",
		"| rank | candidate | status | encounters | win rate | confirmed | interval | vs best | interval |",
		"| best found | 91.85% [89.87%, 93.47%], +15.30 pp against as written (76.55%), by: heroes.Fighter.ac=22 |",
		"Incumbent win rate against encounters spent",
		"encounters spent (all candidates)",
	} {
		if len(i18ntest.EnglishLines(old, names)) == 0 {
			t.Errorf("not flagged: %q", old)
		}
	}
	for _, ok := range []string{"| 1 | heroes.Fighter.ac=22 | лучший | 500 | 94.00% |", "`simctl optimize d20/duel --side heroes`", "fig1-optimize-incumbent.png", "+15.30 pp [+11.61, +19.27] pp"} {
		if bad := i18ntest.EnglishLines(ok, names); len(bad) > 0 {
			t.Errorf("flagged but allowed: %q", bad)
		}
	}
}
