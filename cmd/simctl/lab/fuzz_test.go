package lab

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"simctl/scenarios"
)

// FuzzServeRequest: whatever body reaches the server's POST endpoints
// (check, jobs, permalink) or whatever string a permalink carries, the
// answer is a 2xx or a 4xx with a JSON error, never a 5xx (a panic caught
// by the middleware is a 500); and a permalink that decodes encodes back
// to the same request.
func FuzzServeRequest(f *testing.F) {
	duel, _, ok := scenarios.Read("d20/duel")
	if !ok {
		f.Fatal("no built-in d20/duel")
	}
	seed := func(v any) []byte {
		b, _ := json.Marshal(v)
		return b
	}
	text := string(duel)
	for _, b := range [][]byte{
		seed(jobRequest{Kind: "run", File: "my.yaml", Text: text, N: 200, Seed: 1}),
		seed(jobRequest{Kind: "run", File: "builtin:d20/duel.yaml", N: 200, Seed: 2}),
		seed(jobRequest{Kind: "sweep", Text: text, N: 50, Seed: 1, Vary: []string{"heroes.Fighter.init=0:2:1"}}),
		seed(map[string]any{"kind": "compare", "text": text, "n": 50, "options": []map[string]any{{"name": "a"}, {"name": "b", "sets": []string{"heroes.Fighter.init=4"}}}}),
		seed(map[string]any{"kind": "value", "text": text, "n": 50, "params": "init,hp"}),
		seed(map[string]any{"text": "name: x\nruleset: d20\n"}),
		seed(map[string]any{"text": text, "sets": []string{"heroes.Fighter.hp=-5", "nosuch=1"}}),
		[]byte(`{"kind":"run","text":"a: [","n":-1}`),
		[]byte(`{"kind":"run"}{"kind":"run"}`),
		[]byte(`null`),
		[]byte(`{"n": 1e400}`),
		// Deep nesting in every parser a request reaches (issue 31): the
		// condition language, YAML, a --set value.
		seed(jobRequest{Kind: "find", Text: text, N: 10, Where: strings.Repeat("(", 300000) + "rounds > 1" + strings.Repeat(")", 300000)}),
		seed(jobRequest{Kind: "optimize", Text: text, N: 10, Vary: []string{"heroes.Fighter.init=1:3"}, Where: strings.Repeat("-", 3000) + "1 > 0"}),
		seed(map[string]any{"text": "name: x\nruleset: d20\nsides: " + strings.Repeat("[", 300000)}),
		seed(map[string]any{"text": text, "sets": []string{"max_rounds=" + strings.Repeat("{a: ", 1000)}}),
	} {
		f.Add(b)
	}
	s, err := newServer(Config{MaxEncounters: 2000, MaxJobs: 1, Queue: 2, Workers: 1, JobTTL: time.Minute})
	if err != nil {
		f.Fatal(err)
	}
	const host = "127.0.0.1:8080"
	s.setAddr(host)
	f.Cleanup(s.close)
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, path := range []string{"/api/check", "/api/jobs", "/api/permalink"} {
			req := httptest.NewRequest("POST", path, bytes.NewReader(body))
			req.Host = host
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("POST %s %q: %d %s", path, body, rec.Code, rec.Body)
			}
			if rec.Code >= 400 {
				var m map[string]any
				if json.Unmarshal(rec.Body.Bytes(), &m) != nil || m["error"] == nil {
					t.Fatalf("POST %s %q: %d without a JSON error: %s", path, body, rec.Code, rec.Body)
				}
			}
		}
		for _, p := range []string{string(body), base64.RawURLEncoding.EncodeToString(body)} {
			r, err := decodePermalink(p, 1<<20)
			if err != nil {
				continue
			}
			again, err := encodePermalink(r)
			if err != nil {
				t.Fatalf("a decoded permalink does not encode: %v", err)
			}
			r2, err := decodePermalink(again, 1<<20)
			if err != nil || !bytes.Equal(seed(r), seed(r2)) {
				t.Fatalf("permalink round trip: %+v -> %+v (%v)", r, r2, err)
			}
		}
	})
}
