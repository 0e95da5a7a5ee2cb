package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/sim/msg"
)

// simctl's own messages on stderr (errors, warnings, notes) are printed in
// the user's language: the command's --lang, else the locale's. Main
// finds it in the arguments before any flag is parsed (argLang), so an
// unknown command or a bad flag is said in it too, and hands the commands
// a stderr that carries it (app.LangWriter); they print through say,
// sayErr and usageError.

// argLang is the language of the command line args: the value of its
// --lang (-lang, --lang=X) when it names one, else the locale's
// (i18n.FromEnv). Arguments after "--" are not flags.
func argLang(args []string) i18n.Lang {
	for i, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				break
			}
			val = args[i+1]
		}
		if l, err := i18n.Parse(val); err == nil {
			return l
		}
		break // a bad --lang is the command's error, said in the locale's language
	}
	return i18n.FromEnv(os.Getenv)
}

// langOf is the language of the messages written to w.
func langOf(w io.Writer) i18n.Lang { return app.WriterLang(w) }

// tr is a message in w's language.
func tr(w io.Writer, format string, args ...any) string {
	return langOf(w).Msg(msg.New(format, args...))
}

// prefix is "simctl CMD: " ("simctl: " for no command).
func prefix(cmd string) string {
	if cmd == "" {
		return "simctl: "
	}
	return "simctl " + cmd + ": "
}

// say prints "simctl CMD: MESSAGE" in w's language.
func say(w io.Writer, cmd, format string, args ...any) {
	fmt.Fprintf(w, "%s%s\n", prefix(cmd), tr(w, format, args...))
}

// sayWarning prints a result's warning (its figures computed, not typed:
// -18.6, 0.61) as w's language writes numbers for reading (i18n.Reading).
func sayWarning(w io.Writer, cmd string, warning any) {
	fmt.Fprintf(w, "%s%s\n", prefix(cmd), langOf(w).Reading(tr(w, "warning: %v", warning)))
}

// sayErr prints "simctl CMD: ERROR" in w's language.
func sayErr(w io.Writer, cmd string, err error) {
	fmt.Fprintf(w, "%s%s\n", prefix(cmd), langOf(w).Err(err))
}

// seeHelp is the line pointing to a command's help ("see simctl help").
func seeHelp(w io.Writer, cmd string) string {
	if cmd == "" {
		return tr(w, "see simctl help")
	}
	return tr(w, "see simctl help %s", cmd)
}
