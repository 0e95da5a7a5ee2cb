package lab

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"simctl/reports/i18n"
)

// TestServeOptimizeReportArchive: a kept optimize job has a report
// archive, file for file what simctl report writes for its document, and
// its Markdown holds the optimize section; the status offers it (the
// page's buttons). A find job, whose kind has no report section, is
// refused with the kinds that have one, optimize among them.
func TestServeOptimizeReportArchive(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	id := startJob(t, ts, jobRequest{Kind: "optimize", Text: text, N: 4000, Seed: 3, Side: "heroes", Vary: []string{"heroes.Fighter.init=1:3"}})
	m := jobResult(t, ts, id)
	if m["report"] != true {
		t.Errorf("an optimize job's status says report %v", m["report"])
	}
	checkReport(t, ts, id, m["result"])
	res, err := ts.Client().Get(ts.URL + "/api/jobs/" + id + "/report.zip")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("report.zip: %d %v", res.StatusCode, err)
	}
	section := regexp.MustCompile(`(?m)^#+ 1\. .*: optimize heroes over 3 candidates`)
	found := false
	for name, data := range unpack(t, "zip", body) {
		if strings.HasSuffix(name, ".md") && section.Match(data) {
			found = true
		}
	}
	if !found {
		t.Errorf("report.zip of an optimize job has no optimize section (%s)", section)
	}

	fid := startJob(t, ts, jobRequest{Kind: "find", Text: text, N: 500, Seed: 3, Where: `rounds >= 3`})
	if m := jobResult(t, ts, fid); m["report"] != false {
		t.Errorf("a find job's status says report %v", m["report"])
	}
	st, e, _ := call(t, ts, "GET", "/api/jobs/"+fid+"/report.zip", nil)
	wantError(t, "report of a find job", st, e, 404, "this find job has no report archive", "run, sweep, compare, value, matrix, tournament, optimize")
}

// The refusal reads as English, Korean and Russian for a kind starting
// with a vowel ("a optimize job" it said), and names the kinds with a
// report, whichever language.
func TestNoReportReads(t *testing.T) {
	for _, tc := range []struct {
		lang i18n.Lang
		want string
	}{
		{i18n.En, "this optimize job has no report archive (simctl report reads the documents of run, sweep,"},
		{i18n.Ko, "이 optimize 작업에는 보고서 압축 파일이 없습니다(simctl report가 읽는 문서: run, sweep,"},
		{i18n.Ru, "у задания optimize нет архива отчёта (simctl report читает документы run, sweep,"},
	} {
		if got := tc.lang.Msg(noReport("optimize")); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: %q, want it to start %q", tc.lang, got, tc.want)
		}
	}
}
