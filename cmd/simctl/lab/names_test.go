package lab

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// One rule for names (issue 31 item 9): a name the lab refuses as a job's
// file (a newline, a right-to-left override, markup, ".yaml" alone,
// ".yml" alone) is refused by save too, and one save accepts is one a job
// may name.
func TestSaveNamesAreJobNames(t *testing.T) {
	dir := t.TempDir()
	_, ts := testServer(t, Config{Dir: dir, AllowSave: true})
	text := duelText(t)
	for _, name := range []string{"a\nb.yaml", "\u202eevil.yaml", "<b>x</b>.yaml", ".yaml", ".yml", "builtin:x.yaml", "a\tb.yaml", "\"q\".yaml"} {
		st, m, _ := call(t, ts, "POST", "/api/jobs?dry=1", jobRequest{Kind: "run", File: name, Text: text, N: 10})
		if st != http.StatusBadRequest {
			t.Errorf("job file %q: %d %v; the test expects the lab to refuse it", name, st, m)
		}
		st, m, _ = call(t, ts, "POST", "/api/save", map[string]any{"name": name, "text": text})
		wantError(t, "save "+name, st, m, http.StatusBadRequest, "name")
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("save %q wrote the file", name)
		}
	}
	for _, name := range []string{"my duel (2).yaml", "héros+orcs.yml", "x.yaml"} {
		st, m, _ := call(t, ts, "POST", "/api/save", map[string]any{"name": name, "text": text})
		if st != http.StatusOK {
			t.Errorf("save %q: %d %v", name, st, m)
			continue
		}
		if st, m, _ := call(t, ts, "POST", "/api/jobs?dry=1", jobRequest{Kind: "run", File: name, Text: text, N: 10}); st != http.StatusOK {
			t.Errorf("job file %q after saving it: %d %v", name, st, m)
		}
	}
}

// A find job's representative fights are picked among its encounters as a
// run's are: GET .../trace?pick= answered 500 (a nil result) for it
// (issue 31 item 4); no job resource answers a 5xx.
func TestFindJobTracePick(t *testing.T) {
	_, ts := testServer(t, Config{})
	id := startJob(t, ts, jobRequest{Kind: "find", Text: duelText(t), N: 200, Seed: 3, Where: "rounds >= 2"})
	jobResult(t, ts, id)
	for _, pick := range []string{"shortest", "median", "longest"} {
		st, m, _ := call(t, ts, "GET", "/api/jobs/"+id+"/trace?pick="+pick, nil)
		if st != http.StatusOK || m["text"] == nil || m["text"] == "" {
			t.Errorf("pick %s: %d %v", pick, st, m)
		}
	}
	// The same fight as the run of the same scenario, seed and n picks.
	run := startJob(t, ts, jobRequest{Kind: "run", Text: duelText(t), N: 200, Seed: 3})
	jobResult(t, ts, run)
	_, a, _ := call(t, ts, "GET", "/api/jobs/"+id+"/trace?pick=longest", nil)
	_, b, _ := call(t, ts, "GET", "/api/jobs/"+run+"/trace?pick=longest", nil)
	if a["text"] != b["text"] {
		t.Errorf("find's longest fight differs from the run's:\n%v\n%v", a["title"], b["title"])
	}
}

// A sweep's document is read once for its traces, not on every request
// (issue 31 item 10: 0.5 s of CPU per request on a 31 MB document).
func TestSweepTraceReadsDocOnce(t *testing.T) {
	_, ts := testServer(t, Config{})
	id := startJob(t, ts, jobRequest{Kind: "sweep", Text: duelText(t), N: 20, Seed: 1, Vary: []string{"heroes.Fighter.init=0:4:1"}})
	jobResult(t, ts, id)
	before := traceIndexParses.Load()
	for k := range 5 {
		st, m, _ := call(t, ts, "GET", fmt.Sprintf("/api/jobs/%s/trace?point=%d&encounter=%d", id, k, k), nil)
		if st != http.StatusOK || m["text"] == "" {
			t.Fatalf("point %d: %d %v", k, st, m)
		}
	}
	if st, m, _ := call(t, ts, "GET", "/api/jobs/"+id+"/trace?point=9&encounter=0", nil); st != http.StatusBadRequest {
		t.Errorf("point 9 of 5: %d %v", st, m)
	}
	if n := traceIndexParses.Load() - before; n != 1 {
		t.Errorf("six trace requests read the document %d times, want once", n)
	}
}
