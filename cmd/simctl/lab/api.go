package lab

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/reports/safeio"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// --- scenarios -------------------------------------------------------------

// scenarioEntry is one scenario the page offers: a built-in
// ("builtin:d20/duel") or a file of --dir ("dir:my.yaml").
type scenarioEntry struct {
	ID          string `json:"id"`
	File        string `json:"file"` // the name messages use
	Name        string `json:"name,omitempty"`
	Ruleset     string `json:"ruleset,omitempty"`
	Description string `json:"description,omitempty"`
	Problem     string `json:"problem,omitempty"` // first error of an invalid file
}

// handleScenarios is GET /api/scenarios: the built-ins, the --dir files
// and the init templates.
func (s *server) handleScenarios(w http.ResponseWriter, r *http.Request) {
	var out []scenarioEntry
	l := langOf(r)
	for _, n := range scenarios.Names() {
		data, display, _ := scenarios.Read(n)
		out = append(out, describeScenario("builtin:"+n, display, data, l))
	}
	files, err := s.dirFiles()
	if err != nil {
		jsonError(w, r, http.StatusInternalServerError, "%s: %v", "--dir", err)
		return
	}
	for _, f := range files {
		data, err := s.readDirFile(r.Context(), f)
		if err != nil {
			out = append(out, scenarioEntry{ID: "dir:" + f, File: f, Problem: l.Err(err)})
			continue
		}
		out = append(out, describeScenario("dir:"+f, f, data, l))
	}
	writeJSON(w, http.StatusOK, map[string]any{"scenarios": out, "templates": rulesets.Names(), "dir": s.cfg.Dir != "", "save": s.cfg.AllowSave && s.root != nil})
}

func describeScenario(id, display string, data []byte, l i18n.Lang) scenarioEntry {
	e := scenarioEntry{ID: id, File: display}
	src := &app.Source{Name: display, Display: display, Data: data}
	sc, _, _, err := src.CompileWarn(nil)
	if err != nil {
		e.Problem = firstLine(l, err)
		return e
	}
	e.Name, e.Ruleset, e.Description = sc.Name, sc.Ruleset, sc.Description
	return e
}

// dirFiles lists the .yaml and .yml regular files directly in --dir
// (symbolic links, hard-linked files and subfolders are not offered).
func (s *server) dirFiles() ([]string, error) {
	if s.root == nil {
		return nil, nil
	}
	ents, err := fs.ReadDir(s.root.FS(), ".")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.Type().IsRegular() || !isYAMLName(e.Name()) {
			continue
		}
		// A file with hard links is not offered (readDirFile refuses it).
		if fi, err := e.Info(); err != nil || safeio.Links(fi) > 1 {
			continue
		}
		out = append(out, e.Name())
	}
	return out, nil
}

func isYAMLName(n string) bool {
	l := strings.ToLower(n)
	return strings.HasSuffix(l, ".yaml") || strings.HasSuffix(l, ".yml")
}

// plainYAMLName is a name of a .yaml file directly in --dir: no separator,
// "..", absolute path or NUL (readDirFile and saving ask it first).
//
// It is also what a job may call its scenario (cliFileName): one rule for
// names everywhere, so a file saved here is one a job can name (a name
// with a newline, a right-to-left override, markup, or ".yaml" alone was
// saved, then refused as a job's file).
func plainYAMLName(name string) bool {
	return name != "" && name == filepath.Base(name) && !strings.ContainsAny(name, `/\:`+"\x00") && name != "." && name != ".." &&
		!filepath.IsAbs(name) && isYAMLName(name) && fs.ValidPath(name) && cliFileName.MatchString(name)
}

// errNoFile is any name that is not a plain .yaml file of --dir.
var errNoFile = msg.Errorf("not a scenario file of the served folder")

// readDirFile reads one file of --dir by its plain name. Anything else, a
// path with a separator, "..", an absolute path, a symbolic link (even one
// pointing inside), a non-YAML name, is refused before the file system is
// asked; os.Root refuses escapes as a second wall.
func (s *server) readDirFile(ctx context.Context, name string) ([]byte, error) {
	if s.root == nil {
		return nil, msg.Errorf("%q: the server was started without --dir, so it serves built-ins only", name)
	}
	if !plainYAMLName(name) {
		return nil, msg.Errorf("%q: %w (give the plain name of a .yaml file in it, as GET /api/scenarios lists)", name, errNoFile)
	}
	st, err := s.root.Lstat(name)
	if err != nil {
		return nil, msg.Errorf("%q: %w", name, errNoFile)
	}
	if !st.Mode().IsRegular() {
		return nil, msg.Errorf("%q: %w (symbolic links and special files are not served)", name, errNoFile)
	}
	if st.Size() > safeio.MaxScenarioBytes {
		return nil, msg.Errorf("%q: %d bytes, more than the %d a scenario may have", name, st.Size(), safeio.MaxScenarioBytes)
	}
	f, err := s.root.Open(name)
	if err != nil {
		return nil, msg.Errorf("%q: %w", name, errNoFile)
	}
	defer f.Close()
	// os.Root cannot see a hard link: a second name inside the folder for
	// a file outside it. A regular file with more than one link is not
	// served (checked on the file opened, not the name looked up).
	if fst, err := f.Stat(); err != nil || !fst.Mode().IsRegular() {
		return nil, msg.Errorf("%q: %w (symbolic links and special files are not served)", name, errNoFile)
	} else if n := safeio.Links(fst); n > 1 {
		return nil, msg.Errorf("%q: %w (it has %d hard links, and a hard link may bring in a file from outside the folder: copy it instead)", name, errNoFile, n)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, safeio.MaxScenarioBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > safeio.MaxScenarioBytes {
		return nil, msg.Errorf("%q: more than the %d bytes a scenario may have", name, safeio.MaxScenarioBytes)
	}
	return data, nil
}

// handleScenario is GET /api/scenario?id=builtin:d20/duel or id=dir:NAME.
func (s *server) handleScenario(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	switch {
	case strings.HasPrefix(id, "builtin:"):
		name := strings.TrimPrefix(id, "builtin:")
		data, display, ok := scenarios.Read(name)
		if !ok || !slices.Contains(scenarios.Names(), name) {
			jsonError(w, r, http.StatusNotFound, "no built-in scenario %q%s; GET /api/scenarios lists them", name, scenario.Suggest(name, scenarios.Names()))
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"id": id, "file": display, "text": string(data)})
	case strings.HasPrefix(id, "dir:"):
		name := strings.TrimPrefix(id, "dir:")
		data, err := s.readDirFile(r.Context(), name)
		if err != nil {
			status := http.StatusNotFound
			if errors.Is(err, errNoFile) {
				status = http.StatusBadRequest
			}
			jsonError(w, r, status, "scenario %v", err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"id": id, "file": name, "text": string(data)})
	default:
		jsonError(w, r, http.StatusBadRequest, "id %q: expected builtin:RULESET/NAME or dir:FILE.yaml, as GET /api/scenarios lists", id)
	}
}

// handleTemplate is GET /api/template?ruleset=d20: simctl init's starter.
func (s *server) handleTemplate(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("ruleset")
	rs, ok := rulesets.Lookup(name)
	if !ok {
		jsonError(w, r, http.StatusNotFound, "%v", app.UnknownRuleset(name))
		return
	}
	text, err := app.Starter(rs)
	if err != nil {
		jsonError(w, r, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"file": name + ".yaml", "text": text})
}

// --- check -----------------------------------------------------------------

// problem is one scenario error as the editor shows it.
type problem struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// firstLine is an error's first line, in l.
func firstLine(l i18n.Lang, err error) string {
	return strings.SplitN(l.Err(err), "\n", 2)[0]
}

// checkResponse turns the validator's errors into problems at their
// lines, their messages in l (the line, column and field stay as they are).
func checkResponse(err error, warns scenario.Errors, l i18n.Lang) map[string]any {
	toProblems := func(es scenario.Errors) []problem {
		out := []problem{}
		for _, e := range es {
			m := e.Msg
			if e.Text.Format != "" {
				m = l.Msg(e.Text)
			}
			out = append(out, problem{Line: e.Line, Col: e.Col, Field: e.Path, Message: m})
		}
		return out
	}
	resp := map[string]any{"ok": err == nil, "errors": []problem{}, "warnings": toProblems(warns)}
	if err != nil {
		var es scenario.Errors
		if errors.As(err, &es) {
			resp["errors"] = toProblems(es)
		} else {
			resp["errors"] = []problem{{Message: l.Err(err)}}
		}
		resp["error"] = l.Msg(msg.New("the scenario is invalid: %s", firstLine(l, err)))
	}
	return resp
}

type checkRequest struct {
	File string   `json:"file,omitempty"`
	Text string   `json:"text"`
	Sets []string `json:"sets,omitempty"`
}

// readCheckRequest reads a {file, text, sets} body, answering a bad file
// name or an oversized text itself (ok false).
func readCheckRequest(w http.ResponseWriter, r *http.Request) (req checkRequest, ok bool) {
	if !readJSON(w, r, &req) {
		return req, false
	}
	if req.File == "" {
		req.File = "scenario.yaml"
	}
	if !cliFileName.MatchString(req.File) {
		jsonError(w, r, http.StatusBadRequest, "file %q: a name such as my.yaml or builtin:d20/duel.yaml", req.File)
		return req, false
	}
	if int64(len(req.Text)) > safeio.MaxScenarioBytes {
		jsonError(w, r, http.StatusRequestEntityTooLarge, "text: %d bytes, more than the %d a scenario may have", len(req.Text), safeio.MaxScenarioBytes)
		return req, false
	}
	return req, true
}

// handleCheck is POST /api/check: the CLI's validator on the editor's text.
func (s *server) handleCheck(w http.ResponseWriter, r *http.Request) {
	req, ok := readCheckRequest(w, r)
	if !ok {
		return
	}
	sets, err := app.FormSets(req.Sets, "sets")
	if err != nil {
		jsonError(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	src := &app.Source{Name: req.File, Display: req.File, Data: []byte(req.Text)}
	sc, g, warns, err := src.CompileWarn(sets)
	resp := checkResponse(err, warns, langOf(r))
	if err == nil {
		resp["summary"] = map[string]any{"name": sc.Name, "ruleset": sc.Ruleset, "combatants": len(g.Roster()),
			"sides": []string{sc.Sides[0].Name, sc.Sides[1].Name}}
	}
	writeJSON(w, http.StatusOK, resp)
}

// --- documentation ---------------------------------------------------------

// handleRulesets is GET /api/rulesets[?lang=L]: every ruleset's own
// documentation (options with defaults, fields, policies, actions,
// counters), its texts in the request's language.
func (s *server) handleRulesets(w http.ResponseWriter, r *http.Request) {
	var docs []sim.RulesDoc
	for _, n := range rulesets.Names() {
		rs, _ := rulesets.Lookup(n)
		docs = append(docs, app.RulesDoc(rs, langOf(r)))
	}
	writeJSON(w, http.StatusOK, map[string]any{"rulesets": docs, "base_counters": sim.BaseCounters})
}

// handleRules is GET /api/rules?ruleset=d20: simctl rules d20's text.
func (s *server) handleRules(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("ruleset")
	rs, ok := rulesets.Lookup(name)
	if !ok {
		jsonError(w, r, http.StatusNotFound, "%v", app.UnknownRuleset(name))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"text": app.Rules(rs, langOf(r))})
}

// handlePolicies is GET /api/policies[?ruleset=d20][&show=NAME]: simctl
// policies' text, or simctl policies show's.
func (s *server) handlePolicies(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rs, show := q.Get("ruleset"), q.Get("show")
	if rs != "" {
		if _, ok := rulesets.Lookup(rs); !ok {
			jsonError(w, r, http.StatusNotFound, "%v", app.UnknownRuleset(rs))
			return
		}
	}
	var text string
	var err error
	switch {
	case show != "" && rs != "":
		text, err = app.Tactic(rs+"/"+show, langOf(r))
	case show != "":
		text, err = app.Tactic(show, langOf(r))
	default:
		text, err = app.Policies(rs, langOf(r))
	}
	if err != nil {
		// In simctl policies' words.
		jsonError(w, r, http.StatusNotFound, "simctl policies: %v\nsee simctl help policies", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"text": text})
}

// handleSchema is GET /api/schema: simctl schema's JSON Schema.
func (s *server) handleSchema(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, app.Schema())
}

// --- permalinks --------------------------------------------------------------

// A permalink is the job request as JSON, deflated and base64url-encoded:
// the page puts it in the URL fragment (#p=...), which never reaches a
// server log, and a colleague's page decodes it back to the same request.

func encodePermalink(req *jobRequest) (string, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	zw, _ := flate.NewWriter(&b, flate.BestCompression)
	zw.Write(data)
	zw.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes()), nil
}

func decodePermalink(p string, limit int64) (*jobRequest, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(p, "="))
	if err != nil {
		return nil, msg.Errorf("not base64url: %v", err)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), limit+1))
	if err != nil {
		return nil, msg.Errorf("not deflate data: %v", err)
	}
	if int64(len(data)) > limit {
		return nil, msg.Errorf("it decodes to more than %d bytes", limit)
	}
	var req jobRequest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, msg.Errorf("not a simctl request: %v", err)
	}
	return &req, nil
}

// handlePermalink: POST a job request to get its permalink; GET ?p=... to
// read one back.
func (s *server) handlePermalink(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		var req jobRequest
		if !readJSON(w, r, &req) {
			return
		}
		p, err := encodePermalink(&req)
		if err != nil {
			jsonError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"p": p, "fragment": "#p=" + p})
	case http.MethodGet, http.MethodHead:
		req, err := decodePermalink(r.URL.Query().Get("p"), s.cfg.MaxBody)
		if err != nil {
			jsonError(w, r, http.StatusBadRequest, "permalink: %v", err)
			return
		}
		writeJSON(w, http.StatusOK, req)
	default:
		jsonError(w, r, http.StatusMethodNotAllowed, "%s /api/permalink: POST a request to encode, GET ?p= to decode", r.Method)
	}
}

// --- results: figures, traces, the report -----------------------------------

// finished returns the job's document, or answers 409 while it has none.
func finished(w http.ResponseWriter, r *http.Request, j *serveJob) ([]byte, bool) {
	j.mu.Lock()
	doc, state := j.doc, j.state
	j.mu.Unlock()
	if doc == nil {
		jsonError(w, r, http.StatusConflict, "job %s is %s: it has no result (only a finished job has)", j.id, state)
		return nil, false
	}
	return doc, true
}

// handleFigure is GET /api/jobs/ID/figures/NAME.svg: the reports' figures.
func (s *server) handleFigure(w http.ResponseWriter, r *http.Request, j *serveJob, name string) {
	if _, ok := finished(w, r, j); !ok {
		return
	}
	// The figure in the page's language (?lang=), kept per language.
	l := langOf(r)
	key := name
	if l != i18n.En {
		key = name + "/" + string(l)
	}
	// The figure is drawn without the job's lock held: drawing takes time
	// and a panic in it must not leave the lock taken.
	j.mu.Lock()
	svg, ok := j.figures[key]
	res, names, figureIn := j.result, j.figureNames(), j.figureIn
	j.mu.Unlock()
	if !ok {
		if !slices.Contains(names, name) || (res == nil && figureIn == nil) {
			jsonError(w, r, http.StatusNotFound, "no figure %q for this job; it has: %s", name, strings.Join(names, ", "))
			return
		}
		if err := figureFont(l); err != nil {
			// No font for the language's letters: the figure in English.
			l, key = i18n.En, name
		}
		var sides []int
		for _, e := range j.game.Roster() {
			sides = append(sides, e.Side)
		}
		mk := map[string]func() (*reports.Figure, error){
			"rounds":      func() (*reports.Figure, error) { return reports.RoundsFigure(l, res) },
			"economy":     func() (*reports.Figure, error) { return reports.EconomyFigure(l, res) },
			"first-actor": func() (*reports.Figure, error) { return reports.FirstActorFigure(l, res, sides) },
			"combatants":  func() (*reports.Figure, error) { return reports.CombatantsFigure(l, res) },
			"damage":      func() (*reports.Figure, error) { return reports.DamageFigure(l, res) },
			"hp-left":     func() (*reports.Figure, error) { return reports.HPLeftFigure(l, res) },
			"figure":      func() (*reports.Figure, error) { return figureIn(l) },
		}[name]
		f, err := mk()
		if err != nil {
			jsonError(w, r, http.StatusNotFound, "figure %s: %v", name, err)
			return
		}
		var b bytes.Buffer
		if err := f.SVG(&b); err != nil {
			jsonError(w, r, http.StatusInternalServerError, "figure %s: %v", name, err)
			return
		}
		svg = b.Bytes()
		j.keep(func() {
			if j.figures == nil {
				j.figures = map[string][]byte{}
			}
			j.figures[key] = svg
		})
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(svg)
}

// figureFonts loads, once per language, the font its figures need
// (reports.UseFigureFont: Hangul for Korean); the error says it has none.
var figureFonts sync.Map // i18n.Lang -> func() error

func figureFont(l i18n.Lang) error {
	f, _ := figureFonts.LoadOrStore(l, sync.OnceValue(func() error { return reports.UseFigureFont(l, "") }))
	return f.(func() error)()
}

// handleTrace is GET /api/jobs/ID/trace: encounter I of seed S (the job's
// by default), or pick=shortest|median|longest (the report's
// representative fights among the first traceSample encounters), of the
// run's scenario, of a sweep's point=K or of a comparison's option=NAME.
func (s *server) handleTrace(w http.ResponseWriter, r *http.Request, j *serveJob) {
	q := r.URL.Query()
	tg, status, err := j.traceTarget(q)
	if err != nil {
		jsonError(w, r, status, "%v", err)
		return
	}
	if pick := q.Get("pick"); pick != "" {
		if pick != "shortest" && pick != "median" && pick != "longest" {
			jsonError(w, r, http.StatusBadRequest, "pick %q: valid: shortest, median, longest", pick)
			return
		}
		if _, ok := finished(w, r, j); !ok {
			return
		}
		// Narrated in the reader's language: cached per language.
		l := langOf(r)
		ck := string(l.Or()) + "|" + tg.key
		j.mu.Lock()
		traces := j.traces[ck]
		j.mu.Unlock()
		if traces == nil {
			res := &results.Result{File: j.src.Display, ScenarioText: j.req.Text, Sets: tg.sets, Seed: j.req.Seed, Encounters: tg.n}
			if tg.key == "" && j.result != nil {
				res = j.result // a run's (a find job has none: its encounters are the run's)
			}
			var err error
			if traces, err = app.FightTracesIn(r.Context(), res, l, nil); err != nil {
				jsonError(w, r, http.StatusInternalServerError, "trace: %v", err)
				return
			}
			j.mu.Lock()
			if j.traces == nil {
				j.traces = map[string][]results.FightTrace{}
			}
			j.traces[ck] = traces
			j.mu.Unlock()
		}
		for _, t := range traces {
			if t.Name == pick {
				writeJSON(w, http.StatusOK, traceReply{Title: l.Msg(tg.label) + t.Title, Text: t.Text, Timeline: t.Timeline})
				return
			}
		}
		jsonError(w, r, http.StatusConflict, "no encounter to pick from: the job played none")
		return
	}
	i, err := strconv.ParseInt(q.Get("encounter"), 10, 64)
	if err != nil || i < 0 {
		jsonError(w, r, http.StatusBadRequest, "encounter %q: give the encounter index, a whole number from 0, or pick=shortest|median|longest", q.Get("encounter"))
		return
	}
	// Any seed's encounter may be traced; the job's seed by default.
	seed := j.req.Seed
	if v := q.Get("seed"); v != "" {
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			jsonError(w, r, http.StatusBadRequest, "seed %q: a whole number from 0 to %d", v, uint64(math.MaxUint64))
			return
		}
	}
	sets, err := app.FormSets(tg.sets, "sets")
	if err != nil {
		jsonError(w, r, http.StatusInternalServerError, "trace: %v", err)
		return
	}
	// The encounter as simctl trace finds it: the same request, the
	// same Trace.
	tr, err := app.Trace(r.Context(), &app.TraceRequest{Source: j.src, Sets: sets, Seed: seed, Encounter: i}, nil)
	if err != nil {
		jsonError(w, r, http.StatusInternalServerError, "trace: %v", err)
		return
	}
	var b strings.Builder
	cmd := app.TraceCommand(strings.TrimPrefix(j.req.File, "builtin:"), seed, i, tg.sets)
	b.WriteString("# " + cmd + "\n")
	// At most MaxTraceLines (a long fight narrates gigabytes), and not a
	// line more once the client has gone.
	tl := new(sim.Timeline)
	lim := reports.TraceLimit{Lines: reports.MaxTraceLines, Command: cmd, Lang: langOf(r), Timeline: tl}
	if err := reports.TraceContext(r.Context(), &b, tr.Scenario, tr.Game, seed, tr.Encounter, lim); err != nil {
		if r.Context().Err() != nil {
			return // nobody is listening
		}
		jsonError(w, r, http.StatusInternalServerError, "trace: %v", err)
		return
	}
	writeJSON(w, http.StatusOK, traceReply{Title: langOf(r).Msg(msg.New("%sencounter %d of seed %d", tg.label, i, seed)), Text: b.String(), Timeline: tl})
}

// traceReply is a traced encounter: its title and narration in the
// reader's language, and its timeline from the referee's events, which
// the page words itself (in any language).
type traceReply struct {
	Title    string        `json:"title"`
	Text     string        `json:"text"`
	Timeline *sim.Timeline `json:"timeline,omitempty"`
}

// traceIndex is what a sweep's or comparison's traces need of its
// document: each point's values, or option's name, with its overrides
// and encounters. It is read from the document once per job (a sweep's
// may be 30 MB: parsing it took 0.5 s of CPU on every trace request).
type traceIndex struct {
	Points []struct {
		Values []string
		Result struct {
			Sets       []string
			Encounters int64
		}
	}
	Options []struct {
		Name   string
		Result struct {
			Sets       []string
			Encounters int64
		}
	}
}

// traceIndexParses counts the documents traceIndex parsed (tests).
var traceIndexParses atomic.Int64

func (j *serveJob) traceIndex() (*traceIndex, int, error) {
	j.mu.Lock()
	doc, d := j.doc, j.traceIdx
	j.mu.Unlock()
	if d != nil {
		return d, 0, nil
	}
	if doc == nil {
		return nil, http.StatusConflict, msg.Errorf("job %s has no result yet: its points and options are traced once it is done", j.id)
	}
	d = &traceIndex{}
	traceIndexParses.Add(1)
	if err := json.Unmarshal(doc, d); err != nil {
		return nil, http.StatusInternalServerError, err
	}
	j.mu.Lock()
	j.traceIdx = d
	j.mu.Unlock()
	return d, 0, nil
}

// size is about the bytes d holds (retainedLocked).
func (d *traceIndex) size() int64 {
	var n int64
	for _, p := range d.Points {
		n += 64
		for _, v := range p.Values {
			n += int64(len(v)) + 16
		}
		for _, x := range p.Result.Sets {
			n += int64(len(x)) + 16
		}
	}
	for _, o := range d.Options {
		n += 64 + int64(len(o.Name))
		for _, x := range o.Result.Sets {
			n += int64(len(x)) + 16
		}
	}
	return n
}

// traceTarget is what a trace replays: the run's scenario and overrides,
// or a sweep point's or comparison option's (their overrides as the
// document records them, the common ones first).
type traceTarget struct {
	key   string   // "" for a run; "point K" or "option NAME"
	label msg.Text // the title's prefix
	sets  []string // every override
	n     int64    // encounters played (the picks are among them)
}

func (j *serveJob) traceTarget(q url.Values) (*traceTarget, int, error) {
	point, option := q.Get("point"), q.Get("option")
	switch j.req.Kind {
	case "run", "find": // find's encounters are the run's
		if point != "" || option != "" {
			return nil, http.StatusBadRequest, msg.Errorf("a run has no points or options: trace with encounter=I or pick=")
		}
		return &traceTarget{sets: j.req.Sets, n: j.req.N}, 0, nil
	case "sweep", "compare":
	default:
		return nil, http.StatusBadRequest, msg.Errorf("traces are of a run, a sweep's point or a comparison's option; a %s's games are its options' pairings: compare or run them to trace", j.req.Kind)
	}
	d, status, err := j.traceIndex()
	if err != nil {
		return nil, status, err
	}
	if j.req.Kind == "sweep" {
		k, err := strconv.Atoi(point)
		if err != nil || k < 0 || k >= len(d.Points) {
			return nil, http.StatusBadRequest, msg.Errorf("point %q: give the sweep point's index, 0 to %d", point, len(d.Points)-1)
		}
		p := d.Points[k]
		return &traceTarget{key: "point " + strconv.Itoa(k), label: msg.New("point %d (%s): ", k, strings.Join(p.Values, ", ")),
			sets: p.Result.Sets, n: p.Result.Encounters}, 0, nil
	}
	var names []string
	for _, o := range d.Options {
		if o.Name == option {
			return &traceTarget{key: "option " + o.Name, label: msg.New("option %s: ", o.Name), sets: o.Result.Sets, n: o.Result.Encounters}, 0, nil
		}
		names = append(names, o.Name)
	}
	return nil, http.StatusBadRequest, msg.Errorf("option %q: the comparison's options are %s", option, strings.Join(names, ", "))
}

// handleReport is GET /api/jobs/ID/report.zip or .tar.gz: exactly the
// folder simctl report writes for the job's document, made in a temporary
// folder and archived.
func (s *server) handleReport(w http.ResponseWriter, r *http.Request, j *serveJob, format string) {
	doc, ok := finished(w, r, j)
	if !ok {
		return
	}
	if !hasReport(j.req.Kind) {
		// A kind without a report section (the kinds table's): refused up
		// front, not a 500 from the report made (and failing) on every
		// request.
		t := noReport(j.req.Kind)
		jsonError(w, r, http.StatusNotFound, t.Format, t.Args...)
		return
	}
	// Made once per job and format: a report replays fights and draws
	// figures, too much to repeat on every click.
	j.mu.Lock()
	// The report in the page's language (?lang=); a request naming none
	// gets the server's locale's, as simctl report would write it.
	lang := i18n.FromEnv(os.Getenv)
	if r.URL.Query().Get("lang") != "" {
		lang = langOf(r)
	}
	key := format + "/" + string(lang)
	data, ok := j.archives[key]
	j.mu.Unlock()
	if !ok {
		var err error
		if data, err = makeReport(r.Context(), doc, format, lang); err != nil {
			jsonError(w, r, http.StatusInternalServerError, "%v", err)
			return
		}
		j.mu.Lock()
		if j.archives == nil {
			j.archives = map[string][]byte{}
		}
		j.archives[key] = data
		j.mu.Unlock()
	}
	ctype := map[string]string{"zip": "application/zip", "tar.gz": "application/gzip"}[format]
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="simctl-report-%s.%s"`, j.id[:8], format))
	w.Write(data)
}

// hasReport says whether simctl report reads a document of kind: a
// run's, or a kind's of the table with a report section.
func hasReport(kind string) bool {
	if kind == "run" {
		return true
	}
	k := app.Lookup(kind)
	return k != nil && k.Section != nil
}

// noReport refuses a report archive to a job of a kind without a report
// section. "this" rather than "a": the kind may start with a vowel.
func noReport(kind string) msg.Text {
	return msg.New("this %s job has no report archive (simctl report reads the documents of %s); download its result JSON", kind, strings.Join(reportKinds(), ", "))
}

// reportKinds are the kinds hasReport accepts, in the table's order.
func reportKinds() []string {
	ks := []string{"run"}
	for _, a := range app.Analyses() {
		if a.Section != nil {
			ks = append(ks, a.Name)
		}
	}
	return ks
}

// makeReport makes the report of the document as simctl report makes
// it (app.Report), writes it in a temporary folder and archives what it
// wrote.
func makeReport(ctx context.Context, doc []byte, format string, lang i18n.Lang) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "simctl-report-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	in := filepath.Join(tmp, "result.json")
	if err := os.WriteFile(in, doc, 0o600); err != nil {
		return nil, err
	}
	dir := filepath.Join(tmp, "report")
	// The report names its input and folder: as if simctl report ran in
	// the temporary folder, "simctl report result.json -o report".
	if err := writeReport(ctx, in, dir, lang); err != nil {
		return nil, msg.Errorf("%s: %v", "simctl report", err)
	}
	var files []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var b bytes.Buffer
	if err := archive(&b, format, dir, "simctl-report", files, tmp+string(filepath.Separator)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeReport writes the report of the document in file in into the
// folder dir, as simctl report IN -o DIR --quiet writes it: in the
// language lang (simctl report --lang), notes left out.
func writeReport(ctx context.Context, in, dir string, lang i18n.Lang) error {
	if err := figureFont(lang); err != nil {
		return err
	}
	doc, err := results.ReadInputContext(ctx, in)
	if err != nil {
		return err
	}
	rb, err := app.Report(ctx, &app.ReportRequest{Inputs: []*results.Input{doc}, Names: []string{in}, Lang: lang,
		Command: results.ShellJoin([]string{"simctl", "report", in, "-o", dir, "--quiet"})}, nil)
	if err != nil {
		return err
	}
	b := &reports.Bundle{Title: rb.Title, Inputs: rb.Inputs, Version: rb.Version, Command: rb.Command, Lang: rb.Lang, Section: rb.Section}
	_, err = b.Write(dir)
	return err
}

// archive writes the files of dir under prefix/ as a zip or a gzipped tar,
// with the text trim cut out of the Markdown and HTML files.
func archive(w io.Writer, format, dir, prefix string, files []string, trim string) error {
	read := func(f string) ([]byte, error) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if strings.HasSuffix(f, ".md") || strings.HasSuffix(f, ".html") {
			data = bytes.ReplaceAll(data, []byte(trim), nil)
		}
		return data, err
	}
	// Each entry is dated when its file was written (the report was made
	// for this download): without a date zip says 1980 and tar 1970.
	when := func(f string) time.Time {
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err == nil {
			return fi.ModTime()
		}
		return time.Now()
	}
	switch format {
	case "zip":
		zw := zip.NewWriter(w)
		for _, f := range files {
			data, err := read(f)
			if err != nil {
				return err
			}
			fw, err := zw.CreateHeader(&zip.FileHeader{Name: prefix + "/" + f, Method: zip.Deflate, Modified: when(f)})
			if err != nil {
				return err
			}
			fw.Write(data)
		}
		return zw.Close()
	case "tar.gz":
		gz := gzip.NewWriter(w)
		tw := tar.NewWriter(gz)
		for _, f := range files {
			data, err := read(f)
			if err != nil {
				return err
			}
			if err := tw.WriteHeader(&tar.Header{Name: prefix + "/" + f, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg, ModTime: when(f)}); err != nil {
				return err
			}
			tw.Write(data)
		}
		if err := tw.Close(); err != nil {
			return err
		}
		return gz.Close()
	}
	return msg.Errorf("unknown archive format %q", format)
}
