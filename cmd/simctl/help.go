package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// commandHelp is what `simctl help CMD` and `simctl CMD -h` print around
// the command's flags. Its prose (the summary, the paragraphs of what the
// command does, every flag's text) is in the catalogs, help.txt of each
// language (help.CMD.summary, help.CMD.about, flag.CMD.NAME or flag.NAME);
// what stays here is syntax, the same in every language.
type commandHelp struct {
	usage    []string // after "simctl "
	examples []string // after "simctl "
	// formats, when set, are the only --format values the command
	// writes: its help lists these rather than the shared four.
	formats []string
}

// commands lists every command in the order of the overview.
var commands = []string{"run", "trace", "sweep", "compare", "value", "matrix", "tournament", "optimize", "find", "merge", "report", "check", "init", "scenarios", "rules", "policies", "schema", "serve", "version", "help"}

var helps = map[string]commandHelp{
	"serve": {
		usage: []string{"serve [--addr HOST:PORT] [--dir DIR] [--max-encounters N] [--max-jobs J] [--queue Q] [--workers W]"},
		examples: []string{
			"serve",
			"serve --dir scenarios/ --addr 127.0.0.1:9000",
			"serve --max-encounters 100M --max-jobs 1 --queue 4",
		},
	},
	"run": {
		usage: []string{"run SCENARIO [-n N] [--seed S] [--workers W] [--set PATH=VALUE]... [--precision W] [--shard k/K] [--format F] [-o FILE] [--plot FILE [--figure KIND]]"},
		examples: []string{
			"run d20/duel",
			"run d20/duel -n 1e6 --seed 7 --json -o duel.json",
			"run d20/ambush --set party.aware=true",
			"run my.yaml --precision 1pp -n 10M",
			"run d20/duel -n 1M --shard 3/10 -o shard3.json",
			"run d20/tactics-combo --plot first.png --figure first",
		},
	},
	"value": {
		usage: []string{"value SCENARIO [--side NAME] [--params P,P,...] [--step P=STEP]... [-n N] [--shard k/K] [--resume FILE] [--format F] [-o FILE] [--plot FILE]"},
		examples: []string{
			"value d20/duel --params init,hp,ac,attack -n 200k",
			"value d20/duel --side monsters --params hp,damage --step hp=2 --plot tornado.png",
			"value d20/duel -n 4M --shard 2/8 --format json -o value2.json",
		},
	},
	"matrix": {
		usage: []string{"matrix SCENARIO --row NAME='--set ...'... --col NAME='--set ...'... [--side NAME] [-n N] [--shard k/K] [--resume FILE] [--format F] [-o FILE] [--plot FILE]"},
		examples: []string{
			"matrix d20/duel --row base='' --row fast='--set heroes.Fighter.init=5' --col base='' --col armoured='--set monsters.Orc.ac=17'",
		},
	},
	"tournament": {
		usage: []string{"tournament SCENARIO (--option NAME='--set ...' | --vary PATH=RANGE)... [--side NAME] [--alpha A] [--delta D] [--first N] [--batch N] [-n BUDGET] [--resume FILE] [--format F] [-o FILE]"},
		examples: []string{
			"tournament d20/tactics-combo --vary heroes.Wizard.tactics.params.crowd=1:4:1",
			"tournament d20/duel --option a='--set heroes.Fighter.ac=18' --option b='--set heroes.Fighter.hp=24' -n 1M --delta 0.5pp",
		},
	},
	"optimize": {
		usage: []string{"optimize SCENARIO [--side NAME] (--vary PATH=RANGE | --option NAME='--set ...' | --traits SIDE.NAME=TRAIT,...)... [--where EXPR] [--rules subset|order|both --block PATH] [--baseline NAME] [--alpha A] [--delta D] [-n CAP] [--budget B] [--resume FILE] [--format F] [-o FILE]",
			"optimize SCENARIO --both --side NAME (--vary PATH=RANGE | --option NAME='--set ...')... [-n N] [--alpha A] [--delta D]"},
		examples: []string{
			"optimize d20/duel --side heroes --vary heroes.Fighter.init=1:5 --vary heroes.Fighter.ac=17:21 --vary heroes.Fighter.hp=20:28:2 --where '(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 4' --delta 0.5pp --json",
			"optimize acks2/tactics-shieldwall --side foot --rules both --block foot.tactics.turn",
			"optimize d20/duel --side heroes --traits heroes.Fighter=improved_initiative,dodge,weapon_focus,power_attack --where 'heroes.Fighter.traits == 2'",
			"optimize d20/duel --both --side heroes --vary heroes.Fighter.init=1:5 --vary monsters.Orc.init=0:4 -n 20k",
		},
	},
	"find": {
		usage:   []string{"find SCENARIO --where COND [-n N] [--seed S] [--limit K] [--format text|json]"},
		formats: []string{"text", "json"},
		examples: []string{
			`find d20/duel --where 'side("heroes").won and combatant("Fighter").hp <= 2'`,
			`find d20/ambush --where 'rounds >= 6' -n 1M --limit 5`,
			`find d20/tactics-combo --where 'rule("focus").fired > 0 and side("raiders").won'`,
		},
	},
	"trace": {
		usage:    []string{"trace SCENARIO --seed S --encounter I [--set PATH=VALUE]...", "trace SCENARIO --seed S --pick min|median|max|pNN --metric EXPR [-n N]"},
		examples: []string{"trace d20/duel --seed 7 --encounter 12", `trace d20/duel --seed 7 --pick max --metric rounds`, `trace d20/ambush --pick p90 --metric 'side("monsters").damage'`},
	},
	"sweep": {
		usage: []string{"sweep SCENARIO --vary PATH=RANGE [--vary PATH2=RANGE] [-n N] [--precision W] [--format F] [-o FILE] [--plot FILE]"},
		examples: []string{
			"sweep d20/duel --vary heroes.Fighter.init=-2:8:1 --plot init.png",
			"sweep d20/duel --vary heroes.Fighter.ac=14:20:2 --vary monsters.Orc.hp=15,22,30 --precision 2pp",
		},
	},
	"compare": {
		usage: []string{
			"compare SCENARIO --option NAME='--set PATH=VALUE ...' --option ... [-n N] [--precision W] [--shard k/K] [--resume FILE] [--format F] [-o FILE] [--plot FILE]",
			"compare [SCENARIO] --compare FILE [flags]",
		},
		examples: []string{
			"compare d20/duel --option base='' --option init+4='--set heroes.Fighter.init=5'",
			"compare --compare options.yaml --format markdown -o compare.md",
		},
	},
	"merge": {
		usage:    []string{"merge RESULT.json... [--format F] [-o FILE]"},
		examples: []string{"merge shard*.json --json -o whole.json"},
	},
	"report": {
		usage:    []string{"report RESULT.json... -o DIR [--title TEXT] [--lang en|ko|ru] [--font FILE]"},
		examples: []string{"report duel.json sweep.json -o report/", "report value.json matrix.json tournament.json -o analysis/", "report duel.json -o 보고서/ --lang ko"},
	},
	"check": {
		usage:    []string{"check SCENARIO... [--set PATH=VALUE]..."},
		examples: []string{"check my.yaml", "check *.yaml --set max_rounds=20"},
	},
	"init": {
		usage:    []string{"init [RULESET] [-o FILE] [--force]"},
		examples: []string{"init acks2", "init lotm -o ambush.yaml", "init cavaliers -o -"},
	},
	"scenarios": {
		usage:    []string{"scenarios", "scenarios show NAME"},
		examples: []string{"scenarios", "scenarios show d20/duel > duel.yaml"},
	},
	"rules": {
		usage:    []string{"rules NAME [--lang en|ko|ru]"},
		examples: []string{"rules d20", "rules acks2", "rules d20 --lang ko"},
	},
	"policies": {
		usage:    []string{"policies [RULESET] [--lang en|ko|ru]", "policies show [RULESET/]NAME [--lang en|ko|ru]"},
		examples: []string{"policies d20", "policies show d20/delay"},
	},
	"schema": {
		usage:    []string{"schema [-o FILE]"},
		examples: []string{"schema -o simctl-scenario.schema.json"},
	},
	"version": {
		usage: []string{"version"},
	},
	"help": {
		usage:    []string{"help [COMMAND | flags]"},
		examples: []string{"help run", "help flags"},
	},
}

// summary is cmd's one-line summary in l; an analysis kind registered
// without one in the catalogs has its table's, in English.
func summary(l i18n.Lang, cmd string) string {
	key := "help." + cmd + ".summary"
	if k := app.Lookup(cmd); k != nil && !i18n.Has(i18n.En, key) {
		return k.Summary
	}
	return l.T(key)
}

// allCommands are the commands, and after them the analysis kinds
// registered without a hand-written command.
func allCommands() []string {
	out := slices.Clone(commands)
	for _, k := range app.Analyses() {
		if !slices.Contains(out, k.Name) {
			out = append(out, k.Name)
		}
	}
	return out
}

// Widths in terminal columns: paragraphs of Korean and Russian prose are
// wrapped to proseWidth when printed (English is wrapped by hand in its
// catalog); a flag's lines, its 21-column name included, to flagWidth in
// every language.
const (
	proseWidth = 80
	flagWidth  = 88
)

// prose is a catalog paragraph text as printed: English as written (its
// lines are wrapped by hand, some to 81 columns, and must print
// unchanged), other languages with every line wider than width wrapped at
// spaces, by display width (a Hangul syllable takes two columns).
func prose(l i18n.Lang, s string, width int) string {
	if l.Or() == i18n.En {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		if i18n.Width(line) > width {
			lines[i] = i18n.Wrap(line, width, "")
		}
	}
	return strings.Join(lines, "\n")
}

// overview is `simctl help` and `simctl` alone.
func overview(l i18n.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n", l.T("help.title"), l.T("help.usage"))
	for _, c := range allCommands() {
		for _, u := range usageOf(c) {
			fmt.Fprintf(&b, "  simctl %s\n", u)
		}
	}
	fmt.Fprintf(&b, "\n%s\n", l.T("help.commands"))
	for _, c := range allCommands() {
		fmt.Fprintf(&b, "  %-10s %s\n", c, summary(l, c))
	}
	fmt.Fprintf(&b, "\n%s\n", prose(l, l.T("help.overview"), proseWidth))
	return b.String()
}

// conventions lists the global flags in `simctl help flags`, each with
// its key in the catalogs (help.conventions.KEY).
var conventions = []struct{ flag, key string }{
	{"-n N", "n"}, {"--seed S", "seed"}, {"--workers W", "workers"}, {"--set PATH=VALUE", "set"},
	{"--precision W", "precision"}, {"--format F", "format"}, {"-o FILE", "o"}, {"--quiet", "quiet"},
	{"--progress WHEN", "progress"},
}

// setExamples follows --set's text in help flags: values, not prose, so
// the same in every language and never wrapped.
const setExamples = "max_rounds=20, heroes.Fighter.init=4, heroes.policy={name: delay, until: Orc}"

// conventionsHelp documents the global flags once (simctl help flags);
// each command's help repeats only the ones it takes.
func conventionsHelp(l i18n.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", prose(l, l.T("help.conventions"), proseWidth))
	indent := strings.Repeat(" ", 21)
	for _, c := range conventions {
		text := l.T("help.conventions." + c.key)
		if l.Or() != i18n.En {
			text = strings.TrimPrefix(i18n.Wrap(text, flagWidth, indent), indent)
		}
		text = strings.ReplaceAll(text, "\n"+indent, "\n")
		if c.key == "set" {
			text += "\n" + setExamples
		}
		fmt.Fprintf(&b, "  %-19s%s\n", c.flag, strings.ReplaceAll(text, "\n", "\n"+indent))
	}
	fmt.Fprintf(&b, "\n%s\n", prose(l, l.T("help.conventions.end"), proseWidth))
	return b.String()
}

// flagText is f's text in l, placeholder included (`N` ...): cmd's own
// (flag.CMD.NAME) when it has one, else the shared one (flag.NAME).
func flagText(l i18n.Lang, cmd string, f *flag.Flag) string {
	key := "flag." + cmd + "." + f.Name
	if !i18n.Has(i18n.En, key) {
		key = "flag." + f.Name
	}
	if !i18n.Has(i18n.En, key) && app.Lookup(cmd) != nil {
		// A registered kind's own flag, in its table's words.
		if f.DefValue != "" && !strings.Contains(f.Usage, "default") {
			return f.Usage + " (default " + f.DefValue + ")"
		}
		return f.Usage
	}
	return l.T(key)
}

// orWords joins xs with the language's "or" ("text or json").
func orWords(l i18n.Lang, xs []string) string {
	s := ""
	for i, x := range xs {
		if i == 0 {
			s = x
		} else {
			s = l.T("help.or", s, x)
		}
	}
	return s
}

// flagSetsTo lets a test see the flags a command's help lists (the
// writer it passes implements it), to check the English catalog against
// the texts the flags are registered with.
type flagSetsTo interface {
	helpFlags(cmd string, fs *flag.FlagSet)
}

// printHelp writes a command's help in l: usage, what it does, its flags
// (from fs, so the list cannot drift from what parses) and examples.
func printHelp(w io.Writer, l i18n.Lang, cmd string, fs *flag.FlagSet) {
	if cmd == "help" {
		// help's only flag is --lang, which its help has never listed;
		// leaving it out keeps `simctl help help` as it was.
		fs = nil
	}
	if r, ok := w.(flagSetsTo); ok && fs != nil {
		r.helpFlags(cmd, fs)
	}
	h := helps[cmd]
	fmt.Fprintf(w, "simctl %s — %s\n\n%s\n", cmd, summary(l, cmd), l.T("help.usage"))
	for _, u := range usageOf(cmd) {
		fmt.Fprintf(w, "  simctl %s\n", u)
	}
	if key := "help." + cmd + ".about"; i18n.Has(i18n.En, key) {
		fmt.Fprintf(w, "\n%s\n", prose(l, l.T(key), proseWidth))
	}
	var lines [][2]string
	if fs != nil {
		fs.VisitAll(func(f *flag.Flag) {
			// The flag package reads the placeholder from the backquotes
			// of the text, which every language keeps.
			name, usage := flag.UnquoteUsage(&flag.Flag{Name: f.Name, Usage: flagText(l, cmd, f), Value: f.Value})
			usage = strings.TrimPrefix(usage, name+" ")
			if len(h.formats) > 0 {
				switch f.Name {
				case "format":
					usage = l.T("help.format_only", orWords(l, h.formats))
				case "o":
					usage = l.T("help.o_only", formatExts(h.formats))
				}
			}
			if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool {
				name = ""
			}
			left := dashed(f.Name)
			if name != "" {
				left += " " + name
			}
			lines = append(lines, [2]string{left, usage})
		})
	}
	lines = append(lines, [2]string{"-h, --help", l.T("help.this_help")})
	fmt.Fprintf(w, "\n%s\n", l.T("help.flags"))
	for _, ln := range lines {
		pad := 19
		body := i18n.Wrap(ln[1], flagWidth, strings.Repeat(" ", pad+2))
		if len(ln[0]) > pad-1 {
			fmt.Fprintf(w, "  %s\n%s\n", ln[0], body)
			continue
		}
		fmt.Fprintf(w, "  %-*s%s\n", pad, ln[0], strings.TrimPrefix(body, strings.Repeat(" ", pad+2)))
	}
	if len(h.examples) > 0 {
		fmt.Fprintf(w, "\n%s\n", l.T("help.examples"))
		for _, e := range h.examples {
			fmt.Fprintf(w, "  simctl %s\n", e)
		}
	}
	shared := false
	for _, g := range []string{"n", "seed", "set", "format", "quiet"} {
		shared = shared || (fs != nil && fs.Lookup(g) != nil)
	}
	if shared {
		fmt.Fprintf(w, "\n%s\n", prose(l, l.T("help.shared"), proseWidth))
	}
}

// usageOf is cmd's usage lines: its help's, or for an analysis kind
// registered without a hand-written command, its flags from the table.
func usageOf(cmd string) []string {
	if u := helps[cmd].usage; len(u) > 0 {
		return u
	}
	k := app.Lookup(cmd)
	if k == nil {
		return nil
	}
	line := cmd + " SCENARIO"
	for _, f := range k.Flags {
		name, _ := flag.UnquoteUsage(&flag.Flag{Usage: f.Usage, Value: &repeatedFlag{}})
		line += " [--" + f.Name + " " + name + "]"
		if f.Type == app.Repeated {
			line += "..."
		}
	}
	return []string{line + " [-n N] [--seed S] [--format F] [-o FILE]"}
}

// formatExts lists the -o extensions that select the given formats.
func formatExts(formats []string) string {
	ext := map[string]string{"text": ".txt", "json": ".json", "csv": ".csv", "markdown": ".md"}
	var out []string
	for _, f := range formats {
		out = append(out, ext[f])
	}
	return strings.Join(out, ", ")
}

// cmdHelp is `simctl help [COMMAND | flags] [--lang LANG]`.
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	langF := langFlag(fs, "the help")
	args, done, code := parseArgs("help", fs, args, stdout, stderr)
	if done {
		return code
	}
	l, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "help", "%v", err)
	}
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, overview(l))
		return exitOK
	case len(args) > 1:
		return usageError(stderr, "help", "one topic at a time, got %d", len(args))
	case args[0] == "flags" || args[0] == "conventions":
		fmt.Fprint(stdout, conventionsHelp(l))
		return exitOK
	}
	if _, ok := helps[args[0]]; !ok && app.Lookup(args[0]) == nil {
		return usageError(stderr, "help", "no command %q%s; commands: %s, and the topic flags", args[0], didYouMean(args[0], commands), strings.Join(commands, ", "))
	}
	if args[0] == "help" {
		printHelp(stdout, l, "help", nil)
		return exitOK
	}
	// A command's help lists the flags its own parser defines; the
	// language goes with it as a flag, which every command's -h reads.
	return Main(context.Background(), []string{args[0], "-h", "--lang", string(l)}, stdout, stderr)
}

// didYouMean suggests the closest of valid to s (" (did you mean "x"?)"),
// or the empty Text when none is close, as the scenario errors do. A Text,
// not a string: it is translated with the message it ends.
func didYouMean(s string, valid []string) msg.Text { return scenario.Suggest(s, valid) }
