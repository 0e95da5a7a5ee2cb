package lab

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"simctl/reports/results"
)

// Issue 36 items 3 and 5: a job says what its file name names (a
// built-in, the served folder's file as it is on disk, or the editor's
// text, which no file holds), serves the exact text it played under the
// name its command line gives, and keeps its request, so that a kept
// result reopens with its scenario, name and form.
func TestJobScenarioOrigin(t *testing.T) {
	dir := t.TempDir()
	duel := duelText(t)
	os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte(duel), 0o644)
	_, ts := testServer(t, Config{Dir: dir})
	edited := strings.Replace(duel, "hp: 20", "hp: 24", 1)
	if edited == duel {
		t.Fatal("the duel has no hp: 20 to edit")
	}
	for _, c := range []struct {
		what     string
		req      jobRequest
		origin   string
		download string // the download's file name
	}{
		{"a built-in", jobRequest{Kind: "run", File: "builtin:d20/duel.yaml", Text: duel, N: 50, Seed: 2}, originBuiltin, "duel.yaml"},
		{"the folder's file as it is", jobRequest{Kind: "run", File: "mine.yaml", Text: duel, N: 50, Seed: 2}, originDir, "mine.yaml"},
		{"the folder's file edited", jobRequest{Kind: "run", File: "mine.yaml", Text: edited, N: 50, Seed: 2}, originText, "mine.yaml"},
		{"an edited built-in named by the designer", jobRequest{Kind: "compare", File: "my duel (hp 24).yaml", Text: edited, N: 50, Seed: 2,
			Options: []results.NamedSets{{Name: "base"}, {Name: "ac", Sets: []string{"heroes.Fighter.ac=19"}}}}, originText, "my duel (hp 24).yaml"},
		{"a name with letters beyond ASCII", jobRequest{Kind: "run", File: "héros.yaml", Text: duel, N: 50, Seed: 2}, originText, "héros.yaml"},
	} {
		id := startJob(t, ts, c.req)
		st := jobResult(t, ts, id)
		sc, _ := st["scenario"].(map[string]any)
		if sc["origin"] != c.origin || sc["file"] != c.req.File || sc["download"] != "/api/jobs/"+id+"/scenario.yaml" {
			t.Errorf("%s: the job's scenario is %v, want origin %q", c.what, sc, c.origin)
		}
		// The request as sent: a kept result reopens from it.
		var req jobRequest
		data, _ := json.Marshal(st["request"])
		if err := json.Unmarshal(data, &req); err != nil || !reflect.DeepEqual(req, c.req) {
			t.Errorf("%s: the job's request reads %s, want %+v", c.what, data, c.req)
		}
		// The command line names the file; the download is that file.
		res, err := ts.Client().Get(ts.URL + "/api/jobs/" + id + "/scenario.yaml")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		_, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
		if res.StatusCode != http.StatusOK || string(body) != c.req.Text || err != nil || params["filename"] != c.download {
			t.Errorf("%s: GET scenario.yaml: %d, the text played %v, Content-Disposition %q (%v), want the file name %q",
				c.what, res.StatusCode, string(body) == c.req.Text, res.Header.Get("Content-Disposition"), err, c.download)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/yaml") {
			t.Errorf("%s: Content-Type %q", c.what, ct)
		}
		cmd, _ := st["result"].(map[string]any)["command"].(string)
		if name := strings.TrimPrefix(c.req.File, "builtin:"); !strings.Contains(cmd, " "+results.ShellJoin([]string{name})+" ") {
			t.Errorf("%s: the command line %q does not name %q", c.what, cmd, name)
		}
	}
}
