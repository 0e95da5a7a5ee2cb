package main

import (
	"context"
	"strings"
	"testing"

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
