package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n/i18ntest"
)

// TestPlotNoEnglish: the --plot figure of every command that draws one
// (run's every --figure, sweep's line and heat map, compare, value's
// tornado, matrix's heat map), in Korean and Russian, has no English word
// of simctl's own in its titles, axes and legends: only the scenario's
// names, the options and paths the user wrote, and the counters (the
// result's own names).
func TestPlotNoEnglish(t *testing.T) {
	oneGoroutineUnderRace(t)
	dir := t.TempDir()
	cases := [][]string{
		{"sweep", "d20/duel", "--vary", "heroes.Fighter.ac=14,16,18", "-n", "200"},
		{"sweep", "d20/duel", "--vary", "heroes.Fighter.ac=14,18", "--vary", "monsters.Orc.hp=15,25", "-n", "100"},
		{"compare", "d20/duel", "--option", "base=", "--option", "tank=--set heroes.Fighter.ac=20", "-n", "300"},
		{"value", "d20/duel", "--params", "ac,hp", "-n", "200"},
		{"matrix", "d20/duel", "--row", "low=--set heroes.Fighter.ac=14", "--row", "high=--set heroes.Fighter.ac=20",
			"--col", "weak=--set monsters.Orc.hp=15", "--col", "strong=--set monsters.Orc.hp=30", "-n", "100"},
	}
	for _, kind := range runFigureKinds {
		cases = append(cases, []string{"run", "d20/duel", "-n", "300", "--figure", kind})
	}
	names := append(traceNames(t, "d20/duel"), "base", "tank", "low", "high", "weak", "strong",
		// the counters, as the result names them (the economy figure)
		"turns", "actions", "attacks", "hits", "criticals", "deaths", "damage", "dealt", "misses")
	for _, l := range []string{"ko", "ru"} {
		for k, c := range cases {
			svg := filepath.Join(dir, l+string(rune('a'+k))+".svg")
			args := append(append([]string(nil), c...), "--lang", l, "--plot", svg, "-o", filepath.Join(dir, "table.txt"))
			if code, _, errOut := cli(t, args...); code != 0 {
				t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
			}
			data, err := os.ReadFile(svg)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, m := range i18ntest.SVGText.FindAllStringSubmatch(string(data), -1) {
				text.WriteString(m[1] + "\n")
			}
			if text.Len() == 0 {
				t.Fatalf("%s: no text in the SVG", strings.Join(c, " "))
			}
			for _, b := range i18ntest.EnglishLines(text.String(), names) {
				t.Errorf("%s %s: English left: %s", l, strings.Join(c[:min(len(c), 5)], " "), b)
			}
		}
	}
}

// TestPlotKoreanFont: a Korean --plot with a font that has no Hangul
// fails before the run, naming fonts-nanum; the table is not written.
func TestPlotKoreanFont(t *testing.T) {
	font := "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
	if _, err := os.Stat(font); err != nil {
		t.Skip("no Latin-only font to try: ", err)
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "d20/duel", "-n", "100"},
		{"sweep", "d20/duel", "--vary", "heroes.Fighter.ac=14,16", "-n", "100"},
	} {
		table := filepath.Join(dir, args[0]+".txt")
		code, _, errOut := cli(t, append(args, "--lang", "ko", "--font", font, "--plot", filepath.Join(dir, "x.png"), "-o", table)...)
		if code != exitUsage || !strings.Contains(errOut, "fonts-nanum") {
			t.Errorf("%s: exit %d, want %d naming fonts-nanum: %s", args[0], code, exitUsage, errOut)
		}
		if _, err := os.Stat(table); err == nil {
			t.Errorf("%s: the table was written before the font was checked", args[0])
		}
	}
}
