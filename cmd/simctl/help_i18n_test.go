package main

import (
	"bytes"
	"context"
	"flag"
	"regexp"
	"strings"
	"testing"

	"simctl/reports/i18n"
)

// The help in Korean and Russian: goldens of the overview and of one
// command, and for every command a check that no English prose of
// simctl's own was left untranslated.
func TestHelpGoldenLangs(t *testing.T) {
	t.Setenv("LC_ALL", "C")
	for _, l := range []string{"ko", "ru"} {
		goldenCLI(t, "help_"+l, "help", "--lang", l)
		goldenCLI(t, "help_run_"+l, "help", "run", "--lang", l)
	}
}

// proseWord is an English word as prose writes it (the, option's,
// Markdown); placeholders (SCENARIO, JSON), flags (--seed), paths
// (heroes.Fighter.init) and numbers are not.
var proseWord = regexp.MustCompile(`^[A-Za-z][a-z]+(['’][a-z]+)?$`)

// englishRun returns the first run of three or more consecutive English
// prose words in line, "" when there is none. Command names and "simctl"
// are names, not prose; usage lines and example commands (the lines
// starting "  simctl ") are syntax, the same in every language.
// Punctuation after a word ends a run, so a list of values ("text, json,
// csv") is not prose.
func englishRun(line string) string {
	if strings.HasPrefix(line, "  simctl ") {
		return ""
	}
	var run []string
	for _, tok := range strings.Fields(line) {
		core := strings.TrimLeft(tok, `("'«`)
		word := strings.TrimRight(core, `,.;:)"'»!?`)
		name := word == "simctl" || word == "flags"
		for _, c := range commands {
			name = name || word == c
		}
		if !proseWord.MatchString(word) || name {
			run = nil
			continue
		}
		run = append(run, word)
		if len(run) >= 3 {
			return strings.Join(run, " ")
		}
		if word != core {
			run = nil
		}
	}
	return ""
}

func TestEnglishRun(t *testing.T) {
	for line, want := range map[string]string{
		"Encounter i of the run draws all its randomness":           "draws all its", // run is a command's name
		"  --seed S           시드 (기본값 1); 조우 i는":                    "",
		"  simctl run d20/duel -n 1e6 --seed 7 --json -o duel.json": "",
		"text, json, csv 또는 markdown":                               "",
		"the lab in a browser":                                      "the lab in",
		"Liberation Sans; fonts-nanum":                              "",
		"lists every problem, of every file":                        "lists every problem",
		"simctl run d20/duel --format json":                         "",
	} {
		if got := englishRun(line); got != want {
			t.Errorf("englishRun(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestHelpTranslated(t *testing.T) {
	t.Setenv("LC_ALL", "C")
	topics := append([]string{"", "flags"}, commands...)
	for _, l := range []string{"ko", "ru"} {
		for _, topic := range topics {
			args := []string{"help", topic, "--lang", l}
			if topic == "" {
				args = []string{"help", "--lang", l}
			}
			code, out, errOut := simctl(t, context.Background(), args...)
			if code != exitOK || errOut != "" {
				t.Fatalf("simctl %s: exit %d: %s", strings.Join(args, " "), code, errOut)
			}
			for i, line := range strings.Split(out, "\n") {
				if run := englishRun(line); run != "" {
					t.Errorf("simctl %s, line %d: English %q left in %q", strings.Join(args, " "), i+1, run, line)
				}
			}
		}
	}
}

// flagRecorder is a writer that also records the flag sets printHelp lists
// (flagSetsTo).
type flagRecorder struct {
	bytes.Buffer
	sets map[string]*flag.FlagSet
}

func (r *flagRecorder) helpFlags(cmd string, fs *flag.FlagSet) { r.sets[cmd] = fs }

// TestHelpFlagsAgree: every flag of every command has a text in the
// catalogs; the English one is the text the flag is registered with (what
// `go doc` and the flag package show), and every language keeps its
// placeholder; no flag text in the catalogs is left unused.
func TestHelpFlagsAgree(t *testing.T) {
	r := &flagRecorder{sets: map[string]*flag.FlagSet{}}
	for _, c := range commands {
		if c != "help" {
			Main(context.Background(), []string{c, "-h", "--lang", "en"}, r, r)
		}
	}
	used := map[string]bool{}
	for _, c := range commands {
		fs := r.sets[c]
		if c == "help" || c == "version" {
			continue
		}
		if fs == nil {
			t.Errorf("%s -h: no flags recorded", c)
			continue
		}
		fs.VisitAll(func(f *flag.Flag) {
			key := "flag." + c + "." + f.Name
			if !i18n.Has(i18n.En, key) {
				key = "flag." + f.Name
			}
			if !i18n.Has(i18n.En, key) {
				t.Errorf("%s --%s: no text in the catalogs (flag.%s.%s or flag.%s in catalog/*/help.txt)", c, f.Name, c, f.Name, f.Name)
				return
			}
			used[key] = true
			if got := i18n.En.T(key); got != f.Usage {
				t.Errorf("%s --%s: catalog/en/help.txt %s is\n%q\nbut the flag is registered with\n%q\n(a text of its own: flag.%s.%s)", c, f.Name, key, got, f.Usage, c, f.Name)
			}
			want, _ := flag.UnquoteUsage(f)
			for _, l := range i18n.Langs[1:] {
				got, _ := flag.UnquoteUsage(&flag.Flag{Name: f.Name, Usage: l.T(key), Value: f.Value})
				if got != want {
					t.Errorf("%s: %s: placeholder %q, English %q", l, key, got, want)
				}
			}
		})
	}
	for _, k := range i18n.Keys(i18n.En) {
		if strings.HasPrefix(k, "flag.") && !used[k] {
			t.Errorf("catalog key %s is no command's flag", k)
		}
	}
}

// TestHelpLang: where the help's language comes from: --lang after the
// command or the topic, on either side of -h, before the command, or the
// locale; a bad --lang is the usual error; the hint under a usage error
// follows --lang too.
func TestHelpLang(t *testing.T) {
	ctx := context.Background()
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "C")
	_, ru, _ := simctl(t, ctx, "help", "run", "--lang", "ru")
	if !strings.Contains(ru, "использование:") {
		t.Fatalf("help run --lang ru is not Russian:\n%s", ru)
	}
	for _, args := range [][]string{
		{"run", "-h", "--lang", "ru"},
		{"run", "--lang", "ru", "-h"},
		{"run", "--lang=ru", "--help"},
		{"--lang", "ru", "run", "-h"},
		{"--lang", "ru", "help", "run"},
		{"help", "--lang", "ru", "run"},
	} {
		code, out, errOut := simctl(t, ctx, args...)
		if code != exitOK || out != ru || errOut != "" {
			t.Errorf("simctl %s: exit %d, stderr %q, and stdout differs from help run --lang ru", strings.Join(args, " "), code, errOut)
		}
	}
	// A command that takes no --lang of its own still has its help in
	// the language asked for.
	if _, out, _ := simctl(t, ctx, "check", "-h", "--lang", "ko"); !strings.Contains(out, "사용법:") {
		t.Errorf("check -h --lang ko is not Korean:\n%s", out)
	}
	_, ko, _ := simctl(t, ctx, "help", "--lang", "ko")
	if _, out, _ := simctl(t, ctx, "--lang", "ko", "help"); out != ko {
		t.Error("--lang ko help differs from help --lang ko")
	}
	if code, _, errOut := simctl(t, ctx, "--lang", "ko"); code != exitUsage || errOut != ko {
		t.Errorf("simctl --lang ko: exit %d, and stderr is not the Korean overview", code)
	}

	for _, args := range [][]string{{"help", "run", "--lang", "fr"}, {"run", "-h", "--lang", "fr"}, {"--lang", "fr", "help"}} {
		code, out, errOut := simctl(t, ctx, args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, `--lang: unknown language "fr" (valid: en, ko, ru)`) {
			t.Errorf("simctl %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errOut)
		}
	}

	if _, errOut := simctlErr(t, "run", "d20/duel", "--bogus", "--lang", "ru"); !strings.HasSuffix(errOut, "\nсм. simctl help run\n") {
		t.Errorf("--bogus --lang ru: %q", errOut)
	}

	if _, errOut := simctlErr(t, "--lang", "ko", "bogus"); !strings.HasSuffix(errOut, "\n도움말: simctl help\n") {
		t.Errorf("--lang ko bogus: %q", errOut)
	}

	// The locale: LANG, outranked by LC_ALL.
	t.Setenv("LANG", "ko_KR.UTF-8")
	if _, out, _ := simctl(t, ctx, "help"); out != ko {
		t.Error("LANG=ko_KR.UTF-8 simctl help is not the Korean overview")
	}
	if _, errOut := simctlErr(t, "run", "d20/duel", "--bogus"); !strings.HasSuffix(errOut, "\n도움말: simctl help run\n") {
		t.Errorf("LANG=ko_KR.UTF-8 --bogus: %q", errOut)
	}
	if _, out, _ := simctl(t, ctx, "help", "--lang", "en"); strings.Contains(out, "사용법") {
		t.Error("--lang en under LANG=ko_KR.UTF-8 is not English")
	}
	t.Setenv("LC_ALL", "C")
	_, en, _ := simctl(t, ctx, "help")
	if _, want, _ := simctl(t, ctx, "help", "--lang", "en"); en != want {
		t.Error("LC_ALL=C over LANG=ko_KR.UTF-8 is not English")
	}
}

func simctlErr(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, _, errOut := simctl(t, context.Background(), args...)
	return code, errOut
}

// A near miss of a scenario or command name is suggested in the user's
// language: the suggestion is translated with the error it ends (it was
// English, "(did you mean …)", after a Russian or Korean error).
func TestDidYouMeanTranslated(t *testing.T) {
	t.Setenv("LC_ALL", "C")
	want := map[string]string{"ko": `("d20/duel"을(를) 뜻했습니까?)`, "ru": `(может быть, "d20/duel"?)`}
	for _, l := range []string{"ko", "ru"} {
		for _, args := range [][]string{{"run", "d20/dule"}, {"scenarios", "show", "d20/dule"}, {"rnu"}} {
			var out, errb bytes.Buffer
			Main(context.Background(), append(args, "--lang", l), &out, &errb)
			got := errb.String()
			if strings.Contains(got, "did you mean") {
				t.Errorf("%s %v: English suggestion: %s", l, args, got)
			}
			if args[0] != "rnu" && !strings.Contains(got, want[l]) {
				t.Errorf("%s %v: no %s in %s", l, args, want[l], got)
			}
		}
	}
}
