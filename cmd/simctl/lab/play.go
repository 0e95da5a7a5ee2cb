package lab

import (
	"bytes"
	"errors"
	"fmt"
	"os"
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
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Playing a job: a run in batches, every other kind through the
// application layer as the CLI runs it.

// play runs the job to its end, whatever happens inside.
func (s *server) play(j *serveJob) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "simctl serve: internal error in job %s: %v\n", j.id, p)
			j.finish(stateFailed, msg.New("internal error: %v; please report it with the scenario", p), nil)
		}
	}()
	if j.req.Kind == "run" {
		s.playRun(j)
		return
	}
	k := app.Lookup(j.req.Kind)
	if k == nil {
		j.finish(stateFailed, msg.New("internal error: no job kind %q", j.req.Kind), nil)
		return
	}
	s.playApp(j, k)
}

// batchTarget is how long one batch of a run should take: the page gets an
// interim result about this often.
const batchTarget = 250 * time.Millisecond

// playRun plays encounters 0..N-1 through app.Run in successive batches
// (its Interim mode), and sends the tally so far after each. Encounter i
// draws from the stream (seed, i) whatever batch it is in, so the final
// counts are exactly those of one sim.Run (and of simctl run).
func (s *server) playRun(j *serveJob) {
	req := &j.req
	sets, err := app.FormSets(req.Sets, "sets")
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

// cliArgs is the command line (without "simctl") that reproduces a job of
// an analysis kind with the CLI, as its document records it (it is never
// run here): the scenario named as the page names it (a built-in without
// its "builtin:"), the flags the kinds table says the request gives, and
// --format json. --workers is added only when the server's differs from
// the CLI's default (one per core): it never changes the counts.
func cliArgs(req *jobRequest, workers int) []string {
	args := []string{req.Kind, strings.TrimPrefix(req.File, "builtin:"), "-n", strconv.FormatInt(req.N, 10), "--seed", strconv.FormatUint(req.Seed, 10)}
	for _, x := range req.Sets {
		args = append(args, "--set", x)
	}
	if k := app.Lookup(req.Kind); k != nil {
		args = append(args, k.Args(req)...)
	}
	args = append(args, "--format", "json")
	if workers != runtime.GOMAXPROCS(0) {
		args = append(args, "--workers", strconv.Itoa(workers))
	}
	return args
}

// playApp runs a job through the application layer, as the CLI runs the
// same kind of job: the request is built from the page's JSON (no command
// line), the observer hands the page the progress and the partial
// documents, and the figure is drawn from the document in memory. What
// the CLI would print on stderr (its warnings, its error) becomes the
// job's warnings or message, in the CLI's words.
func (s *server) playApp(j *serveJob, k *app.Analysis) {
	req := &j.req
	var errb lockedBuffer
	t0 := time.Now()
	h := s.hooks(j, k, t0)
	obs := &app.Observer{Progress: h.watch, Interim: h.interim, InterimEvery: interimEvery, InterimSegment: interimSegment, Warn: &errb}
	c := &app.Common{Source: j.appSource(), Seed: req.Seed, N: req.N, Workers: s.cfg.Workers, Command: s.command(req)}
	sets, err := app.FormSets(req.Sets, "sets")
	var done *app.Done
	if err == nil {
		c.Sets = sets
		done, err = k.Play(j.ctx, c, req, obs)
	}
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
	if done.Interrupted {
		j.finish(stateCancelled, msg.New("cancelled; the partial result is not kept"), nil)
		return
	}
	for _, m := range errb.messages() {
		j.addWarning(m)
	}
	j.addWarnings(errb.text())
	for _, warn := range done.Warnings {
		j.addWarning(msg.New("simctl %s: warning: %s", req.Kind, warn))
	}
	var b bytes.Buffer
	if err := k.Write(done.Doc, &b, reports.JSON, i18n.En); err != nil {
		j.finish(stateFailed, msg.New("%s: %v", "simctl "+req.Kind, err), nil)
		return
	}
	figure := func(l i18n.Lang) (*reports.Figure, error) {
		if k.Figure == nil {
			return nil, reports.ErrNoData // its tables are the page's
		}
		return k.Figure(done.Doc, l)
	}
	if f, err := figure(i18n.En); err == nil {
		var svg bytes.Buffer
		if err := f.SVG(&svg); err == nil {
			j.mu.Lock()
			j.figures = map[string][]byte{"figure": svg.Bytes()}
			// Another language's figure is drawn from the document kept
			// (counted in keptBytes), not from done's in-memory one: a
			// closure over it kept a whole sweep uncounted, 4.7 times
			// the bound over ten kept jobs.
			j.figureIn = func(l i18n.Lang) (*reports.Figure, error) { return j.figureFromDoc(k, l) }
			j.mu.Unlock()
		} else {
			j.addWarning(msg.New("the figure: %v", err))
		}
	} else if !errors.Is(err, reports.ErrNoData) {
		j.addWarning(msg.New("the figure: %v", err))
	}
	j.finish(stateDone, nil, b.Bytes())
}

// figureFromDoc draws the job's figure in l from its kept JSON document,
// as the kind's Figure drew it from the document in memory.
func (j *serveJob) figureFromDoc(k *app.Analysis, l i18n.Lang) (*reports.Figure, error) {
	if k.Figure == nil {
		return nil, reports.ErrNoData
	}
	j.mu.Lock()
	data := j.doc
	j.mu.Unlock()
	in, err := results.ParseInput(j.req.Kind+".json", data)
	if err != nil {
		return nil, err
	}
	doc := in.Document()
	if doc == nil {
		return nil, reports.ErrNoData
	}
	return k.Figure(doc, l)
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
func (s *server) hooks(j *serveJob, k *app.Analysis, t0 time.Time) *jobHooks {
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
			if time.Now().Before(nextInterim) || k.Slim == nil {
				return
			}
			if d := k.Slim(doc); d != nil {
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
