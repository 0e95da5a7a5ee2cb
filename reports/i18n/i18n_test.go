package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// base strips a plural form: "key[few]" -> "key", "few".
func base(k string) (string, string) {
	if i := strings.IndexByte(k, '['); i >= 0 && strings.HasSuffix(k, "]") {
		return k[:i], k[i+1 : len(k)-1]
	}
	return k, ""
}

// messages maps each message of l to its forms ("" for a plain one).
func messages(l Lang) map[string][]string {
	m := map[string][]string{}
	for _, k := range Keys(l) {
		b, f := base(k)
		m[b] = append(m[b], f)
	}
	for _, fs := range m {
		sort.Strings(fs)
	}
	return m
}

// TestCatalogsComplete fails when a message of any language lacks a text
// in another, or a plural message lacks (or has a stray) form of a
// language's plural rule: no message falls back to English.
func TestCatalogsComplete(t *testing.T) {
	en := messages(En)
	for _, l := range Langs {
		m := messages(l)
		for k := range en {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: message %q has no text (catalog/%s/)", l, k, l)
			}
		}
		for k, fs := range m {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: message %q is not in the English catalog (a stale or misspelt key)", l, k)
			}
			if len(fs) == 1 && fs[0] == "" {
				if len(en[k]) > 1 || (len(en[k]) == 1 && en[k][0] != "") {
					t.Errorf("%s: %q is a plural message in English but plain here", l, k)
				}
				continue
			}
			var want []string
			for _, f := range l.Forms() {
				want = append(want, string(f))
			}
			sort.Strings(want)
			if strings.Join(fs, ",") != strings.Join(want, ",") {
				t.Errorf("%s: plural message %q has forms %v, want %v", l, k, fs, want)
			}
		}
	}
}

var verb = regexp.MustCompile(`%(\[(\d+)\])?[-+# 0]*\d*(\.\d+)?([a-zA-Z%])`)

// args lists a message's arguments as "index:verb", explicit indices
// resolved as fmt resolves them.
func args(s string) []string {
	var out []string
	next := 1
	for _, m := range verb.FindAllStringSubmatch(s, -1) {
		if m[4] == "%" {
			continue
		}
		n := next
		if m[2] != "" {
			n = int(m[2][0] - '0')
			if len(m[2]) > 1 {
				n = 10*n + int(m[2][1]-'0')
			}
		}
		out = append(out, string(rune('0'+n))+":"+m[4])
		next = n + 1
	}
	sort.Strings(out)
	return dedup(out)
}

func dedup(ss []string) []string {
	var out []string
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// TestArgumentsAgree fails when a translation drops, adds or retypes an
// argument: the report would print %!d(string=…) or lose a number.
func TestArgumentsAgree(t *testing.T) {
	for _, l := range Langs[1:] {
		for _, k := range Keys(l) {
			b, _ := base(k)
			ref := catalogs[En][b]
			if ref == "" {
				for _, f := range En.Forms() {
					if s, ok := catalogs[En][b+"["+string(f)+"]"]; ok {
						ref = s
						break
					}
				}
			}
			got, want := strings.Join(args(catalogs[l][k]), " "), strings.Join(args(ref), " ")
			// A plural form may leave the count out ("one" in Russian is
			// often a word), never the other arguments.
			if got != want && strings.Join(args(catalogs[l][k]+" %[1]s"), " ") != want {
				t.Errorf("%s: %s takes arguments %q, English %q", l, k, got, want)
			}
			if strings.Contains(catalogs[l][k], "%!") {
				t.Errorf("%s: %s has a malformed verb", l, k)
			}
		}
	}
}

var fmtVerb = regexp.MustCompile(`%(\[\d+\])?[a-zA-Z%]`)

// TestTranslated fails on a text left in English: every Korean text has
// Hangul in it, every Russian one Cyrillic.
func TestTranslated(t *testing.T) {
	for l, script := range map[Lang]*unicode.RangeTable{Ko: unicode.Hangul, Ru: unicode.Cyrillic} {
		for _, k := range Keys(l) {
			// A unit with no word in it (Korean %p) has nothing to translate.
			if !strings.ContainsFunc(fmtVerb.ReplaceAllString(strings.ReplaceAll(catalogs[l][k], "%%p", ""), ""), unicode.IsLetter) {
				continue
			}
			if !strings.ContainsFunc(catalogs[l][k], func(r rune) bool { return unicode.Is(script, r) }) {
				t.Errorf("%s: %s = %q is not translated", l, k, catalogs[l][k])
			}
		}
	}
}

var call = regexp.MustCompile(`\.(T|N)\("([a-z0-9_.]+)"`)

// TestKeysUsedExist fails when the code asks for a message no catalog has
// (it would panic at run time): every l.T("key") and l.N("key", …) with a
// literal key in reports/, reports/narrate/, cmd/simctl/ and cmd/simctl/app/.
func TestKeysUsedExist(t *testing.T) {
	en := messages(En)
	n := 0
	for _, dir := range []string{"..", "../narrate", "../../cmd/simctl", "../../cmd/simctl/app"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range call.FindAllStringSubmatch(string(data), -1) {
				n++
				if strings.HasSuffix(m[2], ".") {
					// A key built at run time ("unit."+field): its
					// prefix must have messages; the caller's own test
					// checks each one (reports.TestUnitsTranslated).
					found := false
					for k := range en {
						found = found || strings.HasPrefix(k, m[2])
					}
					if !found {
						t.Errorf("%s: no message starts with %q", f, m[2])
					}
					continue
				}
				fs, ok := en[m[2]]
				if !ok {
					t.Errorf("%s: message %q is in no catalog", f, m[2])
					continue
				}
				if plural := !(len(fs) == 1 && fs[0] == ""); plural != (m[1] == "N") {
					t.Errorf("%s: message %q is used with .%s but plural=%v in the catalog", f, m[2], m[1], plural)
				}
			}
		}
	}
	if n < 50 {
		t.Fatalf("found only %d message lookups; the scan is broken", n)
	}
}

// TestPluralForms checks the rule against CLDR's own examples for
// Russian (plurals.xml: one 1, 21, 31, 101, 1001; few 2~4, 22~24, 102~104;
// many 0, 5~19, 100, 1000, 10000, 111~114).
func TestPluralForms(t *testing.T) {
	cases := map[PluralForm][]int64{
		One:  {1, 21, 31, 41, 101, 1001, 100001},
		Few:  {2, 3, 4, 22, 23, 24, 32, 102, 103, 104, 1002},
		Many: {0, 5, 6, 10, 11, 12, 13, 14, 15, 19, 20, 25, 100, 111, 112, 113, 114, 1000, 10000, 100000},
	}
	for want, ns := range cases {
		for _, n := range ns {
			if got := Ru.PluralForm(n); got != want {
				t.Errorf("ru %d: %s, want %s", n, got, want)
			}
		}
	}
	for _, n := range []int64{0, 1, 2, 21} {
		if Ko.PluralForm(n) != Other {
			t.Errorf("ko %d: %s", n, Ko.PluralForm(n))
		}
	}
	if En.PluralForm(1) != One || En.PluralForm(0) != Other || En.PluralForm(21) != Other {
		t.Error("en plural forms")
	}
	if got := Ru.N("section.compare", 3, 2, "дуэль"); got != "2. дуэль: сравнение 3 вариантов" {
		t.Errorf("ru N: %q", got)
	}
	if got := Ru.N("section.compare", 21, 2, "дуэль"); got != "2. дуэль: сравнение 21 варианта" {
		t.Errorf("ru N: %q", got)
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{En.Decimal(0.5312, 2), "0.53"},
		{Ko.Decimal(0.5312, 2), "0.53"},
		{Ru.Decimal(0.5312, 2), "0,53"},
		{Ru.Decimal(-12.5, 1), "-12,5"},
		{Ru.Percent(0.531, 1), "53,1\u00a0%"},
		{En.Percent(0.531, 1), "53.1%"},
		{En.Int(1234567), "1,234,567"},
		{En.Int(-1000), "-1,000"},
		{En.Int(999), "999"},
		{Ru.Int(1234567), "1\u202f234\u202f567"},
		{Ru.Int(1000), "1000"},
		{Ru.Int(10000), "10\u202f000"},
		{Ko.Int(10000), "10,000"},
		{En.Int(-9223372036854775808), "-9,223,372,036,854,775,808"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want Lang
	}{
		{map[string]string{}, En},
		{map[string]string{"LANG": "ko_KR.UTF-8"}, Ko},
		{map[string]string{"LANG": "ru_RU.UTF-8"}, Ru},
		{map[string]string{"LANG": "ru"}, Ru},
		{map[string]string{"LANG": "de_DE.UTF-8"}, En},
		{map[string]string{"LANG": "C"}, En},
		// LC_ALL outranks LC_MESSAGES, which outranks LANG.
		{map[string]string{"LANG": "ru_RU.UTF-8", "LC_ALL": "ko_KR.UTF-8"}, Ko},
		{map[string]string{"LANG": "ko_KR.UTF-8", "LC_MESSAGES": "ru_RU"}, Ru},
		{map[string]string{"LANG": "ko_KR.UTF-8", "LC_ALL": "C"}, En},
	} {
		if got := FromEnv(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %s, want %s", c.env, got, c.want)
		}
	}
	if _, err := Parse("fr"); err == nil || !strings.Contains(err.Error(), "en, ko, ru") {
		t.Errorf("Parse(fr): %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	if _, err := parse("x.txt", []byte("a = 1\nb 2\n")); err == nil || err.Error() != "x.txt:2: expected `key = text`" {
		t.Errorf("%v", err)
	}
	if _, err := parse("x.txt", []byte("a = 1\na = 2\n")); err == nil || !strings.Contains(err.Error(), "x.txt:2:") {
		t.Errorf("%v", err)
	}
}

// Paren sets a note beside a word: glued to a Korean word in Korean, with
// a space after anything else and in the other languages.
func TestParen(t *testing.T) {
	for _, tc := range []struct {
		l          Lang
		word, want string
	}{
		{Ko, "턴", "턴(turns)"},
		{Ko, "「대기」", "「대기」(turns)"},
		{Ko, "hp", "hp (turns)"},
		{Ko, "5", "5 (turns)"},
		{Ru, "ходы", "ходы (turns)"},
		{En, "turns", "turns (turns)"},
	} {
		if got := tc.l.Paren(tc.word, "turns"); got != tc.want {
			t.Errorf("%s Paren(%q) = %q, want %q", tc.l, tc.word, got, tc.want)
		}
	}
}
