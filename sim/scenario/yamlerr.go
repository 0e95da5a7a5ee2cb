package scenario

import (
	"regexp"
	"strings"

	"simctl/sim/msg"
)

// yamlProblems are the YAML library's syntax errors a user meets most,
// recognized by their English text (the library has no error codes) so
// that they print translated: each format, given the pattern's
// submatches, writes the library's text again byte for byte.
var yamlProblems = []struct {
	re     *regexp.Regexp
	format string
}{
	{regexp.MustCompile(`^mapping values are not allowed in this context$`), "mapping values are not allowed in this context"},
	{regexp.MustCompile(`^mapping keys are not allowed in this context$`), "mapping keys are not allowed in this context"},
	{regexp.MustCompile(`^did not find expected key$`), "did not find expected key"},
	{regexp.MustCompile(`^did not find expected ',' or '\]'$`), "did not find expected ',' or ']'"},
	{regexp.MustCompile(`^did not find expected ',' or '\}'$`), "did not find expected ',' or '}'"},
	{regexp.MustCompile(`^did not find expected '-' indicator$`), "did not find expected '-' indicator"},
	{regexp.MustCompile(`^did not find expected node content$`), "did not find expected node content"},
	{regexp.MustCompile(`^did not find expected alphabetic or numeric character$`), "did not find expected alphabetic or numeric character"},
	{regexp.MustCompile(`^could not find expected ':'$`), "could not find expected ':'"},
	{regexp.MustCompile(`^found unexpected end of stream$`), "found unexpected end of stream"},
	{regexp.MustCompile(`^found character that cannot start any token$`), "found character that cannot start any token"},
	{regexp.MustCompile(`^found a tab character that violates indentation$`), "found a tab character that violates indentation"},
	{regexp.MustCompile(`^found a tab character where an indentation space is expected$`), "found a tab character where an indentation space is expected"},
	{regexp.MustCompile(`^found unknown escape character$`), "found unknown escape character"},
	{regexp.MustCompile(`^found undefined tag handle$`), "found undefined tag handle"},
	{regexp.MustCompile(`^control characters are not allowed$`), "control characters are not allowed"},
	{regexp.MustCompile(`^unknown anchor '(.*)' referenced$`), "unknown anchor '%s' referenced"},
	{regexp.MustCompile(`^anchor '(.*)' value contains itself$`), "anchor '%s' value contains itself"},
	{regexp.MustCompile(`^document contains excessive aliasing$`), "document contains excessive aliasing"},
	{regexp.MustCompile(`^exceeded max depth of (\d+)$`), "exceeded max depth of %s"},
}

// yamlLineText matches the library's "line N: " before its problem.
var yamlLineText = regexp.MustCompile(`^line (\d+): (.*)$`)

// YAMLText is the YAML library's error text s ("yaml: " already cut off,
// "line N: problem" or "problem") as a message: a problem of the table
// translates, with its line number kept; any other prints as the
// library wrote it.
func YAMLText(s string) msg.Text {
	if m := yamlLineText.FindStringSubmatch(s); m != nil {
		return msg.New("line %s: %s", m[1], yamlProblem(m[2]))
	}
	return yamlProblem(s)
}

// yamlProblem is one problem of the library's as a message.
func yamlProblem(s string) msg.Text {
	for _, p := range yamlProblems {
		m := p.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		args := make([]any, len(m)-1)
		for i, a := range m[1:] {
			args[i] = a
		}
		// A '%' in a submatch cannot break the format (it is an argument);
		// still, insist on the library's exact text.
		if t := msg.New(p.format, args...); t.String() == s {
			return t
		}
	}
	return msg.New("%s", s)
}

// yamlErrText is a YAML library error as a message (see YAMLText).
func yamlErrText(err error) msg.Text {
	return YAMLText(strings.TrimPrefix(err.Error(), "yaml: "))
}

// yamlLibErr is a YAML library error as the library prints it ("yaml: …"),
// its problem translated (see YAMLText).
func yamlLibErr(err error) msg.Text {
	if rest, ok := strings.CutPrefix(err.Error(), "yaml: "); ok {
		return msg.New("yaml: %s", YAMLText(rest))
	}
	return msg.New("%s", err.Error())
}
