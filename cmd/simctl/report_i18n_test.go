package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportLang: --lang and the locale choose the report's language;
// a bad --lang is a usage error naming the valid ones; Korean either
// renders with an installed Hangul font or fails before writing anything,
// naming the package to install.
func TestReportLang(t *testing.T) {
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

	code, _, errOut := cli(t, "report", run, "-o", filepath.Join(dir, "fr"), "--lang", "fr")
	if code != exitUsage || !strings.Contains(errOut, `unknown language "fr" (valid: en, ko, ru)`) {
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
	if code != exitUsage || !strings.Contains(errOut, "not a TrueType or OpenType font") {
		t.Errorf("--font run.json: exit %d, %q", code, errOut)
	}
}
