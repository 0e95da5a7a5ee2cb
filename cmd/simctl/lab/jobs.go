package lab

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/sim"
	"simctl/sim/msg"
)

// A lab job's state: its request, its life from queued to finished, and
// its events, streamed to the page as Server-Sent Events.

// jobRequest is what the page sends to start a job, and what a permalink
// encodes: everything that decides the counts (app.Form, which the kinds
// table reads).
type jobRequest = app.Form

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
	game  sim.Game
	total int64 // encounters the job plays in all
	// origin is what the job's file names (scenarioOrigin): a built-in
	// ("builtin"), the served folder's file of that name with this very
	// text ("dir"), or neither ("text": the editor's text, edited,
	// pasted or opened from the designer's computer, which the command
	// line in the document names but no file holds).
	origin string
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
	traceIdx *traceIndex                     // a sweep's or comparison's, read once from doc
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
	// The scenario text twice: the request's and the source's bytes.
	n := int64(len(j.doc)) + 2*int64(len(j.req.Text))
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
	if j.traceIdx != nil {
		n += j.traceIdx.size()
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
