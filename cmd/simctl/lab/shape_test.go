package lab

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestJobFieldErrorsInUsersWords: a request with a field of the wrong
// JSON type is answered in the API's words (what to send), never with a
// Go type name such as results.NamedSets; in Korean too.
func TestJobFieldErrorsInUsersWords(t *testing.T) {
	_, ts := testServer(t, Config{MaxEncounters: 1 << 20, Workers: 1})
	for _, c := range []struct{ lang, body, want string }{
		{"", `{"kind": "compare", "text": "x", "n": 10, "options": "base"}`, `field "options": expected a list, each an object with the fields name, sets, got a JSON string`},
		{"", `{"kind": "run", "text": "x", "n": "ten"}`, `field "n": expected a whole number, got a JSON string`},
		{"?lang=ko", `{"kind": "compare", "text": "x", "n": 10, "options": "base"}`, `필드 "options": 기대한 값은 각 항목이 필드 name, sets을(를) 가진 객체인 목록, 받은 것은 JSON string입니다`},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/api/jobs"+c.lang, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", ts.URL)
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Error string }
		json.NewDecoder(res.Body).Decode(&got)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(got.Error, c.want) || strings.Contains(got.Error, "results.") {
			t.Errorf("%s %s: %d %q; want 400 with %q", c.lang, c.body, res.StatusCode, got.Error, c.want)
		}
	}
}
