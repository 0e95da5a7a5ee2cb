package lab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	"simctl/sim/experiment"
	"simctl/sim/msg"
	"simctl/sim/scenario"
	"simctl/stats"
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
