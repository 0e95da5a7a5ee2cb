package lab

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/sim/msg"
)

//go:embed web
var webFS embed.FS

// Config is what simctl serve's flags set.
type Config struct {
	Addr          string        // HOST:PORT to listen at
	Dir           string        // a folder whose .yaml files the page offers ("": none)
	MaxEncounters int64         // encounters per request (all points/options together)
	MaxJobs       int           // jobs running at once
	Queue         int           // jobs waiting for a slot
	Workers       int           // workers per job
	JobTTL        time.Duration // how long a finished job is kept
	MaxBody       int64         // request body cap; 0: 1 MiB
	// AllowSave lets the page write .yaml files into Dir (--allow-save).
	AllowSave bool
	// Lang is the language of what Serve says on stdout and stderr (the
	// CLI's --lang); the page chooses its own per request (?lang=).
	Lang i18n.Lang
	// KeptJobs and KeptBytes bound the finished jobs kept in memory,
	// whatever their age: by number, and by the bytes they retain (their
	// documents, figures, reports and traces); MaxDocBytes bounds the
	// document a request may ask for (its points, options or cells).
	// Zero: the defaults below (tests set them small).
	KeptJobs    int
	KeptBytes   int64
	MaxDocBytes int64
}

const (
	defaultMaxBody     = 1 << 20
	defaultKeptJobs    = 256
	defaultKeptBytes   = 512 << 20
	defaultMaxDocBytes = 64 << 20
)

// Serve serves the lab at cfg.Addr until ctx is done, then cancels its
// jobs, lets the requests in flight finish and returns nil. It says where
// the lab is on stdout, and its warnings and shutdown on stderr. A
// setting it cannot serve with (a --dir that is no folder, an address it
// cannot listen at) is an *app.Error of kind app.Usage.
func Serve(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	s, err := newServer(cfg)
	if err != nil {
		return &app.Error{Kind: app.Usage, Err: err}
	}
	defer s.close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return &app.Error{Kind: app.Usage, Err: msg.Errorf("%s %s: %v", "--addr", cfg.Addr, err)}
	}
	s.setAddr(ln.Addr().String())
	if !isLoopback(ln.Addr()) {
		say(stderr, cfg.Lang, msg.New("simctl serve: warning: listening on %s, not loopback: anyone who reaches it can run simulations here (there is no login)", ln.Addr().String()))
	}
	say(stdout, cfg.Lang, msg.New("simctl serve: the lab is at http://%s/ (Ctrl-C stops it)", displayAddr(ln.Addr())))
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// No WriteTimeout: an event stream lasts as long as its job.
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Ctrl-C: stop every job (their streams then end), and let the
	// requests in flight finish.
	running, queued := s.counts()
	say(stderr, cfg.Lang, msg.New("simctl serve: interrupted; cancelling %d running and %d queued job(s) and shutting down (interrupt again to stop at once)", running, queued))
	s.close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	say(stderr, cfg.Lang, msg.New("simctl serve: stopped"))
	return nil
}

// say writes the message m in l as a line.
func say(w io.Writer, l i18n.Lang, m msg.Text) { fmt.Fprintln(w, l.Msg(m)) }

func isLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// displayAddr is the address to type in a browser: a wildcard bind is
// reachable as localhost.
func displayAddr(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if ok && ta.IP.IsUnspecified() {
		return "localhost:" + strconv.Itoa(ta.Port)
	}
	return a.String()
}

// server is the HTTP handler of simctl serve.
type server struct {
	cfg  Config
	root *os.Root // the --dir folder; nil without --dir
	mux  *http.ServeMux
	page http.Handler

	ctx    context.Context // cancelled by close: every job stops
	cancel context.CancelFunc

	mu       sync.Mutex
	bound    string // the host name of --addr ("" until set: any loopback name)
	jobs     map[string]*serveJob
	order    []*serveJob // creation order, for expiry
	waiting  []*serveJob // queued, first first
	running  int
	closed   bool
	janitor  *time.Ticker
	stopJan  chan struct{}
	jobsDone sync.WaitGroup
}

func newServer(cfg Config) (*server, error) {
	s := &server{cfg: cfg, jobs: map[string]*serveJob{}, stopJan: make(chan struct{})}
	if cfg.MaxBody <= 0 {
		s.cfg.MaxBody = defaultMaxBody
	}
	if cfg.KeptJobs <= 0 {
		s.cfg.KeptJobs = defaultKeptJobs
	}
	if cfg.KeptBytes <= 0 {
		s.cfg.KeptBytes = defaultKeptBytes
	}
	if cfg.MaxDocBytes <= 0 {
		s.cfg.MaxDocBytes = defaultMaxDocBytes
	}
	if cfg.Dir != "" {
		st, err := os.Stat(cfg.Dir)
		if err != nil {
			return nil, msg.Errorf("%s %s: %v", "--dir", cfg.Dir, err)
		}
		if !st.IsDir() {
			return nil, msg.Errorf("--dir %s: not a folder", cfg.Dir)
		}
		// os.Root refuses every path that leaves the folder, through ".."
		// or a symbolic link, whatever the name looks like.
		if s.root, err = os.OpenRoot(cfg.Dir); err != nil {
			return nil, msg.Errorf("%s %s: %v", "--dir", cfg.Dir, err)
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	sub, err := fs.Sub(webFS, "web")
	if err != nil {
		return nil, err
	}
	s.page = http.FileServerFS(sub)
	s.routes()
	s.janitor = time.NewTicker(time.Minute)
	go func() {
		for {
			select {
			case <-s.janitor.C:
				s.expire(time.Now())
			case <-s.stopJan:
				return
			}
		}
	}()
	return s, nil
}

// setAddr records the address the server is bound to, for the Host check.
func (s *server) setAddr(addr string) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	s.mu.Lock()
	s.bound = host
	s.mu.Unlock()
}

// counts is the jobs running and waiting.
func (s *server) counts() (running, queued int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running, len(s.waiting)
}

// close cancels every job and waits for them to end.
func (s *server) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	for _, j := range s.waiting {
		j.finish(stateCancelled, msg.New("the server is shutting down"), nil)
	}
	s.waiting = nil
	s.mu.Unlock()
	s.cancel()
	s.janitor.Stop()
	close(s.stopJan)
	s.jobsDone.Wait()
	if s.root != nil {
		s.root.Close()
	}
}

func (s *server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("/api/scenarios", s.get(s.handleScenarios))
	m.HandleFunc("/api/scenario", s.get(s.handleScenario))
	m.HandleFunc("/api/check", s.post(s.handleCheck))
	m.HandleFunc("/api/rulesets", s.get(s.handleRulesets))
	m.HandleFunc("/api/rules", s.get(s.handleRules))
	m.HandleFunc("/api/policies", s.get(s.handlePolicies))
	m.HandleFunc("/api/schema", s.get(s.handleSchema))
	m.HandleFunc("/api/template", s.get(s.handleTemplate))
	m.HandleFunc("/api/permalink", s.handlePermalink)
	m.HandleFunc("/api/jobs", s.handleJobs)
	m.HandleFunc("/api/jobs/", s.handleJob)
	m.HandleFunc("/api/i18n", s.get(s.handleI18n))
	s.labRoutes(m) // save.go
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		jsonError(w, r, http.StatusNotFound, "no API endpoint %s; see docs/serve.md", r.URL.Path)
	})
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			jsonError(w, r, http.StatusMethodNotAllowed, "%s %s: the page is read with GET", r.Method, r.URL.Path)
			return
		}
		s.page.ServeHTTP(w, r)
	})
	s.mux = m
}

// ServeHTTP is the middleware every request passes: no panic reaches the
// client, security headers, the Host check (DNS rebinding), the Origin
// check on state-changing requests (cross-site POST), and the body cap.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			fmt.Fprintf(os.Stderr, "simctl serve: internal error on %s %s: %v\n", r.Method, r.URL.Path, p)
			jsonError(w, r, http.StatusInternalServerError, "internal error: %v; please report it with the scenario", p)
		}
	}()
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	// The page loads nothing from elsewhere and nothing may frame it.
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	if m := s.hostProblem(r.Host); m.Format != "" {
		jsonError(w, r, http.StatusForbidden, "%s", m)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
		if m := originProblem(r); m.Format != "" {
			jsonError(w, r, http.StatusForbidden, "%s", m)
			return
		}
	}
	if r.Method == http.MethodOptions {
		// No CORS: a preflight gets no Access-Control-Allow-* headers, so
		// a browser never sends another site's request on.
		jsonError(w, r, http.StatusForbidden, "cross-origin requests are not served (no CORS)")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	s.mux.ServeHTTP(w, r)
}

// hostProblem refuses a Host header that is not this server's (a DNS
// rebinding attack names the attacker's domain): the name --addr gave, a
// loopback name, or an IP address (which a rebinding cannot use).
func (s *server) hostProblem(hostport string) msg.Text {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	s.mu.Lock()
	bound := s.bound
	s.mu.Unlock()
	switch {
	case host == "":
		return msg.New("missing Host header")
	case strings.EqualFold(host, "localhost"), net.ParseIP(host) != nil:
		return msg.Text{}
	case bound != "" && strings.EqualFold(host, bound):
		return msg.Text{}
	}
	return msg.New("Host %q is not this server (it answers to localhost, an IP address or the name given to --addr); a page of another site cannot use it", hostport)
}

// originProblem refuses a state-changing request sent by another site's
// page: its Origin (or Sec-Fetch-Site) must say same-origin. Tools that
// send no Origin (curl) are let through: they are not a browser acting for
// a visited page, and POST bodies must be JSON, which a plain form cannot
// send.
func originProblem(r *http.Request) msg.Text {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return msg.New("a %s request from another site (Sec-Fetch-Site: %s) is refused", r.Method, site)
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return msg.Text{}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) || (u.Scheme != "http" && u.Scheme != "https") {
		return msg.New("Origin %q does not match this server (http://%s): cross-site requests are refused", origin, r.Host)
	}
	return msg.Text{}
}

// get and post wrap a handler with its method and, for POST, the JSON
// Content-Type check.
func (s *server) get(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			jsonError(w, r, http.StatusMethodNotAllowed, "%s %s: use GET", r.Method, r.URL.Path)
			return
		}
		h(w, r)
	}
}

func (s *server) post(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			jsonError(w, r, http.StatusMethodNotAllowed, "%s %s: use POST with a JSON body", r.Method, r.URL.Path)
			return
		}
		h(w, r)
	}
}

// readJSON decodes a POST body into v: Content-Type application/json,
// within the size cap, strict fields, one value. It writes the error and
// returns false on failure.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		jsonError(w, r, http.StatusUnsupportedMediaType, "Content-Type %q: send the body as application/json", r.Header.Get("Content-Type"))
		return false
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = msg.Errorf("more than one JSON value in the body")
		}
	}
	if err == nil {
		return true
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		jsonError(w, r, http.StatusRequestEntityTooLarge, "the request body is larger than the server's %d-byte cap", mbe.Limit)
		return false
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		jsonError(w, r, http.StatusBadRequest, "malformed JSON at byte %d: %v", se.Offset, err)
	case errors.As(err, &te):
		jsonError(w, r, http.StatusBadRequest, "field %q: expected %s, got a JSON %s (docs/serve.md shows every field with an example)", te.Field, jsonShape(te.Type), te.Value)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		jsonError(w, r, http.StatusBadRequest, "the body is empty or cut short; send one JSON object")
	default:
		jsonError(w, r, http.StatusBadRequest, "bad request body: %v", err)
	}
	return false
}

// writeJSON sends v as JSON with the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	enc.Encode(v)
}

// jsonError is every error the API answers: {"error": "..."}, in the
// request's language (langOf).
func jsonError(w http.ResponseWriter, r *http.Request, status int, format string, args ...any) {
	text := langOf(r).Msg(msg.New(format, args...))
	if status >= 500 {
		text = hidePaths(text)
	}
	writeJSON(w, status, map[string]string{"error": text})
}

// absPath is an absolute file path in a message: two segments or more
// after the root (a Unix path, or a Windows one with its drive).
var absPath = regexp.MustCompile(`(^|[\s"'(\[=])((?:/[^/\s"'()\[\]:,;]+){2,}/?|[A-Za-z]:\\(?:[^\\\s"'():,;]+\\)+[^\\\s"'():,;]*)`)

// hidePaths cuts every absolute path in a server error to its last
// element: a failure while saving or building a report (a full disk) said
// where the server keeps its files and temporary folders.
func hidePaths(text string) string {
	return absPath.ReplaceAllStringFunc(text, func(m string) string {
		i := 0
		if c := m[0]; c != '/' && !(len(m) > 2 && m[1] == ':') {
			i = 1 // the character before the path
		}
		p := strings.TrimRight(strings.ReplaceAll(m[i:], "\\", "/"), "/")
		return m[:i] + p[strings.LastIndexByte(p, '/')+1:]
	})
}

// langOf is the language a request asks for with ?lang=en|ko|ru; English
// when it names none (or one simctl does not speak: the API's answers
// stay readable, and the page only sends the three).
func langOf(r *http.Request) i18n.Lang {
	if r == nil {
		return i18n.En
	}
	l, err := i18n.Parse(r.URL.Query().Get("lang"))
	if err != nil {
		return i18n.En
	}
	return l
}

// jsonShape says what JSON a Go type decodes from, in the words of the
// API's documentation rather than Go's ("results.NamedSets" means
// nothing to someone writing a request).
func jsonShape(t reflect.Type) msg.Text {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonShape(t.Elem())
	case reflect.String:
		return msg.New("a string")
	case reflect.Bool:
		return msg.New("true or false")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return msg.New("a whole number")
	case reflect.Float32, reflect.Float64:
		return msg.New("a number")
	case reflect.Slice, reflect.Array:
		return msg.New("a list, each %s", jsonShape(t.Elem()))
	case reflect.Map:
		return msg.New("an object")
	case reflect.Struct:
		var fields []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag, _ := f.Tag.Lookup("json")
			name, _, _ := strings.Cut(tag, ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fields = append(fields, name)
		}
		return msg.New("an object with the fields %s", strings.Join(fields, ", "))
	}
	return msg.New("%s", t.String())
}
