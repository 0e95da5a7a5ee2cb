package results

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"simctl/reports/safeio"
	"simctl/sim"
	"simctl/sim/msg"
)

// Input is one document a report covers: a run result (`simctl run
// --json`, `simctl merge --json`), a sweep, a comparison, or the document
// of simctl value, matrix or tournament. Exactly one of Run, Sweep,
// Compare, Value, Matrix and Tournament is set.
type Input struct {
	Path    string
	Run     *Result
	Sweep   *Sweep
	Compare *Compare
	// The documents of simctl value, matrix and tournament, which carry
	// their scenario context themselves.
	Value      *Value
	Matrix     *Matrix
	Tournament *Tournament
	Optimize   *Optimize
	// Doc is a document of a kind registered with RegisterDocument, as
	// its decoder returned it.
	Doc any
	// Kind is the document's "kind" ("" for a run result).
	Kind string
	// Context of a run result, which carries none itself: filled by the
	// caller from the scenario when it can be found (nil otherwise).
	Context *Context
	// Traces of a run's representative fights (the shortest, the median
	// and the longest, say), replayed by the caller: reports runs nothing.
	Traces []FightTrace
}

// FightTrace is one replayed encounter a report links to, as text.
type FightTrace struct {
	Name  string // file stem: "longest"
	Title string // "the longest fight: encounter 857, 10 rounds"
	Text  string // what simctl trace prints
	// Timeline is the fight's rounds from the referee's events (the lab
	// draws it); not part of any document.
	Timeline *sim.Timeline `json:"-"`
}

// ReadInput reads any JSON document simctl writes, telling the kinds apart
// by their "kind" field (run results have none).
func ReadInput(path string) (*Input, error) {
	return ReadInputContext(context.Background(), path)
}

// ReadInputContext is ReadInput reading at most safeio.MaxResultBytes and
// stopping when ctx is cancelled.
func ReadInputContext(ctx context.Context, path string) (*Input, error) {
	data, err := safeio.ReadFile(ctx, path, safeio.MaxResultBytes, "simctl JSON document")
	if err != nil {
		return nil, err
	}
	return ParseInput(path, data)
}

// ParseInput is ReadInput on a document already in memory; path names it
// in errors.
func ParseInput(path string, data []byte) (*Input, error) {
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, msg.Errorf("%s: not a simctl JSON document (expected the JSON of one of simctl %s): %s", path, expectedCommands(), jsonProblem(err))
	}
	in := &Input{Path: path, Kind: head.Kind}
	for _, k := range builtinKinds {
		if k.kind == head.Kind {
			if err := k.read(in, path, data); err != nil {
				return nil, err
			}
			return in, nil
		}
	}
	if decode := documentDecoder(head.Kind); decode != nil {
		doc, err := decode(path, data)
		if err != nil {
			return nil, err
		}
		in.Doc = doc
		return in, nil
	}
	return nil, msg.Errorf("%s: unknown kind %q of simctl document (expected the JSON of one of simctl %s)", path, head.Kind, expectedCommands())
}

// builtinKinds are the kinds of document ParseInput reads itself, each
// with the simctl commands that write it, in the order its errors name
// them: one table, so that what it reads, what RegisterDocument refuses
// and what the errors list cannot drift apart.
var builtinKinds = []struct {
	kind     string // "": a run result
	commands string
	read     func(in *Input, path string, data []byte) error
}{
	{"", "run, merge", func(in *Input, path string, data []byte) (err error) {
		in.Run, err = parseResult(path, data)
		return err
	}},
	{"sweep", "sweep", readSweep},
	{"compare", "compare", readCompare},
	{"value", "value", func(in *Input, path string, data []byte) (err error) {
		in.Value, err = parseValue(path, data)
		return err
	}},
	{"matrix", "matrix", func(in *Input, path string, data []byte) (err error) {
		in.Matrix, err = parseMatrix(path, data)
		return err
	}},
	{"tournament", "tournament", func(in *Input, path string, data []byte) (err error) {
		in.Tournament, err = parseTournament(path, data)
		return err
	}},
	{"optimize", "optimize", func(in *Input, path string, data []byte) (err error) {
		in.Optimize, err = parseOptimize(path, data)
		return err
	}},
}

func readSweep(in *Input, path string, data []byte) error {
	var s Sweep
	if err := json.Unmarshal(data, &s); err != nil {
		return msg.Errorf("%s: a damaged simctl sweep: %s", path, jsonProblem(err))
	}
	if len(s.Points) == 0 || len(s.Axes) == 0 {
		return msg.Errorf("%s: a sweep with no points", path)
	}
	for i, p := range s.Points {
		if p.Result == nil || len(p.Values) != len(s.Axes) {
			return msg.Errorf("%s: sweep point %d is damaged", path, i)
		}
		if err := p.Result.check(); err != nil {
			return msg.Errorf("%s: sweep point %d: %v", path, i, err)
		}
	}
	in.Sweep = &s
	return nil
}

func readCompare(in *Input, path string, data []byte) error {
	var c Compare
	if err := json.Unmarshal(data, &c); err != nil {
		return msg.Errorf("%s: a damaged simctl comparison: %s", path, jsonProblem(err))
	}
	if len(c.Options) < 2 {
		return msg.Errorf("%s: a comparison with fewer than two options", path)
	}
	for i, o := range c.Options {
		if o.Result == nil || (i > 0 && len(o.Diff) != 2) {
			return msg.Errorf("%s: option %d of the comparison is damaged", path, i)
		}
		if err := o.Result.check(); err != nil {
			return msg.Errorf("%s: option %d: %v", path, i, err)
		}
		if n := len(o.EconomyCross); n > 0 && (i == 0 || n != len(o.Result.Raw.Counts) || n != len(c.Options[0].Result.Raw.Counts)) {
			return msg.Errorf("%s: option %d: its action_economy_cross has %d entries for %d counters; the file is damaged", path, i, n, len(o.Result.Raw.Counts))
		}
	}
	in.Compare = &c
	return nil
}

// expectedCommands lists the simctl commands whose JSON ParseInput reads:
// the built-in kinds' and then the registered kinds, in the order
// registered ("run, merge, sweep, ..., optimize").
func expectedCommands() string {
	var b strings.Builder
	for i, k := range builtinKinds {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.commands)
	}
	decodersMu.RLock()
	defer decodersMu.RUnlock()
	for _, kind := range registered {
		b.WriteString(", ")
		b.WriteString(kind)
	}
	return b.String()
}

// Document is the document in holds, whatever its kind: *Result,
// *Sweep, *Compare, *Value, *Matrix, *Tournament, *Optimize or a
// registered kind's (nil: none).
func (in *Input) Document() any {
	switch {
	case in.Run != nil:
		return in.Run
	case in.Sweep != nil:
		return in.Sweep
	case in.Compare != nil:
		return in.Compare
	case in.Value != nil:
		return in.Value
	case in.Matrix != nil:
		return in.Matrix
	case in.Tournament != nil:
		return in.Tournament
	case in.Optimize != nil:
		return in.Optimize
	}
	return in.Doc
}

// DocKind is the kind of the document in holds: Kind, or for an Input
// built in memory without it, the kind of the field that is set ("" for
// a run result).
func (in *Input) DocKind() string {
	switch {
	case in.Kind != "":
		return in.Kind
	case in.Sweep != nil:
		return "sweep"
	case in.Compare != nil:
		return "compare"
	case in.Value != nil:
		return "value"
	case in.Matrix != nil:
		return "matrix"
	case in.Tournament != nil:
		return "tournament"
	case in.Optimize != nil:
		return "optimize"
	}
	return ""
}

// Scenario is the name of the scenario the document played ("": it names
// none).
func (in *Input) Scenario() string {
	switch d := in.Document().(type) {
	case *Result:
		return d.Scenario
	case *Sweep:
		return d.Scenario
	case *Compare:
		return d.Scenario
	case interface{ DocHeader() *Header }:
		return d.DocHeader().Scenario
	}
	return ""
}

var (
	decodersMu sync.RWMutex
	decoders   = map[string]func(path string, data []byte) (any, error){}
	registered []string // decoders' kinds, in the order registered
)

// RegisterDocument lets ParseInput read the documents whose "kind" is
// kind, with decode (an analysis kind registered with the application
// layer: cmd/simctl/app.Register). The kinds this package reads itself
// cannot be registered.
func RegisterDocument(kind string, decode func(path string, data []byte) (any, error)) {
	for _, k := range builtinKinds {
		if k.kind == kind {
			panic("results: RegisterDocument: " + kind + " is read by ParseInput itself")
		}
	}
	decodersMu.Lock()
	defer decodersMu.Unlock()
	if decoders[kind] == nil {
		registered = append(registered, kind)
	}
	decoders[kind] = decode
}

func documentDecoder(kind string) func(path string, data []byte) (any, error) {
	decodersMu.RLock()
	defer decodersMu.RUnlock()
	return decoders[kind]
}
