package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"simctl/reports"
)

// timedGet sends one request with a deadline: a server that hangs fails
// the test instead of stalling it. It returns the status (0 on timeout or
// a broken connection) and the body.
func timedGet(t *testing.T, base, method, path string, hdr ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, base+path, nil)
	if err != nil {
		return -1, err.Error() // a URL Go itself refuses to send
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	// An event stream of a finished job ends by itself; read at most a
	// little of anything.
	data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, string(data)
}

// TestServeExtremeValues drives every endpoint with extreme header and
// query values (int64 max and min, negative, huge, garbage) and checks
// that none is a 5xx and that the server still answers every request
// afterwards, a new job included. On the old code, Last-Event-ID
// 9223372036854775807 overflowed, panicked while the job's lock was held,
// and every later request hung.
func TestServeExtremeValues(t *testing.T) {
	_, ts := testServer(t, serveConfig{maxEnc: 100_000})
	text := duelText(t)
	run := startJob(t, ts, jobRequest{Kind: "run", Text: text, N: 500, Seed: 1})
	jobResult(t, ts, run)
	sweep := startJob(t, ts, jobRequest{Kind: "sweep", Text: text, N: 20, Seed: 1, Vary: []string{"heroes.Fighter.init=0:1:1"}})
	jobResult(t, ts, sweep)
	cmp := startJob(t, ts, jobRequest{Kind: "compare", Text: text, N: 20, Seed: 1, Options: []reports.NamedSets{{Name: "a"}, {Name: "b"}}})
	jobResult(t, ts, cmp)

	values := []string{"9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615",
		"18446744073709551616", "-1", "0", "1e308", "99999999999999999999999999999", "NaN", "0x10", " 1", "abc", "", "%00", strings.Repeat("9", 4000)}
	var paths []string
	for _, id := range []string{run, sweep, cmp} {
		paths = append(paths, "/api/jobs/"+id, "/api/jobs/"+id+"/events", "/api/jobs/"+id+"/figures/rounds.svg",
			"/api/jobs/"+id+"/figures/damage.svg", "/api/jobs/"+id+"/report.zip")
	}
	queryPaths := map[string][]string{
		"/api/jobs/" + run + "/trace":   {"encounter", "seed", "pick"},
		"/api/jobs/" + sweep + "/trace": {"point", "encounter", "seed"},
		"/api/jobs/" + cmp + "/trace":   {"option", "encounter", "seed"},
		"/api/scenario":                 {"id"},
		"/api/rules":                    {"ruleset"},
		"/api/policies":                 {"ruleset", "show"},
		"/api/template":                 {"ruleset"},
		"/api/permalink":                {"p"},
		"/api/scenarios":                {"x"},
		"/":                             {"x"},
	}
	check := func(what string, st int, body string) {
		t.Helper()
		if st == 0 || st >= 500 {
			t.Fatalf("%s: status %d: %.300s", what, st, body)
		}
	}
	for _, v := range values {
		for _, p := range paths {
			for _, h := range []string{"Last-Event-ID", "Range", "If-Modified-Since"} {
				st, body := timedGet(t, ts.URL, "GET", p, h, v)
				check(fmt.Sprintf("GET %s with %s: %.40q", p, h, v), st, body)
			}
		}
		for p, keys := range queryPaths {
			for _, k := range keys {
				q := url.Values{k: {v}}
				// With the other parameters a trace needs, so the extreme
				// value reaches the code past the first check.
				if strings.HasSuffix(p, "/trace") && k != "encounter" && k != "pick" {
					q.Set("encounter", "1")
				}
				if strings.HasSuffix(p, "/trace") && k != "option" && strings.Contains(p, cmp) {
					q.Set("option", "b")
				}
				if strings.HasSuffix(p, "/trace") && k != "point" && strings.Contains(p, sweep) {
					q.Set("point", "1")
				}
				st, body := timedGet(t, ts.URL, "GET", p+"?"+q.Encode())
				check(fmt.Sprintf("GET %s?%s", p, q.Encode()), st, body)
			}
		}
	}
	// Still answering: the page, a status, and a new job (which takes the
	// server's lock and every job's to expire old ones).
	if st, body := timedGet(t, ts.URL, "GET", "/"); st != 200 {
		t.Fatalf("GET / after the extreme values: %d %.200s", st, body)
	}
	if st, body := timedGet(t, ts.URL, "GET", "/api/jobs/"+run); st != 200 {
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
	if st, body := timedGet(t, ts.URL, "GET", "/"); st != 200 {
		t.Fatalf("GET / at the end: %d %.200s", st, body)
	}
}

// TestLastEventNext: the resume index is clamped, never overflows.
func TestLastEventNext(t *testing.T) {
	for v, want := range map[string]int{"": 0, "abc": 0, "-1": 0, "-9223372036854775808": 0, "0": 1, "41": 42,
		"9223372036854775807": maxEventIndex + 1, "99999999999999999999": 0} {
		if got := lastEventNext(v); got != want {
			t.Errorf("lastEventNext(%q) = %d, want %d", v, got, want)
		}
	}
}

// heapAfterGC is the live heap after two collections.
func heapAfterGC() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestServeRetainedBytes: finished jobs keep at most about keptBytes
// (plus the newest job) whatever their number. Twelve sweeps of 300
// points at n=1 make documents of about 4 MB each; without the byte bound
// (and with their interim documents kept) they retain 50 MB or more; with
// keptBytes 8 MB the heap grows by far less than 30 MB.
func TestServeRetainedBytes(t *testing.T) {
	s, ts := testServer(t, serveConfig{maxJobs: 1, workers: 1, keptBytes: 8 << 20, maxEnc: 1 << 30})
	text := duelText(t)
	base := heapAfterGC()
	for i := range 12 {
		id := startJob(t, ts, jobRequest{Kind: "sweep", Text: text, N: 1, Seed: uint64(i), Vary: []string{"heroes.Fighter.init=0:14:1", "heroes.Fighter.hp=1:20:1"}})
		jobResult(t, ts, id)
	}
	s.jobsDone.Wait()
	s.mu.Lock()
	kept := len(s.jobs)
	var retained int64
	for _, j := range s.jobs {
		j.mu.Lock()
		retained += j.retainedLocked()
		j.mu.Unlock()
	}
	s.mu.Unlock()
	grew := heapAfterGC() - base
	t.Logf("%d jobs kept, %d bytes by their estimate, heap grew %d bytes", kept, retained, grew)
	if kept >= 12 || retained > 8<<20+6<<20 {
		t.Errorf("%d of 12 jobs kept, retaining %d bytes: more than keptBytes (8 MB) and the newest job", kept, retained)
	}
	if grew > 30<<20 {
		t.Errorf("the heap grew by %d MB after 12 finished sweeps; keptBytes is 8 MB", grew>>20)
	}
}

// TestServeDocCap: a request whose points would make a document larger
// than maxDocBytes is refused up front, with the number it may have.
func TestServeDocCap(t *testing.T) {
	_, ts := testServer(t, serveConfig{maxDocBytes: 1 << 20, maxEnc: 1 << 30})
	text := duelText(t)
	st, m, _ := call(t, ts, "POST", "/api/jobs", jobRequest{Kind: "sweep", Text: text, N: 1, Seed: 1, Vary: []string{"heroes.Fighter.init=0:99:1", "heroes.Fighter.hp=1:100:1"}})
	wantError(t, "10,000 points", st, m, 400, "10000 points", "MB", "at most 64")
	st, m, _ = call(t, ts, "POST", "/api/jobs", jobRequest{Kind: "sweep", Text: text, N: 1, Seed: 1, Vary: []string{"heroes.Fighter.init=0:9:1"}})
	if st != 202 {
		t.Errorf("10 points: %d %v", st, m)
	}
}
