package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	_ "simctl/agents" // registers the scripted policies
	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/reports/safeio"
	"simctl/rulesets"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// warnLang is the language of the running command's messages, for the
// scenario's warnings, which go to the process's stderr (warnTo).
var warnLang atomic.Value

func init() { warnLang.Store(string(i18n.En)) }

// warnQuiet is the running command's --quiet: its scenario warnings are
// dropped (the README: --quiet prints errors only).
var warnQuiet atomic.Bool

// version is the simctl release (app.Release); fullVersion adds the
// build's VCS revision.
const version = app.Release

func fullVersion() string { return app.Version() }

// Main is the whole CLI, testable: it reads args and writes only to stdout
// and stderr, and returns the exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// No panic reaches a user as a stack trace.
		if p := recover(); p != nil {
			say(stderr, "", "internal error: %v\nplease report it with the command line and scenario", p)
			code = exitFailure
		}
		// Interrupted while reading its inputs (a FIFO with no writer, a
		// slow disk), a command fails with the reading error; the exit
		// code says what happened: the user stopped it (serve answers an
		// interrupt itself).
		if code != exitOK && ctx.Err() != nil && (len(args) == 0 || args[0] != "serve") {
			code = exitInterrupted
		}
	}()
	// simctl's messages on stderr in the user's language (say.go): the
	// --lang anywhere on the line, before the command too.
	lang := argLang(args)
	warnLang.Store(string(lang))
	stderr = &app.LangWriter{Writer: stderr, Lang: lang}
	// simctl --lang ko CMD ...: a --lang before the command goes to the
	// command, as if written after its name (simctl --lang ko alone is the
	// overview in that language, as simctl alone is in the locale's).
	var pre string
	if len(args) > 0 && (args[0] == "--lang" || args[0] == "-lang") && len(args) > 1 {
		pre, args = args[1], args[2:]
	} else if len(args) > 0 && (strings.HasPrefix(args[0], "--lang=") || strings.HasPrefix(args[0], "-lang=")) {
		_, pre, _ = strings.Cut(args[0], "=")
		args = args[1:]
	}
	if pre != "" && len(args) > 0 {
		// Right after the command: before a "--", and outranked by a
		// --lang the command line gives the command itself.
		args = append([]string{args[0], "--lang", pre}, args[1:]...)
	}
	if len(args) == 0 {
		l, err := resolveLang(pre)
		if err != nil {
			return usageError(stderr, "help", "%v", err)
		}
		fmt.Fprint(stderr, overview(l))
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return cmdRun(ctx, rest, stdout, stderr)
	case "trace":
		return cmdTrace(ctx, rest, stdout, stderr)
	case "merge":
		return cmdMerge(ctx, rest, stdout, stderr)
	case "report":
		return cmdReport(ctx, rest, stdout, stderr)
	case "scenarios":
		return cmdScenarios(rest, stdout, stderr)
	case "rules":
		return cmdRules(rest, stdout, stderr)
	case "policies":
		return cmdPolicies(rest, stdout, stderr)
	case "check":
		return cmdCheck(ctx, rest, stdout, stderr)
	case "init":
		return cmdInit(rest, stdout, stderr)
	case "schema":
		return cmdSchema(rest, stdout, stderr)
	case "serve":
		return cmdServe(ctx, rest, stdout, stderr)
	case "version", "--version":
		fs := flag.NewFlagSet("version", flag.ContinueOnError)
		langF := langFlag(fs, "simctl's messages")
		if _, done, code := parseArgs("version", fs, rest, stdout, stderr); done {
			return code
		}
		if _, err := resolveLang(*langF); err != nil {
			return usageError(stderr, "version", "%v", err)
		}
		fmt.Fprintln(stdout, "simctl", fullVersion())
		return exitOK
	case "help", "-h", "--help":
		return cmdHelp(rest, stdout, stderr)
	}
	// The analysis kinds: the table's (app.Register), run by their own
	// command or, for a kind that has none, by the table's flags.
	if k := app.Lookup(cmd); k != nil {
		if c, ok := builtinCommands[cmd]; ok {
			return c(ctx, rest, stdout, stderr)
		}
		return cmdAnalysis(ctx, k, rest, stdout, stderr)
	}
	usageError(stderr, "", "unknown command %q%s; commands: %s", cmd, didYouMean(cmd, commands), strings.Join(commands, ", "))
	return exitUsage
}

// parseInterleaved parses flags that may come before or after positional
// arguments (simctl run my.yaml -n 1000 is the natural order).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// setFlags collects repeated --set PATH=VALUE.
type setFlags []scenario.Set

func (s *setFlags) String() string {
	var parts []string
	for _, x := range *s {
		parts = append(parts, x.String())
	}
	return strings.Join(parts, " ")
}

func (s *setFlags) Set(v string) error {
	x, err := scenario.ParseSet(v)
	if err != nil {
		return err
	}
	*s = append(*s, x)
	return nil
}

func (s setFlags) strings() []string {
	var out []string
	for _, x := range s {
		out = append(out, x.String())
	}
	return out
}

// argError is a SCENARIO argument that names no scenario file or built-in:
// a command-line mistake (exit 2), not an invalid scenario.
type argError struct{ text msg.Text }

func (e *argError) Error() string { return e.text.String() }

// Localize is the message in the language of tr.
func (e *argError) Localize(tr msg.Translator) string { return e.text.Localize(tr) }

// source is a scenario's text as read once: every point of a sweep or
// option of a comparison compiles the same bytes, and results embed them.
type source struct {
	name    string // the SCENARIO argument
	display string // the file name in messages ("builtin:d20/duel.yaml" for a built-in)
	data    []byte
	warn    io.Writer // where compile's warnings go; nil: os.Stderr
}

// readSource finds SCENARIO as a file or a built-in and reads it (at most
// safeio.MaxScenarioBytes).
func readSource(ctx context.Context, name string) (*source, error) {
	if st, statErr := os.Stat(name); statErr == nil {
		if st.IsDir() {
			return nil, &argError{msg.New("%s is a directory; give a scenario file (.yaml) or a built-in (see simctl scenarios)", name)}
		}
		data, err := safeio.ReadFile(ctx, name, safeio.MaxScenarioBytes, "scenario")
		if err != nil {
			return nil, err
		}
		return &source{name: name, display: name, data: data}, nil
	}
	// "builtin:d20/duel.yaml", as messages and results name a built-in,
	// is accepted as well as "d20/duel".
	builtin := strings.TrimSuffix(strings.TrimPrefix(name, "builtin:"), ".yaml")
	if d, disp, ok := scenarios.Read(builtin); ok {
		return &source{name: name, display: disp, data: d}, nil
	}
	// A near miss names the one meant rather than all twenty-odd.
	if hint := didYouMean(builtin, scenarios.Names()); hint.Format != "" {
		return nil, &argError{msg.New("%s: no such file or built-in scenario%s; simctl scenarios lists them", name, hint)}
	}
	return nil, &argError{msg.New("%s: no such file or built-in scenario; built-ins: %s (see simctl scenarios)",
		name, strings.Join(scenarios.Names(), ", "))}
}

// app is the source as the application layer takes it.
func (src *source) app() *app.Source {
	return &app.Source{Name: src.name, Display: src.display, Data: src.data}
}

// text and sum are what results embed: the scenario as run and its
// SHA-256, by which merge tells scenarios apart.
func (src *source) text() string { return src.app().Text() }
func (src *source) sum() string  { return src.app().Sum() }

// load finds SCENARIO as a file or a built-in and compiles it. Every
// problem of the scenario comes back at once as scenario.Errors: the core
// fields' and, when the scenario is whole enough to try, the ruleset's.
func load(ctx context.Context, name string, sets []scenario.Set) (*scenario.Scenario, sim.Game, error) {
	src, err := readSource(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	return src.compile(sets)
}

// compile decodes and compiles the source with overrides, printing its
// warnings on stderr.
func (src *source) compile(sets []scenario.Set) (*scenario.Scenario, sim.Game, error) {
	return src.app().Compile(sets, src.warnTo())
}

// warnTo is where compile's warnings go.
func (src *source) warnTo() io.Writer {
	if warnQuiet.Load() {
		return io.Discard
	}
	if src.warn == nil {
		return &app.LangWriter{Writer: os.Stderr, Lang: i18n.Lang(warnLang.Load().(string))}
	}
	return src.warn
}

func cmdScenarios(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scenarios", flag.ContinueOnError)
	langF := langFlag(fs, "the list's descriptions and simctl's messages (show prints the file as written)")
	pos, done, code := parseArgs("scenarios", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langF)
	if err != nil {
		return usageError(stderr, "scenarios", "%v", err)
	}
	if len(pos) > 0 {
		if pos[0] != "show" {
			return usageError(stderr, "scenarios", "%q: expected nothing (the list) or show NAME", pos[0])
		}
		if len(pos) != 2 {
			return usageError(stderr, "scenarios", "show needs one built-in scenario NAME, e.g. simctl scenarios show d20/duel")
		}
		name := strings.TrimPrefix(strings.TrimSuffix(pos[1], ".yaml"), "builtin:")
		// An error position (builtin:d20/duel.yaml:9:9) pasted whole.
		if i := strings.Index(name, ".yaml:"); i >= 0 {
			name = name[:i]
		}
		data, _, ok := scenarios.Read(name)
		if !ok {
			return usageError(stderr, "scenarios", "no built-in scenario %q%s; built-ins: %s", pos[1], didYouMean(name, scenarios.Names()), strings.Join(scenarios.Names(), ", "))
		}
		stdout.Write(data)
		return exitOK
	}
	for _, n := range scenarios.Names() {
		data, display, _ := scenarios.Read(n)
		sc, err := scenario.Load(display, data, nil, rulesets.Schema)
		if err == nil {
			_, _, err = load(context.Background(), n, nil) // the ruleset's checks too
		}
		desc := ""
		switch {
		case err != nil && lang != i18n.En:
			desc = lang.T("scenarios.invalid", strings.SplitN(lang.Err(err), "\n", 2)[0])
		case err != nil:
			desc = "(invalid: " + strings.SplitN(err.Error(), "\n", 2)[0] + ")"
		case lang != i18n.En:
			// The scenario's name is a name; its description, English
			// prose in the file, has a translated one-line summary.
			desc = sc.Name + ": " + lang.T("builtin."+strings.NewReplacer("/", ".", "-", "_").Replace(n))
		default:
			desc = sc.Name
			if sc.Description != "" {
				desc += ": " + sc.Description
			}
		}
		fmt.Fprintf(stdout, "%-28s %s\n", n, clip(desc, listWidth-29))
	}
	if lang != i18n.En {
		fmt.Fprintln(stdout, "\n"+lang.T("scenarios.show"))
	} else {
		fmt.Fprintln(stdout, "\nsimctl scenarios show NAME prints one in full, its description included.")
	}
	return exitOK
}

// listWidth is the width simctl scenarios fits its lines in.
const listWidth = 100

// clip shortens s to at most width characters, cutting at a word and
// marking the cut with "...".
func clip(s string, width int) string {
	r := []rune(s)
	if columns(r) <= width {
		return s
	}
	// The runes that fit in width-3 columns (Hangul takes two).
	n, w := 0, 0
	for n < len(r) && w+columns(r[n:n+1]) <= width-3 {
		w += columns(r[n : n+1])
		n++
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "..."
}

// columns is how many terminal columns r takes: East Asian wide
// characters (Hangul, CJK) two, the rest one.
func columns(r []rune) int {
	n := 0
	for _, c := range r {
		n++
		if c >= 0x1100 && c <= 0x115F || c >= 0x2E80 && c <= 0xA4CF || c >= 0xAC00 && c <= 0xD7A3 || c >= 0xF900 && c <= 0xFAFF || c >= 0xFF00 && c <= 0xFF60 {
			n++
		}
	}
	return n
}

func cmdRules(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	langFlag := langFlag(fs, "the ruleset's documentation")
	pos, done, code := parseArgs("rules", fs, args, stdout, stderr)
	if done {
		return code
	}
	lang, err := resolveLang(*langFlag)
	if err != nil {
		return usageError(stderr, "rules", "%v", err)
	}
	if len(pos) != 1 {
		return usageError(stderr, "rules", "give one ruleset NAME: %s", strings.Join(rulesets.Names(), ", "))
	}
	r, ok := rulesets.Lookup(pos[0])
	if !ok {
		return usageError(stderr, "rules", "%v", app.UnknownRuleset(pos[0]))
	}
	fmt.Fprint(stdout, app.Rules(r, lang))
	return exitOK
}

// checkOut checks an output flag's path before any work is done (see
// safeio.Check); "" and "-" mean stdout and give a nil target.
func checkOut(path, flag string) (*safeio.Target, error) {
	if path == "" || path == "-" {
		return nil, nil
	}
	return safeio.Check(path, flag)
}

// writeOut writes to a checked target atomically (see safeio), or to
// stdout when t is nil.
func writeOut(t *safeio.Target, stdout io.Writer, write func(io.Writer) error) error {
	if t == nil {
		return write(stdout)
	}
	return t.Write(write)
}

// scenarioError prints the problems load found, one per line, and returns
// the exit code: 3 for an invalid scenario, 2 when SCENARIO names no
// scenario.
func scenarioError(stderr io.Writer, err error) int {
	var es scenario.Errors
	if errors.As(err, &es) {
		fmt.Fprintf(stderr, "%s\n%s\n", langOf(stderr).Err(es), tr(stderr, "%d problem(s); nothing was run", len(es)))
		return exitScenario
	}
	sayErr(stderr, "", err)
	var ae *argError
	if errors.As(err, &ae) {
		return exitUsage
	}
	return exitScenario
}

// parseShard reads "k/K" (k counted from 0) or "K" with k from the job
// array's environment: JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or
// SLURM_ARRAY_TASK_ID (Slurm).
func parseShard(s string) (k, of int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	ks, ofs, found := strings.Cut(s, "/")
	if !found {
		ks, ofs = "", s
	}
	of, err = strconv.Atoi(ofs)
	if err != nil || of < 1 {
		return 0, 0, msg.Errorf("--shard %q: expected k/K with 0 <= k < K, e.g. 3/10, or K with k from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID", s)
	}
	if ks == "" {
		for _, env := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if v := os.Getenv(env); v != "" {
				ks = v
				break
			}
		}
		if ks == "" {
			return 0, 0, msg.Errorf("--shard %s: no shard index; give k/%s or set JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID", s, s)
		}
	}
	k, err = strconv.Atoi(ks)
	if err != nil || k < 0 || k >= of {
		return 0, 0, msg.Errorf("--shard: index %q must be a whole number from 0 to %d", ks, of-1)
	}
	return k, of, nil
}
