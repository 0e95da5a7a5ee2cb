package i18n

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"simctl/sim/msg"
)

// Sprintf is fmt.Sprintf of the English format in l: the format is
// translated by the msg catalogs (catalog/msg/*.txt, keyed by the English
// format, as errors are), every argument that is a message is translated
// with it, and a translation may choose a word by a count with
// [[N|one|few|many]] (Russian: the CLDR forms one, few, many of argument
// N, 1-based; Korean has no plural forms and never needs it):
//
//	en: %s bleeds for %d rounds
//	ru: %s истекает кровью %[2]d [[2|раунд|раунда|раундов]]
//
// The narration of simctl trace is printed through it (sim.Log.Tr). A
// format the catalogs lack prints in English.
func (l Lang) Sprintf(format string, args ...any) string {
	tr := l.Tr()
	f := format
	if tr != nil {
		if s, ok := tr(format); ok {
			f = s
		}
	}
	if strings.Contains(f, "[[") {
		f = l.plurals(f, args)
	}
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = msg.Arg(a, tr)
	}
	return l.finish(fmt.Sprintf(f, out...))
}

var pluralChoice = regexp.MustCompile(`\[\[(\d+)\|([^\]]*)\]\]`)

// plurals replaces each [[N|forms…]] of f with the form of argument N's
// count (an integer argument; anything else takes the last form). A
// percent sign in a form is written %% as everywhere in a format.
func (l Lang) plurals(f string, args []any) string {
	forms := l.Forms()
	return pluralChoice.ReplaceAllStringFunc(f, func(m string) string {
		sm := pluralChoice.FindStringSubmatch(m)
		words := strings.Split(sm[2], "|")
		n, _ := strconv.Atoi(sm[1])
		k := len(words) - 1
		if n >= 1 && n <= len(args) {
			if c, ok := count(args[n-1]); ok {
				form := l.PluralForm(c)
				for i, f := range forms {
					if f == form && i < len(words) {
						k = i
					}
				}
			}
		}
		return words[k]
	})
}

// count is a as an integer count.
func count(a any) (int64, bool) {
	switch v := a.(type) {
	case int:
		return int64(v), true
	case int8:
		return int64(v), true
	case int16:
		return int64(v), true
	case int32:
		return int64(v), true
	case int64:
		return v, true
	case uint:
		return int64(v), true
	case uint8:
		return int64(v), true
	case uint16:
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint64:
		return int64(v), true
	}
	return 0, false
}
