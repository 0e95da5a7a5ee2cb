package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/i18n"
)

// TestReportLang: --lang and the locale choose the report's language;
// a bad --lang is a usage error naming the valid ones; Korean either
// renders with an installed Hangul font or fails before writing anything,
// naming the package to install.
func TestReportLang(t *testing.T) {
	oneGoroutineUnderRace(t)
	dir := t.TempDir()
	run := filepath.Join(dir, "run.json")
	if code, _, errOut := cli(t, "run", "d20/duel", "-n", "500", "--seed", "3", "--json", "-o", run); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	read := func(out, name string) string {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}

	out := filepath.Join(dir, "ru")
	if code, _, errOut := cli(t, "report", run, "-o", out, "--lang", "ru"); code != 0 {
		t.Fatalf("--lang ru: exit %d: %s", code, errOut)
	}
	md := read(out, "report.md")
	for _, want := range []string{"# Отчёт о балансе: Fighter vs Orc", "## 1. Fighter vs Orc: один прогон", "### Доли побед",
		"| бои | 500 (номера боёв 0..499) |", "### Рисунки", "| heroes |"} {
		if !strings.Contains(md, want) {
			t.Errorf("ru report.md lacks %q", want)
		}
	}
	if h := read(out, "report.html"); !strings.Contains(h, `lang="ru"`) || !strings.Contains(h, "Доли побед") {
		t.Error(`ru report.html: no lang="ru" or no Russian heading`)
	}

	// The locale is the default; --lang overrides it.
	t.Setenv("LANG", "ru_RU.UTF-8")
	out = filepath.Join(dir, "env")
	if code, _, errOut := cli(t, "report", run, "-o", out); code != 0 {
		t.Fatalf("LANG=ru_RU: exit %d: %s", code, errOut)
	}
	if !strings.Contains(read(out, "report.md"), "### Доли побед") {
		t.Error("LANG=ru_RU.UTF-8 did not give a Russian report")
	}
	out = filepath.Join(dir, "en")
	if code, _, errOut := cli(t, "report", run, "-o", out, "--lang", "en"); code != 0 {
		t.Fatalf("--lang en: exit %d: %s", code, errOut)
	}
	if !strings.Contains(read(out, "report.md"), "### Win rates") {
		t.Error("--lang en under LANG=ru_RU did not give English")
	}

	// A --lang that names no language is said in the locale's (here
	// Russian).
	code, _, errOut := cli(t, "report", run, "-o", filepath.Join(dir, "fr"), "--lang", "fr")
	if code != exitUsage || !strings.Contains(errOut, `неизвестный язык "fr" (допустимо: en, ko, ru)`) {
		t.Errorf("--lang fr: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "fr")); err == nil {
		t.Error("--lang fr wrote a folder")
	}

	out = filepath.Join(dir, "ko")
	code, _, errOut = cli(t, "report", run, "-o", out, "--lang", "ko")
	if _, err := os.Stat("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"); err == nil {
		if code != 0 {
			t.Fatalf("--lang ko with fonts-nanum: exit %d: %s", code, errOut)
		}
		if !strings.Contains(read(out, "report.md"), "### 승률") {
			t.Error("ko report.md lacks ### 승률")
		}
	} else if code == 0 || !strings.Contains(errOut, "fonts-nanum") {
		t.Errorf("--lang ko without a Hangul font: exit %d, %q", code, errOut)
	}
	code, _, errOut = cli(t, "report", run, "-o", filepath.Join(dir, "badfont"), "--lang", "ko", "--font", run)
	// Said in Korean, the command's --lang.
	if code != exitUsage || !strings.Contains(errOut, "TrueType 또는 OpenType 글꼴(.ttf, .otf, .ttc)이 아닙니다") {
		t.Errorf("--font run.json: exit %d, %q", code, errOut)
	}
}

// TestRunLang: run's text table follows --lang and the locale like
// report; the counts are the English table's; JSON stays English (it is
// the file format); a shard's heading line is translated too; a bad
// --lang is a usage error before anything is played.
func TestRunLang(t *testing.T) {
	args := []string{"run", "d20/duel", "-n", "300", "--seed", "5"}
	_, en, _ := cli(t, args...)
	code, ru, errOut := cli(t, append(args, "--lang", "ru")...)
	if code != 0 || !strings.Contains(ru, "зерно 5  боёв: 300") || !strings.Contains(ru, "доля побед") {
		t.Fatalf("--lang ru: exit %d, %q\n%s", code, errOut, ru)
	}
	// The same rows of numbers: "heroes" and "monsters" lines differ only
	// in padding (the columns are as wide as their headers) and in the
	// numbers written as Russian writes them for reading (72,00%).
	row := func(out, name string) string {
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == name {
				return strings.Join(f, " ")
			}
		}
		return ""
	}
	if a, b := row(en, "heroes"), row(ru, "heroes"); a == "" || i18n.Ru.ReadingCell(a) != b || a == b {
		t.Errorf("heroes row: en %q, ru %q", a, b)
	}

	t.Setenv("LANG", "ko_KR.UTF-8")
	if _, out, _ := cli(t, args...); !strings.Contains(out, "시드 5  조우 300회") {
		t.Errorf("LANG=ko_KR.UTF-8: not Korean:\n%s", out)
	}
	body := func(s string) string { _, b, _ := strings.Cut(s, "\n"); return b } // past the timed first line
	if _, out, _ := cli(t, append(args, "--lang", "en")...); body(out) != body(en) {
		t.Errorf("--lang en under LANG=ko_KR differs from English:\n%s", out)
	}
	_, js, _ := cli(t, append(args, "--json", "--lang", "ru")...)
	t.Setenv("LANG", "C")
	_, jsEn, _ := cli(t, append(args, "--json")...)
	if stripTimes(js) != stripTimes(jsEn) {
		t.Error("--json --lang ru differs from the English JSON")
	}
	if _, out, _ := cli(t, "run", "d20/duel", "-n", "300", "--seed", "5", "--shard", "1/3", "--lang", "ru"); !strings.HasPrefix(out, "часть 2 из 3 (k=1/3): бои с 100 по 199 из прогона на 300 боёв") {
		t.Errorf("shard heading in Russian: %q", strings.SplitN(out, "\n", 2)[0])
	}
	code, out, errOut := cli(t, append(args, "--lang", "fr")...)
	if code != exitUsage || out != "" || !strings.Contains(errOut, `--lang: unknown language "fr" (valid: en, ko, ru)`) {
		t.Errorf("--lang fr: exit %d, %q, %q", code, out, errOut)
	}
}

// stripTimes drops the lines of a JSON result that record wall-clock time
// and the command line.
func stripTimes(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, `"elapsed`) && !strings.Contains(l, `"rate"`) && !strings.Contains(l, `"encounters_per_second`) && !strings.Contains(l, `"command"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestCompareValueLang: compare and value take --lang like run; a bad one
// is a usage error before anything is played.
func TestCompareValueLang(t *testing.T) {
	code, out, errOut := cli(t, "compare", "d20/duel", "-n", "200", "--seed", "2", "--quiet", "--option", "base=", "--option", "init+4=heroes.Fighter.init=5", "--lang", "ru")
	if code != 0 || !strings.Contains(out, "вариантов: 2") || !strings.Contains(out, "парные разности с базовым вариантом, base") {
		t.Errorf("compare --lang ru: exit %d, %q\n%s", code, errOut, out)
	}
	code, out, errOut = cli(t, "value", "d20/duel", "-n", "200", "--seed", "2", "--quiet", "--params", "init,hp", "--lang", "ko")
	if code != 0 || !strings.Contains(out, "heroes 진영의 각 매개변수의 가치") || !strings.Contains(out, "하나씩 바꾸기") {
		t.Errorf("value --lang ko: exit %d, %q\n%s", code, errOut, out)
	}
	for _, cmd := range []string{"compare", "value"} {
		code, out, errOut := cli(t, cmd, "d20/duel", "-n", "200", "--lang", "de")
		if code != exitUsage || out != "" || !strings.Contains(errOut, `unknown language "de"`) {
			t.Errorf("%s --lang de: exit %d, %q, %q", cmd, code, out, errOut)
		}
	}
}

// TestSweepMatrixTournamentOptimizeLang: sweep, matrix, tournament and
// optimize take --lang and the locale like run; JSON stays English; a bad
// --lang is a usage error before anything is played.
func TestSweepMatrixTournamentOptimizeLang(t *testing.T) {
	t.Setenv("LANG", "C")
	cmds := map[string][]string{
		"sweep":      {"sweep", "d20/duel", "-n", "200", "--seed", "2", "--quiet", "--vary", "heroes.Fighter.init=1:3"},
		"matrix":     {"matrix", "cavaliers/duel", "-n", "200", "--seed", "2", "--quiet", "--row", "a=", "--row", "b=heroes.Cavalier.hp=30", "--col", "x=", "--col", "y=rivals.Rival.hp=30"},
		"tournament": {"tournament", "d20/duel", "-n", "400", "--first", "200", "--seed", "2", "--quiet", "--vary", "heroes.Fighter.init=1:3"},
		"optimize":   {"optimize", "d20/duel", "-n", "400", "--first", "200", "--confirm", "200", "--seed", "2", "--quiet", "--vary", "heroes.Fighter.init=1:3"},
	}
	want := map[string][2]string{ // Korean, Russian
		"sweep":      {"heroes.Fighter.init 변화 탐색: 지점 3개", "перебор heroes.Fighter.init: 3 точки"},
		"matrix":     {"공통 난수로 칸마다 조우 200회", "боёв на клетку на общих случайных числах: 200"},
		"tournament": {"공통 난수 위의 선택", "отбор на общих случайных числах"},
		"optimize":   {"heroes 진영 최적화, 후보 3개", "оптимизация стороны heroes, кандидатов: 3"},
	}
	for name, args := range cmds {
		for i, l := range []string{"ko", "ru"} {
			code, out, errOut := cli(t, append(args, "--lang", l)...)
			if code != 0 || !strings.Contains(out, want[name][i]) {
				t.Errorf("%s --lang %s: exit %d, %q\n%s", name, l, code, errOut, out)
			}
		}
		_, js, _ := cli(t, append(args, "--json", "--lang", "ru")...)
		_, jsEn, _ := cli(t, append(args, "--json")...)
		if stripTimes(js) != stripTimes(jsEn) {
			t.Errorf("%s --json --lang ru differs from the English JSON", name)
		}
		code, out, errOut := cli(t, append(args, "--lang", "de")...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, `unknown language "de"`) {
			t.Errorf("%s --lang de: exit %d, %q, %q", name, code, out, errOut)
		}
	}
	t.Setenv("LANG", "ru_RU.UTF-8")
	if _, out, _ := cli(t, cmds["sweep"]...); !strings.Contains(out, want["sweep"][1]) {
		t.Errorf("sweep under LANG=ru_RU.UTF-8: not Russian:\n%s", out)
	}
}
