package lab

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/cmd/simctl/app"
	"simctl/reports/results"
	"simctl/scenarios"
)

// TestServeSave: saving is off unless --allow-save, confined to plain
// names of --dir, never through a link, and never over a file changed on
// disk since it was loaded unless the request confirms.
func TestServeSave(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	text := duelText(t)
	os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte(text), 0o644)
	os.WriteFile(filepath.Join(outside, "victim.yaml"), []byte("keep me"), 0o644)
	os.Symlink(filepath.Join(outside, "victim.yaml"), filepath.Join(dir, "link.yaml"))
	os.Link(filepath.Join(outside, "victim.yaml"), filepath.Join(dir, "hard.yaml"))

	_, off := testServer(t, Config{Dir: dir})
	st, m, _ := call(t, off, "POST", "/api/save", map[string]any{"name": "new.yaml", "text": text})
	wantError(t, "save without --allow-save", st, m, http.StatusForbidden, "--allow-save")
	if _, err := os.Stat(filepath.Join(dir, "new.yaml")); err == nil {
		t.Error("a refused save wrote the file")
	}

	_, ts := testServer(t, Config{Dir: dir, AllowSave: true})
	for _, bad := range []string{"../escape.yaml", "sub/x.yaml", "/tmp/x.yaml", "x.txt", "", "link.yaml", "hard.yaml", ".."} {
		st, m, _ := call(t, ts, "POST", "/api/save", map[string]any{"name": bad, "text": "x", "overwrite": true})
		wantError(t, "save "+bad, st, m, http.StatusBadRequest, "name")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "victim.yaml")); string(b) != "keep me" {
		t.Fatalf("a save reached a file outside --dir: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "..", "escape.yaml")); err == nil {
		t.Fatal("a save escaped --dir")
	}

	// A new name is created; the answer's base is what a later save sends.
	st, m, _ = call(t, ts, "POST", "/api/save", map[string]any{"name": "new.yaml", "text": text})
	if st != http.StatusOK || m["replaced"] != false {
		t.Fatalf("save new.yaml: %d %v", st, m)
	}
	base, _ := m["base"].(string)
	if b, _ := os.ReadFile(filepath.Join(dir, "new.yaml")); string(b) != text {
		t.Fatal("new.yaml does not hold the text saved")
	}
	// The same name again with the base it was saved with: replaced.
	st, m, _ = call(t, ts, "POST", "/api/save", map[string]any{"name": "new.yaml", "text": text + "# v2\n", "base": base})
	if st != http.StatusOK || m["replaced"] != true {
		t.Fatalf("save new.yaml v2: %d %v", st, m)
	}
	// Changed on disk since: refused with 409, the file untouched, until
	// the request confirms.
	os.WriteFile(filepath.Join(dir, "new.yaml"), []byte("edited elsewhere\n"), 0o644)
	st, m, _ = call(t, ts, "POST", "/api/save", map[string]any{"name": "new.yaml", "text": "v3", "base": m["base"]})
	wantError(t, "save over a changed file", st, m, http.StatusConflict, "changed on disk")
	if b, _ := os.ReadFile(filepath.Join(dir, "new.yaml")); string(b) != "edited elsewhere\n" {
		t.Fatalf("a refused save overwrote the file: %q", b)
	}
	// An existing file the page never loaded: also a conflict.
	st, m, _ = call(t, ts, "POST", "/api/save", map[string]any{"name": "mine.yaml", "text": "v3"})
	wantError(t, "save over an unloaded file", st, m, http.StatusConflict, "did not load")
	st, m, _ = call(t, ts, "POST", "/api/save", map[string]any{"name": "new.yaml", "text": "v3", "overwrite": true})
	if st != http.StatusOK {
		t.Fatalf("confirmed save: %d %v", st, m)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file was left behind: %s", e.Name())
		}
	}
}

// TestServeSuggest: every built-in's suggested options name its own sides
// and combatants, and every one of them compiles (the old page offered
// the duel's Fighter on every scenario).
func TestServeSuggest(t *testing.T) {
	_, ts := testServer(t, Config{})
	withTactics := 0
	for _, n := range scenarios.Names() {
		data, display, _ := scenarios.Read(n)
		st, m, _ := call(t, ts, "POST", "/api/suggest", map[string]any{"file": display, "text": string(data)})
		if st != http.StatusOK {
			t.Errorf("%s: %d %v", n, st, m)
			continue
		}
		sides := m["sides"].([]any)
		for _, v := range m["search"].([]any) {
			if _, err := results.ParseVary(v.(string)); err != nil || !strings.HasPrefix(v.(string), sides[0].(string)+".") {
				t.Errorf("%s: search %v: %v", n, v, err)
			}
		}
		for key, side := range map[string]any{"options": sides[0], "rows": sides[0], "cols": sides[1]} {
			opts := m[key].([]any)
			if len(opts) < 2 {
				t.Errorf("%s: %s: %d options, want the baseline and at least one more", n, key, len(opts))
			}
			var named []results.NamedSets
			b, _ := json.Marshal(opts)
			json.Unmarshal(b, &named)
			if err := app.CheckNamedSets(named, key); err != nil {
				t.Errorf("%s: %s: a job would refuse them: %v", n, key, err)
			}
			for _, o := range opts[1:] {
				for _, set := range o.(map[string]any)["sets"].([]any) {
					s := set.(string)
					if !strings.HasPrefix(s, side.(string)+".") {
						t.Errorf("%s: %s option %v is not about side %s", n, key, s, side)
					}
					if strings.Contains(s, ".tactics.params.") {
						withTactics++
					}
					// The job endpoint must accept it.
					st, m, _ := call(t, ts, "POST", "/api/check", map[string]any{"file": display, "text": string(data), "sets": []string{s}})
					if st != http.StatusOK || m["ok"] != true {
						t.Errorf("%s: suggested %s does not check: %v", n, s, m)
					}
				}
			}
		}
	}
	if withTactics == 0 {
		t.Error("no built-in got a tactics-parameter option")
	}
	st, m, _ := call(t, ts, "POST", "/api/suggest", map[string]any{"file": "x.yaml", "text": "ruleset: d20\nsides: 3\n"})
	if st != http.StatusUnprocessableEntity || m["ok"] != false {
		t.Errorf("invalid scenario: %d %v", st, m)
	}
	if st, _, _ := call(t, ts, "GET", "/favicon.ico", nil); st != http.StatusOK {
		t.Errorf("/favicon.ico: %d", st)
	}
}
