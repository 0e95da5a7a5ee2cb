package lab

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"simctl/cmd/simctl/app"
	"simctl/reports/i18n"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// jsLiteral is a string literal of app.js (a template literal's text
// outside its ${…}), with the code before it on its line.
type jsLiteral struct {
	text, before, line string
	n                  int
}

// jsLiterals reads the string literals of JavaScript source: quoted
// strings and the text parts of template literals, skipping comments and
// regular expression literals (a "/" where an expression starts).
func jsLiterals(src string) []jsLiteral {
	var out []jsLiteral
	lines := strings.Split(src, "\n")
	line := 1
	lineStart := 0
	add := func(text string, at int) {
		out = append(out, jsLiteral{text: text, before: strings.TrimSpace(src[lineStart:at]), line: lines[line-1], n: line})
	}
	i := 0
	prev := byte(0) // the last significant character of code
	var scan func(stopAtBrace bool) int
	scan = func(stopAtBrace bool) int {
		depth := 0
		for i < len(src) {
			c := src[i]
			switch {
			case c == '\n':
				line++
				lineStart = i + 1
				i++
				continue
			case c == ' ' || c == '\t' || c == '\r':
				i++
				continue
			case strings.HasPrefix(src[i:], "//"):
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			case strings.HasPrefix(src[i:], "/*"):
				end := strings.Index(src[i+2:], "*/")
				for _, ch := range src[i : i+2+end+2] {
					if ch == '\n' {
						line++
					}
				}
				i += 2 + end + 2
				lineStart = strings.LastIndex(src[:i], "\n") + 1
				continue
			case c == '"' || c == '\'':
				start := i
				i++
				var b strings.Builder
				for i < len(src) && src[i] != c {
					if src[i] == '\\' {
						i++
					}
					b.WriteByte(src[i])
					i++
				}
				i++
				add(b.String(), start)
			case c == '`':
				start := i
				i++
				var b strings.Builder
				for i < len(src) && src[i] != '`' {
					switch {
					case src[i] == '\\':
						b.WriteByte(src[i+1])
						i += 2
					case strings.HasPrefix(src[i:], "${"):
						add(b.String(), start)
						b.Reset()
						i += 2
						scan(true)
						start = i
					default:
						if src[i] == '\n' {
							line++
							lineStart = i + 1
						}
						b.WriteByte(src[i])
						i++
					}
				}
				i++
				add(b.String(), start)
			case c == '/' && (prev == 0 || strings.IndexByte("(,=:[!&|?{};+", prev) >= 0 || strings.HasSuffix(strings.TrimSpace(src[lineStart:i]), "return")):
				// A regular expression literal.
				i++
				class := false
				for i < len(src) && (src[i] != '/' || class) {
					switch src[i] {
					case '\\':
						i++
					case '[':
						class = true
					case ']':
						class = false
					}
					i++
				}
				i++
				for i < len(src) && strings.IndexByte("dgimsuvy", src[i]) >= 0 {
					i++
				}
			case c == '{':
				depth++
				i++
			case c == '}':
				if stopAtBrace && depth == 0 {
					i++
					return i
				}
				depth--
				i++
			default:
				i++
			}
			prev = c
			if c == '"' || c == '\'' || c == '`' || c == '/' {
				prev = 'x' // a value ended: a "/" after it divides
			}
		}
		return i
	}
	scan(false)
	return out
}

var (
	word       = regexp.MustCompile(`[A-Za-z]{2,}`)
	prose      = regexp.MustCompile(`[A-Za-z]{2,}(?:[ ,;:()]|[.!?'’] )+[A-Za-z]{2,}`)
	catalogKey = regexp.MustCompile(`^lab\.[a-z0-9_.]+$`)
	// where a literal is text the page shows
	shown = regexp.MustCompile(`((textContent|innerText|innerHTML|placeholder|title|ariaLabel)\s*\+?=|\b(text|title|label|placeholder|alt|"aria-label"):|\b(setBanner|confirm|prompt|alert|Error)\(|setAttribute\("(aria-label|title|placeholder|alt)",)\s*[(]?$`)
	// where a literal is not shown: selectors, class names, the console
	notShown = regexp.MustCompile(`(\$\(|querySelector(All)?\(|closest\(|matches\(|getElementById\(|className\s*=|class:|console\.\w+\()\s*$`)
)

// englishInJS lists the literals of app.js that the page would show in
// English: text given to textContent, text:, title:, aria-label:,
// setBanner and the like, and any literal of two or more English words.
// A line marked "// i18n: code" holds the file format's words (the
// tactics language), which are never translated.
func englishInJS(src string) []string {
	var bad []string
	for _, l := range jsLiterals(src) {
		// A catalog key ("lab.tab.run", "lab.tab." + kind) is no text.
		key := catalogKey.MatchString(l.text)
		if key || !word.MatchString(l.text) || strings.Contains(l.line, "// i18n: code") || notShown.MatchString(l.before) {
			continue
		}
		if shown.MatchString(l.before) || prose.MatchString(l.text) {
			bad = append(bad, fmt.Sprintf("app.js:%d: %q", l.n, l.text))
		}
	}
	return bad
}

var (
	htmlToken = regexp.MustCompile(`(?s)<!--.*?-->|<![^>]*>|<(/?)([a-zA-Z0-9]+)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+`)
	htmlAttr  = regexp.MustCompile(`([a-zA-Z-]+)(?:=("[^"]*"|'[^']*'|[^\s>]+))?`)
	voidTags  = map[string]bool{"input": true, "meta": true, "link": true, "br": true, "img": true, "hr": true, "source": true}
)

// englishInHTML lists the texts and shown attributes (title, placeholder,
// aria-label, alt, label) of index.html that are written in English
// rather than said by app.js (data-i18n, data-i18n-ATTR). An element
// marked translate="no" holds no words of simctl's (the languages' own
// names, the format's examples).
func englishInHTML(src string) []string {
	type open struct {
		name string
		no   bool
	}
	var stack []open
	var bad []string
	line := 1
	for _, m := range htmlToken.FindAllStringSubmatchIndex(src, -1) {
		tok := src[m[0]:m[1]]
		at := line
		line += strings.Count(tok, "\n")
		if strings.HasPrefix(tok, "<!--") || strings.HasPrefix(tok, "<!") {
			continue
		}
		no := len(stack) > 0 && stack[len(stack)-1].no
		if !strings.HasPrefix(tok, "<") {
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1].name
			}
			if !no && parent != "script" && parent != "style" && word.MatchString(tok) {
				bad = append(bad, fmt.Sprintf("index.html:%d: text %q", at, strings.TrimSpace(tok)))
			}
			continue
		}
		name := strings.ToLower(src[m[4]:m[5]])
		if m[2] != m[3] { // a closing tag
			for k := len(stack) - 1; k >= 0; k-- {
				if stack[k].name == name {
					stack = stack[:k]
					break
				}
			}
			continue
		}
		attrs := map[string]string{}
		for _, a := range htmlAttr.FindAllStringSubmatch(src[m[6]:m[7]], -1) {
			attrs[strings.ToLower(a[1])] = strings.Trim(a[2], `"'`)
		}
		no = no || attrs["translate"] == "no"
		for _, a := range []string{"title", "placeholder", "aria-label", "alt", "label"} {
			if v, ok := attrs[a]; ok && !no && word.MatchString(v) {
				bad = append(bad, fmt.Sprintf("index.html:%d: %s=%q", at, a, v))
			}
		}
		if !voidTags[name] {
			stack = append(stack, open{name, no})
		}
	}
	return bad
}

// TestPageHasNoEnglish fails on a text the page would show in English
// whatever the language: every one is a catalog key (lab.txt), said by
// app.js.
func TestPageHasNoEnglish(t *testing.T) {
	js, err := os.ReadFile("web/app.js")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range append(englishInJS(string(js)), englishInHTML(string(page))...) {
		t.Errorf("%s is English the page shows in every language: make it a key of reports/i18n/catalog/LANG/lab.txt", b)
	}
	// The scan sees a literal put back (it is not blind).
	back := strings.Replace(string(js), `text: t("lab.trace.title")`, `text: "Trace an encounter"`, 1)
	if back == string(js) || len(englishInJS(back)) != 1 {
		t.Errorf("the scan does not see an English literal put back into app.js: %q", englishInJS(back))
	}
	back = strings.Replace(string(js), `say($("#run"), "lab.go." + kind);`, `$("#run").textContent = "Run";`, 1)
	if back == string(js) || len(englishInJS(back)) != 1 {
		t.Errorf("the scan does not see a single English word put back into app.js: %q", englishInJS(back))
	}
	backHTML := strings.Replace(string(page), `<h2 id="lab-title" data-i18n="lab.experiment"></h2>`, `<h2 id="lab-title">Experiment</h2>`, 1)
	if backHTML == string(page) || len(englishInHTML(backHTML)) != 1 {
		t.Errorf("the scan does not see English put back into index.html: %q", englishInHTML(backHTML))
	}
}

// TestPageKeysExist fails on a key app.js or index.html asks for that the
// catalogs lack (the page would show the key).
func TestPageKeysExist(t *testing.T) {
	var src strings.Builder
	for _, f := range []string{"web/app.js", "web/index.html"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	keys := regexp.MustCompile(`"(lab\.[a-z0-9_.]+)"`).FindAllStringSubmatch(src.String(), -1)
	if len(keys) < 100 {
		t.Fatalf("found only %d keys: the scan is broken", len(keys))
	}
	for _, k := range keys {
		key := k[1]
		if strings.HasSuffix(key, ".") { // a key made at run time ("lab.tab." + kind)
			found := false
			for _, x := range i18n.Keys(i18n.En) {
				found = found || strings.HasPrefix(x, key)
			}
			if !found {
				t.Errorf("no message starts with %q", key)
			}
			continue
		}
		if !i18n.Has(i18n.En, key) {
			t.Errorf("the page asks for %q, which catalog/en/lab.txt lacks", key)
		}
	}
	// The keys made at run time: every kind, figure and column.
	for _, k := range []string{"run", "sweep", "compare", "matrix", "value", "tournament", "optimize", "find"} {
		for _, p := range []string{"lab.tab.", "lab.go."} {
			if !i18n.Has(i18n.En, p+k) {
				t.Errorf("no %s%s", p, k)
			}
		}
	}
}

// TestServerSpeaksLanguages: every answer of the API is in the language
// the request asks for with ?lang=: the page's texts, the check's
// problems (their line, column and field as they are), refusals, a job's
// message and its report; a request naming none is answered in English.
func TestServerSpeaksLanguages(t *testing.T) {
	s, ts := testServer(t, Config{})
	hangul := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
	}
	cyrillic := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) })
	}

	// The page's texts.
	for _, l := range i18n.Langs {
		_, m, _ := call(t, ts, "GET", "/api/i18n?lang="+string(l), nil)
		texts, _ := m["texts"].(map[string]any)
		n := 0
		for _, k := range i18n.Keys(l) {
			if pageText(k) {
				n++
				if texts[k] != i18n.Text(l, k) {
					t.Errorf("%s: %s is %q, want %q", l, k, texts[k], i18n.Text(l, k))
				}
			}
		}
		if n < 100 || len(texts) != n {
			t.Errorf("%s: %d texts served, %d in the catalog", l, len(texts), n)
		}
	}
	if _, m, _ := call(t, ts, "GET", "/api/i18n?lang=xx", nil); m["lang"] != "en" {
		t.Errorf("an unknown language: %v, want English", m["lang"])
	}

	// The check: each problem in the language, where it is as it is.
	bad := strings.Replace(duelText(t), "ac: 17", "ac: 17x", 1)
	src := &app.Source{Name: "duel.yaml", Display: "duel.yaml", Data: []byte(bad)}
	_, _, _, err := src.CompileWarn(nil)
	var es scenario.Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("ac: 17x compiles: %v", err)
	}
	for _, l := range i18n.Langs {
		_, m, _ := call(t, ts, "POST", "/api/check?lang="+string(l), checkRequest{File: "duel.yaml", Text: bad})
		ps, _ := m["errors"].([]any)
		if len(ps) != len(es) {
			t.Fatalf("%s: %d problems, want %d: %v", l, len(ps), len(es), m)
		}
		p := ps[0].(map[string]any)
		if p["message"] != l.Msg(es[0].Text) || p["line"] != float64(es[0].Line) || p["col"] != float64(es[0].Col) || p["field"] != es[0].Path {
			t.Errorf("%s: problem %v, want %q at %d:%d %s", l, p, l.Msg(es[0].Text), es[0].Line, es[0].Col, es[0].Path)
		}
		if want := l.Msg(msg.New("the scenario is invalid: %s", firstLine(l, es))); m["error"] != want {
			t.Errorf("%s: error %q, want %q", l, m["error"], want)
		}
	}
	if _, m, _ := call(t, ts, "POST", "/api/check?lang=ru", checkRequest{Text: bad}); !cyrillic(m["error"].(string)) {
		t.Errorf("ru: %q", m["error"])
	}

	// Refusals: a 400 of the API, a job refused, a job checked with ?dry=1.
	st, m, _ := call(t, ts, "GET", "/api/scenario?id=nope&lang=ru", nil)
	wantError(t, "ru scenario", st, m, 400, `id "nope": ожидается builtin:RULESET/NAME`)
	st, m, _ = call(t, ts, "GET", "/api/scenario?id=nope", nil)
	wantError(t, "en scenario", st, m, 400, `id "nope": expected builtin:RULESET/NAME`)
	find := jobRequest{Kind: "find", Text: duelText(t), N: 10, Seed: 1}
	st, m, _ = call(t, ts, "POST", "/api/jobs?lang=ko", find)
	wantError(t, "ko find", st, m, 400, "where: find에는 조건이 필요합니다")
	st, m, _ = call(t, ts, "POST", "/api/jobs?lang=ko&dry=1", find)
	wantError(t, "ko find, dry", st, m, 400, "where: find에는 조건이 필요합니다")
	s.mu.Lock()
	before := len(s.jobs)
	s.mu.Unlock()
	run := jobRequest{Kind: "run", Text: duelText(t), N: 200, Seed: 1}
	if st, m, _ := call(t, ts, "POST", "/api/jobs?dry=1", run); st != 200 || m["ok"] != true {
		t.Errorf("dry run: %d %v", st, m)
	}
	s.mu.Lock()
	after := len(s.jobs)
	s.mu.Unlock()
	if after != before {
		t.Errorf("?dry=1 queued a job")
	}

	// A job's message: said in the language of each reading.
	long := startJob(t, ts, jobRequest{Kind: "run", Text: duelText(t), N: 10_000_000, Seed: 1})
	call(t, ts, "POST", "/api/jobs/"+long+"/cancel", map[string]any{})
	var en, ko string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, m, _ := call(t, ts, "GET", "/api/jobs/"+long, nil)
		if m["state"] == stateCancelled {
			en, _ = m["error"].(string)
			_, m, _ = call(t, ts, "GET", "/api/jobs/"+long+"?lang=ko", nil)
			ko, _ = m["error"].(string)
			break
		}
	}
	if !strings.HasPrefix(en, "cancelled after ") || !hangul(ko) || !strings.Contains(ko, "취소됨") {
		t.Errorf("the cancelled job says %q in English and %q in Korean", en, ko)
	}

	// The report in the language asked (simctl report --lang).
	id := startJob(t, ts, run)
	jobResult(t, ts, id)
	for _, c := range []struct {
		q    string
		want func(string) bool
	}{{"?lang=ko", hangul}, {"?lang=ru", cyrillic}, {"", func(s string) bool { return !hangul(s) && !cyrillic(s) }}} {
		res, err := ts.Client().Get(ts.URL + "/api/jobs/" + id + "/report.zip" + c.q)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("report.zip%s: %v (%d %s)", c.q, err, res.StatusCode, data)
		}
		found := false
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, ".md") {
				rc, _ := f.Open()
				b, _ := io.ReadAll(rc)
				rc.Close()
				found = true
				if !c.want(string(b)) {
					t.Errorf("report.zip%s: %s is not in the language asked:\n%.300s", c.q, f.Name, b)
				}
			}
		}
		if !found {
			t.Errorf("report.zip%s has no Markdown report", c.q)
		}
	}
}
