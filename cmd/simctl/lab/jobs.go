package lab

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/reports/safeio"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/experiment"
	"simctl/sim/msg"
	"simctl/sim/scenario"
	"simctl/stats"
)

// jobRequest is what the page sends to start a job, and what a permalink
// encodes: everything that decides the counts.
type jobRequest struct {
	Kind string   `json:"kind"`           // run, sweep, compare or matrix
	File string   `json:"file,omitempty"` // the name errors and results show
	Text string   `json:"text"`           // the scenario YAML
	N    int64    `json:"n"`              // encounters (per point, option or pairing)
	Seed uint64   `json:"seed"`           //
	Sets []string `json:"sets,omitempty"` // PATH=VALUE overrides for every game
	// Vary is a sweep's one or two PATH=RANGE axes.
	Vary []string `json:"vary,omitempty"`
	// Options are a comparison's; Rows and Cols a matrix's (Side names
	// the row side).
	Options []results.NamedSets `json:"options,omitempty"`
	Rows    []results.NamedSets `json:"rows,omitempty"`
	Cols    []results.NamedSets `json:"cols,omitempty"`
	Side    string              `json:"side,omitempty"`
	// Params are a value run's parameters (simctl value --params; Side
	// is the valued side).
	Params string `json:"params,omitempty"`
	// Where is find's condition, or optimize's constraint
	// (kinds.go: tournament, find and optimize).
	Where string `json:"where,omitempty"`
}

// Job states.
const (
	stateQueued    = "queued"
	stateRunning   = "running"
	stateDone      = "done"
	stateCancelled = "cancelled"
	stateFailed    = "failed"
)

// job is one accepted request: queued, then running in a slot, then
// finished with its document (or an error) until it expires.
type serveJob struct {
	id      string
	req     jobRequest
	created time.Time
	ctx     context.Context
	cancel  context.CancelFunc

	// Set by prepare, read-only afterwards.
	src   *app.Source
	sc    *scenario.Scenario
	game  sim.Game
	total int64 // encounters the job plays in all
	// lang is the language of the request that made the job: its event
	// stream's messages are in it (GET /api/jobs/ID?lang= says them in
	// any other).
	lang i18n.Lang

	mu    sync.Mutex
	warns []msg.Localizer // translated when read (status)
	state string
	// errMsg is why the job failed or was cancelled (nil: it did not).
	errMsg   msg.Localizer
	events   []sseEvent
	changed  chan struct{} // closed and replaced whenever events grow
	finished time.Time
	// lastInterim is 1 + the index in events of the latest interim
	// document (0: none yet); emitInterim blanks the one before.
	lastInterim int
	doc         []byte            // the result document (JSON), as the CLI writes it
	result      *results.Result   // a run's, parsed
	figures     map[string][]byte // SVG, made on first request ("NAME" English, "NAME/ko" in Korean)
	// figureIn draws an app job's figure in a language (the English one is
	// drawn when the job ends; the others when a page asks).
	figureIn func(i18n.Lang) (*reports.Figure, error)
	traces   map[string][]results.FightTrace // the picks, by language and traceTarget.key
	archives map[string][]byte               // the report bundle, by format
}

type sseEvent struct {
	name string
	data []byte
}

func newJobID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// emit appends an event and wakes the streams.
func (j *serveJob) emit(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte(`{}`)
	}
	j.mu.Lock()
	j.emitLocked(name, data)
	j.mu.Unlock()
}

func (j *serveJob) emitLocked(name string, data []byte) {
	j.events = append(j.events, sseEvent{name, data})
	close(j.changed)
	j.changed = make(chan struct{})
}

// finish ends the job once; the final event says how. The state and the
// final event change together, so a stream that sees the job ended has
// its final event to send.
func (j *serveJob) finish(state string, why msg.Localizer, doc []byte) {
	ev := map[string]any{"state": state}
	if why != nil {
		ev["error"] = j.lang.Msg(why)
	}
	data, _ := json.Marshal(ev)
	j.mu.Lock()
	if j.state == stateDone || j.state == stateCancelled || j.state == stateFailed {
		j.mu.Unlock()
		return
	}
	if cap(doc) > len(doc)+len(doc)/4 {
		doc = bytes.Clone(doc) // a grown buffer's spare capacity is not kept
	}
	j.state, j.errMsg, j.doc, j.finished = state, why, doc, time.Now()
	// The interim document is superseded by the result (or, for a job that
	// did not finish, kept by none): a finished job keeps only its result.
	if j.lastInterim > 0 {
		j.events[j.lastInterim-1] = sseEvent{}
		j.lastInterim = 0
	}
	j.events = slices.Clip(j.events)
	j.emitLocked(state, data)
	j.mu.Unlock()
	j.cancel()
}

func (j *serveJob) terminal() bool {
	return j.state == stateDone || j.state == stateCancelled || j.state == stateFailed
}

// status is GET /api/jobs/ID, in English.
func (j *serveJob) status() map[string]any { return j.statusIn(i18n.En) }

// statusIn is GET /api/jobs/ID?lang=: the error and warnings in l.
func (j *serveJob) statusIn(l i18n.Lang) map[string]any {
	j.mu.Lock()
	defer j.mu.Unlock()
	st := map[string]any{"id": j.id, "kind": j.req.Kind, "state": j.state, "encounters_total": j.total}
	if j.errMsg != nil {
		st["error"] = l.Msg(j.errMsg)
	}
	if len(j.warns) > 0 {
		st["warnings"] = says(l, j.warns) // encoded after j.mu is released
	}
	if j.doc != nil {
		st["result"] = json.RawMessage(j.doc)
		st["figures"] = j.figureNames()
		// The page lays these documents out itself; their verdict,
		// guarantee and statuses are the report's words, in the reader's
		// language.
		switch j.req.Kind {
		case "tournament":
			var t results.Tournament
			if json.Unmarshal(j.doc, &t) == nil {
				st["words"] = reports.TournamentWordsIn(l, &t)
			}
		case "optimize":
			var o results.Optimize
			if json.Unmarshal(j.doc, &o) == nil {
				st["words"] = reports.OptimizeWordsIn(l, &o)
			}
		}
	}
	return st
}

// writeStatus answers GET /api/jobs/ID: the status as writeJSON writes
// it, byte for byte, but with the result document streamed from where it
// is kept (writeJSON compacts a json.RawMessage into the encoder's
// buffer: a copy or two of a document of tens of MB per reader).
func (j *serveJob) writeStatus(w http.ResponseWriter, l i18n.Lang) {
	st := j.statusIn(l)
	doc, _ := st["result"].(json.RawMessage)
	delete(st, "result")
	if len(doc) == 0 || !json.Valid(doc) { // json.Valid scans, allocating nothing
		if len(doc) > 0 {
			st["result"] = doc
		}
		writeJSON(w, http.StatusOK, st)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	// The keys in the order json.Marshal sorts them: "result" falls
	// between the ones before and after it.
	before := map[string]any{}
	after := map[string]any{}
	for k := range maps.Keys(st) {
		if k < "result" {
			before[k] = st[k]
		} else {
			after[k] = st[k]
		}
	}
	b, _ := json.Marshal(before)
	a, _ := json.Marshal(after)
	bw.Write(b[:len(b)-1]) // without its closing brace
	if len(before) > 0 {
		bw.WriteByte(',')
	}
	bw.WriteString(`"result":`)
	compactHTML(bw, doc)
	if len(after) > 0 {
		bw.WriteByte(',')
		bw.Write(a[1:])
	} else {
		bw.WriteByte('}')
	}
	bw.WriteByte('\n')
	bw.Flush()
}

// compactHTML writes valid JSON src as json.Encoder (with HTML escaping)
// writes a json.RawMessage: without insignificant space, and with <, >,
// &, U+2028 and U+2029 inside strings escaped.
func compactHTML(w *bufio.Writer, src []byte) {
	const hex = "0123456789abcdef"
	inStr, esc := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if !inStr {
			switch c {
			case ' ', '\t', '\n', '\r':
				continue
			case '"':
				inStr = true
			}
			w.WriteByte(c)
			continue
		}
		switch {
		case esc:
			esc = false
		case c == '\\':
			esc = true
		case c == '"':
			inStr = false
		case c == '<' || c == '>' || c == '&':
			w.WriteString(`\u00`)
			w.WriteByte(hex[c>>4])
			w.WriteByte(hex[c&0xF])
			continue
		case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
			w.WriteString(`\u202`)
			w.WriteByte(hex[src[i+2]&0xF])
			i += 2
			continue
		}
		w.WriteByte(c)
	}
}

// figureNames lists the SVG figures of the finished job (under
// /api/jobs/ID/figures/NAME.svg).
func (j *serveJob) figureNames() []string {
	if j.req.Kind == "run" {
		if j.result == nil || j.result.Encounters == 0 {
			return nil
		}
		return []string{"rounds", "economy", "first-actor", "combatants", "damage", "hp-left"}
	}
	if _, ok := j.figures["figure"]; ok {
		return []string{"figure"}
	}
	return nil
}

// --- accepting a job -------------------------------------------------------

// maxOptions bounds a comparison's options and a matrix's rows and
// columns: each is a game compiled before the first encounter.
const maxOptions = 64

// cliFileName is what the scenario may be called in messages and results:
// a built-in's name or a plain file name, never a path to open. The
// document's reproducing command line names it, so it never holds a
// separator or starts with "-" or "." (a path or a flag there).
var cliFileName = regexp.MustCompile(`^(builtin:[A-Za-z0-9_][A-Za-z0-9_.-]*/)?[\p{L}\p{N}_][\p{L}\p{N}_. +()-]*\.ya?ml$`)

// prepare checks a request before it is queued: a clear 4xx now beats a
// failed job later. It compiles the scenario (every problem, positioned),
// parses every override and counts the encounters against the cap.
func (s *server) prepare(req *jobRequest, l i18n.Lang) (*serveJob, int, any) {
	bad := func(m msg.Text) (*serveJob, int, any) {
		return nil, http.StatusBadRequest, map[string]string{"error": l.Msg(m)}
	}
	if req.File == "" {
		req.File = "scenario.yaml"
	}
	if !cliFileName.MatchString(req.File) {
		return bad(msg.New("file %q: a name such as my.yaml or builtin:d20/duel.yaml (it only names the scenario in messages)", req.File))
	}
	// A built-in's name claims its text: the result's command lines
	// would replay the built-in, not an edited copy.
	if name, ok := strings.CutPrefix(req.File, "builtin:"); ok {
		data, _, found := scenarios.Read(strings.TrimSuffix(name, ".yaml"))
		if !found {
			return bad(msg.New("file %q: no such built-in scenario (GET /api/scenarios lists them)", req.File))
		}
		// A client that names a built-in and sends no text means that
		// built-in as it is.
		if req.Text == "" {
			req.Text = string(data)
		}
		if string(data) != req.Text {
			return bad(msg.New("file %q: the text is not that built-in's (edited?); give it a name of its own such as %s, so its command lines do not replay the built-in", req.File, path.Base(name)))
		}
	}
	switch {
	case req.Kind != "run" && req.Kind != "sweep" && req.Kind != "compare" && req.Kind != "matrix" && req.Kind != "value" && !searchKinds[req.Kind]:
		return bad(msg.New("kind %q: valid kinds are run, sweep, compare, matrix, value, tournament, find and optimize", req.Kind))
	case strings.TrimSpace(req.Text) == "":
		return bad(msg.New("text: the scenario is empty; pick a built-in or write one"))
	case int64(len(req.Text)) > safeio.MaxScenarioBytes:
		return bad(msg.New("text: the scenario is %d bytes, more than the %d a scenario may have", len(req.Text), safeio.MaxScenarioBytes))
	case req.N < 1:
		return bad(msg.New("n %d: play at least 1 encounter", req.N))
	}
	sets, err := parseSets(req.Sets, "sets")
	if err != nil {
		return bad(msg.New("%v", err))
	}
	mult := int64(1)
	what := msg.New("encounters")
	switch req.Kind {
	case "sweep":
		if len(req.Vary) < 1 || len(req.Vary) > 2 {
			return bad(msg.New("vary: a sweep varies one or two fields (PATH=RANGE, e.g. heroes.Fighter.init=0:6:1), got %d", len(req.Vary)))
		}
		// Counted, not enumerated: two axes of a thousand values would be
		// a million points to build before saying no.
		for _, v := range req.Vary {
			a, err := results.ParseVary(v)
			if err != nil {
				return bad(msg.New("%s %q: %v", "vary", v, err))
			}
			mult *= int64(len(a.Values))
		}
		if mult > results.MaxSweepPoints {
			return bad(msg.New("vary: %d points, more than the %d a sweep may have", mult, results.MaxSweepPoints))
		}
		what = msg.New("points")
	case "compare":
		if len(req.Options) < 2 {
			return bad(msg.New("options: a comparison needs at least two options (an option with no sets is the scenario unchanged), got %d", len(req.Options)))
		}
		if len(req.Options) > maxOptions {
			return bad(msg.New("options: %d, more than the %d a comparison here may have", len(req.Options), maxOptions))
		}
		if err := checkNamedSets(req.Options, "options"); err != nil {
			return bad(msg.New("%v", err))
		}
		mult, what = int64(len(req.Options)), msg.New("options")
	case "matrix":
		if len(req.Rows) < 1 || len(req.Cols) < 1 || len(req.Rows)*len(req.Cols) < 2 {
			return bad(msg.New("rows, cols: a matrix needs at least one row and one column option, and two of one of them"))
		}
		if len(req.Rows) > maxOptions || len(req.Cols) > maxOptions {
			return bad(msg.New("rows, cols: %d × %d, more than the %d options a side may have here", len(req.Rows), len(req.Cols), maxOptions))
		}
		if err := checkNamedSets(req.Rows, "rows"); err != nil {
			return bad(msg.New("%v", err))
		}
		if err := checkNamedSets(req.Cols, "cols"); err != nil {
			return bad(msg.New("%v", err))
		}
		mult, what = int64(len(req.Rows)*len(req.Cols)), msg.New("pairings")
	case "value":
		// The scenario unchanged, and each parameter a step down and up
		// (simctl value checks the names themselves).
		if req.Params == "" {
			req.Params = "init,hp,ac,attack"
		}
		seen := map[string]bool{}
		for _, p := range strings.Split(req.Params, ",") {
			if p = strings.TrimSpace(p); p != "" {
				seen[p] = true
			}
		}
		if len(seen) == 0 || len(seen) > maxOptions {
			return bad(msg.New("params %q: name 1 to %d parameters, e.g. init,hp,ac,attack", req.Params, maxOptions))
		}
		mult, what = int64(1+2*len(seen)), msg.New("games (the scenario, and each parameter a step down and up)")
	default:
		if searchKinds[req.Kind] {
			var why msg.Text
			if mult, what, why = checkSearch(req); why.Format != "" {
				return bad(why)
			}
		}
	}
	if req.N > s.cfg.MaxEncounters/mult {
		if mult == 1 {
			return bad(msg.New("n %d: more than this server's cap of %d encounters per request (simctl serve --max-encounters)", req.N, s.cfg.MaxEncounters))
		}
		return bad(msg.New("n %d × %d %s is more than this server's cap of %d encounters per request (simctl serve --max-encounters)", req.N, mult, what, s.cfg.MaxEncounters))
	}
	src := &app.Source{Name: req.File, Display: req.File, Data: []byte(req.Text)}
	sc, g, warns, err := src.CompileWarn(sets)
	if err != nil {
		return nil, http.StatusUnprocessableEntity, checkResponse(err, nil, l)
	}
	// Every condition the job would compile is compiled now, so ?dry=1
	// accepts only what will run (a condition is otherwise first read by
	// the job).
	if why := checkWhere(req, sc, g); why.Format != "" {
		return bad(why)
	}
	// A document grows with its points, options or cells, whatever each
	// plays: a sweep of 10,000 points at n=1 is cheap to play and large
	// to keep. Each is counted at what its result costs in JSON.
	if what.Format != "encounters" {
		per := docBytesPer(len(g.Roster()))
		if est := mult * per; est > s.cfg.MaxDocBytes {
			return bad(msg.New("%d %s would make a result of about %d MB (about %d kB each), more than the %d MB this server keeps per job; ask for at most %d (the CLI has no such cap)",
				mult, what, est>>20, per>>10, s.cfg.MaxDocBytes>>20, s.cfg.MaxDocBytes/per))
		}
	}
	j := &serveJob{id: newJobID(), req: *req, created: time.Now(), src: src, sc: sc, game: g,
		total: req.N * mult, state: stateQueued, changed: make(chan struct{}), lang: l}
	for _, w := range warns {
		j.warns = append(j.warns, w)
	}
	return j, 0, nil
}

func parseSets(ss []string, field string) ([]scenario.Set, error) {
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

func checkNamedSets(ns []results.NamedSets, field string) error {
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
		sets, err := parseSets(o.Sets, field+" "+o.Name)
		if err != nil {
			return err
		}
		// Whatever else the command line cannot carry back unchanged is
		// refused too: what runs must be what was asked (and what the
		// permalink and the result's command line say).
		if name, back, err := app.ParseOption(optionSpec(o)); err != nil || name != o.Name || !sameSets(back, sets) {
			return msg.Errorf("%s: option %q does not survive the command line (%s NAME='--set ...') unchanged; simplify its name or overrides", field, o.Name, map[string]string{"options": "--option", "rows": "--row", "cols": "--col"}[field])
		}
	}
	return nil
}

// optionSpec is the NAME='--set PATH=VALUE ...' word a job's command
// line gives an option (cliArgs).
func optionSpec(o results.NamedSets) string {
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

// enqueue starts the job in a free slot or queues it; with the queue full
// it refuses (false).
func (s *server) enqueue(j *serveJob) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.running >= s.cfg.MaxJobs && len(s.waiting) >= s.cfg.Queue {
		return false
	}
	s.expireLocked(time.Now())
	j.ctx, j.cancel = context.WithCancel(s.ctx)
	s.jobs[j.id] = j
	s.order = append(s.order, j)
	if s.running < s.cfg.MaxJobs {
		s.startLocked(j)
	} else {
		s.waiting = append(s.waiting, j)
		j.emit("queued", map[string]int{"position": len(s.waiting)})
	}
	return true
}

// startLocked runs j in a slot; when it ends, the first waiting job takes
// the slot and the others hear their new queue position.
func (s *server) startLocked(j *serveJob) {
	s.running++
	s.jobsDone.Add(1)
	j.mu.Lock()
	j.state = stateRunning
	j.mu.Unlock()
	j.emit("started", map[string]any{"encounters_total": j.total})
	go func() {
		defer s.jobsDone.Done()
		s.play(j)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.running--
		// What the job keeps now counts against keptBytes.
		s.expireLocked(time.Now())
		for len(s.waiting) > 0 && s.running < s.cfg.MaxJobs && !s.closed {
			next := s.waiting[0]
			s.waiting = s.waiting[1:]
			if next.ctx.Err() != nil {
				continue // cancelled while waiting
			}
			s.startLocked(next)
		}
		for i, w := range s.waiting {
			w.emit("queued", map[string]int{"position": i + 1})
		}
	}()
}

// play runs the job to its end, whatever happens inside.
func (s *server) play(j *serveJob) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "simctl serve: internal error in job %s: %v\n", j.id, p)
			j.finish(stateFailed, msg.New("internal error: %v; please report it with the scenario", p), nil)
		}
	}()
	switch j.req.Kind {
	case "run":
		s.playRun(j)
	case "sweep":
		s.playApp(j, s.sweep)
	case "compare":
		s.playApp(j, s.compare)
	case "value":
		s.playApp(j, s.value)
	case "matrix":
		s.playApp(j, s.matrix)
	case "tournament":
		s.playApp(j, s.tournament)
	case "find":
		s.playApp(j, s.find)
	case "optimize":
		s.playApp(j, s.optimize)
	default:
		j.finish(stateFailed, msg.New("internal error: no job kind %q", j.req.Kind), nil)
	}
}

// cancelJob stops a job at once: its context stops the workers between
// encounters, or takes it out of the queue.
func (s *server) cancelJob(j *serveJob) {
	s.mu.Lock()
	for i, w := range s.waiting {
		if w == j {
			s.waiting = append(s.waiting[:i:i], s.waiting[i+1:]...)
			for k, w := range s.waiting[i:] {
				w.emit("queued", map[string]int{"position": i + k + 1})
			}
			j.finish(stateCancelled, nil, nil)
			break
		}
	}
	s.mu.Unlock()
	j.cancel()
}

// expireLocked forgets finished jobs older than --job-ttl, and the oldest
// finished ones beyond keptJobs or beyond keptBytes retained in all. The
// most recently finished job is kept whatever its size (its page is
// showing it); prepare bounds what one job's document may be.
func (s *server) expireLocked(now time.Time) {
	finished, held := 0, int64(0)
	var newest *serveJob
	var newestAt time.Time
	size := make(map[*serveJob]int64, len(s.order))
	for _, j := range s.order {
		j.mu.Lock()
		if j.terminal() {
			finished++
			size[j] = j.retainedLocked()
			held += size[j]
			if newest == nil || !j.finished.Before(newestAt) {
				newest, newestAt = j, j.finished
			}
		}
		j.mu.Unlock()
	}
	keep := s.order[:0]
	for _, j := range s.order {
		j.mu.Lock()
		old := j.terminal() && (now.Sub(j.finished) > s.cfg.JobTTL ||
			(j != newest && (finished > s.cfg.KeptJobs || held > s.cfg.KeptBytes)))
		j.mu.Unlock()
		if old {
			finished--
			held -= size[j]
			delete(s.jobs, j.id)
			continue
		}
		keep = append(keep, j)
	}
	clear(s.order[len(keep):])
	s.order = keep
}

func (s *server) expire(now time.Time) {
	s.mu.Lock()
	s.expireLocked(now)
	s.mu.Unlock()
}

// --- playing ---------------------------------------------------------------

// batchTarget is how long one batch of a run should take: the page gets an
// interim result about this often.
const batchTarget = 250 * time.Millisecond

// playRun plays encounters 0..N-1 through app.Run in successive batches
// (its Interim mode), and sends the tally so far after each. Encounter i
// draws from the stream (seed, i) whatever batch it is in, so the final
// counts are exactly those of one sim.Run (and of simctl run).
func (s *server) playRun(j *serveJob) {
	req := &j.req
	sets, err := parseSets(req.Sets, "sets")
	if err != nil {
		j.finish(stateFailed, because(err), nil)
		return
	}
	cmd := []string{"simctl", "run", strings.TrimPrefix(req.File, "builtin:"), "-n", strconv.FormatInt(req.N, 10), "--seed", strconv.FormatUint(req.Seed, 10)}
	for _, x := range req.Sets {
		cmd = append(cmd, "--set", x)
	}
	obs := &app.Observer{InterimEvery: batchTarget, Interim: func(doc any) {
		j.emit("progress", interim(doc.(*results.Result), req.N))
	}}
	ran, err := app.Run(j.ctx, &app.RunRequest{Source: j.appSource(), Sets: sets, Seed: req.Seed, N: req.N, Workers: s.cfg.Workers,
		Command: results.ShellJoin(cmd)}, obs)
	if err != nil {
		j.finish(stateFailed, because(err), nil)
		return
	}
	res := ran.Result
	if res.Interrupted {
		// What finished is not a prefix of the encounters: it is not
		// offered as a result, only said.
		j.emit("progress", interim(res, req.N))
		j.finish(stateCancelled, msg.New("cancelled after %d of %d encounters", res.Encounters, req.N), nil)
		return
	}
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil {
		j.finish(stateFailed, because(err), nil)
		return
	}
	j.mu.Lock()
	j.result = res
	j.mu.Unlock()
	j.finish(stateDone, nil, b.Bytes())
}

// interim is a progress event: the counts so far and each side's win rate
// with its 95% interval.
func interim(r *results.Result, total int64) map[string]any {
	type side struct {
		Name    string     `json:"name"`
		Wins    int64      `json:"wins"`
		WinRate float64    `json:"win_rate"`
		CI      [2]float64 `json:"win_ci95"`
	}
	var sides []side
	for _, s := range r.Sides {
		sides = append(sides, side{s.Name, s.Wins, s.WinRate, s.WinCI95})
	}
	return map[string]any{"encounters": r.Encounters, "encounters_total": total, "draws": r.Draws,
		"sides": sides, "elapsed_seconds": r.Elapsed}
}

// cliArgs is the command line (without "simctl") that reproduces a sweep,
// comparison, value run or matrix job with the CLI, as its document
// records it (it is never run here): the scenario named as the page names
// it (a built-in without its "builtin:"), the request's own flags, and
// --format json. --workers is added only when the server's differs from
// the CLI's default (one per core): it never changes the counts.
func cliArgs(req *jobRequest, workers int) []string {
	args := []string{req.Kind, strings.TrimPrefix(req.File, "builtin:"), "-n", strconv.FormatInt(req.N, 10), "--seed", strconv.FormatUint(req.Seed, 10)}
	for _, x := range req.Sets {
		args = append(args, "--set", x)
	}
	spec := func(flag string, o results.NamedSets) []string {
		return []string{flag, optionSpec(o)}
	}
	switch req.Kind {
	case "sweep":
		for _, v := range req.Vary {
			args = append(args, "--vary", v)
		}
	case "compare":
		for _, o := range req.Options {
			args = append(args, spec("--option", o)...)
		}
	case "matrix":
		for _, o := range req.Rows {
			args = append(args, spec("--row", o)...)
		}
		for _, o := range req.Cols {
			args = append(args, spec("--col", o)...)
		}
		if req.Side != "" {
			args = append(args, "--side", req.Side)
		}
	case "value":
		if req.Side != "" {
			args = append(args, "--side", req.Side)
		}
		if req.Params != "" {
			args = append(args, "--params", req.Params)
		}
	default:
		args = append(args, searchArgs(req)...)
	}
	args = append(args, "--format", "json")
	if workers != runtime.GOMAXPROCS(0) {
		args = append(args, "--workers", strconv.Itoa(workers))
	}
	return args
}

// appJob is one kind of lab job on the application layer: it builds the
// request from the job's JSON and runs it.
type appJob func(j *serveJob, obs *app.Observer) (appDone, error)

// appDone is what a lab job made: its document, the document's warnings
// and whether it was interrupted, and its figure.
type appDone struct {
	doc         document
	warnings    []string
	interrupted bool
	figure      func(i18n.Lang) (*reports.Figure, error)
}

// playApp runs a job through the application layer, as the CLI runs the
// same kind of job: the request is built from the page's JSON (no command
// line), the observer hands the page the progress and the partial
// documents, and the figure is drawn from the document in memory. What
// the CLI would print on stderr (its warnings, its error) becomes the
// job's warnings or message, in the CLI's words.
func (s *server) playApp(j *serveJob, play appJob) {
	req := &j.req
	var errb lockedBuffer
	t0 := time.Now()
	h := s.hooks(j, t0)
	obs := &app.Observer{Progress: h.watch, Interim: h.interim, InterimEvery: interimEvery, InterimSegment: interimSegment, Warn: &errb}
	done, err := play(j, obs)
	if ae := (*app.Error)(nil); errors.As(err, &ae) && ae.Kind == app.Interrupted {
		j.finish(stateCancelled, msg.New("cancelled; the partial result is not kept"), nil)
		return
	}
	if err != nil {
		// What the command said before it failed (English: the
		// application layer's own lines), then the failure in the
		// CLI's words.
		why := failure(req.Kind, err)
		if said := errb.text(); said != "" {
			why = msg.New("%s\n%s", verbatim(said), why)
		}
		for _, m := range slices.Backward(errb.messages()) {
			why = msg.New("%s\n%s", m, why)
		}
		j.finish(stateFailed, why, nil)
		return
	}
	if done.interrupted {
		j.finish(stateCancelled, msg.New("cancelled; the partial result is not kept"), nil)
		return
	}
	for _, m := range errb.messages() {
		j.addWarning(m)
	}
	j.addWarnings(errb.text())
	for _, warn := range done.warnings {
		j.addWarning(msg.New("simctl %s: warning: %s", req.Kind, warn))
	}
	var b bytes.Buffer
	if err := done.doc.Write(&b, reports.JSON); err != nil {
		j.finish(stateFailed, msg.New("%s: %v", "simctl "+req.Kind, err), nil)
		return
	}
	if f, err := done.figure(i18n.En); err == nil {
		var svg bytes.Buffer
		if err := f.SVG(&svg); err == nil {
			j.mu.Lock()
			j.figures = map[string][]byte{"figure": svg.Bytes()}
			j.figureIn = done.figure
			j.mu.Unlock()
		} else {
			j.addWarning(msg.New("the figure: %v", err))
		}
	} else if !errors.Is(err, reports.ErrNoData) {
		j.addWarning(msg.New("the figure: %v", err))
	}
	j.finish(stateDone, nil, b.Bytes())
}

// document is what every app job returns.
type document interface {
	Write(io.Writer, reports.Format) error
}

// failure is what an app job refused or failed with as simctl CMD says
// it on stderr, so that the page's message is the CLI's (translated when
// it is read).
func failure(cmd string, err error) msg.Text {
	var ae *app.Error
	if !errors.As(err, &ae) {
		return msg.New("%s: %v", "simctl "+cmd, err)
	}
	if ae.Kind == app.Invalid {
		var pe *app.PointsError
		var es scenario.Errors
		switch {
		case errors.As(ae.Err, &pe):
			if pe.Msg.Format != "" {
				return pe.Msg
			}
			return msg.New("%s", strings.TrimRight(pe.Text, "\n"))
		case errors.As(ae.Err, &es):
			return msg.New("%s\n%d problem(s); nothing was run", es, len(es))
		default:
			return msg.New("%s: %v", "simctl", ae.Err)
		}
	}
	if ae.Kind == app.Usage && ae.Help {
		return msg.New("simctl %s: %v\nsee simctl help %s", cmd, ae.Err, cmd)
	}
	return msg.New("%s: %v", "simctl "+cmd, ae.Err)
}

// because is err as a job's message: translated if it is a message.
func because(err error) msg.Localizer { return msg.New("%v", err) }

// says is the messages ms in l.
func says(l i18n.Lang, ms []msg.Localizer) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = l.Msg(m)
	}
	return out
}

// hooks are the job's progress and interim callbacks: the page hears the
// encounters played and the partial documents.
func (s *server) hooks(j *serveJob, t0 time.Time) *jobHooks {
	var nextInterim time.Time
	return &jobHooks{
		progress: func(done, total int64) {
			j.emit("progress", map[string]any{"encounters": scaleCount(done, total, j.total), "encounters_total": j.total,
				"elapsed_seconds": time.Since(t0).Seconds()})
		},
		interim: func(doc any) {
			// A sweep hands over every finished point; the page needs
			// them no faster than a comparison's checkpoints, and a big
			// document (thousands of points) less often still: at most
			// about 10 MB/s of them.
			if time.Now().Before(nextInterim) {
				return
			}
			if d := slimDoc(doc); d != nil {
				size := j.emitInterim(d)
				nextInterim = time.Now().Add(max(interimEvery/2, time.Duration(size/10)*time.Microsecond))
			}
		},
	}
}

// appSource is the job's scenario as the application layer takes it,
// named as the CLI would name it (a built-in without its "builtin:").
func (j *serveJob) appSource() *app.Source {
	return &app.Source{Name: strings.TrimPrefix(j.req.File, "builtin:"), Display: j.src.Display, Data: j.src.Data}
}

// command is what the job's document records as its command line: the
// one that reproduces it with the CLI (never run here).
func (s *server) command(req *jobRequest) string {
	return results.ShellJoin(append([]string{"simctl"}, cliArgs(req, s.cfg.Workers)...))
}

// parseVaries reads a job's vary fields ("PATH=a:b:step") as the CLI reads --vary.
func parseVaries(vary []string) ([]results.Axis, error) {
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

// sweep is a sweep job.
func (s *server) sweep(j *serveJob, obs *app.Observer) (appDone, error) {
	req := &app.SweepRequest{Source: j.appSource(), Seed: j.req.Seed, N: j.req.N, Workers: s.cfg.Workers,
		Batch: experiment.DefaultBatch, Command: s.command(&j.req)}
	var err error
	if req.Sets, err = parseSets(j.req.Sets, "sets"); err != nil {
		return appDone{}, err
	}
	if req.Axes, err = parseVaries(j.req.Vary); err != nil {
		return appDone{}, err
	}
	sw, err := app.Sweep(j.ctx, req, obs)
	if err != nil {
		return appDone{}, err
	}
	return appDone{reports.Doc(sw), sw.Warnings, sw.Interrupted, func(l i18n.Lang) (*reports.Figure, error) { return reports.SweepFigureLang(l, sw) }}, nil
}

// compare is a comparison job.
func (s *server) compare(j *serveJob, obs *app.Observer) (appDone, error) {
	req := &app.CompareRequest{Source: j.appSource(), Seed: j.req.Seed, N: j.req.N, Workers: s.cfg.Workers,
		Batch: experiment.DefaultBatch, Command: s.command(&j.req)}
	var err error
	if req.Sets, err = parseSets(j.req.Sets, "sets"); err != nil {
		return appDone{}, err
	}
	if req.Options, err = appOptions(j.req.Options, "options"); err != nil {
		return appDone{}, err
	}
	c, err := app.Compare(j.ctx, req, obs)
	if err != nil {
		return appDone{}, err
	}
	return appDone{reports.Doc(c), c.Warnings, c.Interrupted, func(l i18n.Lang) (*reports.Figure, error) { return reports.CompareFigureLang(l, c) }}, nil
}

// value is a value job: simctl value with --side and --params.
func (s *server) value(j *serveJob, obs *app.Observer) (appDone, error) {
	req := &app.ValueRequest{Source: j.appSource(), Side: j.req.Side, Params: strings.Split(j.req.Params, ","),
		Seed: j.req.Seed, N: j.req.N, Workers: s.cfg.Workers, Command: s.command(&j.req)}
	var err error
	if req.Sets, err = parseSets(j.req.Sets, "sets"); err != nil {
		return appDone{}, err
	}
	v, err := app.Value(j.ctx, req, obs)
	if err != nil {
		return appDone{}, err
	}
	return appDone{reports.Doc(v), v.Warnings, v.Interrupted, func(l i18n.Lang) (*reports.Figure, error) { return reports.TornadoFigureLang(l, v) }}, nil
}

// matrix is a payoff-matrix job.
func (s *server) matrix(j *serveJob, obs *app.Observer) (appDone, error) {
	req := &app.MatrixRequest{Source: j.appSource(), Side: j.req.Side, Seed: j.req.Seed, N: j.req.N, Workers: s.cfg.Workers,
		Command: s.command(&j.req)}
	var err error
	if req.Sets, err = parseSets(j.req.Sets, "sets"); err != nil {
		return appDone{}, err
	}
	if req.Rows, err = appOptions(j.req.Rows, "rows"); err != nil {
		return appDone{}, err
	}
	if req.Cols, err = appOptions(j.req.Cols, "cols"); err != nil {
		return appDone{}, err
	}
	m, err := app.Matrix(j.ctx, req, obs)
	if err != nil {
		return appDone{}, err
	}
	return appDone{reports.Doc(m), nil, m.Interrupted, func(l i18n.Lang) (*reports.Figure, error) { return reports.MatrixFigureLang(l, m) }}, nil
}

// tournament is a tournament job: the CLI's defaults for --first,
// --batch, --alpha and --delta, the budget -n.
func (s *server) tournament(j *serveJob, obs *app.Observer) (appDone, error) {
	req := &app.TournamentRequest{Source: j.appSource(), Side: j.req.Side, Seed: j.req.Seed, Workers: s.cfg.Workers,
		Params:  experiment.SelectParams{Alpha: 0.05, Delta: 0.01, First: 2000, Batch: 2000, Budget: j.req.N},
		Command: s.command(&j.req)}
	var err error
	if req.Sets, err = parseSets(j.req.Sets, "sets"); err != nil {
		return appDone{}, err
	}
	if req.Options, err = appOptions(j.req.Options, "options"); err != nil {
		return appDone{}, err
	}
	t, err := app.Tournament(j.ctx, req, obs)
	if err != nil {
		return appDone{}, err
	}
	return appDone{reports.Doc(t), nil, t.Interrupted, noFigure}, nil
}

// find is a find job: the first 20 matching encounters listed.
func (s *server) find(j *serveJob, obs *app.Observer) (appDone, error) {
	req := &app.FindRequest{Source: j.appSource(), Where: j.req.Where, Limit: 20, Seed: j.req.Seed, N: j.req.N, Workers: s.cfg.Workers,
		Command: s.command(&j.req)}
	var err error
	if req.Sets, err = parseSets(j.req.Sets, "sets"); err != nil {
		return appDone{}, err
	}
	f, err := app.Find(j.ctx, req, obs)
	if err != nil {
		return appDone{}, err
	}
	return appDone{jsonDoc{f}, nil, f.Interrupted, noFigure}, nil
}

// noFigure is a search kind's figure: none, its tables are the page's.
func noFigure(i18n.Lang) (*reports.Figure, error) { return nil, reports.ErrNoData }

// jsonDoc is a document written only as JSON (find's).
type jsonDoc struct{ v any }

func (d jsonDoc) Write(w io.Writer, _ reports.Format) error { return results.WriteJSON(w, d.v) }

// appOptions are a request's named overrides as the application layer
// takes them.
func appOptions(ns []results.NamedSets, field string) ([]app.Option, error) {
	var out []app.Option
	for _, o := range ns {
		sets, err := parseSets(o.Sets, field+" "+o.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, app.Option{Name: o.Name, Sets: sets})
	}
	return out, nil
}

// optimize is an optimize job: the CLI's defaults (a guarantee at 95%
// within 1pp), the selection's cap per candidate n; the incumbent and
// the narrowing intervals reach the page after every stage.
func (s *server) optimize(j *serveJob, obs *app.Observer) (appDone, error) {
	req := &app.OptimizeRequest{Source: j.appSource(), Side: j.req.Side, Where: j.req.Where, Alpha: app.OptimizeAlpha, Delta: app.OptimizeDelta,
		Budget: app.OptimizeBudget, First: app.OptimizeFirst, Confirm: app.OptimizeConfirm, Cap: j.req.N, Seed: j.req.Seed, Workers: s.cfg.Workers, Command: s.command(&j.req)}
	var err error
	if req.Sets, err = parseSets(j.req.Sets, "sets"); err != nil {
		return appDone{}, err
	}
	if req.Axes, err = parseVaries(j.req.Vary); err != nil {
		return appDone{}, err
	}
	res, err := app.Optimize(j.ctx, req, obs)
	if err != nil {
		return appDone{}, err
	}
	return appDone{reports.Doc(res.Optimize), nil, res.Interrupted, noFigure}, nil
}

// scaleCount turns the command's count of encounter indices played (of
// total) into encounters (of all): a comparison plays each index under
// every option, a matrix under every pairing.
func scaleCount(done, total, all int64) int64 {
	if total <= 0 {
		return 0
	}
	if all%total == 0 {
		return done * (all / total)
	}
	return int64(float64(done) / float64(total) * float64(all))
}

// slimDoc is a partial document as the page's interim tables need it:
// the same JSON shape as the final document, without what only the final
// one needs (each result's full tally, the scenario text, the joint
// sums), so an interim event stays small.
func slimDoc(doc any) any {
	slim := func(r *results.Result) *results.Result {
		if r == nil {
			return nil
		}
		return &results.Result{Encounters: r.Encounters, Sides: r.Sides, Draws: r.Draws, DrawRate: r.DrawRate}
	}
	switch d := doc.(type) {
	case *results.Sweep:
		out := *d
		out.Context = nil
		out.Points = make([]results.SweepPoint, len(d.Points))
		for i, p := range d.Points {
			p.Result = slim(p.Result)
			out.Points[i] = p
		}
		return &out
	case *results.Compare:
		out := *d
		out.Context = nil
		out.Options = make([]results.Option, len(d.Options))
		for i, o := range d.Options {
			o.Result, o.EconomyDelta = slim(o.Result), nil
			out.Options[i] = o
		}
		return &out
	case *results.Matrix:
		out := *d
		out.Joint = stats.Joint{}
		return &out
	case *results.Value:
		out := *d
		out.Joint = stats.Joint{}
		return &out
	case *results.Optimize:
		out := *d
		out.Context = nil
		return &out
	}
	return nil
}

// emitInterim sends a partial document and returns its size; it
// supersedes the previous one, whose data is dropped from the replay log
// (a reconnecting page needs only the latest, and a long sweep's would
// add up).
func (j *serveJob) emitInterim(doc any) (size int) {
	data, err := json.Marshal(map[string]any{"result": doc})
	if err != nil {
		return 0
	}
	j.mu.Lock()
	if j.lastInterim > 0 {
		j.events[j.lastInterim-1] = sseEvent{}
	}
	j.events = append(j.events, sseEvent{"interim", data})
	j.lastInterim = len(j.events)
	close(j.changed)
	j.changed = make(chan struct{})
	j.mu.Unlock()
	return len(data)
}

// addWarnings adds what a command said on stderr to the job's warnings,
// one per line, leaving out those prepare already found (compile's
// "warning: ..." lines repeat them).
//
// What app says reaches the job as messages (lockedBuffer.WriteMsg); these
// are any other lines, kept as written.
func (j *serveJob) addWarnings(text string) {
	for _, l := range strings.Split(text, "\n") {
		if l != "" {
			j.addWarning(verbatim(l))
		}
	}
}

// addWarning adds one warning unless the job has it already (in English:
// compile's "warning: ..." lines repeat prepare's).
func (j *serveJob) addWarning(w msg.Localizer) {
	j.mu.Lock()
	defer j.mu.Unlock()
	en := w.Localize(nil)
	for _, have := range j.warns {
		if h := have.Localize(nil); h == en || h == strings.TrimPrefix(en, "warning: ") {
			return
		}
	}
	j.warns = append(j.warns, w)
}

// verbatim is a text that is not simctl's message (the same in every
// language).
type verbatim string

func (v verbatim) Localize(msg.Translator) string { return string(v) }

// lockedBuffer is a command's stderr: its workers' goroutines and the
// compile step may write at once. What app says through app.Say arrives
// as messages, so each reader gets it in their own language.
type lockedBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	msgs []msg.Text
}

// WriteMsg keeps one message (app.MsgWriter).
func (b *lockedBuffer) WriteMsg(m msg.Text) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.msgs = append(b.msgs, m)
}

// messages are the messages written, in order.
func (b *lockedBuffer) messages() []msg.Text {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]msg.Text(nil), b.msgs...)
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// text is what the command said, one trimmed line per line.
func (b *lockedBuffer) text() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, l := range strings.Split(b.buf.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// --- the job endpoints -----------------------------------------------------

// handleJobs is POST /api/jobs: accept (202) or refuse (400, 422, 429).
func (s *server) handleJobs(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		jsonError(w, r, http.StatusMethodNotAllowed, "%s /api/jobs: POST a job; GET /api/jobs/ID reads one", r.Method)
		return
	}
	var req jobRequest
	if !readJSON(w, r, &req) {
		return
	}
	j, status, body := s.prepare(&req, langOf(r))
	if j == nil {
		writeJSON(w, status, body)
		return
	}
	// ?dry=1 only checks: the page asks again, in another language, why a
	// request was refused (nothing is queued).
	if r.URL.Query().Get("dry") != "" {
		writeJSON(w, http.StatusOK, map[string]any{"ok": true})
		return
	}
	// The warnings of preparing the job, read before it can start: once
	// enqueued its goroutine may add more under j.mu.
	warns := slices.Clone(j.warns)
	if !s.enqueue(j) {
		w.Header().Set("Retry-After", "5")
		jsonError(w, r, http.StatusTooManyRequests, "the server is busy: %d job(s) running and %d waiting (simctl serve --max-jobs, --queue); retry in a few seconds", s.cfg.MaxJobs, s.cfg.Queue)
		return
	}
	pos := 0
	s.mu.Lock()
	for i, x := range s.waiting {
		if x == j {
			pos = i + 1
		}
	}
	s.mu.Unlock()
	w.Header().Set("Location", "/api/jobs/"+j.id)
	writeJSON(w, http.StatusAccepted, map[string]any{"id": j.id, "queue_position": pos,
		"events": "/api/jobs/" + j.id + "/events", "warnings": says(j.lang, warns)})
}

// handleJob serves /api/jobs/ID[/events|/cancel|/trace|/report.zip|
// /report.tar.gz|/figures/NAME.svg].
func (s *server) handleJob(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/api/jobs/")
	id, sub, _ := strings.Cut(rest, "/")
	s.mu.Lock()
	j := s.jobs[id]
	s.mu.Unlock()
	if j == nil {
		jsonError(w, r, http.StatusNotFound, "no job %q (finished jobs expire after %v)", id, s.cfg.JobTTL)
		return
	}
	method := r.Method
	switch {
	case sub == "" && method == http.MethodDelete, sub == "cancel" && method == http.MethodPost:
		s.cancelJob(j)
		writeJSON(w, http.StatusOK, j.statusIn(langOf(r)))
	case sub == "" && (method == http.MethodGet || method == http.MethodHead):
		j.writeStatus(w, langOf(r))
	case method != http.MethodGet && method != http.MethodHead:
		jsonError(w, r, http.StatusMethodNotAllowed, "%s %s: use GET (DELETE /api/jobs/ID or POST /api/jobs/ID/cancel cancels)", method, r.URL.Path)
	case sub == "events":
		s.streamEvents(w, r, j)
	case sub == "trace":
		s.handleTrace(w, r, j)
	case sub == "report.zip" || sub == "report.tar.gz":
		s.handleReport(w, r, j, strings.TrimPrefix(sub, "report."))
	case strings.HasPrefix(sub, "figures/") && strings.HasSuffix(sub, ".svg"):
		s.handleFigure(w, r, j, strings.TrimSuffix(strings.TrimPrefix(sub, "figures/"), ".svg"))
	default:
		jsonError(w, r, http.StatusNotFound, "no %s under a job: events, cancel, trace, report.zip, report.tar.gz, figures/NAME.svg", sub)
	}
}

// streamEvents is the job's Server-Sent Events: every event from the
// first (or after Last-Event-ID), then each new one, until the job ends.
func (s *server) streamEvents(w http.ResponseWriter, r *http.Request, j *serveJob) {
	fl, ok := w.(http.Flusher)
	if !ok {
		jsonError(w, r, http.StatusInternalServerError, "streaming is not supported by this connection")
		return
	}
	next := lastEventNext(r.Header.Get("Last-Event-ID"))
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		evs, ch, end := j.eventsFrom(next)
		for _, e := range evs {
			if e.name != "" { // "": an interim document superseded
				fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", next, e.name, e.data)
			}
			next++
		}
		if len(evs) > 0 {
			fl.Flush()
		}
		if end {
			if !j.hasEventsFrom(next) {
				return
			}
			continue
		}
		select {
		case <-ch:
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			fl.Flush()
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// lastEventNext is the first event a stream resuming after Last-Event-ID v
// sends: 0 without one or with anything but a whole number, and never past
// maxEventIndex (so next+1 cannot overflow, whatever the client sends).
func lastEventNext(v string) int {
	k, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || k < 0 {
		return 0
	}
	return int(min(k, maxEventIndex)) + 1
}

// maxEventIndex bounds a Last-Event-ID: far more events than a job emits,
// far from int overflow.
const maxEventIndex = 1 << 40

// eventsFrom is a copy of the events from index next on (emitInterim
// blanks a superseded event in place), the channel closed at the next
// event, and whether the job has ended. The lock is released by defer: no
// panic may leave it held (every request would then wait on it).
func (j *serveJob) eventsFrom(next int) ([]sseEvent, chan struct{}, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	next = min(max(next, 0), len(j.events))
	return slices.Clone(j.events[next:]), j.changed, j.terminal()
}

// hasEventsFrom says whether an event with index next or later exists.
func (j *serveJob) hasEventsFrom(next int) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return next < len(j.events)
}

// keep changes the job's cached results under its lock, released by defer.
func (j *serveJob) keep(f func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f()
}

// retainedLocked estimates the bytes a finished job keeps: its document
// (twice for a run, whose parsed result is about as large), its events,
// figures, report archives and traces. Held under j.mu.
func (j *serveJob) retainedLocked() int64 {
	n := int64(len(j.doc)) + int64(len(j.req.Text))
	if j.result != nil {
		n += int64(len(j.doc))
	}
	for _, e := range j.events {
		n += int64(len(e.data)) + 16
	}
	for _, f := range j.figures {
		n += int64(len(f))
	}
	for _, a := range j.archives {
		n += int64(len(a))
	}
	for _, ts := range j.traces {
		for _, t := range ts {
			n += int64(len(t.Text) + len(t.Title))
		}
	}
	return n
}

// docBytesPer is an upper estimate of the JSON a point, option or cell's
// result takes with this many combatants (measured: about 12.8 kB for a
// duel, 21.3 kB for 4 against 4).
func docBytesPer(combatants int) int64 {
	return 12<<10 + 2<<10*int64(combatants)
}
