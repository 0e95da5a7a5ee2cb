package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// registeredPatterns is every pattern the package's server code registers
// on its mux (HandleFunc or Handle with a literal pattern), and every
// literal it reads with Get (query values and headers), read from the
// source: a route, query key or header added there and not to the
// extreme-values test's tables fails TestServeExtremeValues.
func registeredPatterns(t *testing.T) (patterns, gets []string) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if ok && sel.Sel.Name == "Get" && len(c.Args) == 1 {
				if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					g, _ := strconv.Unquote(lit.Value)
					gets = append(gets, g)
				}
				return true
			}
			if !ok || len(c.Args) != 2 || (sel.Sel.Name != "HandleFunc" && sel.Sel.Name != "Handle") {
				return true
			}
			lit, ok := c.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: a route registered with a pattern that is not a literal: the extreme-values test cannot see it", fset.Position(c.Pos()))
				return true
			}
			p, _ := strconv.Unquote(lit.Value)
			patterns = append(patterns, p)
			return true
		})
	}
	sort.Strings(patterns)
	return patterns, gets
}

// extremeRoute is how the extreme-values test drives one route: a path
// that reaches it, the methods it accepts, the query keys its handler
// reads, and for POST a body that gets past the Content-Type and JSON
// checks to the handler itself.
type extremeRoute struct {
	path    string
	methods []string
	query   []string
	body    any
}

// jobSubs are the resources under /api/jobs/ID/ (handleJob), each with
// the methods it accepts and the query keys it reads; "" is the job itself.
// The test checks them against the list handleJob's 404 names.
var jobSubs = map[string]extremeRoute{
	"":                 {methods: []string{"GET", "HEAD", "DELETE"}, query: []string{"lang"}},
	"events":           {methods: []string{"GET", "HEAD"}},
	"cancel":           {methods: []string{"POST"}},
	"scenario.yaml":    {methods: []string{"GET", "HEAD"}},
	"trace":            {methods: []string{"GET", "HEAD"}, query: []string{"encounter", "seed", "pick", "point", "option", "lang"}},
	"report.zip":       {methods: []string{"GET", "HEAD"}, query: []string{"lang"}},
	"report.tar.gz":    {methods: []string{"GET", "HEAD"}, query: []string{"lang"}},
	"figures/NAME.svg": {methods: []string{"GET", "HEAD"}, query: []string{"lang"}},
}

// rawDo sends one HTTP/1.1 request over a fresh connection, writing the
// header values byte for byte (Go's client refuses NUL and other control
// bytes in a header; a browser or curl may not), and reads at most 1 MB
// of the answer, all within a deadline. It returns the status, the body,
// and an error when there was no answer (errTimeout when the server did
// not answer in time).
func rawDo(addr, method, target string, body []byte, hdr ...string) (int, string, error) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(15 * time.Second))
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, addr)
	for i := 0; i+1 < len(hdr); i += 2 {
		b.WriteString(hdr[i] + ": " + hdr[i+1] + "\r\n")
	}
	if body != nil {
		fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	_, werr := conn.Write(b.Bytes())
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		if werr != nil {
			err = fmt.Errorf("%v (writing: %v)", err, werr)
		}
		return 0, "", err
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, string(data), nil
}

// TestServeExtremeValues drives every route the server registers (read
// from its source, so a new one cannot be left out), every job resource
// of every kind, with every method each accepts, sending extreme values
// (int64's bounds and beyond, negative, NaN, empty, 1 MB, non-UTF-8, NUL)
// as the headers a handler may read and as every query value it reads.
// After each request the server must still answer GET / within a few
// seconds, and no answer may be a 5xx: the API documents none but a
// panic's, which is a bug. On the old code, Last-Event-ID
// 9223372036854775807 overflowed, panicked while the job's lock was held,
// and every later request hung. Jobs are tiny (n of 1 to 200), so the
// test costs requests, not simulation.
func TestServeExtremeValues(t *testing.T) {
	// Not testServer: on a hung server its cleanup would wait for the
	// hung requests forever; this one is left behind when the test fails.
	dir := t.TempDir()
	text := duelText(t)
	os.WriteFile(filepath.Join(dir, "duel.yaml"), []byte(text), 0o644)
	s, err := newServer(Config{Dir: dir, AllowSave: true, MaxEncounters: 1_000_000, MaxJobs: 2, Queue: 64, Workers: 1, JobTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	addr := ts.Listener.Addr().String()
	s.setAddr(addr)
	t.Cleanup(func() {
		if !t.Failed() {
			s.close()
			ts.Close()
		}
	})

	// One finished job of every kind.
	reqs := map[string]jobRequest{}
	for _, k := range []string{"run", "sweep", "compare", "matrix", "value", "tournament", "find", "optimize"} {
		var raw string
		switch k {
		case "run":
			raw = `{"n": 200}`
		case "sweep":
			raw = `{"n": 20, "vary": ["heroes.Fighter.init=0:1:1"]}`
		case "compare":
			raw = `{"n": 20, "options": [{"name": "a"}, {"name": "b", "sets": ["heroes.Fighter.init=3"]}]}`
		case "matrix":
			raw = `{"n": 20, "rows": [{"name": "r"}, {"name": "s", "sets": ["heroes.Fighter.init=3"]}], "cols": [{"name": "c"}]}`
		case "value":
			raw = `{"n": 50, "params": "init", "side": "heroes"}`
		case "tournament":
			raw = `{"n": 200, "side": "heroes", "options": [{"name": "a"}, {"name": "b", "sets": ["heroes.Fighter.init=5"]}]}`
		case "find":
			raw = `{"n": 50, "where": "rounds >= 2"}`
		case "optimize":
			raw = `{"n": 200, "side": "heroes", "vary": ["heroes.Fighter.init=1:2"]}`
		}
		var req jobRequest
		if err := json.Unmarshal([]byte(raw), &req); err != nil {
			t.Fatal(err)
		}
		req.Kind, req.Text, req.Seed = k, text, 1
		reqs[k] = req
	}
	ids := map[string]string{}
	for k, req := range reqs {
		ids[k] = startJob(t, ts, req)
	}
	figures := map[string][]string{}
	for k, id := range ids {
		jobResult(t, ts, id)
		_, m, _ := call(t, ts, "GET", "/api/jobs/"+id, nil)
		fs, _ := m["figures"].([]any) // none: a search kind
		for _, f := range fs {
			figures[k] = append(figures[k], f.(string))
		}
	}

	// The headers a handler (or http.ServeContent) reads.
	headers := []string{"Last-Event-ID", "Range", "If-Range", "If-Modified-Since", "If-None-Match"}
	// The routes, by the pattern each is registered with.
	routes := map[string]extremeRoute{
		"/api/scenarios": {path: "/api/scenarios", methods: []string{"GET", "HEAD"}, query: []string{"x", "lang"}},
		"/api/i18n":      {path: "/api/i18n", methods: []string{"GET", "HEAD"}, query: []string{"lang"}},
		"/api/scenario":  {path: "/api/scenario", methods: []string{"GET", "HEAD"}, query: []string{"id"}},
		"/api/check":     {path: "/api/check", methods: []string{"POST"}, body: checkRequest{Text: text}},
		"/api/rulesets":  {path: "/api/rulesets", methods: []string{"GET", "HEAD"}, query: []string{"x"}},
		"/api/rules":     {path: "/api/rules", methods: []string{"GET", "HEAD"}, query: []string{"ruleset"}},
		"/api/policies":  {path: "/api/policies", methods: []string{"GET", "HEAD"}, query: []string{"ruleset", "show"}},
		"/api/schema":    {path: "/api/schema", methods: []string{"GET", "HEAD"}, query: []string{"ruleset", "x"}},
		"/api/template":  {path: "/api/template", methods: []string{"GET", "HEAD"}, query: []string{"ruleset"}},
		"/api/permalink": {path: "/api/permalink", methods: []string{"GET", "HEAD", "POST"}, query: []string{"p"}, body: reqs["run"]},
		// Each POST starts a one-encounter run (a full queue is a 429).
		"/api/jobs":                         {path: "/api/jobs", methods: []string{"POST"}, query: []string{"x", "dry", "lang"}, body: jobRequest{Kind: "run", Text: text, N: 1, Seed: 1}},
		"/api/jobs/":                        {}, // the job resources below, for every kind
		"/api/save":                         {path: "/api/save", methods: []string{"POST"}, body: saveRequest{Name: "extreme.yaml", Text: text, Overwrite: true}},
		"/api/suggest":                      {path: "/api/suggest", methods: []string{"POST"}, body: checkRequest{Text: text}},
		"/favicon.ico":                      {path: "/favicon.ico", methods: []string{"GET", "HEAD"}, query: []string{"x"}},
		"/fonts/LiberationSans-Regular.ttf": {path: "/fonts/LiberationSans-Regular.ttf", methods: []string{"GET", "HEAD"}, query: []string{"x"}},
		"/api/":                             {path: "/api/nothing", methods: []string{"GET", "POST"}, query: []string{"x"}},
		"/":                                 {path: "/", methods: []string{"GET", "HEAD"}, query: []string{"x"}},
	}
	registered, gets := registeredPatterns(t)
	for _, p := range registered {
		if _, ok := routes[p]; !ok {
			t.Errorf("the server registers %q, which TestServeExtremeValues does not drive: add it to its routes", p)
		}
	}
	for p, r := range routes {
		if !slices.Contains(registered, p) {
			t.Errorf("TestServeExtremeValues drives %q, which the server no longer registers", p)
		}
		if r.path == "" {
			continue
		}
		// The path reaches the route it stands for.
		if _, got := s.mux.Handler(httptest.NewRequest("GET", r.path, nil)); got != p {
			t.Errorf("%s reaches the route %q, not %q", r.path, got, p)
		}
	}
	// Every query key and header a handler reads is driven (the ones the
	// middleware checks before any handler, Host, Origin, Sec-Fetch-Site
	// and Content-Type, have tests of their own in serve_test.go).
	read := append(slices.Clone(headers), "Origin", "Sec-Fetch-Site", "Content-Type")
	for _, r := range routes {
		read = append(read, r.query...)
	}
	for _, r := range jobSubs {
		read = append(read, r.query...)
	}
	for _, g := range gets {
		if !slices.ContainsFunc(read, func(x string) bool { return strings.EqualFold(x, g) }) {
			t.Errorf("the server reads %q (a query value or header), which TestServeExtremeValues does not drive", g)
		}
	}
	// The job resources handleJob names in its 404 are the ones above.
	_, m, _ := call(t, ts, "GET", "/api/jobs/"+ids["run"]+"/no-such-thing", nil)
	msg, _ := m["error"].(string)
	_, list, ok := strings.Cut(msg, "under a job: ")
	if !ok {
		t.Fatalf("handleJob's 404 no longer lists the job resources: %q", msg)
	}
	for _, sub := range strings.Split(list, ", ") {
		if _, ok := jobSubs[sub]; !ok {
			t.Errorf("handleJob serves %q under a job, which TestServeExtremeValues does not drive", sub)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Every route to drive: the fixed ones and each job's resources.
	var drive []extremeRoute
	for p, r := range routes {
		if p != "/api/jobs/" {
			drive = append(drive, r)
		}
	}
	for k, id := range ids {
		for sub, r := range jobSubs {
			names := []string{sub}
			if sub == "figures/NAME.svg" {
				names = nil
				for _, f := range figures[k] {
					names = append(names, "figures/"+f+".svg")
				}
			}
			if len(names) > 1 {
				names = names[:1] // one handler: the first figure of each kind
			}
			for _, name := range names {
				r.path = "/api/jobs/" + id
				if name != "" {
					r.path += "/" + name
				}
				drive = append(drive, r)
			}
		}
	}
	sort.Slice(drive, func(i, j int) bool { return drive[i].path < drive[j].path })

	huge := strings.Repeat("9", 1<<20)
	values := []string{"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "99999999999999999999999999999", "-1", "-0", "0", "1e308", "1e309",
		"NaN", "Inf", "-Inf", "0x10", " 1", "abc", "", "%00", "\x00", "a\x00b", "\xff\xfe\xfd", "\xc3\x28", strings.Repeat("9", 4000), huge}

	if raceEnabled {
		// The same requests take many times as long under the detector:
		// the bounds, the overflows, the garbage and the sizes.
		values = []string{"9223372036854775807", "9223372036854775808", "-1", "NaN", "", "a\x00b", "\xff\xfe\xfd", strings.Repeat("9", 4000), huge}
	}

	alive := func(what string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("after %s the server does not answer GET / within 5 s: %v", what, err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("after %s GET / is %d", what, res.StatusCode)
		}
	}
	// check: no 5xx, and an answer, except that a request over the
	// header cap (1 MB) may have its connection closed while it is still
	// being sent; a timeout is a hang either way.
	requests := 0
	check := func(what string, oversized bool, st int, body string, err error) {
		t.Helper()
		requests++
		var ne net.Error
		switch {
		case err != nil && errors.As(err, &ne) && ne.Timeout():
			t.Fatalf("%s: no answer within 15 s: %v", what, err)
		case err != nil && !oversized:
			t.Fatalf("%s: %v", what, err)
		case st >= 500:
			t.Fatalf("%s: status %d: %.300s", what, st, body)
		}
		alive(what)
	}
	bodyOf := func(r extremeRoute, method string) []byte {
		if method != "POST" {
			return nil
		}
		b, err := json.Marshal(r.body)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	start := time.Now()
	for _, r := range drive {
		for _, method := range r.methods {
			body := bodyOf(r, method)
			// The headers, each value (HEAD is GET without the body:
			// one header; a value over the header cap is refused before
			// any handler sees it: one header too).
			for _, v := range values {
				for i, h := range headers {
					if i > 0 && (method == "HEAD" || len(v) > 1<<16) {
						break
					}
					st, got, err := rawDo(addr, method, r.path, body, h, v)
					check(fmt.Sprintf("%s %s with %s: %.40q", method, r.path, h, v), len(v) > 1<<16, st, got, err)
				}
			}
			// Every query key the handler reads, each value, with the
			// others a trace needs set so the value gets past the first
			// check.
			for _, k := range r.query {
				if method == "HEAD" {
					break
				}
				for _, v := range values {
					q := url.Values{k: {v}}
					if strings.HasSuffix(r.path, "/trace") {
						for _, other := range [][2]string{{"encounter", "1"}, {"option", "b"}, {"point", "1"}, {"row", "s"}, {"col", "c"}} {
							if k != other[0] && k != "pick" {
								q.Set(other[0], other[1])
							}
						}
					}
					st, got, err := rawDo(addr, method, r.path+"?"+q.Encode(), body)
					check(fmt.Sprintf("%s %s?%.60s", method, r.path, q.Encode()), len(v) > 1<<16, st, got, err)
				}
			}
		}
		// The methods it does not accept: refused, not failed.
		for _, method := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
			if slices.Contains(r.methods, method) {
				continue
			}
			st, got, err := rawDo(addr, method, r.path, []byte("{}"))
			check(method+" "+r.path, false, st, got, err)
			if st < 400 {
				t.Errorf("%s %s, a method it does not accept: %d", method, r.path, st)
			}
		}
	}
	t.Logf("%d routes and job resources, %d requests, %v", len(drive), requests, time.Since(start).Round(time.Millisecond))

	// Still answering: a status, and a new job (which takes the server's
	// lock and every job's to expire old ones).
	if st, body := timedGet(t, ts.URL, "GET", "/api/jobs/"+ids["run"]); st != 200 {
		t.Fatalf("GET the job after the extreme values: %d %.200s", st, body)
	}
	done := make(chan string, 1)
	go func() { done <- startJob(t, ts, jobRequest{Kind: "run", Text: text, N: 100, Seed: 2}) }()
	select {
	case id := <-done:
		jobResult(t, ts, id)
	case <-time.After(30 * time.Second):
		t.Fatal("POST /api/jobs hangs after the extreme values")
	}
	alive("the new job")
}
