package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"simctl/cmd/simctl/app"
	"simctl/sim/scenario"
)

// commandHelp is what `simctl help CMD` and `simctl CMD -h` print around
// the command's flags.
type commandHelp struct {
	summary  string   // one line, also in the command list
	usage    []string // after "simctl "
	about    string   // paragraphs, already wrapped
	examples []string // after "simctl "
	// formats, when set, are the only --format values the command
	// writes: its help lists these rather than the shared four.
	formats []string
}

// commands lists every command in the order of the overview.
var commands = []string{"run", "trace", "sweep", "compare", "value", "matrix", "tournament", "optimize", "find", "merge", "report", "check", "init", "scenarios", "rules", "policies", "schema", "serve", "version", "help"}

var helps = map[string]commandHelp{
	"serve": {
		summary: "the lab in a browser: edit a scenario, run, sweep, compare, trace, download the report",
		usage:   []string{"serve [--addr HOST:PORT] [--dir DIR] [--max-encounters N] [--max-jobs J] [--queue Q] [--workers W]"},
		about: `Serves an embedded page (no CDN, nothing fetched from elsewhere) and a JSON
API over the same code as the CLI: the editor's errors come from the
validator of simctl check, a run's counts equal simctl run's for the same
seed and -n, and the report download is what simctl report writes. Live
progress arrives as Server-Sent Events; cancel stops the workers at once.
A permalink encodes the scenario, overrides, seed and -n in the URL.

It listens on loopback by default and warns when bound elsewhere (there is
no login). Requests must name this server in Host (no DNS rebinding) and
state-changing ones must come from its own page (Origin); bodies are capped
at 1 MiB, encounters per request at --max-encounters, and --max-jobs run at
once with --queue more waiting (then 429). With --dir, the .yaml files of
that one folder are offered; no other file is ever read. docs/serve.md
describes the API.`,
		examples: []string{
			"serve",
			"serve --dir scenarios/ --addr 127.0.0.1:9000",
			"serve --max-encounters 100M --max-jobs 1 --queue 4",
		},
	},
	"run": {
		summary: "play N encounters of a scenario; win rates with 95% intervals, action economy, who acts first",
		usage:   []string{"run SCENARIO [-n N] [--seed S] [--workers W] [--set PATH=VALUE]... [--precision W] [--shard k/K] [--format F] [-o FILE] [--plot FILE [--figure KIND]]"},
		about: `Encounter i of the run draws all its randomness from the stream (seed, i),
so the counts are the same for any --workers, and --shard k/K splits a run
into K processes whose JSON results simctl merge adds up exactly.`,
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
		summary: "what each parameter is worth: effects on the win rate, exchange rates, the tornado",
		usage:   []string{"value SCENARIO [--side NAME] [--params P,P,...] [--step P=STEP]... [-n N] [--shard k/K] [--resume FILE] [--format F] [-o FILE] [--plot FILE]"},
		about: `Every parameter is stepped down and up (init, hp, ac, attack, damage for
every combatant of the side, or any scenario path) and all the settings
play the same encounters (common random numbers). It reports each
parameter's effect per unit on the side's win rate (a central
difference, with its paired 95% interval), what one unit of each is
worth in units of the others ("+1 init = 0.22 hp", with Fieller's 95%
interval, which accounts for the effects sharing the dice), and the
one-at-a-time swings, largest first (the tornado; --plot draws it).
Every interval is 95% on its own, not jointly (the output counts them).
A rate's set may be an interval, two rays or every value; the JSON
says which.
Whole-number fields take whole steps; a dice expression steps its
constant. A warning gives the -n that would make a wide interval
readable. --shard k/K plays a part of the encounters, and simctl merge
adds the shards' JSON exactly; an interrupted run resumes with --resume
and its JSON (--results or --format json -o).`,
		examples: []string{
			"value d20/duel --params init,hp,ac,attack -n 200k",
			"value d20/duel --side monsters --params hp,damage --step hp=2 --plot tornado.png",
			"value d20/duel -n 4M --shard 2/8 --format json -o value2.json",
		},
	},
	"matrix": {
		summary: "every option of one side against every option of the other: win-rate matrix, dominated options, equilibrium",
		usage:   []string{"matrix SCENARIO --row NAME='--set ...'... --col NAME='--set ...'... [--side NAME] [-n N] [--shard k/K] [--resume FILE] [--format F] [-o FILE] [--plot FILE]"},
		about: `All pairings play the same encounters. The payoff is the row side's win
rate (zero-sum: the column side counts a draw as good as a win). An
option is flagged dominated when another of its side is significantly
better against every opposing option where the two ever played
differently (paired intervals, Bonferroni-adjusted) and played the same
fights against the others. The mixed equilibrium is solved by linear
programming; its value is bounded by solving the games of the cells'
simultaneous interval bounds, each weight gets the range it can take
within those bounds, and the mix is called settled only when every
option is provably in or out; options that played the same fight on
every encounter are one class. Each cell's interval is 95% on its own;
the value, ranges and verdict hold for all cells together. An option may
swap a whole tactics block: --row careful='--set heroes.tactics=...'.
--shard k/K plays a part of the encounters (simctl merge adds the
shards); an interrupted matrix resumes with --resume and its JSON.`,
		examples: []string{
			"matrix d20/duel --row base='' --row fast='--set heroes.Fighter.init=5' --col base='' --col armoured='--set monsters.Orc.ac=17'",
		},
	},
	"tournament": {
		summary: "select the best of many options of one side, with a guarantee, on common random numbers",
		usage:   []string{"tournament SCENARIO (--option NAME='--set ...' | --vary PATH=RANGE)... [--side NAME] [--alpha A] [--delta D] [--first N] [--batch N] [-n BUDGET] [--resume FILE] [--format F] [-o FILE]"},
		about: `Stage 1 plays --first encounters of every candidate; every later stage
plays --batch more for the candidates left, on the same encounter indices.
After each stage a candidate is eliminated once another is shown better by
a sequential test that stays valid however often it is read, and the
tournament stops when one is left ("best"), when the leader is shown within
--delta of every other ("selected"; the others "not separated"), or at -n
encounters per candidate (a "not separated" group: none is called best).
The guarantee, for the whole tournament: with probability at least 1-alpha
no candidate with the best win rate is eliminated, and a selected one is
within --delta of the best. Exactly tied candidates are not separated. The
differences to the selected (or the leader) carry intervals that hold for
all pairs at once, at every stage. --vary makes a candidate of every
combination of the values (tactics parameters included). With --results
(or --format json -o) each finished stage is saved as it completes, and
--resume FILE goes on from the last one. A tournament does not shard:
each stage's decisions need all of the stage's encounters.`,
		examples: []string{
			"tournament d20/tactics-combo --vary heroes.Wizard.tactics.params.crowd=1:4:1",
			"tournament d20/duel --option a='--set heroes.Fighter.ac=18' --option b='--set heroes.Fighter.hp=24' -n 1M --delta 0.5pp",
		},
	},
	"optimize": {
		summary: "search a space of settings and tactics for one side's best, with a guarantee; --both: a double oracle",
		usage: []string{"optimize SCENARIO [--side NAME] (--vary PATH=RANGE | --option NAME='--set ...')... [--where EXPR] [--rules subset|order|both --block PATH] [--baseline NAME] [--alpha A] [--delta D] [-n CAP] [--budget B] [--resume FILE] [--format F] [-o FILE]",
			"optimize SCENARIO --both --side NAME (--vary PATH=RANGE | --option NAME='--set ...')... [-n N] [--alpha A] [--delta D]"},
		about: `The space is every combination of one value of each --vary path, one
--option and one structure of --block's rules (--rules: each rule on or
off, every order, or both), that satisfies --where (a constraint in the
tactics language over the numeric --vary paths); candidates that compile
to the same scenario are one. Every candidate plays the same encounters
(common random numbers) in a sequential selection: with probability at
least 1-alpha no best candidate is eliminated, and the one returned is
within --delta of the best of the candidates evaluated; when -n (the
per-candidate cap) ends first the survivors are reported as a group, not
separated, and none is called best. Exact ties are never separated but
with probability alpha. When the space is too large for --budget it is
screened first (successive halving over a coarse grid, then the
survivors' neighbours) and the guarantee covers only the candidates
evaluated, which the output counts. The best, the top candidates and the
baseline (--baseline, or the scenario as written) then play --confirm
fresh encounters: the rates and intervals printed come from those, with
simultaneous (Bonferroni) intervals, and every candidate that beats the
baseline by more than delta is listed, biggest first. --both runs a double
oracle: paths starting with --side's name are its space, the others the
opponent's. docs/optimize.md works three questions through.`,
		examples: []string{
			"optimize d20/duel --side heroes --vary heroes.Fighter.init=1:5 --vary heroes.Fighter.ac=17:21 --vary heroes.Fighter.hp=20:28:2 --where '(heroes.Fighter.init - 1) + (heroes.Fighter.ac - 17) + (heroes.Fighter.hp - 20) / 2 <= 4' --delta 0.5pp --json",
			"optimize acks2/tactics-shieldwall --side foot --rules both --block foot.tactics.turn",
			"optimize d20/duel --both --side heroes --vary heroes.Fighter.init=1:5 --vary monsters.Orc.init=0:4 -n 20k",
		},
	},
	"find": {
		summary: "list the encounters whose outcome matches a condition, to replay with trace",
		usage:   []string{"find SCENARIO --where COND [-n N] [--seed S] [--limit K] [--format text|json]"},
		formats: []string{"text", "json"},
		about: `COND is written in the tactics language over facts of a finished
encounter: rounds, draw; side("NAME").won / .survivors / .down / .damage /
.first / .first_in_order / .COUNTER (every action-economy counter);
combatant("NAME").down / .gone / .hp / .dealt / .taken / .kills / .turns /
.lost / .first; rule("NAME").fired / .fell (how often a tactics rule of
that name decided or fell through, over every combatant). It plays
encounters 0..N-1 exactly as run does, counts
the matches and lists the first K, with the trace command for one.
trace --pick replays the min, median, max or a percentile of a metric.`,
		examples: []string{
			`find d20/duel --where 'side("heroes").won and combatant("Fighter").hp <= 2'`,
			`find d20/ambush --where 'rounds >= 6' -n 1M --limit 5`,
			`find d20/tactics-combo --where 'rule("focus").fired > 0 and side("raiders").won'`,
		},
	},
	"trace": {
		summary: "replay one encounter of a run turn by turn",
		usage:   []string{"trace SCENARIO --seed S --encounter I [--set PATH=VALUE]...", "trace SCENARIO --seed S --pick min|median|max|pNN --metric EXPR [-n N]"},
		about: `Prints the initiative rolls, every turn, interrupt and roll against its
target number, and hit points, of encounter I of the run with seed S
(counted from 0), exactly as simctl run played it. With --pick, it first
plays encounters 0..N-1 and replays the one whose --metric (a number in
the language of simctl find) is the min, median, max or percentile pNN,
the lowest index among equals.`,
		examples: []string{"trace d20/duel --seed 7 --encounter 12", `trace d20/duel --seed 7 --pick max --metric rounds`, `trace d20/ambush --pick p90 --metric 'side("monsters").damage'`},
	},
	"sweep": {
		summary: "vary one or two scenario fields; win rate per value (a table and a plot)",
		usage:   []string{"sweep SCENARIO --vary PATH=RANGE [--vary PATH2=RANGE] [-n N] [--precision W] [--format F] [-o FILE] [--plot FILE]"},
		about: `RANGE is a:b:step (numbers, b included; whole-number fields need a whole
step) or a list v1,v2,... of YAML values. Every point plays the same
encounter seeds (common random numbers); points run in parallel. Every
point is checked before anything runs.`,
		examples: []string{
			"sweep d20/duel --vary heroes.Fighter.init=-2:8:1 --plot init.png",
			"sweep d20/duel --vary heroes.Fighter.ac=14:20:2 --vary monsters.Orc.hp=15,22,30 --precision 2pp",
		},
	},
	"compare": {
		summary: "play options on the same encounters; paired differences to the baseline",
		usage: []string{
			"compare SCENARIO --option NAME='--set PATH=VALUE ...' --option ... [-n N] [--precision W] [--shard k/K] [--resume FILE] [--format F] [-o FILE] [--plot FILE]",
			"compare [SCENARIO] --compare FILE [flags]",
		},
		about: `All options play the same encounter seeds (common random numbers); the
table gives each option's win rates and its paired difference to the
baseline (the first option, or --baseline), with intervals, p-values and
the variance reduction. When fewer than 200 encounters differ between an
option and the baseline, the interval is exact (built on those
discordant encounters) and a warning gives their count. NAME='' is the
scenario unchanged. --shard k/K
plays a part of the encounters (simctl merge adds the shards exactly).
An interrupted comparison resumes with --resume and its JSON (--results
or --format json -o); one with --precision is run again.`,
		examples: []string{
			"compare d20/duel --option base='' --option init+4='--set heroes.Fighter.init=5'",
			"compare --compare options.yaml --format markdown -o compare.md",
		},
	},
	"merge": {
		summary: "add up the shard results of one run (or sweep, comparison, value run, matrix) into the whole one's",
		usage:   []string{"merge RESULT.json... [--format F] [-o FILE]"},
		about: `RESULT is the JSON of simctl run --json, usually with --shard k/K, or of
a sweep, comparison, value or matrix run with --shard k/K (--results or
--format json). The merged result is exactly the single-process result;
shards of another version, scenario text, seed or -n, and overlapping
shards, are refused; missing shards mark the result incomplete and fail
unless --allow-partial. A tournament does not shard.`,
		examples: []string{"merge shard*.json --json -o whole.json"},
	},
	"report": {
		summary: "write a report folder (Markdown, HTML, PNG figures) from JSON results",
		usage:   []string{"report RESULT.json... -o DIR [--title TEXT] [--lang en|ko|ru] [--font FILE]"},
		about: `RESULT is the JSON of simctl run --json, merge --json, or of sweep,
compare, value, matrix or tournament with --format json (or --results);
each becomes a section with the command that made it, the scenario it ran
(its text and SHA-256, from the JSON itself), its tables and its figures:
value the effects, exchange rates, warnings and the tornado; matrix the
win-rate grid, dominated options, the equilibrium and the heat map;
tournament its verdict, ranking and stages. A shard, an incomplete merge or an
interrupted run is marked as such. DIR gets report.md, a self-contained
report.html (figures inlined as SVG, nothing fetched) and every figure as
PNG. --lang ko or ru writes simctl's own words in Korean or Russian (names
you wrote, scenario fields and JSON keys stay as they are); Korean figures
need a font with Hangul (fonts-nanum or fonts-noto-cjk, or --font FILE).`,
		examples: []string{"report duel.json sweep.json -o report/", "report value.json matrix.json tournament.json -o analysis/", "report duel.json -o 보고서/ --lang ko"},
	},
	"check": {
		summary: "validate scenario files without running them",
		usage:   []string{"check SCENARIO... [--set PATH=VALUE]..."},
		about: `Reads each scenario (a file or a built-in) with the overrides, as run
would, and lists every problem of every file; nothing is played. Exit 0
when all are valid, 3 when any is invalid.`,
		examples: []string{"check my.yaml", "check *.yaml --set max_rounds=20"},
	},
	"init": {
		summary: "write a commented starter scenario for a ruleset",
		usage:   []string{"init [RULESET] [-o FILE] [--force]"},
		about: `Writes RULESET.yaml (default ruleset d20; -o - prints it instead): a
working duel with every field of the ruleset explained in comments, its
options with their defaults, and its policies. An existing file is never
overwritten unless --force is given.`,
		examples: []string{"init acks2", "init lotm -o ambush.yaml", "init cavaliers -o -"},
	},
	"scenarios": {
		summary: "list the built-in scenarios, or print one's YAML",
		usage:   []string{"scenarios", "scenarios show NAME"},
		about: `Built-in scenarios are embedded in the binary and work from any
directory; errors in them are reported as builtin:NAME.yaml:LINE:COL,
the line numbers of what scenarios show prints.`,
		examples: []string{"scenarios", "scenarios show d20/duel > duel.yaml"},
	},
	"rules": {
		summary:  "a ruleset's source, options, fields, policies, actions and counters",
		usage:    []string{"rules NAME"},
		examples: []string{"rules d20", "rules acks2"},
	},
	"policies": {
		summary: "the tactics library, and the facts and decisions a tactics: block may use",
		usage:   []string{"policies [RULESET]", "policies show [RULESET/]NAME"},
		about: `The named policies written in the tactics language (docs/tactics.md):
use one as tactics: NAME, or print it with show and edit a copy. Rulesets
without a library yet keep their policies in Go (simctl rules NAME).`,
		examples: []string{"policies d20", "policies show d20/delay"},
	},
	"schema": {
		summary: "print a JSON Schema of the scenario format, for editor completion",
		usage:   []string{"schema [-o FILE]"},
		about: `The schema is generated from the rulesets: every field, option (with its
valid values) and policy. Point VS Code's YAML extension at it with a
first line "# yaml-language-server: $schema=simctl-scenario.schema.json".`,
		examples: []string{"schema -o simctl-scenario.schema.json"},
	},
	"version": {
		summary: "print simctl's version",
		usage:   []string{"version"},
	},
	"help": {
		summary:  "this overview, a command's help, or the global flags (help flags)",
		usage:    []string{"help [COMMAND | flags]"},
		examples: []string{"help run", "help flags"},
	},
}

// conventionsHelp documents the global flags once; each command's help
// repeats only the ones it takes.
const conventionsHelp = `Every command that takes one of these flags takes it with the same meaning:

  -n N               encounters (default 100000): 100000, 100k, 1e6, 2.5M, 1_000_000;
                     a whole number of at least 1 (fractions and negatives are errors)
  --seed S           seed (default 1); encounter i draws from the stream (S, i)
  --workers W        worker goroutines (default 0: one per core); never changes a count
  --set PATH=VALUE   override a scenario field before validation (repeatable):
                     max_rounds=20, heroes.Fighter.init=4, heroes.policy={name: delay, until: Orc}
  --precision W      sequential stopping: play --batch encounters (default 10000) at a
                     time and stop once both sides' 95% Wilson intervals are narrower than
                     W (0.02 or 2pp), or at -n; on run, each sweep point, and compare
                     (where every option must reach it)
  --format F         text, json, csv or markdown (md); --json is --format json
  -o FILE            write to FILE (atomically) instead of stdout; without --format the
                     extension sets it (.json, .csv, .md, .txt), and an extension that
                     contradicts --format is an error
  --quiet            errors only on stderr: no progress bar, warnings or notes
  --progress WHEN    progress bar on stderr: auto (once a command has worked for 1 s,
                     when stderr is a terminal; the bar counts all the command's
                     encounters: every option, setting, point, pairing, round),
                     always, never

Flags go before or after the scenario. Exit codes: 0 success; 1 failure while
running; 2 bad command line; 3 invalid scenario (nothing was run); 130
interrupted (what finished is still written).
`

// overview is `simctl help` and `simctl` alone.
func overview() string {
	var b strings.Builder
	b.WriteString("simctl — Monte Carlo balance lab for tabletop-RPG combat\n\nusage:\n")
	for _, c := range commands {
		for _, u := range helps[c].usage {
			fmt.Fprintf(&b, "  simctl %s\n", u)
		}
	}
	b.WriteString("\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-10s %s\n", c, helps[c].summary)
	}
	b.WriteString(`
SCENARIO is a YAML file or a built-in scenario name (simctl scenarios).
A new scenario: simctl init d20; then simctl check d20.yaml; simctl run d20.yaml.

Run "simctl help COMMAND" (or "simctl COMMAND -h") for a command's flags and
examples, and "simctl help flags" for the flags every command shares.
`)
	return b.String()
}

// printHelp writes a command's help: usage, what it does, its flags (from
// fs, so the list cannot drift from what parses) and examples.
func printHelp(w io.Writer, cmd string, fs *flag.FlagSet) {
	h := helps[cmd]
	fmt.Fprintf(w, "simctl %s — %s\n\nusage:\n", cmd, h.summary)
	for _, u := range h.usage {
		fmt.Fprintf(w, "  simctl %s\n", u)
	}
	if h.about != "" {
		fmt.Fprintf(w, "\n%s\n", h.about)
	}
	var lines [][2]string
	if fs != nil {
		fs.VisitAll(func(f *flag.Flag) {
			name, usage := flag.UnquoteUsage(f)
			usage = strings.TrimPrefix(usage, name+" ")
			if len(h.formats) > 0 {
				switch f.Name {
				case "format":
					usage = "output format: " + strings.Join(h.formats, " or ") + " (default: from -o's extension, else text)"
				case "o":
					usage = "write the output to FILE instead of stdout (the extension sets the format: " + formatExts(h.formats) + ")"
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
	lines = append(lines, [2]string{"-h, --help", "this help"})
	fmt.Fprintf(w, "\nflags:\n")
	for _, l := range lines {
		pad := 19
		if len(l[0]) > pad-1 {
			fmt.Fprintf(w, "  %s\n%s\n", l[0], app.Wrap(l[1], 88, strings.Repeat(" ", pad+2)))
			continue
		}
		body := app.Wrap(l[1], 88, strings.Repeat(" ", pad+2))
		fmt.Fprintf(w, "  %-*s%s\n", pad, l[0], strings.TrimPrefix(body, strings.Repeat(" ", pad+2)))
	}
	if len(h.examples) > 0 {
		fmt.Fprintf(w, "\nexamples:\n")
		for _, e := range h.examples {
			fmt.Fprintf(w, "  simctl %s\n", e)
		}
	}
	shared := false
	for _, g := range []string{"n", "seed", "set", "format", "quiet"} {
		shared = shared || (fs != nil && fs.Lookup(g) != nil)
	}
	if shared {
		fmt.Fprintf(w, "\nThe flags -n, --seed, --workers, --set, --precision, --format, -o, --quiet and\n--progress mean the same in every command: simctl help flags.\n")
	}
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

// cmdHelp is `simctl help [COMMAND | flags]`.
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, overview())
		return exitOK
	case len(args) > 1:
		return usageError(stderr, "help", "one topic at a time, got %d", len(args))
	case args[0] == "flags" || args[0] == "conventions":
		fmt.Fprint(stdout, conventionsHelp)
		return exitOK
	}
	if _, ok := helps[args[0]]; !ok {
		return usageError(stderr, "help", "no command %q%s; commands: %s, and the topic flags", args[0], didYouMean(args[0], commands), strings.Join(commands, ", "))
	}
	if args[0] == "help" {
		printHelp(stdout, "help", nil)
		return exitOK
	}
	// A command's help lists the flags its own parser defines.
	return Main(context.Background(), []string{args[0], "-h"}, stdout, stderr)
}

// didYouMean suggests the closest of valid to s (" (did you mean "x"?)"),
// or "" when none is close, as the scenario errors do.
func didYouMean(s string, valid []string) string { return scenario.Suggest(s, valid).String() }
