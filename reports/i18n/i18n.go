// Package i18n holds simctl's message catalogs (English, Korean, Russian)
// and the few language rules the reports need: Russian plural forms and
// the decimal separator of prose.
//
// The catalogs are data files (catalog/LANG/*.txt, embedded), one line per
// message, so a reviewer reads and edits them without reading Go; each area
// (reports, help, rules, lab, …) has its file in every language, and a key
// defined in two files of one language is an error. English is
// a catalog like the others: a message missing from any language is a
// test failure (TestCatalogsComplete), never a silent English fallback.
// Rules terms follow the source texts (docs/glossary.ko.md,
// docs/glossary.ru.md).
//
// Concurrency: the catalogs are parsed once, at package init, and only
// read afterwards; every function may be called from any goroutine.
package i18n

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"simctl/sim/msg"
)

// Lang is a language simctl speaks.
type Lang string

const (
	En Lang = "en"
	Ko Lang = "ko"
	Ru Lang = "ru"
)

// Langs lists every language, English first.
var Langs = []Lang{En, Ko, Ru}

//go:embed catalog
var files embed.FS

// catalogs[lang][key] is the message text; a plural message key has the
// form "key[one]", "key[few]", "key[many]", "key[other]".
var catalogs = map[Lang]map[string]string{}

func init() {
	for _, l := range Langs {
		m, err := load(l)
		if err != nil {
			panic("i18n: " + err.Error())
		}
		catalogs[l] = m
	}
}

// load reads every catalog/LANG/*.txt of l into one map.
func load(l Lang) (map[string]string, error) {
	dir := "catalog/" + string(l)
	entries, err := files.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	all := map[string]string{}
	where := map[string]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		name := dir + "/" + e.Name()
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		m, err := parse(name, data)
		if err != nil {
			return nil, err
		}
		for k, v := range m {
			if w, dup := where[k]; dup {
				return nil, fmt.Errorf("%s: %q is defined in %s too", name, k, w)
			}
			all[k], where[k] = v, name
		}
	}
	return all, nil
}

// parse reads a catalog: "key = text" lines; '#' starts a comment line;
// "\n" in a text is a line break. A repeated key is an error.
func parse(name string, data []byte) (map[string]string, error) {
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, " = ")
		if !ok {
			return nil, fmt.Errorf("%s:%d: expected `key = text`", name, n)
		}
		k = strings.TrimSpace(k)
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("%s:%d: %q is defined twice", name, n, k)
		}
		m[k] = strings.ReplaceAll(strings.TrimSpace(v), `\n`, "\n")
	}
	return m, sc.Err()
}

// Parse reads a --lang value.
func Parse(s string) (Lang, error) {
	for _, l := range Langs {
		if strings.EqualFold(s, string(l)) {
			return l, nil
		}
	}
	return "", msg.Errorf("unknown language %q (valid: en, ko, ru)", s)
}

// FromEnv picks the language from the POSIX locale variables, in their
// order of precedence (LC_ALL, LC_MESSAGES, LANG): the first one set
// decides; a locale naming none of simctl's languages ("C", "de_DE.UTF-8")
// gives English.
func FromEnv(getenv func(string) string) Lang {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		s := getenv(v)
		if s == "" {
			continue
		}
		// ko_KR.UTF-8, ru_RU@euro, ru: the part before '_', '.' or '@'.
		if i := strings.IndexAny(s, "_.@-"); i >= 0 {
			s = s[:i]
		}
		if l, err := Parse(s); err == nil {
			return l
		}
		return En
	}
	return En
}

// Has tells whether key is in the catalog of l (for tests and tools).
func Has(l Lang, key string) bool { _, ok := catalogs[l][key]; return ok }

// Keys lists the keys of l's catalog.
func Keys(l Lang) []string {
	var ks []string
	for k := range catalogs[l] {
		ks = append(ks, k)
	}
	return ks
}

// T formats the message key in l with args (fmt verbs). A key missing
// from the catalog is a programming error the completeness test catches;
// at run time it panics with the key, rather than print English in a
// Korean report.
func (l Lang) T(key string, args ...any) string {
	s, ok := catalogs[l.Or()][key]
	if !ok {
		panic(fmt.Sprintf("i18n: message %q has no %s text", key, l.Or()))
	}
	// Always formatted, so a catalog writes a percent sign as %% in every
	// message alike.
	return l.finish(fmt.Sprintf(s, args...))
}

// N formats the plural message key for the count n: the catalog's
// "key[one]", "key[few]", "key[many]" or "key[other]" by l's plural rule,
// with n as the first argument.
func (l Lang) N(key string, n int64, args ...any) string {
	return l.T(key+"["+string(l.Or().PluralForm(n))+"]", append([]any{l.Int(n)}, args...)...)
}

// PluralForm is a CLDR plural category.
type PluralForm string

const (
	One   PluralForm = "one"
	Few   PluralForm = "few"
	Many  PluralForm = "many"
	Other PluralForm = "other"
)

// PluralForm gives the CLDR category of the integer n in l (CLDR's
// plurals.xml, integers only: simctl counts encounters, rounds, options).
// Russian: one for 1, 21, 101 (but not 11, 111); few for 2-4, 22-24 (not
// 12-14); many for the rest, 0 included. Korean has no plural forms;
// English one for 1 only.
func (l Lang) PluralForm(n int64) PluralForm {
	if n < 0 {
		n = -n
	}
	switch l.Or() {
	case Ru:
		d, h := n%10, n%100
		switch {
		case d == 1 && h != 11:
			return One
		case d >= 2 && d <= 4 && (h < 12 || h > 14):
			return Few
		}
		return Many
	case Ko:
		return Other
	}
	if n == 1 {
		return One
	}
	return Other
}

// Forms lists the plural categories l's catalog must give each plural
// message.
func (l Lang) Forms() []PluralForm {
	switch l.Or() {
	case Ru:
		return []PluralForm{One, Few, Many}
	case Ko:
		return []PluralForm{Other}
	}
	return []PluralForm{One, Other}
}

// Paren is word with note in parentheses beside it: "word (note)", and in
// Korean after a Korean word "word(note)", as Korean sets a parenthesis
// against the word it annotates (docs/glossary.ko.md, 괄호).
func (l Lang) Paren(word, note string) string {
	if l.Or() == Ko {
		if r, _ := utf8.DecodeLastRuneInString(word); r >= '가' && r <= '힣' || r == '」' || r == '』' {
			return word + "(" + note + ")"
		}
	}
	return word + " (" + note + ")"
}

// Or is l, or English for the zero Lang.
func (l Lang) Or() Lang {
	if l == "" {
		return En
	}
	return l
}

// Decimal writes x with prec decimals for prose: Russian writes a decimal
// comma (0,53), English and Korean a point. Tables meant to be pasted into
// spreadsheets (CSV, the Markdown and text tables) keep the point in every
// language and never go through Decimal.
func (l Lang) Decimal(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if l.Or() == Ru {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// Percent writes a share p (0..1) as a percentage with prec decimals for
// prose: "53.1%" in English and Korean, "53,1 %" in Russian (Russian
// typography separates the sign by a no-break space).
func (l Lang) Percent(p float64, prec int) string {
	if l.Or() == Ru {
		return l.Decimal(100*p, prec) + "\u00a0%"
	}
	return l.Decimal(100*p, prec) + "%"
}

// Int writes n with thousands grouped as l writes them in prose: 1,000,000
// in English and Korean, 1 000 000 in Russian (narrow no-break spaces, the
// separator Reading writes, so that one text has one form).
func (l Lang) Int(n int64) string {
	sep := ","
	if l.Or() == Ru {
		sep = nnbsp
	}
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-(n + 1)) + 1 // math.MinInt64 too
	}
	s := strconv.FormatUint(u, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	// Russian leaves four-digit numbers ungrouped (1000, 10 000).
	if l.Or() == Ru && len(s) <= 4 {
		b.WriteString(s)
		return b.String()
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Letters is every character of l's catalog: what a font must draw for
// l's figures.
func Letters(l Lang) string {
	var b strings.Builder
	for _, s := range catalogs[l.Or()] {
		b.WriteString(s)
	}
	return b.String()
}

// Text is the catalog text of key in l, unformatted (for tests that look
// for it in output); "" when missing.
func Text(l Lang, key string) string { return catalogs[l.Or()][key] }
