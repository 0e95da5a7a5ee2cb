// Package i18ntest finds English left in output meant to be Korean or
// Russian: the completeness checks of the report, the help, the rules
// texts, the errors and the lab share it. It is imported by tests only.
//
// Concurrency: read-only after package init.
package i18ntest

import (
	"html"
	"regexp"
	"sort"
	"strings"
)

// keptEnglish are the words a translated report keeps in English on
// purpose: units and statistics' names the catalogs keep (pp, Wilson,
// Fieller, SHA-256, VR, SE), the result's own counter, rule and event
// names (text tables and reports name them as the JSON does), flags'
// words and the ruleset option values the scenario file writes.
var keptEnglish = map[string]bool{
	// units, statistics and their symbols
	"pp": true, "Wilson": true, "Fieller": true, "SHA": true, "VR": true, "SE": true, "p": true, "CI": true,
	// the Korean d20 source's own abbreviation (「DC 15 + 주문 레벨」)
	"DC": true,
	"K":  true, "s": true, "alpha": true, "d": true, "a": true, "b": true, "i": true, "N": true, "W": true, "step": true,
	// simctl itself, its formats and its commands' words
	"simctl": true, "JSON": true, "CSV": true, "PNG": true, "SVG": true, "YAML": true, "Markdown": true,
	"run": true, "merge": true, "report": true, "resume": true, "FILE": true, "test": true,
	"sweep": true, "compare": true, "value": true, "matrix": true, "tournament": true, "optimize": true,
	// counter names kept as the result writes them
	"max_rounds": true, "true": true, "false": true, "fired": true, "fallback": true, "fell": true, "through": true,
	"no": true, "target": true, "turn": true, "power": true,
}

var (
	fenced   = regexp.MustCompile("(?s)```.*?```")
	codeSpan = regexp.MustCompile("`[^`]*`")
	SVGText  = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
	tags     = regexp.MustCompile(`<[^>]+>`)
	// A file name, a flag, a dotted path or override (heroes.Fighter.ac=22,
	// builtin:d20/duel.yaml), a --set list.
	files  = regexp.MustCompile(`[\w./:-]+\.(json|png|svg|txt|md|yaml|csv|html)\b`)
	flags  = regexp.MustCompile(`--?[a-z][a-z-]*`)
	dotted = regexp.MustCompile(`[\w#<>/-]+(\.[\w#<>/-]+)+(=(\{[^}]*\}|[^\s|,;)]*))?`)
	latin  = regexp.MustCompile(`[A-Za-z][A-Za-z_']*`)
	// A SHA-256, a version, an identifier with an underscore (a JSON key,
	// a counter), a ruleset option as the scenario sets it (name: value).
	sha256Re = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
	version  = regexp.MustCompile(`\b\d+\.\d+\.\d+\S*`)
	ident    = regexp.MustCompile(`\b\w*_\w*\b`)
	option   = regexp.MustCompile(`\b[a-z_]+: *[\w+.-]+`)
)

// EnglishLines are the lines of out (Markdown, captions, figures' text)
// that still hold an English word once the names the user wrote (names),
// code, file names, flags, paths and keptEnglish are taken out.
func EnglishLines(out string, names []string) []string {
	out = fenced.ReplaceAllString(out, "")
	// Longest first, so "Fighter vs Orc" goes before "Fighter".
	names = append([]string(nil), names...)
	sort.Slice(names, func(a, b int) bool { return len(names[a]) > len(names[b]) })
	// Each name as a whole word ("init" is not taken out of "initiative";
	// Korean particles follow a name directly: heroes의).
	var nameRes []*regexp.Regexp
	for _, n := range names {
		if n != "" {
			nameRes = append(nameRes, regexp.MustCompile(`(^|[^A-Za-z0-9_])`+regexp.QuoteMeta(n)+`($|[^A-Za-z0-9_])`))
		}
	}
	var bad []string
	for _, line := range strings.Split(out, "\n") {
		s := html.UnescapeString(line)
		s = codeSpan.ReplaceAllString(s, " ")
		s = files.ReplaceAllString(s, " ")
		s = sha256Re.ReplaceAllString(s, " ")
		s = version.ReplaceAllString(s, " ")
		s = dotted.ReplaceAllString(s, " ")
		for _, re := range nameRes {
			s = re.ReplaceAllString(s, "$1 $2")
		}
		s = option.ReplaceAllString(s, " ")
		s = tags.ReplaceAllString(s, " ")
		s = ident.ReplaceAllString(s, " ")
		s = flags.ReplaceAllString(s, " ")
		var words []string
		for _, w := range latin.FindAllString(s, -1) {
			if !keptEnglish[w] {
				words = append(words, w)
			}
		}
		if len(words) > 0 {
			bad = append(bad, strings.Join(words, " ")+"   ← "+strings.TrimSpace(line))
		}
	}
	return bad
}
