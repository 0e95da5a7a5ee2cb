package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"simctl/sim/experiment"
	"simctl/sim/msg"
	"slices"
	"strconv"
	"strings"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/safeio"
)

// The global conventions: every command that takes one of these flags
// takes it with the same name, syntax, default and meaning, and parses it
// here. They are documented once, in conventionsHelp (simctl help flags)
// and the README.

// countValue is -n: a whole number of encounters written 100000, 1e6,
// 100k, 2.5M or 1_000_000.
type countValue struct{ n int64 }

func (c *countValue) String() string { return strconv.FormatInt(c.n, 10) }

func (c *countValue) Set(s string) error {
	n, err := parseCount(s)
	if err != nil {
		return err
	}
	c.n = n
	return nil
}

// parseCount reads a count of encounters. It accepts underscores and
// commas between digits (1_000_000, 1,000,000), an exponent (1e6) and the
// suffixes k, M, G (thousand, million, billion; 2.5M), but only when the
// value is a whole number of at least 1.
func parseCount(s string) (int64, error) {
	// The same advice ends every refusal (a message of its own, so it is
	// translated once).
	valid := msg.New("expected a whole number of encounters of at least 1, such as 100000, 100k, 1e6, 2.5M or 1_000_000")
	t := strings.TrimSpace(s)
	t = strings.NewReplacer("_", "", ",", "").Replace(t)
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'k', 'K':
			mult = 1_000
		case 'm', 'M':
			mult = 1_000_000
		case 'g', 'G', 'b', 'B':
			mult = 1_000_000_000
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	// big.Rat reads decimals and exponents exactly, so 2.5M is exactly
	// 2500000 and 1.0000001e6 is a fraction, with no float rounding.
	r, ok := new(big.Rat).SetString(t)
	if t == "" || !ok || strings.ContainsAny(t, "/xXpP") {
		return 0, msg.Errorf("%q: %s", s, valid)
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	switch {
	case r.Sign() < 0:
		return 0, msg.Errorf("%q is negative; %s", s, valid)
	case !r.IsInt():
		return 0, msg.Errorf("%q is not a whole number (%s); %s", s, r.FloatString(3), valid)
	case r.Sign() == 0:
		return 0, msg.Errorf("%q: at least one encounter; %s", s, valid)
	case r.Num().Cmp(big.NewInt(math.MaxInt64)) > 0:
		return 0, msg.Errorf("%q is too large; at most %d", s, int64(math.MaxInt64))
	}
	return r.Num().Int64(), nil
}

// seedValue is --seed: any whole number from 0 to 2^64-1.
type seedValue struct{ v uint64 }

func (s *seedValue) String() string { return strconv.FormatUint(s.v, 10) }

func (s *seedValue) Set(v string) error {
	x, err := strconv.ParseUint(strings.ReplaceAll(strings.TrimSpace(v), "_", ""), 10, 64)
	if err != nil {
		return msg.Errorf("%q: expected a whole number from 0 to %d", v, uint64(math.MaxUint64))
	}
	s.v = x
	return nil
}

// workersValue is --workers: 0 (one per core) or more.
type workersValue struct{ v int }

func (w *workersValue) String() string { return strconv.Itoa(w.v) }

func (w *workersValue) Set(v string) error {
	x, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || x < 0 || x > 1<<16 {
		return msg.Errorf("%q: expected 0 (one worker per core) or a number of workers up to 65536", v)
	}
	w.v = x
	return nil
}

// choiceValue is a flag with a fixed set of values.
type choiceValue struct {
	v     string
	valid []string
}

func (c *choiceValue) String() string { return c.v }

func (c *choiceValue) Set(v string) error {
	for _, x := range c.valid {
		if v == x {
			c.v = v
			return nil
		}
	}
	return msg.Errorf("%q: expected %s", v, orListMsg(c.valid))
}

func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// orListMsg is orList as a message ("a, b or c"): the "or" is translated,
// the values are not.
func orListMsg(xs []string) msg.Text {
	if len(xs) < 2 {
		return msg.New("%s", strings.Join(xs, ""))
	}
	return msg.New("%s or %s", strings.Join(xs[:len(xs)-1], ", "), xs[len(xs)-1])
}

// formatValue is --format; set records that it was given, so that -o's
// extension can fill it in otherwise.
type formatValue struct {
	f   reports.Format
	set bool
}

func (f *formatValue) String() string { return string(f.f) }

func (f *formatValue) Set(v string) error {
	x, err := reports.ParseFormat(v)
	if err != nil {
		return msg.Errorf("%q: expected text, json, csv or markdown (md)", v)
	}
	if f.set && x != f.f {
		return msg.Errorf("%q: the format is already %s (--json is --format json)", v, f.f)
	}
	f.f, f.set = x, true
	return nil
}

// jsonAlias is --json, kept as an alias of --format json.
type jsonAlias struct{ f *formatValue }

func (j jsonAlias) String() string   { return "false" }
func (j jsonAlias) IsBoolFlag() bool { return true }

func (j jsonAlias) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return msg.Errorf("%q: --json takes no value (it is --format json)", v)
	}
	if !b {
		return nil
	}
	if j.f.set && j.f.f != reports.JSON {
		return msg.Errorf("and --format %s ask for two formats", j.f.f)
	}
	j.f.f, j.f.set = reports.JSON, true
	return nil
}

// common holds the global flags of one command; which of them a command
// takes is chosen when it registers them.
type common struct {
	n         countValue
	seed      seedValue
	workers   workersValue
	sets      setFlags
	precision string
	format    formatValue
	out       string
	quiet     bool
	progress  choiceValue
}

// Which global flags a command takes.
const (
	gN = 1 << iota
	gSeed
	gWorkers
	gSet
	gPrecision
	gFormat // --format, --json and -o
	gQuiet
	gProgress
)

// register adds the chosen global flags to fs with their shared help
// texts; nWhat says what -n counts for this command.
func (c *common) register(fs *flag.FlagSet, which int, nWhat string) {
	c.n.n = 100000
	c.format.f = reports.Text
	c.progress = choiceValue{v: "auto", valid: []string{"auto", "always", "never"}}
	if which&gN != 0 {
		fs.Var(&c.n, "n", "`N` "+nWhat+" (default 100000; 1e6, 100k, 2.5M and 1_000_000 work)")
	}
	if which&gSeed != 0 {
		c.seed.v = 1
		fs.Var(&c.seed, "seed", "`S` seed (default 1); encounter i draws from the stream (S, i), so counts never depend on --workers")
	}
	if which&gWorkers != 0 {
		fs.Var(&c.workers, "workers", "`W` worker goroutines (default 0: one per core)")
	}
	if which&gSet != 0 {
		fs.Var(&c.sets, "set", "`PATH=VALUE` override a scenario field before validation (repeatable), e.g. heroes.Fighter.init=4")
	}
	if which&gPrecision != 0 {
		fs.StringVar(&c.precision, "precision", "", "`W` stop once every 95% win interval is narrower than W (0.02 or 2pp), as predicted every --batch encounters from a separate sample a quarter the size (so stopping does not bend the intervals); -n is then the cap")
	}
	if which&gFormat != 0 {
		fs.Var(&c.format, "format", "`F` output format: text, json, csv or markdown (default: from -o's extension, else text)")
		fs.Var(jsonAlias{&c.format}, "json", "same as --format json")
		fs.StringVar(&c.out, "o", "", "`FILE` write the output to FILE instead of stdout (.json, .csv, .md, .txt set the format)")
	}
	if which&gQuiet != 0 {
		fs.BoolVar(&c.quiet, "quiet", false, "no progress bar, warnings or notes on stderr; errors only")
	}
	if which&gProgress != 0 {
		fs.Var(&c.progress, "progress", "`WHEN` progress bar on stderr: auto (a bar after 1 s when stderr is a terminal), always, never")
	}
}

// extFormats maps -o extensions to the format they imply.
var extFormats = map[string]reports.Format{
	".json": reports.JSON, ".csv": reports.CSV, ".md": reports.Markdown, ".markdown": reports.Markdown, ".txt": reports.Text,
}

// resolveFormat settles the output format from --format/--json and -o's
// extension: an extension alone sets the format, and an extension that
// names another format than the one asked for is an error (a .json file
// holding a text table is never what was meant).
func (c *common) resolveFormat() (reports.Format, error) {
	if c.out == "" || c.out == "-" {
		return c.format.f, nil
	}
	ext := strings.ToLower(filepath.Ext(c.out))
	implied, known := extFormats[ext]
	switch {
	case !known && (ext == ".html" || ext == ".png" || ext == ".svg" || ext == ".pdf"):
		return "", msg.Errorf("-o %s: %s is not a table format; give .txt, .json, .csv or .md (figures: --plot; reports: simctl report)", c.out, ext)
	case !known:
		return c.format.f, nil
	case !c.format.set:
		return implied, nil
	case implied != c.format.f:
		return "", msg.Errorf("-o %s is a %s file but the format asked for is %s; drop --format or change the extension", c.out, implied, c.format.f)
	}
	return c.format.f, nil
}

// showProgress is the --progress mode once --quiet is applied.
func (c *common) showProgress() string {
	if c.quiet {
		return "never"
	}
	return c.progress.v
}

// parseArgs parses a command's flags (before or after its positional
// arguments). -h/--help prints the command's help to stdout and returns
// done with exitOK; a bad flag prints one line in simctl's words and the
// pointer to the help, and returns done with exitUsage. Both speak the
// language of a --lang among the arguments (whether or not the command
// takes one, and on either side of -h), else the locale's.
func parseArgs(cmd string, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (pos []string, done bool, code int) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	// The flag package prints a Set error with %v, English for good: keep
	// the error itself to say it in the user's language.
	var setErr error
	restore := recordSetErrors(fs, &setErr)
	pos, err := parseInterleaved(fs, args)
	restore()
	if err == nil {
		// --quiet silences the scenario's warnings too, wherever the
		// command compiles it (source.warnTo).
		q := fs.Lookup("quiet")
		warnQuiet.Store(q != nil && q.Value.String() == "true")
		if problem := outputProblem(fs, pos); problem != nil {
			usageError(stderr, cmd, "%v", problem)
			return nil, true, exitUsage
		}
		return pos, false, exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		// The flag package stops at -h, before a --lang that follows.
		l, lerr := resolveLang(langArg(args))
		if lerr != nil {
			// A bad --lang is the error, even with -h: the help could
			// not be in the language asked for.
			return nil, true, usageError(stderr, cmd, "%v", lerr)
		}
		printHelp(stdout, l, cmd, fs)
		return nil, true, exitOK
	}
	usageError(stderr, cmd, "%v", flagMessage(err, setErr))
	return nil, true, exitUsage
}

// recordingValue is a flag's Value while parseArgs parses: it keeps the
// last error Set returned.
type recordingValue struct {
	flag.Value
	err *error
}

func (r recordingValue) Set(v string) error {
	err := r.Value.Set(v)
	if err != nil {
		*r.err = err
	}
	return err
}

func (r recordingValue) IsBoolFlag() bool {
	b, ok := r.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// recordSetErrors wraps every flag of fs in a recordingValue and returns
// the function that unwraps them (the commands look at their Values'
// types after parsing).
func recordSetErrors(fs *flag.FlagSet, last *error) (restore func()) {
	orig := map[*flag.Flag]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		orig[f] = f.Value
		f.Value = recordingValue{f.Value, last}
	})
	return func() {
		for f, v := range orig {
			f.Value = v
		}
	}
}

// langArg is the value of the last --lang (or -lang, --lang=X) in args
// before a "--", "" when there is none. parseArgs reads it itself because
// the flag package stops at -h or at the first bad flag, before a --lang
// that follows.
func langArg(args []string) string {
	v := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch {
		case a == "--lang" || a == "-lang":
			if i+1 < len(args) {
				v = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--lang="):
			v = strings.TrimPrefix(a, "--lang=")
		case strings.HasPrefix(a, "-lang="):
			v = strings.TrimPrefix(a, "-lang=")
		}
	}
	return v
}

var (
	reUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	reNeedsArg  = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	reInvalid   = regexp.MustCompile(`(?s)^invalid (?:boolean )?value "(.*)" for flag -+([^:]*): (.*)$`)
	reBadBool   = regexp.MustCompile(`(?s)^invalid boolean value "(.*)" for -+([^:]*): .*$`)
	reSyntax    = regexp.MustCompile(`(?s)^bad flag syntax: (.*)$`)
)

// flagMessage rewrites the flag package's errors ("flag provided but not
// defined: -bogus") in the CLI's own spelling (--bogus, -n); setErr is the
// error the flag's Set returned, said as it is.
func flagMessage(err, setErr error) msg.Text {
	s := err.Error()
	if m := reUndefined.FindStringSubmatch(s); m != nil {
		return msg.New("unknown flag %s", dashed(m[1]))
	}
	if m := reNeedsArg.FindStringSubmatch(s); m != nil {
		return msg.New("%s needs a value", dashed(m[1]))
	}
	if m := reInvalid.FindStringSubmatch(s); m != nil {
		switch why := m[3]; {
		case why == "parse error" || strings.HasPrefix(why, "strconv."):
			return msg.New("%s %q: not a valid value", dashed(m[2]), m[1])
		case why == "value out of range":
			return msg.New("%s value out of range", dashed(m[2]))
		case setErr != nil && setErr.Error() == why:
			// A value's own message that already names its flag
			// (--vary "x": ..., --set "x": ...) is not named twice.
			var me *msg.Error
			if strings.HasPrefix(why, dashed(m[2])+" ") && errors.As(setErr, &me) {
				return me.Text
			}
			return msg.New("%s %v", dashed(m[2]), setErr)
		}
		return msg.New("%s %s", dashed(m[2]), m[3])
	}
	if m := reBadBool.FindStringSubmatch(s); m != nil {
		return msg.New("invalid boolean value %q for %s", m[1], dashed(m[2]))
	}
	if m := reSyntax.FindStringSubmatch(s); m != nil {
		return msg.New("bad flag syntax: %s", m[1])
	}
	return msg.New("%s", s)
}

// dashed spells a flag as the help does: -n and -o with one dash, the
// long ones with two.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// usageError prints a command-line mistake and the pointer to the help,
// in stderr's language.
func usageError(stderr io.Writer, cmd, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s%s\n%s\n", prefix(cmd), tr(stderr, format, args...), seeHelp(stderr, cmd))
	return exitUsage
}

// batchFlag is --batch, the encounters between two checks of --precision,
// read like -n (10k, 1e4).
func batchFlag(fs *flag.FlagSet, usage string) *int64 {
	b := &countValue{n: experiment.DefaultBatch}
	fs.Var(b, "batch", "`B` "+usage+" (default 10000)")
	return &b.n
}

// outputFlagNames are the flags that name a file or folder a command
// writes.
var outputFlagNames = []string{"o", "results", "plot"}

// outputProblem checks, before any work, what every command's output flags
// must not be: given but empty (-o ” is not stdout: leave -o out, or
// give -), or the very file an input names (the scenario, a --compare file
// or a result being read), which the output would replace. --resume FILE
// is not an input here: writing the resumed result over it is its purpose.
func outputProblem(fs *flag.FlagSet, pos []string) error {
	var problem error
	fs.Visit(func(f *flag.Flag) {
		if problem != nil || !slices.Contains(outputFlagNames, f.Name) {
			return
		}
		out := f.Value.String()
		if out == "" {
			if f.Name == "o" {
				problem = msg.Errorf("%s '': an empty file name; give a file (or leave -o out to write to stdout)", dashed(f.Name))
			} else {
				problem = msg.Errorf("%s '': an empty file name; give a file", dashed(f.Name))
			}
			return
		}
		ost, err := os.Stat(out)
		if err != nil {
			return
		}
		if err := completeResult(fs, f.Name, out, ost); err != nil {
			problem = err
			return
		}
		ins := slices.Clone(pos)
		if cf := fs.Lookup("compare"); cf != nil && cf.Value.String() != "" {
			ins = append(ins, cf.Value.String())
		}
		for _, in := range ins {
			if ist, err := os.Stat(in); err == nil && os.SameFile(ist, ost) {
				problem = msg.Errorf("%s %s is the input %s: writing would replace what is being read; give another file", dashed(f.Name), out, in)
				return
			}
		}
	})
	return problem
}

// completeResult refuses, for a command that saves partial documents as it
// goes and when interrupted (those with --resume), a JSON output that holds
// a complete simctl result: its first checkpoint, or a Ctrl-C, would
// replace finished work with a partial one. --resume (the partial one is
// the file's own) and --force (replace it) let it through.
func completeResult(fs *flag.FlagSet, name, out string, st os.FileInfo) error {
	rf, ff := fs.Lookup("resume"), fs.Lookup("force")
	if rf == nil || ff == nil || rf.Value.String() != "" || ff.Value.String() == "true" || !st.Mode().IsRegular() {
		return nil
	}
	if name == "o" {
		fv, _ := fs.Lookup("format").Value.(*formatValue)
		ext := strings.ToLower(filepath.Ext(out))
		if fv == nil || !(fv.f == reports.JSON || !fv.set && ext == ".json") {
			return nil // not JSON: nothing partial is written there
		}
	} else if name != "results" {
		return nil
	}
	data, err := safeio.ReadFile(context.Background(), out, safeio.MaxResultBytes, "result")
	if err != nil {
		return nil
	}
	var doc struct {
		Version                 string
		Interrupted, Incomplete bool
	}
	if json.Unmarshal(data, &doc) != nil || doc.Version == "" || doc.Interrupted || doc.Incomplete {
		return nil
	}
	return msg.Errorf("%s %s holds a complete simctl result; this command saves what it finishes there as it goes "+
		"(and when interrupted), which would replace it: add --force to replace it, or give another file", dashed(name), out)
}

// langFlag registers --lang, the language of simctl's own words in what
// cmd prints; names the user wrote stay as written. what says which words.
func langFlag(fs *flag.FlagSet, what string) *string {
	return fs.String("lang", "", "`LANG` language of "+what+": en, ko or ru (default: from LC_ALL, LC_MESSAGES or LANG, else en); names you wrote stay as written")
}

// fontUsage is --font of the commands that draw figures (report, and
// --plot of run, sweep, compare, value and matrix).
const fontUsage = "`FILE` TrueType/OpenType font for the figures' text (default: Liberation Sans; for ko, an installed font with Hangul, e.g. fonts-nanum)"

// fontFlag registers --font.
func fontFlag(fs *flag.FlagSet) *string { return fs.String("font", "", fontUsage) }

// resolveLang is --lang's value, or the locale's language when it is
// empty (i18n.FromEnv).
func resolveLang(v string) (i18n.Lang, error) {
	if v == "" {
		return i18n.FromEnv(os.Getenv), nil
	}
	l, err := i18n.Parse(v)
	if err != nil {
		return "", msg.Errorf("%s: %v", "--lang", err)
	}
	return l, nil
}
