package lab

import (
	"context"
	"errors"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/reports/safeio"
	"simctl/scenarios"
	"simctl/sim/lang"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Accepting a job: the request checked before it is queued, the queue
// and its slots, and the expiry of finished jobs.

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
	kind := app.Lookup(req.Kind)
	switch {
	case req.Kind != "run" && (kind == nil || kind.Check == nil):
		return bad(msg.New("kind %q: valid kinds are run, sweep, compare, matrix, value, tournament, find and optimize", req.Kind))
	case strings.TrimSpace(req.Text) == "":
		return bad(msg.New("text: the scenario is empty; pick a built-in or write one"))
	case int64(len(req.Text)) > safeio.MaxScenarioBytes:
		return bad(msg.New("text: the scenario is %d bytes, more than the %d a scenario may have", len(req.Text), safeio.MaxScenarioBytes))
	case req.N < 1:
		return bad(msg.New("n %d: play at least 1 encounter", req.N))
	}
	sets, err := app.FormSets(req.Sets, "sets")
	if err != nil {
		return bad(msg.New("%v", err))
	}
	mult := int64(1)
	what := msg.New("encounters")
	if kind != nil {
		var why msg.Text
		if mult, what, why = kind.Check(req); why.Format != "" {
			return bad(why)
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
	if kind != nil && kind.CheckWhere != nil && req.Where != "" {
		if why := whereProblem(kind.CheckWhere(req, sc, g)); why.Format != "" {
			return bad(why)
		}
	}
	// So is each option of a comparison or tournament, its overrides on
	// the scenario's (an option may set a tactics block, whose when:
	// conditions are compiled with it).
	if req.Kind == "compare" || req.Kind == "tournament" {
		for _, o := range req.Options {
			osets, err := app.FormSets(o.Sets, "options "+o.Name)
			if err == nil {
				_, _, err = src.Compile(append(append([]scenario.Set(nil), sets...), osets...), nil)
			}
			if err != nil {
				return nil, http.StatusUnprocessableEntity, withError(checkResponse(err, nil, l), l.Msg(msg.New("options: option %q is not a valid scenario: %s", o.Name, firstLine(l, err))))
			}
		}
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
	j := &serveJob{id: newJobID(), req: *req, created: time.Now(), src: src, game: g,
		total: req.N * mult, state: stateQueued, changed: make(chan struct{}), lang: l, origin: s.scenarioOrigin(req)}
	for _, w := range warns {
		j.warns = append(j.warns, w)
	}
	return j, 0, nil
}

// Where a job's scenario comes from (serveJob.origin).
const (
	originBuiltin = "builtin" // a built-in, unedited (prepare refuses an edited one)
	originDir     = "dir"     // the --dir file of that name, its text as it is on disk
	originText    = "text"    // a text no file here holds: edited, pasted or opened
)

// scenarioOrigin says whether the request's text is the file its name
// names: a built-in (prepare has checked the text), the served folder's
// file of that name as it is now on disk, or neither. The command line a
// document records names the file; for a text it is run on the text
// downloaded (GET /api/jobs/ID/scenario.yaml), and the page says so.
func (s *server) scenarioOrigin(req *jobRequest) string {
	if strings.HasPrefix(req.File, "builtin:") {
		return originBuiltin
	}
	if s.root != nil && plainYAMLName(req.File) {
		if data, err := s.readDirFile(context.Background(), req.File); err == nil && string(data) == req.Text {
			return originDir
		}
	}
	return originText
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

// withError is a check response with its error said otherwise.
func withError(resp map[string]any, e string) map[string]any {
	resp["error"] = e
	return resp
}

// whereProblem is a condition's problem as the lab says it: with its
// column when it has one (the zero Text: none).
func whereProblem(err error) msg.Text {
	if err == nil {
		return msg.Text{}
	}
	var at *lang.At
	if errors.As(err, &at) {
		return msg.New("where: column %d: %v", at.Pos+1, err)
	}
	return msg.New("%s: %v", "where", err)
}
