package lab

import (
	"bufio"
	"encoding/json"
	"io"
	"maps"
	"mime"
	"net/http"
	"path"
	"slices"
	"strings"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
)

// The job endpoints: POST /api/jobs, and GET (status), DELETE and the
// sub-resources of /api/jobs/ID.

// status is GET /api/jobs/ID, in English.
func (j *serveJob) status() map[string]any { return j.statusIn(i18n.En) }

// statusIn is GET /api/jobs/ID?lang=: the error and warnings in l.
func (j *serveJob) statusIn(l i18n.Lang) map[string]any {
	j.mu.Lock()
	defer j.mu.Unlock()
	// n and seed are the request's: a sweep's document counts every
	// point's encounters, an optimize's every candidate's, and the history
	// names the job by what was asked.
	st := map[string]any{"id": j.id, "kind": j.req.Kind, "state": j.state, "encounters_total": j.total, "n": j.req.N, "seed": j.req.Seed,
		// The request as the page sent it (a permalink's): a kept result
		// reopens with its scenario, name and every field of its form.
		"request": &j.req,
		// What the file name names: a built-in, the served folder's file,
		// or the editor's text, which no file holds (download it).
		"scenario": map[string]string{"file": j.req.File, "origin": j.origin, "download": "/api/jobs/" + j.id + "/scenario.yaml"}}
	if j.errMsg != nil {
		st["error"] = l.Msg(j.errMsg)
	}
	if len(j.warns) > 0 {
		st["warnings"] = says(l, j.warns) // encoded after j.mu is released
	}
	if j.doc != nil {
		st["result"] = json.RawMessage(j.doc)
		st["figures"] = j.figureNames()
		// Whether report.zip and report.tar.gz are offered (the page
		// shows their buttons only then).
		st["report"] = hasReport(j.req.Kind)
		// The page lays these documents out itself; their verdict,
		// guarantee and statuses are the report's words, in the reader's
		// language.
		if k := app.Lookup(j.req.Kind); k != nil && k.Words != nil {
			if words := k.Words(j.doc, l); words != nil {
				st["words"] = words
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
	case sub == "scenario.yaml":
		j.writeScenario(w)
	case sub == "report.zip" || sub == "report.tar.gz":
		s.handleReport(w, r, j, strings.TrimPrefix(sub, "report."))
	case strings.HasPrefix(sub, "figures/") && strings.HasSuffix(sub, ".svg"):
		s.handleFigure(w, r, j, strings.TrimSuffix(strings.TrimPrefix(sub, "figures/"), ".svg"))
	default:
		jsonError(w, r, http.StatusNotFound, "no %s under a job: events, cancel, trace, scenario.yaml, report.zip, report.tar.gz, figures/NAME.svg", sub)
	}
}

// writeScenario answers GET /api/jobs/ID/scenario.yaml: the text the job
// played, byte for byte, as a file of the name its command line gives it
// (a built-in's without its folder), so that the command runs on it.
func (j *serveJob) writeScenario(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "application/yaml; charset=utf-8")
	// The name is a plain file name (cliFileName); one with letters
	// beyond ASCII is encoded as RFC 2231 says.
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": path.Base(strings.TrimPrefix(j.req.File, "builtin:"))}))
	h.Set("Cache-Control", "no-store")
	io.WriteString(w, j.req.Text)
}
