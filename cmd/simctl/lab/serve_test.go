package lab

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"simctl/cmd/simctl/app"
	"simctl/reports/results"
	"simctl/scenarios"
	"simctl/sim"
)

// testServer starts simctl serve's handler on a loopback httptest server.
func testServer(t *testing.T, cfg Config) (*server, *httptest.Server) {
	t.Helper()
	if cfg.MaxEncounters == 0 {
		cfg.MaxEncounters = 10_000_000
	}
	if cfg.MaxJobs == 0 {
		cfg.MaxJobs = 2
	}
	if cfg.Queue == 0 {
		cfg.Queue = 16
	}
	if cfg.Workers == 0 {
		cfg.Workers = 2
	}
	if cfg.JobTTL == 0 {
		cfg.JobTTL = time.Hour
	}
	s, err := newServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	s.setAddr(ts.Listener.Addr().String())
	t.Cleanup(func() { s.close(); ts.Close() })
	return s, ts
}

// call sends a request and decodes the JSON answer (nil when not JSON).
func call(t *testing.T, ts *httptest.Server, method, path string, body any, hdr ...string) (int, map[string]any, http.Header) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var m map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s %s: answer is not JSON: %v\n%s", method, path, err, data)
		}
	}
	return res.StatusCode, m, res.Header
}

// wantError checks an error answer: the status and a JSON error whose
// message contains every fragment.
func wantError(t *testing.T, what string, status int, m map[string]any, want int, frags ...string) {
	t.Helper()
	if status != want {
		t.Errorf("%s: status %d, want %d (%v)", what, status, want, m)
		return
	}
	msg, _ := m["error"].(string)
	if msg == "" {
		t.Errorf("%s: no JSON error message: %v", what, m)
	}
	for _, f := range frags {
		if !strings.Contains(msg, f) {
			t.Errorf("%s: error %q does not say %q", what, msg, f)
		}
	}
}

func duelText(t *testing.T) string {
	data, _, ok := scenarios.Read("d20/duel")
	if !ok {
		t.Fatal("no built-in d20/duel")
	}
	return string(data)
}

type sseEv struct {
	ID, Name string
	Data     map[string]any
}

// events reads a job's event stream to its end.
func events(t *testing.T, ts *httptest.Server, id string) []sseEv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/jobs/"+id+"/events", nil)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: Content-Type %q", ct)
	}
	var out []sseEv
	var cur sseEv
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			cur.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.Name = line[7:]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &cur.Data); err != nil {
				t.Fatalf("event data is not JSON: %q", line)
			}
		case line == "":
			if cur.Name != "" {
				out = append(out, cur)
			}
			cur = sseEv{}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("events of %s: %v (got %d events)", id, err, len(out))
	}
	return out
}

func startJob(t *testing.T, ts *httptest.Server, req jobRequest) string {
	t.Helper()
	st, m, _ := call(t, ts, "POST", "/api/jobs", req)
	if st != http.StatusAccepted {
		t.Fatalf("POST /api/jobs: %d %v", st, m)
	}
	return m["id"].(string)
}

// jobResult waits for a job's end and returns its status document.
func jobResult(t *testing.T, ts *httptest.Server, id string) map[string]any {
	t.Helper()
	evs := events(t, ts, id)
	if len(evs) == 0 || evs[len(evs)-1].Name != "done" {
		t.Fatalf("job %s did not finish: %+v", id, evs)
	}
	st, m, _ := call(t, ts, "GET", "/api/jobs/"+id, nil)
	if st != 200 {
		t.Fatalf("GET job: %d %v", st, m)
	}
	return m
}

// directRun is what simctl run computes for the scenario: the reference
// every job's counts must equal.
func directRun(t *testing.T, text string, seed uint64, n int64) *sim.Tally {
	t.Helper()
	src := &app.Source{Name: "x.yaml", Display: "x.yaml", Data: []byte(text)}
	_, g, err := src.Compile(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: seed, N: n, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func sideWins(t *testing.T, result any) (wins [2]int64, draws, n int64) {
	t.Helper()
	r := result.(map[string]any)
	for i, s := range r["sides"].([]any) {
		wins[i] = int64(s.(map[string]any)["wins"].(float64))
	}
	return wins, int64(r["draws"].(float64)), int64(r["encounters"].(float64))
}

func TestServeScenarios(t *testing.T) {
	_, ts := testServer(t, Config{})
	st, m, _ := call(t, ts, "GET", "/api/scenarios", nil)
	if st != 200 {
		t.Fatalf("scenarios: %d", st)
	}
	var ids []string
	for _, s := range m["scenarios"].([]any) {
		e := s.(map[string]any)
		ids = append(ids, e["id"].(string))
		if e["problem"] != nil {
			t.Errorf("built-in %s reported invalid: %v", e["id"], e["problem"])
		}
	}
	if len(ids) != len(scenarios.Names()) || !slices.Contains(ids, "builtin:d20/duel") {
		t.Errorf("scenarios: %v, want the %d built-ins", ids, len(scenarios.Names()))
	}
	st, m, _ = call(t, ts, "GET", "/api/scenario?id=builtin:d20/duel", nil)
	if st != 200 || m["text"] != duelText(t) || m["file"] != "builtin:d20/duel.yaml" {
		t.Errorf("scenario text: %d %v", st, m["file"])
	}
	st, m, _ = call(t, ts, "GET", "/api/template?ruleset=acks2", nil)
	if st != 200 || !strings.Contains(m["text"].(string), "simctl init acks2") {
		t.Errorf("template: %d %v", st, m)
	}
	st, m, _ = call(t, ts, "GET", "/api/template?ruleset=d21", nil)
	wantError(t, "template d21", st, m, 404, `did you mean "d20"`)
	st, m, _ = call(t, ts, "GET", "/api/scenario?id=builtin:d20/nope", nil)
	wantError(t, "unknown built-in", st, m, 404, "no built-in scenario")
	st, m, _ = call(t, ts, "GET", "/api/scenario?id=dir:duel.yaml", nil)
	wantError(t, "dir without --dir", st, m, 404, "without --dir")
}

// TestServeDirTraversal: only the plain .yaml files of --dir are readable;
// no name reaches anything else.
func TestServeDirTraversal(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "scen")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	const secret = "TOP-SECRET-CONTENT"
	must(os.WriteFile(filepath.Join(base, "secret.yaml"), []byte("name: "+secret+"\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte(duelText(t)), 0o644))
	must(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(secret), 0o644))
	must(os.WriteFile(filepath.Join(dir, "sub", "deep.yaml"), []byte("name: "+secret+"\n"), 0o644))
	must(os.Symlink(filepath.Join(base, "secret.yaml"), filepath.Join(dir, "out.yaml")))
	must(os.Symlink("mine.yaml", filepath.Join(dir, "in.yaml")))
	// A hard link to the file outside: os.Root cannot tell it from a
	// file of the folder, so files with more than one link are refused.
	must(os.Link(filepath.Join(base, "secret.yaml"), filepath.Join(dir, "hard.yaml")))
	_, ts := testServer(t, Config{Dir: dir})

	st, m, _ := call(t, ts, "GET", "/api/scenarios", nil)
	if st != 200 {
		t.Fatal(st)
	}
	var dirIDs []string
	for _, s := range m["scenarios"].([]any) {
		if id := s.(map[string]any)["id"].(string); strings.HasPrefix(id, "dir:") {
			dirIDs = append(dirIDs, id)
		}
	}
	if !slices.Equal(dirIDs, []string{"dir:mine.yaml"}) {
		t.Errorf("listed %v, want only dir:mine.yaml (no links, subfolders or other files)", dirIDs)
	}
	st, m, _ = call(t, ts, "GET", "/api/scenario?id=dir:mine.yaml", nil)
	if st != 200 || m["text"] != duelText(t) {
		t.Errorf("dir:mine.yaml: %d %v", st, m)
	}
	for _, q := range []string{
		"dir:../secret.yaml", "dir:..%2Fsecret.yaml", "dir:%2e%2e%2fsecret.yaml", "dir:%2E%2E/secret.yaml",
		"dir:" + filepath.Join(base, "secret.yaml"), "dir:/etc/passwd", "dir:sub/deep.yaml", "dir:sub%2Fdeep.yaml",
		"dir:out.yaml", "dir:in.yaml", "dir:hard.yaml", "dir:notes.txt", "dir:..", "dir:.", "dir:", "dir:mine.yaml%00.txt",
		"dir:..%5Csecret.yaml", "dir:nothere.yaml", "builtin:../../secret", "file:///etc/passwd", "../secret.yaml",
	} {
		res, err := ts.Client().Get(ts.URL + "/api/scenario?id=" + q)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 400 && res.StatusCode != 404 {
			t.Errorf("id=%s: status %d, want 400 or 404", q, res.StatusCode)
		}
		if bytes.Contains(body, []byte(secret)) {
			t.Errorf("id=%s: leaked the file outside --dir", q)
		}
		var e map[string]string
		if json.Unmarshal(body, &e) != nil || e["error"] == "" {
			t.Errorf("id=%s: not a JSON error: %s", q, body)
		}
	}
	st, m, _ = call(t, ts, "GET", "/api/scenario?id=dir:hard.yaml", nil)
	wantError(t, "a hard link", st, m, 400, "hard links")
	// Paths of the page itself: the embedded files only.
	for _, p := range []string{"/../secret.yaml", "/%2e%2e/secret.yaml", "/..%2fsecret.yaml", "/web/../../secret.yaml", "/api/../../secret.yaml"} {
		req, _ := http.NewRequest("GET", ts.URL+p, nil)
		req.URL.Opaque = p // send the path as written, uncleaned
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if bytes.Contains(body, []byte(secret)) || (res.StatusCode == 200 && !bytes.Contains(body, []byte("simctl lab"))) {
			t.Errorf("GET %s: %d %.80q", p, res.StatusCode, body)
		}
	}
}

func TestServeCheck(t *testing.T) {
	_, ts := testServer(t, Config{})
	st, m, _ := call(t, ts, "POST", "/api/check", map[string]any{"text": duelText(t), "file": "builtin:d20/duel.yaml"})
	if st != 200 || m["ok"] != true {
		t.Fatalf("valid duel: %d %v", st, m)
	}
	if sum := m["summary"].(map[string]any); sum["ruleset"] != "d20" {
		t.Errorf("summary %v", sum)
	}
	// The same error simctl check reports, at the same line and column.
	bad := strings.Replace(duelText(t), "ac: 17", "ac: seventeen", 1)
	line := 1 + strings.Count(bad[:strings.Index(bad, "ac: seventeen")], "\n")
	st, m, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": bad})
	if st != 200 || m["ok"] != false {
		t.Fatalf("bad ac: %d %v", st, m)
	}
	errs := m["errors"].([]any)
	if len(errs) == 0 {
		t.Fatal("no errors")
	}
	e := errs[0].(map[string]any)
	if int(e["line"].(float64)) != line || e["col"].(float64) < 1 || !strings.Contains(e["field"].(string), "ac") {
		t.Errorf("error %v, want line %d, field ac", e, line)
	}
	path := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(path, []byte(bad), 0o644)
	_, _, stderr := simctl(t, context.Background(), "check", path)
	if !strings.Contains(stderr, fmt.Sprintf("bad.yaml:%d:%d: %s: %s", line, int(e["col"].(float64)), e["field"], e["message"])) {
		t.Errorf("the API's error %v is not simctl check's:\n%s", e, stderr)
	}
	// Broken YAML is an error at its line, not a failure.
	st, m, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": "name: x\nsides: [\n  - {name: a\n"})
	if st != 200 || m["ok"] != false || len(m["errors"].([]any)) == 0 {
		t.Errorf("broken YAML: %d %v", st, m)
	}
	st, m, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": duelText(t), "sets": []string{"heroes.Fighter.hp=-3"}})
	if st != 200 || m["ok"] != false {
		t.Errorf("bad --set: %d %v", st, m)
	}
	st, m, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": duelText(t), "sets": []string{"no-equals"}})
	wantError(t, "unparsable set", st, m, 400, "no-equals")
}

func TestServeDocs(t *testing.T) {
	_, ts := testServer(t, Config{})
	st, m, _ := call(t, ts, "GET", "/api/rulesets", nil)
	if st != 200 || len(m["rulesets"].([]any)) != 4 {
		t.Errorf("rulesets: %d %v", st, m)
	}
	var out bytes.Buffer
	cliMain(context.Background(), []string{"rules", "d20"}, &out, io.Discard)
	st, m, _ = call(t, ts, "GET", "/api/rules?ruleset=d20", nil)
	if st != 200 || m["text"] != out.String() {
		t.Errorf("rules d20: %d, not simctl rules d20's text", st)
	}
	st, m, _ = call(t, ts, "GET", "/api/policies?ruleset=d20", nil)
	if st != 200 || m["text"] == "" {
		t.Errorf("policies: %d %v", st, m)
	}
	st, m, _ = call(t, ts, "GET", "/api/policies?show=nonesuch", nil)
	wantError(t, "unknown tactic", st, m, 404, "nonesuch")
	st, m, _ = call(t, ts, "GET", "/api/rules?ruleset=../../etc", nil)
	wantError(t, "bad ruleset", st, m, 404, "unknown ruleset")
	st, m, _ = call(t, ts, "GET", "/api/schema", nil)
	if st != 200 || m["properties"] == nil {
		t.Errorf("schema: %d", st)
	}
	res, err := ts.Client().Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.Contains(body, []byte(`<script type="module" src="app.js">`)) || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("the page: %d %.100s", res.StatusCode, body)
	}
	// The page fetches nothing from elsewhere.
	for _, f := range []string{"web/index.html", "web/app.js", "web/style.css"} {
		data, _ := webFS.ReadFile(f)
		if bytes.Contains(data, []byte("http://")) && !bytes.Contains(data, []byte("http://www.w3.org/2000/svg")) || bytes.Contains(data, []byte("https://")) {
			t.Errorf("%s refers to another site", f)
		}
	}
}

// TestServeHostile: every refusal is a JSON error with a clear status.
func TestServeHostile(t *testing.T) {
	_, ts := testServer(t, Config{MaxEncounters: 1_000_000})
	duel := duelText(t)
	run := func(n int64) map[string]any { return map[string]any{"kind": "run", "text": duel, "n": n, "seed": 1} }

	big := `{"kind":"run","text":"` + strings.Repeat("x", 2<<20) + `","n":1}`
	st, m, _ := call(t, ts, "POST", "/api/jobs", big)
	wantError(t, "oversized", st, m, 413, "cap")
	st, m, _ = call(t, ts, "POST", "/api/check", big)
	wantError(t, "oversized check", st, m, 413)
	st, m, _ = call(t, ts, "POST", "/api/jobs", `{"kind":"run",`)
	wantError(t, "cut JSON", st, m, 400)
	st, m, _ = call(t, ts, "POST", "/api/jobs", `{"kind": run}`)
	wantError(t, "malformed JSON", st, m, 400, "malformed JSON")
	st, m, _ = call(t, ts, "POST", "/api/jobs", `{"kind":"run","text":"x","n":1,"bogus":1}`)
	wantError(t, "unknown field", st, m, 400, "bogus")
	st, m, _ = call(t, ts, "POST", "/api/jobs", `{"kind":"run","n":"ten"}`)
	wantError(t, "wrong type", st, m, 400, "n")
	st, m, _ = call(t, ts, "POST", "/api/jobs", `{"kind":"run"} {"kind":"run"}`)
	wantError(t, "two values", st, m, 400, "more than one")
	st, m, _ = call(t, ts, "POST", "/api/jobs", "", "Content-Type", "application/json")
	wantError(t, "empty", st, m, 400)
	st, m, _ = call(t, ts, "POST", "/api/jobs", run(10), "Content-Type", "text/plain")
	wantError(t, "text/plain", st, m, 415, "application/json")
	st, m, _ = call(t, ts, "POST", "/api/jobs", run(10), "Content-Type", "application/x-www-form-urlencoded")
	wantError(t, "form", st, m, 415)
	st, m, _ = call(t, ts, "POST", "/api/jobs", run(2_000_000))
	wantError(t, "over the cap", st, m, 400, "1000000", "--max-encounters")
	st, m, _ = call(t, ts, "POST", "/api/jobs", map[string]any{"kind": "sweep", "text": duel, "n": 200_000, "seed": 1, "vary": []string{"heroes.Fighter.init=0:9:1"}})
	wantError(t, "sweep over the cap", st, m, 400, "10 points", "1000000")
	st, m, _ = call(t, ts, "POST", "/api/jobs", map[string]any{"kind": "sweep", "text": duel, "n": 1, "seed": 1, "vary": []string{"heroes.Fighter.init=0:999:1", "heroes.Fighter.hp=1:1000:1"}})
	wantError(t, "a million points", st, m, 400, "1000000 points", "10000")
	many := []map[string]any{}
	for i := range 65 {
		many = append(many, map[string]any{"name": fmt.Sprint("o", i)})
	}
	st, m, _ = call(t, ts, "POST", "/api/jobs", map[string]any{"kind": "compare", "text": duel, "n": 1, "seed": 1, "options": many})
	wantError(t, "65 options", st, m, 400, "65", "64")
	st, m, _ = call(t, ts, "POST", "/api/jobs", run(0))
	wantError(t, "n 0", st, m, 400, "at least 1")
	st, m, _ = call(t, ts, "POST", "/api/jobs", map[string]any{"kind": "fly", "text": duel, "n": 1})
	wantError(t, "kind", st, m, 400, "run, sweep, compare, matrix, value, tournament, find and optimize")
	st, m, _ = call(t, ts, "POST", "/api/jobs", map[string]any{"kind": "run", "text": duel, "n": 1, "file": "../../etc/passwd"})
	wantError(t, "file as a path", st, m, 400, "file")
	for _, f := range []string{"-n.yaml", ".hidden.yaml", "a/b.yaml", "builtin:../x.yaml", "x.yaml\n", "x.json"} {
		st, m, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": duel, "file": f})
		wantError(t, "file "+f, st, m, 400, "file")
	}
	st, m, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": duel, "file": "Mon scénario (2).yaml"})
	if st != 200 || m["ok"] != true {
		t.Errorf("a file name with spaces and accents: %d %v", st, m)
	}
	st, m, _ = call(t, ts, "POST", "/api/jobs", map[string]any{"kind": "compare", "text": duel, "n": 1, "options": []map[string]any{{"name": "a"}}})
	wantError(t, "one option", st, m, 400, "at least two")
	st, m, _ = call(t, ts, "POST", "/api/jobs", map[string]any{"kind": "run", "text": "name: [", "n": 10})
	if st != 422 || len(m["errors"].([]any)) == 0 {
		t.Errorf("invalid scenario: %d %v, want 422 with the problems", st, m)
	}
	// DNS rebinding: a page of evil.example resolving to 127.0.0.1.
	st, m, _ = call(t, ts, "GET", "/api/scenarios", nil, "Host", "evil.example:8080")
	wantError(t, "foreign Host", st, m, 403, "evil.example")
	st, m, _ = call(t, ts, "GET", "/", nil, "Host", "evil.example")
	wantError(t, "foreign Host on the page", st, m, 403)
	st, _, _ = call(t, ts, "GET", "/api/scenarios", nil, "Host", "localhost:1234")
	if st != 200 {
		t.Errorf("Host localhost: %d", st)
	}
	// Cross-site POST.
	st, m, _ = call(t, ts, "POST", "/api/jobs", run(10), "Origin", "http://evil.example")
	wantError(t, "foreign Origin", st, m, 403, "evil.example")
	st, m, _ = call(t, ts, "POST", "/api/jobs", run(10), "Origin", "null")
	wantError(t, "null Origin", st, m, 403)
	st, m, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": duel}, "Sec-Fetch-Site", "cross-site")
	wantError(t, "Sec-Fetch-Site", st, m, 403, "another site")
	st, m, h := call(t, ts, "OPTIONS", "/api/jobs", nil, "Origin", "http://evil.example", "Access-Control-Request-Method", "POST")
	wantError(t, "preflight", st, m, 403, "CORS")
	if h.Get("Access-Control-Allow-Origin") != "" {
		t.Error("a preflight got CORS headers")
	}
	st, _, _ = call(t, ts, "POST", "/api/check", map[string]any{"text": duel}, "Origin", ts.URL)
	if st != 200 {
		t.Errorf("same Origin: %d", st)
	}
	// Wrong methods and paths.
	st, m, _ = call(t, ts, "GET", "/api/jobs", nil)
	wantError(t, "GET /api/jobs", st, m, 405)
	st, m, _ = call(t, ts, "DELETE", "/api/scenarios", nil)
	wantError(t, "DELETE scenarios", st, m, 405)
	st, m, _ = call(t, ts, "POST", "/", map[string]any{})
	wantError(t, "POST the page", st, m, 405)
	st, m, _ = call(t, ts, "GET", "/api/nothing", nil)
	wantError(t, "unknown endpoint", st, m, 404)
	st, m, _ = call(t, ts, "GET", "/api/jobs/nonesuch/events", nil)
	wantError(t, "unknown job", st, m, 404, "no job")
	st, m, _ = call(t, ts, "GET", "/api/permalink?p=%%%", nil)
	wantError(t, "bad permalink", st, m, 400, "permalink")
	st, m, _ = call(t, ts, "GET", "/api/permalink?p=AAAA", nil)
	wantError(t, "garbage permalink", st, m, 400, "permalink")
}

// TestServeRecover: a panic in a handler is a 500 with a JSON message.
func TestServeRecover(t *testing.T) {
	s, ts := testServer(t, Config{})
	s.mux.HandleFunc("/api/test-panic", func(http.ResponseWriter, *http.Request) { panic("kaboom") })
	st, m, _ := call(t, ts, "GET", "/api/test-panic", nil)
	wantError(t, "panic", st, m, 500, "internal error", "kaboom")
	// And the server goes on.
	if st, _, _ := call(t, ts, "GET", "/api/scenarios", nil); st != 200 {
		t.Errorf("after a panic: %d", st)
	}
}

// TestServeRun: a run's events narrow the interval, and its counts equal a
// direct sim.Run (simctl run) of the same seed and N.
func TestServeRun(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	const n, seed = 60_000, 11
	id := startJob(t, ts, jobRequest{Kind: "run", File: "builtin:d20/duel.yaml", Text: text, N: n, Seed: seed})
	evs := events(t, ts, id)
	var widths []float64
	var names []string
	for _, e := range evs {
		names = append(names, e.Name)
		if e.Name == "progress" {
			ci := e.Data["sides"].([]any)[0].(map[string]any)["win_ci95"].([]any)
			widths = append(widths, ci[1].(float64)-ci[0].(float64))
		}
	}
	if names[0] != "started" || names[len(names)-1] != "done" || len(widths) < 2 {
		t.Fatalf("events %v", names)
	}
	if widths[len(widths)-1] >= widths[0] {
		t.Errorf("interval did not narrow: %v", widths)
	}
	for i, e := range evs {
		if e.ID != fmt.Sprint(i) {
			t.Errorf("event %d has id %s", i, e.ID)
		}
	}
	_, m, _ := call(t, ts, "GET", "/api/jobs/"+id, nil)
	wins, draws, got := sideWins(t, m["result"])
	want := directRun(t, text, seed, n)
	if got != n || wins != want.Wins || draws != want.Draws {
		t.Errorf("job counts %v draws %d of %d, direct sim.Run %v draws %d", wins, draws, got, want.Wins, want.Draws)
	}
	// The result is simctl run's document, reproducible by its command.
	r := m["result"].(map[string]any)
	if r["command"] != "simctl run d20/duel.yaml -n 60000 --seed 11" || r["scenario_sha256"] != results.ScenarioSum([]byte(text)) {
		t.Errorf("command %v, sha %v", r["command"], r["scenario_sha256"])
	}
	// Reconnecting with Last-Event-ID resumes after that event.
	req, _ := http.NewRequest("GET", ts.URL+"/api/jobs/"+id+"/events", nil)
	req.Header.Set("Last-Event-ID", fmt.Sprint(len(evs)-2))
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if strings.Count(string(body), "event: ") != 1 || !strings.Contains(string(body), "event: done") {
		t.Errorf("Last-Event-ID resume: %q", body)
	}
}

// TestServeResults: figures, traces and the report bundle of a run.
func TestServeResults(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	id := startJob(t, ts, jobRequest{Kind: "run", File: "builtin:d20/duel.yaml", Text: text, N: 3000, Seed: 5})
	m := jobResult(t, ts, id)
	figs := m["figures"].([]any)
	if len(figs) < 4 {
		t.Errorf("figures %v", figs)
	}
	for _, f := range figs {
		res, err := ts.Client().Get(ts.URL + "/api/jobs/" + id + "/figures/" + f.(string) + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" || !bytes.Contains(body, []byte("<svg")) || !bytes.Contains(body, []byte("Arial")) {
			t.Errorf("figure %s: %d %s", f, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	st, e, _ := call(t, ts, "GET", "/api/jobs/"+id+"/figures/nope.svg", nil)
	wantError(t, "unknown figure", st, e, 404, "rounds")

	// A trace is simctl trace's text for that encounter.
	st, tr, _ := call(t, ts, "GET", "/api/jobs/"+id+"/trace?encounter=7", nil)
	var out bytes.Buffer
	cliMain(context.Background(), []string{"trace", "d20/duel", "--seed", "5", "--encounter", "7"}, &out, io.Discard)
	if st != 200 || !strings.HasSuffix(tr["text"].(string), out.String()) || !strings.HasPrefix(tr["text"].(string), "# simctl trace d20/duel.yaml --seed 5 --encounter 7\n") {
		t.Errorf("trace: %d\n%v\nwant\n%s", st, tr["text"], out.String())
	}
	for _, p := range []string{"shortest", "median", "longest"} {
		st, tr, _ := call(t, ts, "GET", "/api/jobs/"+id+"/trace?pick="+p, nil)
		if st != 200 || !strings.Contains(tr["title"].(string), "encounter") {
			t.Errorf("pick %s: %d %v", p, st, tr)
		}
	}
	st, tr, _ = call(t, ts, "GET", "/api/jobs/"+id+"/trace?encounter=7&seed=12", nil)
	out.Reset()
	cliMain(context.Background(), []string{"trace", "d20/duel", "--seed", "12", "--encounter", "7"}, &out, io.Discard)
	if st != 200 || !strings.HasSuffix(tr["text"].(string), out.String()) {
		t.Errorf("trace with another seed: %d %v", st, tr["title"])
	}
	st, e, _ = call(t, ts, "GET", "/api/jobs/"+id+"/trace?encounter=1&seed=-3", nil)
	wantError(t, "negative seed", st, e, 400, "seed")
	st, e, _ = call(t, ts, "GET", "/api/jobs/"+id+"/trace?encounter=-1", nil)
	wantError(t, "negative encounter", st, e, 400)

	// The report is exactly what simctl report writes for the result.
	checkReport(t, ts, id, m["result"])
}

// checkReport checks that a job's report archives hold, file for file,
// what simctl report writes for its result.
func checkReport(t *testing.T, ts *httptest.Server, id string, result any) {
	t.Helper()
	dir := t.TempDir()
	resFile := filepath.Join(dir, "result.json")
	os.WriteFile(resFile, toJSON(t, result), 0o644)
	if code := cliMain(context.Background(), []string{"report", resFile, "-o", filepath.Join(dir, "report"), "--quiet"}, io.Discard, io.Discard); code != 0 {
		t.Fatalf("simctl report: %d", code)
	}
	want := map[string][]byte{}
	filepath.WalkDir(filepath.Join(dir, "report"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(filepath.Join(dir, "report"), p)
			data, _ := os.ReadFile(p)
			// As if run in dir: simctl report result.json -o report.
			want["simctl-report/"+rel] = bytes.ReplaceAll(data, []byte(dir+"/"), nil)
		}
		return nil
	})
	for _, format := range []string{"zip", "tar.gz"} {
		res, err := ts.Client().Get(ts.URL + "/api/jobs/" + id + "/report." + format)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("report.%s: %d %s", format, res.StatusCode, body)
		}
		got := unpack(t, format, body)
		if len(got) != len(want) {
			t.Errorf("report.%s has %d files, simctl report wrote %d", format, len(got), len(want))
		}
		for name, data := range want {
			if !bytes.Equal(got[name], data) {
				t.Errorf("report.%s: %s differs from simctl report's:\n%s\nwant\n%s", format, name, got[name], data)
			}
			if _, ok := got[name]; !ok {
				t.Errorf("report.%s lacks %s", format, name)
			}
		}
	}
}

func toJSON(t *testing.T, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func unpack(t *testing.T, format string, data []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	if format == "zip" {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, _ := f.Open()
			out[f.Name], _ = io.ReadAll(rc)
			rc.Close()
		}
		return out
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name], _ = io.ReadAll(tr)
	}
}

// TestServeExperiments: sweep, compare and matrix are the CLI's documents.
func TestServeExperiments(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	cases := []struct {
		req jobRequest
		cli []string
	}{
		{jobRequest{Kind: "sweep", Text: text, N: 500, Seed: 2, Vary: []string{"heroes.Fighter.init=0:4:2"}},
			[]string{"sweep", "d20/duel", "-n", "500", "--seed", "2", "--vary", "heroes.Fighter.init=0:4:2"}},
		{jobRequest{Kind: "compare", Text: text, N: 500, Seed: 2, Options: []results.NamedSets{{Name: "base"}, {Name: "fast", Sets: []string{"heroes.Fighter.init=5", "heroes.Fighter.hp=30"}}}},
			[]string{"compare", "d20/duel", "-n", "500", "--seed", "2", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=5 --set heroes.Fighter.hp=30"}},
		{jobRequest{Kind: "matrix", Text: text, N: 500, Seed: 2, Rows: []results.NamedSets{{Name: "base"}, {Name: "fast", Sets: []string{"heroes.Fighter.init=5"}}}, Cols: []results.NamedSets{{Name: "base"}}},
			[]string{"matrix", "d20/duel", "-n", "500", "--seed", "2", "--row", "base=", "--row", "fast=--set heroes.Fighter.init=5", "--col", "base="}},
		{jobRequest{Kind: "value", Text: text, N: 500, Seed: 2, Params: "init,hp", Side: "heroes"},
			[]string{"value", "d20/duel", "-n", "500", "--seed", "2", "--side", "heroes", "--params", "init,hp"}},
	}
	for _, c := range cases {
		id := startJob(t, ts, c.req)
		m := jobResult(t, ts, id)
		var out bytes.Buffer
		if code := cliMain(context.Background(), append(c.cli, "--format", "json"), &out, io.Discard); code != 0 {
			t.Fatalf("%v: exit %d", c.cli, code)
		}
		var want map[string]any
		json.Unmarshal(out.Bytes(), &want)
		got := m["result"].(map[string]any)
		for _, k := range []string{"points", "options", "win", "joint", "effects", "rates"} {
			if want[k] == nil {
				continue
			}
			if !equalIgnoring(got[k], want[k]) {
				t.Errorf("%s: %s differs from simctl %s's", c.req.Kind, k, c.req.Kind)
			}
		}
		if figs := m["figures"].([]any); len(figs) != 1 {
			t.Errorf("%s: figures %v", c.req.Kind, figs)
		}
		checkReport(t, ts, id, m["result"])
		if bytes.Contains(toJSON(t, got), []byte("simctl-serve-")) {
			t.Errorf("%s: the document names the server's temporary folder", c.req.Kind)
		}
		// The command reproduces the document: the CLI's arguments, with
		// the scenario as the page names it (TestServeInterim runs it).
		if want := "simctl " + results.ShellJoin(append(append([]string{c.req.Kind, "scenario.yaml"}, c.cli[2:]...), workersArgs("--format", "json")...)); got["command"] != want {
			t.Errorf("%s: command %q, want %q", c.req.Kind, got["command"], want)
		}
		// The CLI's warnings are passed on, without the bar's frames.
		if w := fmt.Sprint(m["warnings"]); strings.Contains(w, "enc/s") || (c.req.Kind == "compare") != strings.Contains(w, "encounters differ") && c.req.Kind != "value" {
			t.Errorf("%s: warnings %v", c.req.Kind, w)
		}
	}
	// A longer sweep reports the encounters played from the CLI's
	// progress, and the page hears them.
	id := startJob(t, ts, jobRequest{Kind: "sweep", Text: text, N: 500_000, Seed: 2, Vary: []string{"heroes.Fighter.init=0:2:1"}})
	var seen bool
	for _, e := range events(t, ts, id) {
		if e.Name == "progress" && e.Data["encounters"] != nil {
			seen = true
			if e.Data["encounters_total"].(float64) != 1_500_000 {
				t.Errorf("sweep progress %v, want a total of 1,500,000", e.Data)
			}
		}
	}
	if !seen {
		t.Error("no sweep progress with the encounters played")
	}
}

// equalIgnoring compares two JSON values, leaving out timings, commands and
// file names (which differ between a server job and a CLI run).
func equalIgnoring(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range x {
			switch k {
			case "elapsed_seconds", "encounters_per_second", "command", "file", "scenario_text", "scenario_sha256":
				continue
			}
			if !equalIgnoring(v, y[k]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalIgnoring(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// TestServeConcurrent: a thousand simultaneous runs are each accepted
// (202) or refused with 429 and Retry-After; every accepted job's counts
// are those of its own seed, none lost or mixed up.
func TestServeConcurrent(t *testing.T) {
	const reqs, n = 1000, 300
	// keptJobs above reqs: every accepted job must still be there when
	// its result is read (with the default 256 the first ones expired
	// when more were accepted, and the test was flaky).
	s, ts := testServer(t, Config{MaxJobs: 2, Queue: 8, Workers: 1, KeptJobs: 2 * reqs})
	text := duelText(t)
	type acc struct {
		id   string
		seed uint64
	}
	var mu sync.Mutex
	var accepted []acc
	var refused, other int
	var wg sync.WaitGroup
	body := func(seed uint64) []byte {
		return toJSON(t, jobRequest{Kind: "run", Text: text, N: n, Seed: seed})
	}
	for i := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seed := uint64(1000 + i)
			req, _ := http.NewRequest("POST", ts.URL+"/api/jobs", bytes.NewReader(body(seed)))
			req.Header.Set("Content-Type", "application/json")
			res, err := ts.Client().Do(req)
			if err != nil {
				mu.Lock()
				other++
				mu.Unlock()
				return
			}
			var m map[string]any
			json.NewDecoder(res.Body).Decode(&m)
			res.Body.Close()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case res.StatusCode == 202:
				accepted = append(accepted, acc{m["id"].(string), seed})
			case res.StatusCode == 429 && res.Header.Get("Retry-After") != "" && strings.Contains(fmt.Sprint(m["error"]), "busy"):
				refused++
			default:
				other++
			}
		}()
	}
	wg.Wait()
	if other > 0 || len(accepted)+refused != reqs || len(accepted) < 10 || refused == 0 {
		t.Fatalf("%d accepted, %d refused with 429, %d other answers", len(accepted), refused, other)
	}
	ids := map[string]bool{}
	for _, a := range accepted {
		if ids[a.id] {
			t.Fatalf("job id %s given twice", a.id)
		}
		ids[a.id] = true
	}
	for _, a := range accepted {
		m := jobResult(t, ts, a.id)
		wins, draws, got := sideWins(t, m["result"])
		want := directRun(t, text, a.seed, n)
		r := m["result"].(map[string]any)
		if got != n || wins != want.Wins || draws != want.Draws || uint64(r["seed"].(float64)) != a.seed {
			t.Errorf("job %s (seed %d): %v/%d of %d, want %v/%d", a.id, a.seed, wins, draws, got, want.Wins, want.Draws)
		}
	}
	s.jobsDone.Wait() // a job is "done" a moment before its slot is given back
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running != 0 || len(s.waiting) != 0 {
		t.Errorf("after all jobs: %d running, %d waiting", s.running, len(s.waiting))
	}
}

// TestServeCancel: cancel stops a running job's workers at once, and takes
// a queued job out of the queue; the queue positions are announced.
func TestServeCancel(t *testing.T) {
	s, ts := testServer(t, Config{MaxJobs: 1, Queue: 4, MaxEncounters: 1 << 40})
	text := duelText(t)
	long := startJob(t, ts, jobRequest{Kind: "run", Text: text, N: 1 << 36, Seed: 1})
	queued := startJob(t, ts, jobRequest{Kind: "run", Text: text, N: 1000, Seed: 2})
	third := startJob(t, ts, jobRequest{Kind: "run", Text: text, N: 1000, Seed: 3})
	// Wait for the long job's first interim result.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/jobs/"+long+"/events", nil)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(res.Body)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "event: progress\n" {
			break
		}
	}
	// Cancel the queued one: the third moves up to position 1.
	st, m, _ := call(t, ts, "DELETE", "/api/jobs/"+queued, nil)
	if st != 200 || m["state"] != stateCancelled {
		t.Errorf("cancel queued: %d %v", st, m)
	}
	t0 := time.Now()
	st, _, _ = call(t, ts, "POST", "/api/jobs/"+long+"/cancel", map[string]any{})
	if st != 200 {
		t.Errorf("cancel: %d", st)
	}
	rest, _ := io.ReadAll(rd)
	res.Body.Close()
	if !strings.Contains(string(rest), "event: cancelled") {
		t.Errorf("the stream did not end with cancelled: %q", rest)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	_, m, _ = call(t, ts, "GET", "/api/jobs/"+long, nil)
	if m["state"] != stateCancelled || m["result"] != nil {
		t.Errorf("cancelled job: %v", m)
	}
	st, m, _ = call(t, ts, "GET", "/api/jobs/"+long+"/report.zip", nil)
	wantError(t, "report of a cancelled job", st, m, 409, "cancelled")
	evs := events(t, ts, third)
	var positions []float64
	for _, e := range evs {
		if e.Name == "queued" {
			positions = append(positions, e.Data["position"].(float64))
		}
	}
	if !slices.Equal(positions, []float64{2, 1}) || evs[len(evs)-1].Name != "done" {
		t.Errorf("third job: queue positions %v, events %v", positions, evs)
	}
	// The third job's "done" is sent before its goroutine gives the slot
	// back; wait for every job goroutine to end before counting slots.
	s.jobsDone.Wait()
	s.mu.Lock()
	running := s.running
	s.mu.Unlock()
	if running != 0 {
		t.Errorf("%d jobs still running", running)
	}
}

// TestServePermalink: a permalink decodes to the same request, whose job
// has the same counts.
func TestServePermalink(t *testing.T) {
	_, ts := testServer(t, Config{})
	req := jobRequest{Kind: "run", File: "my.yaml", Text: strings.Replace(duelText(t), "ac: 17", "ac: 18", 1), N: 4000, Seed: 99,
		Sets: []string{"heroes.Fighter.init=3"}}
	st, m, _ := call(t, ts, "POST", "/api/permalink", req)
	if st != 200 || !strings.HasPrefix(m["fragment"].(string), "#p=") {
		t.Fatalf("encode: %d %v", st, m)
	}
	p := m["p"].(string)
	if strings.ContainsAny(p, "+/=") {
		t.Errorf("not base64url: %q", p)
	}
	st, m, _ = call(t, ts, "GET", "/api/permalink?p="+p, nil)
	var back jobRequest
	json.Unmarshal(toJSON(t, m), &back)
	if st != 200 || back.Text != req.Text || back.Seed != req.Seed || back.N != req.N || !slices.Equal(back.Sets, req.Sets) {
		t.Fatalf("decode: %d %+v", st, back)
	}
	a := jobResult(t, ts, startJob(t, ts, req))
	b := jobResult(t, ts, startJob(t, ts, back))
	wa, da, _ := sideWins(t, a["result"])
	wb, db, _ := sideWins(t, b["result"])
	if wa != wb || da != db {
		t.Errorf("permalink job %v/%d, original %v/%d", wb, db, wa, da)
	}
}

// TestServeExpiry: finished jobs are forgotten after --job-ttl.
func TestServeExpiry(t *testing.T) {
	s, ts := testServer(t, Config{JobTTL: time.Minute})
	id := startJob(t, ts, jobRequest{Kind: "run", Text: duelText(t), N: 100, Seed: 1})
	jobResult(t, ts, id)
	s.expire(time.Now())
	if st, _, _ := call(t, ts, "GET", "/api/jobs/"+id, nil); st != 200 {
		t.Errorf("a fresh job expired: %d", st)
	}
	s.expire(time.Now().Add(2 * time.Minute))
	st, m, _ := call(t, ts, "GET", "/api/jobs/"+id, nil)
	wantError(t, "expired job", st, m, 404, "expire")
}

// workersArgs is args as cliArgs ends a test server's command line: with
// --workers 2 only when that is not the CLI's default.
func workersArgs(args ...string) []string {
	if runtime.GOMAXPROCS(0) != 2 {
		args = append(args, "--workers", "2")
	}
	return args
}

// maskTimes blanks a JSON document's timings, the only bytes two runs of
// one command may differ in.
var maskTimes = regexp.MustCompile(`"(elapsed_seconds|encounters_per_second)": ?[-+0-9.eE]+`)

// TestServeInterim: sweep, compare, value and matrix jobs run the CLI's
// commands in process; the page hears their partial documents as they
// come (a sweep's finished points, the comparison's, value run's and
// matrix's estimates with their intervals narrowing), and the final
// document is byte for byte what the command line it records prints.
func TestServeInterim(t *testing.T) {
	defer func(e time.Duration, s int64) { interimEvery, interimSegment = e, s }(interimEvery, interimSegment)
	interimEvery, interimSegment = 5*time.Millisecond, 512
	s, ts := testServer(t, Config{})
	text := duelText(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // the recorded command names scenario.yaml
	// width is the 95% interval of the first side's win rate that the
	// page shows for each kind (a compare option's, a matrix cell's).
	width := func(ci any) float64 { c := ci.([]any); return c[1].(float64) - c[0].(float64) }
	cases := []struct {
		req jobRequest
		// widths are the intervals the interim document shows; played the
		// encounters (or finished points) it covers.
		widths func(doc map[string]any) (played float64, widths []float64)
	}{
		{jobRequest{Kind: "compare", Text: text, N: 200_000, Seed: 3, Options: []results.NamedSets{{Name: "base"}, {Name: "fast", Sets: []string{"heroes.Fighter.init=5"}}}},
			func(d map[string]any) (float64, []float64) {
				var ws []float64
				for _, o := range d["options"].([]any) {
					r := o.(map[string]any)["result"].(map[string]any)
					ws = append(ws, width(r["sides"].([]any)[0].(map[string]any)["win_ci95"]))
				}
				return d["encounters"].(float64), ws
			}},
		{jobRequest{Kind: "matrix", Text: text, N: 150_000, Seed: 3, Rows: []results.NamedSets{{Name: "base"}, {Name: "fast", Sets: []string{"heroes.Fighter.init=5"}}}, Cols: []results.NamedSets{{Name: "base"}}},
			func(d map[string]any) (float64, []float64) {
				var ws []float64
				for _, row := range d["ci95"].([]any) {
					for _, c := range row.([]any) {
						ws = append(ws, width(c))
					}
				}
				return d["encounters"].(float64), ws
			}},
		{jobRequest{Kind: "value", Text: text, N: 60_000, Seed: 3, Params: "init,hp"},
			func(d map[string]any) (float64, []float64) {
				var ws []float64
				for _, r := range d["effects"].([]any) {
					ws = append(ws, width(r.(map[string]any)["ci95"]))
				}
				return d["encounters"].(float64), ws
			}},
		{jobRequest{Kind: "sweep", Text: text, N: 40_000, Seed: 3, Vary: []string{"heroes.Fighter.init=0:6:1"}},
			func(d map[string]any) (float64, []float64) {
				// A point is final when it comes: the page sees points
				// arrive, each unfinished one as wide as can be, so the
				// widths' sum narrows.
				finished, sum := 0.0, 0.0
				for _, p := range d["points"].([]any) {
					pm := p.(map[string]any)
					if pm["unfinished"] != true {
						finished++
					}
					w := 1.0
					if pm["unfinished"] != true {
						w = width(pm["result"].(map[string]any)["sides"].([]any)[0].(map[string]any)["win_ci95"])
					}
					sum += w
				}
				return finished, []float64{sum}
			}},
	}
	for _, c := range cases {
		id := startJob(t, ts, c.req)
		var docs []map[string]any
		evs := events(t, ts, id)
		for _, e := range evs {
			if e.Name == "interim" {
				docs = append(docs, e.Data["result"].(map[string]any))
			}
		}
		if last := evs[len(evs)-1]; last.Name != "done" {
			t.Fatalf("%s: ended %s %v", c.req.Kind, last.Name, last.Data)
		}
		// A page that connects after the end hears no interim document:
		// the result supersedes them, and a finished job keeps only it
		// (issue 21: a sweep's last interim document was as large as the
		// result). The events keep their ids.
		again := events(t, ts, id)
		interims := 0
		for _, e := range again {
			if e.Name == "interim" {
				interims++
			}
		}
		if interims != 0 || again[len(again)-1].ID != evs[len(evs)-1].ID {
			t.Errorf("%s: a replay holds %d interim documents and ends at id %s (live: %s)", c.req.Kind, interims, again[len(again)-1].ID, evs[len(evs)-1].ID)
		}
		t.Logf("%s: %d interim documents", c.req.Kind, len(docs))
		if len(docs) < 2 {
			t.Fatalf("%s: %d interim documents, want several", c.req.Kind, len(docs))
		}
		var prev float64
		var first, last []float64
		for i, d := range docs {
			if d["interrupted"] != true {
				t.Errorf("%s: interim %d is not marked interrupted", c.req.Kind, i)
			}
			played, ws := c.widths(d)
			if played <= prev {
				t.Errorf("%s: interim %d covers %v, not more than the one before (%v)", c.req.Kind, i, played, prev)
			}
			prev = played
			if i == 0 {
				first = ws
			}
			last = ws
		}
		for k := range first {
			if !(last[k] < first[k]) {
				t.Errorf("%s: interval %d did not narrow: %.4f then %.4f", c.req.Kind, k, first[k], last[k])
			}
		}
		// The final document, as the server keeps it, against the CLI
		// running the command line the document records.
		s.mu.Lock()
		j := s.jobs[id]
		s.mu.Unlock()
		j.mu.Lock()
		got := j.doc
		j.mu.Unlock()
		var head struct{ Command string }
		if err := json.Unmarshal(got, &head); err != nil {
			t.Fatal(err)
		}
		words, err := app.SplitWords(head.Command)
		if err != nil || len(words) < 3 || words[0] != "simctl" || words[2] != "scenario.yaml" {
			t.Fatalf("%s: command %q", c.req.Kind, head.Command)
		}
		var out, errb bytes.Buffer
		if code := cliMain(context.Background(), words[1:], &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", head.Command, code, errb.String())
		}
		if g, w := maskTimes.ReplaceAll(got, nil), maskTimes.ReplaceAll(out.Bytes(), nil); !bytes.Equal(g, w) {
			t.Errorf("%s: the job's document differs from %s's:\n%s", c.req.Kind, head.Command, firstDiff(string(g), string(w)))
		}
	}
}

// TestServeTraceTargets: a comparison's option and a sweep's point are
// traced as simctl trace traces them with their overrides, by index or as
// the report's representative fights.
func TestServeTraceTargets(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	// cliTrace is simctl trace's text for the trace's own header line
	// (# simctl trace FILE --seed S --encounter I --set ...), run on the
	// built-in the job's text is.
	cliTrace := func(tr map[string]any) (string, string) {
		text := tr["text"].(string)
		head, body, _ := strings.Cut(text, "\n")
		words, err := app.SplitWords(strings.TrimPrefix(head, "# "))
		if err != nil || len(words) < 3 {
			t.Fatalf("trace header %q", head)
		}
		words[2] = "d20/duel"
		var out bytes.Buffer
		if code := cliMain(context.Background(), words[1:], &out, io.Discard); code != 0 {
			t.Fatalf("%v: exit %d", words, code)
		}
		return body, out.String()
	}
	cmp := startJob(t, ts, jobRequest{Kind: "compare", Text: text, N: 3000, Seed: 4,
		Options: []results.NamedSets{{Name: "base"}, {Name: "fast", Sets: []string{"heroes.Fighter.init=5"}}}, Sets: []string{"monsters.Orc.hp=9"}})
	jobResult(t, ts, cmp)
	st, tr, _ := call(t, ts, "GET", "/api/jobs/"+cmp+"/trace?option=fast&encounter=7", nil)
	if st != 200 || !strings.HasPrefix(tr["text"].(string), "# simctl trace scenario.yaml --seed 4 --encounter 7 --set monsters.Orc.hp=9 --set heroes.Fighter.init=5\n") {
		t.Fatalf("option trace: %d %v", st, tr)
	}
	if got, want := cliTrace(tr); got != want {
		t.Errorf("option fast, encounter 7:\n%s\nsimctl trace:\n%s", got, want)
	}
	for _, p := range []string{"shortest", "longest"} {
		st, tr, _ := call(t, ts, "GET", "/api/jobs/"+cmp+"/trace?option=fast&pick="+p, nil)
		if st != 200 || !strings.HasPrefix(tr["title"].(string), "option fast: the "+p+" fight: encounter") || !strings.Contains(tr["text"].(string), "--set heroes.Fighter.init=5") {
			t.Fatalf("option pick %s: %d %v", p, st, tr)
		}
		if got, want := cliTrace(tr); got != want {
			t.Errorf("option fast, %s:\n%s\nsimctl trace:\n%s", p, got, want)
		}
	}
	st, e, _ := call(t, ts, "GET", "/api/jobs/"+cmp+"/trace?option=nope&encounter=1", nil)
	wantError(t, "unknown option", st, e, 400, "base, fast")

	sw := startJob(t, ts, jobRequest{Kind: "sweep", Text: text, N: 2000, Seed: 4, Vary: []string{"heroes.Fighter.init=0:4:2"}})
	jobResult(t, ts, sw)
	st, tr, _ = call(t, ts, "GET", "/api/jobs/"+sw+"/trace?point=2&encounter=3", nil)
	if st != 200 || !strings.HasPrefix(tr["title"].(string), "point 2 (4): encounter 3 of seed 4") || !strings.HasPrefix(tr["text"].(string), "# simctl trace scenario.yaml --seed 4 --encounter 3 --set heroes.Fighter.init=4\n") {
		t.Fatalf("point trace: %d %v", st, tr)
	}
	if got, want := cliTrace(tr); got != want {
		t.Errorf("point 2, encounter 3:\n%s\nsimctl trace:\n%s", got, want)
	}
	st, tr, _ = call(t, ts, "GET", "/api/jobs/"+sw+"/trace?point=1&pick=median", nil)
	if st != 200 || !strings.Contains(tr["text"].(string), "--set heroes.Fighter.init=2") {
		t.Fatalf("point pick: %d %v", st, tr)
	}
	if got, want := cliTrace(tr); got != want {
		t.Errorf("point 1, median:\n%s\nsimctl trace:\n%s", got, want)
	}
	st, e, _ = call(t, ts, "GET", "/api/jobs/"+sw+"/trace?point=3&encounter=1", nil)
	wantError(t, "point out of range", st, e, 400, "0 to 2")
	st, e, _ = call(t, ts, "GET", "/api/jobs/"+sw+"/trace?encounter=1", nil)
	wantError(t, "no point", st, e, 400, "point")
}

// TestServeBuiltinName: a job may name its scenario after a built-in only
// with that built-in's text, since its command lines replay the built-in.
func TestServeBuiltinName(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	edited := strings.Replace(text, "ac: 17", "ac: 18", 1)
	if edited == text {
		t.Fatal("the duel has no ac: 17")
	}
	for _, kind := range []string{"run", "sweep"} {
		req := jobRequest{Kind: kind, File: "builtin:d20/duel.yaml", Text: edited, N: 100, Seed: 1, Vary: []string{"heroes.Fighter.init=0:2:1"}}
		st, m, _ := call(t, ts, "POST", "/api/jobs", req)
		wantError(t, kind+" with an edited built-in", st, m, 400, "not that built-in's", "duel.yaml")
		req.Text = text
		jobResult(t, ts, startJob(t, ts, req))
		// No text with a built-in's name: that built-in as it is.
		req.Text = ""
		jobResult(t, ts, startJob(t, ts, req))
		req.File = "builtin:d20/nosuch.yaml"
		st, m, _ = call(t, ts, "POST", "/api/jobs", req)
		wantError(t, kind+" with no such built-in", st, m, 400, "no such built-in", "/api/scenarios")
		req.File = "builtin:d20/duel.yaml"
	}
}
