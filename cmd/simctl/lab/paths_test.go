package lab

import (
	"net/http"
	"strings"
	"testing"
)

func TestHidePaths(t *testing.T) {
	for in, want := range map[string]string{
		"mkdir /tmp/simctl-report-123: no space left on device":               "mkdir simctl-report-123: no space left on device",
		`simctl report: writing "/srv/lab/tmp/report/damage.svg": disk full`:  `simctl report: writing "damage.svg": disk full`,
		"open C:\\Users\\lab\\AppData\\Local\\Temp\\x.json: denied":           "open x.json: denied",
		"saving my.yaml: write /home/u/scen/.simctl-save-AB.tmp: disk full":   "saving my.yaml: write .simctl-save-AB.tmp: disk full",
		"trace: 1/2 is not a path, nor is heroes.Fighter.init=1 or a/b (x)":   "trace: 1/2 is not a path, nor is heroes.Fighter.init=1 or a/b (x)",
		"internal error: runtime error: index out of range [3] with length 3": "internal error: runtime error: index out of range [3] with length 3",
	} {
		if got := hidePaths(in); got != want {
			t.Errorf("hidePaths(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// A report that fails on the server's disk (here: no temporary folder)
// answers 500 without the server's absolute paths (issue 31 item 12).
func TestReportFailureHidesPaths(t *testing.T) {
	_, ts := testServer(t, Config{})
	id := startJob(t, ts, jobRequest{Kind: "run", Text: duelText(t), N: 20, Seed: 1})
	jobResult(t, ts, id)
	t.Setenv("TMPDIR", "/nonexistent-simctl-test/deeper")
	st, m, _ := call(t, ts, "GET", "/api/jobs/"+id+"/report.zip", nil)
	e, _ := m["error"].(string)
	if st != http.StatusInternalServerError || e == "" || strings.Contains(e, "/nonexistent-simctl-test") {
		t.Errorf("report without a temporary folder: %d %q", st, e)
	}
}
