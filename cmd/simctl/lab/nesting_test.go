package lab

import (
	"strings"
	"testing"

	"simctl/reports/results"
	"simctl/scenarios"
)

// TestDeepConditionRefused (issue 31 item 1): a 600 KB condition of
// 300,000 parentheses, under the 1 MiB body cap, as a find's or an
// optimize's where (with ?dry=1 and without) or as a tactics when: sent to
// /api/check, is refused with a 4xx (or, for /api/check, a problem) that
// says where, and the server answers the next request. Before, the parser
// recursed once per level: `fatal error: stack overflow` ended the
// process, and ?dry=1 said {"ok":true} since nothing parsed the condition.
func TestDeepConditionRefused(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	deep := strings.Repeat("(", 300000) + "rounds > 1" + strings.Repeat(")", 300000)
	for _, c := range []struct {
		name string
		req  jobRequest
		frag string
	}{
		{"find", jobRequest{Kind: "find", Text: text, N: 10, Where: deep}, "where: column 4097: condition too long"},
		{"optimize", jobRequest{Kind: "optimize", Text: text, N: 10, Vary: []string{"heroes.Fighter.init=1:3"}, Where: deep}, "where: column 4097: condition too long"},
		// Within the token limit, the nesting limit answers.
		{"find nested", jobRequest{Kind: "find", Text: text, N: 10, Where: strings.Repeat("(", 1000) + "rounds > 1" + strings.Repeat(")", 1000)}, "where: column 65: condition nested too deeply"},
		{"optimize nested", jobRequest{Kind: "optimize", Text: text, N: 10, Vary: []string{"heroes.Fighter.init=1:3"}, Where: strings.Repeat("not ", 100) + "heroes.Fighter.init > 1"}, "where: column 257: condition nested too deeply"},
		// A condition wrong in any other way is refused by ?dry=1 too.
		{"find unknown fact", jobRequest{Kind: "find", Text: text, N: 10, Where: "roundz > 1"}, "where: column 1: unknown fact roundz"},
		{"optimize unknown path", jobRequest{Kind: "optimize", Text: text, N: 10, Vary: []string{"heroes.Fighter.init=1:3"}, Where: "heroes.Fighter.hp > 1"}, "where: column 1:"},
	} {
		for _, path := range []string{"/api/jobs?dry=1", "/api/jobs"} {
			st, m, _ := call(t, ts, "POST", path, c.req)
			wantError(t, c.name+" "+path, st, m, 400, c.frag)
			if e, _ := m["error"].(string); len(e) > 2000 {
				t.Errorf("%s %s: an error of %d bytes", c.name, path, len(e))
			}
		}
	}
	// The same condition as a tactics when: in the editor's check.
	data, _, _ := scenarios.Read("cavaliers/tactics-ward")
	src := strings.Replace(string(data), "when: offer.seize", "when: "+deep, 1)
	if src == string(data) {
		t.Fatal("the scenario no longer has the when: this test replaces")
	}
	st, m, _ := call(t, ts, "POST", "/api/check", checkRequest{Text: src})
	if st != 200 || m["ok"] != false || !strings.Contains(m["error"].(string), "condition too long") {
		t.Errorf("check: %d %v", st, m["error"])
	}
	if ps, _ := m["errors"].([]any); len(ps) == 0 || ps[0].(map[string]any)["line"].(float64) != 45 {
		t.Errorf("check: problems %.300v, want one at line 45", m["errors"])
	}
	// And as a job's scenario, refused before it runs.
	st, m, _ = call(t, ts, "POST", "/api/jobs?dry=1", jobRequest{Kind: "run", Text: src, N: 10})
	if st != 422 || m["ok"] != false {
		t.Errorf("run: %d %.300v", st, m)
	}
	// The server is up: a good request is accepted.
	st, m, _ = call(t, ts, "POST", "/api/jobs?dry=1", jobRequest{Kind: "find", Text: text, N: 10, Where: "rounds > 1"})
	if st != 200 || m["ok"] != true {
		t.Errorf("after: %d %v", st, m)
	}
}

// A comparison's or tournament's option is compiled by ?dry=1 as the job
// will compile it: an option setting a tactics block whose when: is 300,000
// parentheses deep, or an invalid value, is refused before it runs.
func TestDryCompilesOptions(t *testing.T) {
	_, ts := testServer(t, Config{})
	text := duelText(t)
	deep := "heroes.Fighter.tactics={turn: [{name: a, when: '" + strings.Repeat("(", 300000) + "round > 1" + strings.Repeat(")", 300000) + "', do: attack}]}"
	for _, kind := range []string{"compare", "tournament"} {
		for _, c := range []struct{ set, frag string }{
			{deep, "condition too long"},
			{"heroes.Fighter.hp=-5", "hp"},
		} {
			req := jobRequest{Kind: kind, Text: text, N: 100, Options: []results.NamedSets{{Name: "base"}, {Name: "odd", Sets: []string{c.set}}}}
			st, m, _ := call(t, ts, "POST", "/api/jobs?dry=1", req)
			e, _ := m["error"].(string)
			if st != 422 || !strings.Contains(e, `option "odd" is not a valid scenario`) || !strings.Contains(e, c.frag) {
				t.Errorf("%s with %.40s: %d %.300v", kind, c.set, st, e)
			}
		}
		good := jobRequest{Kind: kind, Text: text, N: 100, Options: []results.NamedSets{{Name: "base"}, {Name: "fast", Sets: []string{"heroes.Fighter.init=5"}}}}
		if st, m, _ := call(t, ts, "POST", "/api/jobs?dry=1", good); st != 200 {
			t.Errorf("%s: a good request: %d %v", kind, st, m)
		}
	}
}
