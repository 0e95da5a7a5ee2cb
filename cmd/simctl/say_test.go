package main

import (
	"context"
	"strings"
	"testing"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
)

// TestArgLang: the language of simctl's messages is --lang's, found in
// the arguments before any flag is parsed, else the locale's; a --lang
// that names no language, or one after "--", leaves the locale's.
func TestArgLang(t *testing.T) {
	t.Setenv("LC_ALL", "ru_RU.UTF-8")
	for _, c := range []struct {
		args []string
		want i18n.Lang
	}{
		{[]string{"run", "x.yaml"}, i18n.Ru},
		{[]string{"run", "--lang", "ko"}, i18n.Ko},
		{[]string{"run", "--lang=en", "x"}, i18n.En},
		{[]string{"fly", "-lang", "ko"}, i18n.Ko},
		{[]string{"run", "--lang", "fr"}, i18n.Ru},
		{[]string{"run", "--", "--lang", "ko"}, i18n.Ru},
		{[]string{"run", "--lang"}, i18n.Ru},
	} {
		if got := argLang(c.args); got != c.want {
			t.Errorf("%q: %s, want %s", c.args, got, c.want)
		}
	}
}

// TestErrorsBeforeFlags: an unknown command and a bad flag, found before
// the command's flags are parsed, are said in --lang's language.
func TestErrorsBeforeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fly", "--lang", "ko"}, "알 수 없는 명령 \"fly\""},
		{[]string{"run", "d20/duel", "--bogus", "--lang=ru"}, "неизвестный флаг --bogus\nсм. simctl help run"},
		{[]string{"check", "--lang", "ko", "-n", "5"}, "알 수 없는 플래그 -n"},
		{[]string{"run", "d20/duel", "-n", "x", "--lang", "ko"}, "-n \"x\": 1 이상의 정수 조우 수여야 합니다"},
	} {
		code, _, stderr := simctl(t, context.Background(), c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, stderr, c.want)
		}
	}
}

// TestSayWarningNumbers: a result's warning on stderr writes its computed
// figures as the language does for reading (it printed -18.6 in Russian).
func TestSayWarningNumbers(t *testing.T) {
	var b strings.Builder
	w := &app.LangWriter{Writer: &b, Lang: i18n.Ru}
	sayWarning(w, "value", "two rays (at most -18.6 or at least 0.61); about 9863 encounters")
	got := b.String()
	if !strings.Contains(got, "-18,6") || !strings.Contains(got, "0,61") || !strings.HasPrefix(got, "simctl value: ") {
		t.Errorf("%q", got)
	}
	b.Reset()
	sayWarning(&app.LangWriter{Writer: &b, Lang: i18n.En}, "value", "at most -18.6")
	if !strings.Contains(b.String(), "-18.6") {
		t.Errorf("English: %q", b.String())
	}
}
