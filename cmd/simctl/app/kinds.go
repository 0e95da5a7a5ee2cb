package app

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Analysis is one kind of analysis as every front end looks it up: the
// CLI's command of that name (its own flags and their defaults), the
// lab's job of that kind (its form, its check before queueing, its live
// tables), simctl merge (its shards), simctl report (its section) and
// the renderers of its document. A new kind is one Analysis passed to
// Register, plus its experiment (sim/experiment) and its renderer
// (reports); docs/CONTRIBUTING-analyses.md walks through one.
//
// The kinds simctl has had since before this table (sweep, compare,
// value, matrix, tournament, find, optimize) keep hand-written commands
// in cmd/simctl, whose flags and messages predate it; they read their
// defaults from here, and the lab, merge and report run them from here
// only. A kind without a hand-written command gets the CLI's generic one
// (cmd/simctl: cmdAnalysis). The run result, which every analysis
// plays, is not a kind: merge and report handle it themselves.
type Analysis struct {
	// Name is the command, the lab's job kind and the document's "kind".
	Name string
	// Summary is the one line simctl help gives the command (a kind
	// with a hand-written command has its own, translated, in the
	// catalogs).
	Summary string
	// Flags are the kind's own settings, beyond those every analysis
	// takes (SCENARIO, -n, --seed, --workers, --set): the CLI's flags and
	// the lab form's fields, each with its default, written here once.
	// Their order is that of the reproducing command line the lab
	// records.
	Flags []Flag
	// Check refuses a lab request of this kind before it is queued (why;
	// the zero Text: accepted) and says how many games one encounter
	// index plays (mult: options, points, pairings...) and what they are
	// (what; "encounters" when one). It may fill in defaults the
	// recorded command line names (value's --params). nil: the lab does
	// not offer the kind.
	Check func(f *Form) (mult int64, what, why msg.Text)
	// CheckWhere compiles the form's condition (its where) as the job
	// will, against the compiled scenario, so that the lab's check (and
	// its ?dry=1) accepts only what will run; nil: the kind has none.
	CheckWhere func(f *Form, sc *scenario.Scenario, g sim.Game) error
	// Play builds the kind's request from the common settings and the
	// form (Flags' defaults for what it leaves out) and plays it.
	Play func(ctx context.Context, c *Common, f *Form, obs *Observer) (*Done, error)
	// Decode reads a document of a kind results.ParseInput does not know
	// (a registered kind's); nil for those it knows.
	Decode func(path string, data []byte) (any, error)
	// Merge adds the shards of one experiment, docs as read from paths
	// (simctl merge); an error says why they do not merge. nil: the kind
	// does not shard.
	Merge func(docs []any, paths []string) (*Merged, error)
	// Section is the kind's section in simctl report (and the lab's
	// report archive); nil: a report refuses the kind's documents.
	Section reports.SectionFunc
	// Prepare readies a document for its section before the report is
	// written: it replays what the section shows beside the document
	// (in.Traces), in l, and notes through obs what it cannot; an error
	// stops the report (an interruption). nil: nothing to ready.
	Prepare func(ctx context.Context, in *results.Input, l i18n.Lang, obs *Observer) error
	// Write renders the document in a format and language; Figure draws
	// its figure (nil: none).
	Write  func(doc any, w io.Writer, f reports.Format, l i18n.Lang) error
	Figure func(doc any, l i18n.Lang) (*reports.Figure, error)
	// Words are what the lab page shows beside the document, in the
	// reader's language (nil: nothing).
	Words func(doc []byte, l i18n.Lang) any
	// Slim is a partial document as the lab's interim tables need it
	// (nil: none is sent).
	Slim func(doc any) any
}

// Flag is one setting of an analysis kind.
type Flag struct {
	Name    string   // the CLI's --NAME, the key in Form.Values
	Type    FlagType // how the CLI reads it
	Default string   // as the CLI's flag writes it ("": none)
	Usage   string   // the CLI's text, `PLACEHOLDER` first
	// Field is the lab form's field that carries it ("options", "rows",
	// "cols", "vary", "side", "params", "where"); "": Form.Values[Name];
	// "-": none, the lab plays the default (the CLI's only). The lab
	// records the flags its form gave in the job's command line.
	Field string
}

// FlagType is how the CLI reads a flag.
type FlagType int

const (
	// String is one word (the last one given).
	String FlagType = iota
	// Float is a number.
	Float
	// Int is a whole number.
	Int
	// Repeated collects every value given, in order.
	Repeated
)

// Common is what every analysis takes.
type Common struct {
	Source  *Source
	Sets    []scenario.Set
	Seed    uint64
	N       int64
	Workers int
	// Command is the command line the document records.
	Command string
}

// Merged is what a kind's Merge made of its shards.
type Merged struct {
	Doc any
	// Missing, when the shards miss encounters, is what simctl merge
	// says (the merged document is marked incomplete, and merge fails
	// without --allow-partial); the zero Text: none is missing.
	Missing msg.Text
	// JSON: the merged document is written as JSON whatever the format
	// asked (a stage of a search is read back by its resume).
	JSON bool
}

// SectionOf is the report section renderer of the documents of kind
// (nil: none), as reports.Bundle.Section looks it up.
func SectionOf(kind string) reports.SectionFunc {
	if a := Lookup(kind); a != nil {
		return a.Section
	}
	return nil
}

// Done is what an analysis made: its document, the document's warnings
// and whether it was interrupted.
type Done struct {
	Doc         any
	Warnings    []string
	Interrupted bool
}

// Form is an analysis's settings as data: the lab's job request (its
// JSON is the page's), and what the CLI's generic command fills from its
// flags. Everything in it decides the counts.
type Form struct {
	Kind string   `json:"kind"`           // run, or an Analysis's Name
	File string   `json:"file,omitempty"` // the name errors and results show
	Text string   `json:"text"`           // the scenario YAML
	N    int64    `json:"n"`              // encounters (per point, option or pairing)
	Seed uint64   `json:"seed"`           //
	Sets []string `json:"sets,omitempty"` // PATH=VALUE overrides for every game
	// Vary is a sweep's one or two PATH=RANGE axes (optimize's space).
	Vary []string `json:"vary,omitempty"`
	// Options are a comparison's or a tournament's; Rows and Cols a
	// matrix's (Side names the row side).
	Options []results.NamedSets `json:"options,omitempty"`
	Rows    []results.NamedSets `json:"rows,omitempty"`
	Cols    []results.NamedSets `json:"cols,omitempty"`
	Side    string              `json:"side,omitempty"`
	// Params are a value run's parameters (simctl value --params; Side
	// is the valued side).
	Params string `json:"params,omitempty"`
	// Where is find's condition, or optimize's constraint.
	Where string `json:"where,omitempty"`
	// Values are a kind's own settings beyond these, by Flag name.
	Values map[string][]string `json:"values,omitempty"`
}

// Get is the value of the kind's flag name in f: the last given, else
// the flag's default.
func (a *Analysis) Get(f *Form, name string) string {
	fl := a.Flag(name)
	if vs := a.values(f, fl); len(vs) > 0 {
		return vs[len(vs)-1]
	}
	return fl.Default
}

// Flag is the kind's flag name; asking for one it does not have is a
// mistake in the table.
func (a *Analysis) Flag(name string) *Flag {
	for i := range a.Flags {
		if a.Flags[i].Name == name {
			return &a.Flags[i]
		}
	}
	panic("app: analysis " + a.Name + " has no flag " + name)
}

// values are the words the form gives fl, as its command-line flag would
// take them.
func (a *Analysis) values(f *Form, fl *Flag) []string {
	one := func(s string) []string {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	specs := func(ns []results.NamedSets) []string {
		var out []string
		for _, o := range ns {
			out = append(out, OptionSpec(o))
		}
		return out
	}
	switch fl.Field {
	case "options":
		return specs(f.Options)
	case "rows":
		return specs(f.Rows)
	case "cols":
		return specs(f.Cols)
	case "vary":
		return f.Vary
	case "side":
		return one(f.Side)
	case "params":
		return one(f.Params)
	case "where":
		return one(f.Where)
	case "-":
		return nil
	}
	return f.Values[fl.Name]
}

// Args is the command line (after SCENARIO, -n, --seed and --set) that
// gives the kind's flags the form's values: each flag the form sets, in
// the table's order.
func (a *Analysis) Args(f *Form) []string {
	var args []string
	for i := range a.Flags {
		for _, v := range a.values(f, &a.Flags[i]) {
			args = append(args, "--"+a.Flags[i].Name, v)
		}
	}
	return args
}

var (
	kindsMu sync.RWMutex
	kinds   []*Analysis
)

// Register adds an analysis kind; a kind registered twice, or without a
// name, Play or Write, is a mistake in the program.
func Register(a *Analysis) {
	if a.Name == "" || a.Play == nil || a.Write == nil {
		panic("app: Register: an analysis needs a Name, Play and Write")
	}
	kindsMu.Lock()
	defer kindsMu.Unlock()
	for _, k := range kinds {
		if k.Name == a.Name {
			panic("app: Register: analysis " + a.Name + " registered twice")
		}
	}
	kinds = append(kinds, a)
	if a.Decode != nil {
		results.RegisterDocument(a.Name, a.Decode)
	}
}

// Lookup is the analysis kind named name (nil: none).
func Lookup(name string) *Analysis {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	for _, k := range kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// Analyses are the kinds, in the order registered.
func Analyses() []*Analysis {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	return slices.Clone(kinds)
}

// MaxOptions bounds, in the lab, a comparison's options and a matrix's
// rows and columns: each is a game compiled before the first encounter.
const MaxOptions = 64

// maxSearchCandidates bounds a lab optimize request's space as written
// (before --where): each candidate is a row of its document.
const maxSearchCandidates = 2000

// FormSets are a form field's PATH=VALUE overrides, parsed; field names
// the field in errors.
func FormSets(ss []string, field string) ([]scenario.Set, error) {
	var out []scenario.Set
	for _, s := range ss {
		x, err := scenario.ParseSet(s)
		if err != nil {
			return nil, msg.Errorf("%s %q: %v", field, s, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// CheckNamedSets refuses a form's options that a command line could not
// carry back unchanged: a bad or repeated name, a name holding "=", an
// override that does not parse or does not survive quoting.
func CheckNamedSets(ns []results.NamedSets, field string) error {
	seen := map[string]bool{}
	for _, o := range ns {
		if why := scenario.NameProblem(o.Name); why.Format != "" {
			return msg.Errorf("%s: option name %q %s", field, o.Name, why)
		}
		// The job runs the CLI's command, which reads --option NAME=SETS
		// up to the first "=": a name holding one would be cut there and
		// the rest read as overrides the request never made.
		if strings.Contains(o.Name, "=") {
			return msg.Errorf("%s: option name %q may not contain '=' (the command line reads NAME=SETS up to the first '=')", field, o.Name)
		}
		if seen[o.Name] {
			return msg.Errorf("%s: option %q is given twice", field, o.Name)
		}
		seen[o.Name] = true
		sets, err := FormSets(o.Sets, field+" "+o.Name)
		if err != nil {
			return err
		}
		// Whatever else the command line cannot carry back unchanged is
		// refused too: what runs must be what was asked (and what the
		// permalink and the result's command line say).
		if name, back, err := ParseOption(OptionSpec(o)); err != nil || name != o.Name || !sameSets(back, sets) {
			return msg.Errorf("%s: option %q does not survive the command line (%s NAME='--set ...') unchanged; simplify its name or overrides", field, o.Name, map[string]string{"options": "--option", "rows": "--row", "cols": "--col"}[field])
		}
	}
	return nil
}

// OptionSpec is the NAME='--set PATH=VALUE ...' word a command line gives
// an option.
func OptionSpec(o results.NamedSets) string {
	var words []string
	for _, x := range o.Sets {
		words = append(words, "--set", x)
	}
	return o.Name + "=" + results.ShellJoin(words)
}

func sameSets(a, b []scenario.Set) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].String() != b[i].String() {
			return false
		}
	}
	return true
}

// formOptions are a form's named overrides as requests take them.
func formOptions(ns []results.NamedSets, field string) ([]Option, error) {
	var out []Option
	for _, o := range ns {
		sets, err := FormSets(o.Sets, field+" "+o.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, Option{Name: o.Name, Sets: sets})
	}
	return out, nil
}

// formAxes reads a form's vary fields ("PATH=a:b:step") as the CLI reads
// --vary.
func formAxes(vary []string) ([]results.Axis, error) {
	var axes []results.Axis
	for _, v := range vary {
		a, err := results.ParseVary(v)
		if err != nil {
			return nil, msg.Errorf("%s %q: %v", "vary", v, err)
		}
		axes = append(axes, a)
	}
	return axes, nil
}

// countVary counts a form's points (the product of its axes' values)
// without enumerating them, refusing past most (why: most passed).
func countVary(vary []string, most int64, tooMany msg.Text) (mult int64, why msg.Text) {
	mult = 1
	for _, v := range vary {
		a, err := results.ParseVary(v)
		if err != nil {
			return 0, msg.New("%s %q: %v", "vary", v, err)
		}
		mult *= int64(len(a.Values))
		if most > 0 && mult > most {
			return 0, tooMany
		}
	}
	return mult, msg.Text{}
}

// defaultCount and defaultDelta read a default the table writes as the
// CLI's flag shows it ("2000", "1pp"); a default they cannot read is a
// mistake in the table.
func defaultCount(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		panic("app: a count's default must be a plain whole number: " + s)
	}
	return n
}

func defaultFloat(s string) float64 {
	pp := strings.HasSuffix(s, "pp")
	x, err := strconv.ParseFloat(strings.TrimSuffix(s, "pp"), 64)
	if err != nil {
		panic("app: a number's default must be a plain number or NUMpp: " + s)
	}
	if pp {
		x /= 100
	}
	return x
}

// jsonWrite is Write for a document written only as JSON.
func jsonWrite(doc any, w io.Writer, _ reports.Format, _ i18n.Lang) error {
	return results.WriteJSON(w, doc)
}

// wordsOf decodes a document to hand it to a renderer of words.
func wordsOf[T any](f func(i18n.Lang, *T) any) func([]byte, i18n.Lang) any {
	return func(doc []byte, l i18n.Lang) any {
		var t T
		if json.Unmarshal(doc, &t) != nil {
			return nil
		}
		return f(l, &t)
	}
}
