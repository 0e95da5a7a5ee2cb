package scenario

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim/msg"
	"simctl/sim/names"
)

// Error is one problem with a scenario, located in its file.
type Error struct {
	File      string
	Line, Col int    // 1-based; Line 0: no position (a --set path); Col 0: only the line is known
	Path      string // the field, e.g. sides[0].combatants[1].hp
	Msg       string // in English
	// Text is Msg as a message the front ends translate (reports/i18n);
	// the zero Text means Msg, untranslated.
	Text msg.Text
}

func (e *Error) Error() string { return e.Localize(nil) }

// Localize is the error with its message translated by tr; the file,
// position and field path stay as they are.
func (e *Error) Localize(tr msg.Translator) string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Text.Format != "" {
		b.WriteString(e.Text.Localize(tr))
	} else {
		b.WriteString(e.Msg)
	}
	return b.String()
}

// newError is the Error at path in file saying text.
func newError(file, path string, text msg.Text) *Error {
	return &Error{File: file, Path: path, Msg: text.String(), Text: text}
}

// Errors is every problem found in one scenario, in file order. Validation
// reports them all at once so a user fixes a file in one pass.
type Errors []*Error

func (es Errors) Error() string { return es.Localize(nil) }

// Localize is every error translated by tr, one a line.
func (es Errors) Localize(tr msg.Translator) string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Localize(tr)
	}
	return strings.Join(lines, "\n")
}

// Sort orders the errors by position in the file.
func (es Errors) Sort() {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Col < es[j].Col
	})
}

// Reporter collects errors against one file. Rulesets use the scenario's
// Reporter while they compile their own fields, so their errors carry the
// same file:line:col as the core's.
type Reporter struct {
	File  string
	Errs  Errors
	Warns Errors // legal but probably unintended (an unreachable tactics rule)

	// origin maps the nodes a --set override wrote to that override, so a
	// problem with an overridden value says where the value came from (its
	// position is the field's place in the file, which holds something else).
	origin map[*yaml.Node]string
}

// Errorf records a problem at node (which may be nil).
func (r *Reporter) Errorf(node *yaml.Node, path, format string, args ...any) {
	e := newError(r.File, path, msg.New(format, args...))
	if node != nil {
		e.Line, e.Col = node.Line, node.Column
	}
	r.add(e, node)
}

// Warnf records a warning at node: the scenario still runs.
func (r *Reporter) Warnf(node *yaml.Node, path, format string, args ...any) {
	e := newError(r.File, path, msg.New(format, args...))
	if node != nil {
		e.Line, e.Col = node.Line, node.Column
	}
	r.Warns = append(r.Warns, e)
}

// add records e, noting the --set override that wrote node, if any.
func (r *Reporter) add(e *Error, node *yaml.Node) {
	if set, ok := r.origin[node]; ok && node != nil {
		if e.Text.Format == "" {
			e.Text = msg.New("%s", e.Msg)
		}
		e.Text = msg.New("%s (from --set %s)", e.Text, set)
		e.Msg = e.Text.String()
	}
	r.Errs = append(r.Errs, e)
}

// markSet records that n and everything under it came from override set.
func (r *Reporter) markSet(n *yaml.Node, set string) {
	if n == nil {
		return
	}
	if r.origin == nil {
		r.origin = map[*yaml.Node]string{}
	}
	r.origin[n] = set
	for _, c := range n.Content {
		r.markSet(c, set)
	}
}

// Err returns the collected errors sorted by position, or nil. The result
// is a copy: errors recorded later do not change it.
func (r *Reporter) Err() error {
	if len(r.Errs) == 0 {
		return nil
	}
	r.Errs.Sort()
	// A side-wide setting is checked once per combatant; say it once.
	out := r.Errs[:0]
	for i, e := range r.Errs {
		if i > 0 && e.Line == r.Errs[i-1].Line && e.Col == r.Errs[i-1].Col && e.Error() == r.Errs[i-1].Error() {
			continue
		}
		out = append(out, e)
	}
	r.Errs = out
	return append(Errors(nil), r.Errs...)
}

// quoteList renders valid choices for an error message.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// Closest returns the valid name nearest to s by edit distance (the first
// such in valid's order), or "" when none is within two edits: "did you
// mean" turns a typo into a one-second fix. It is names.Closest, kept here
// for the packages that decode scenarios.
func Closest(s string, valid []string) string { return names.Closest(s, valid) }

// unknownField is the error for a key that is not in valid.
func unknownField(key string, valid []string) msg.Text {
	sorted := append([]string(nil), valid...)
	sort.Strings(sorted)
	return msg.New("unknown field %q%s; valid fields: %s", key, names.Suggest(key, valid), strings.Join(sorted, ", "))
}

// Suggest is ` (did you mean "x"?)` for the name in valid closest to s, or
// the empty Text when none is close: names.Suggest, kept here for the
// packages that decode scenarios. Pass it as a %s argument of a message.
func Suggest(s string, valid []string) msg.Text { return names.Suggest(s, valid) }

// IgnoredPolicy records that a policy: the run does not read (tactics:
// decide for the combatant or side at where, e.g. "heroes.Rogue" or
// "heroes") was written. In the file it is a warning: the scenario still
// runs as its tactics say. Written by a --set it is an error: the user
// asked for a change the run would not make (a compare option equal to
// its baseline, a sweep flat by construction), so say what to write
// instead.
func (r *Reporter) IgnoredPolicy(node *yaml.Node, path, where string, side bool) {
	if _, ok := r.origin[node]; ok && node != nil {
		if side {
			r.Errorf(node, path, "this --set changes nothing: tactics: decides for this side; write --set %s.tactics=NAME to play a library policy instead, or --set %s.tactics.params.NAME=VALUE to change the tactics", where, where)
		} else {
			r.Errorf(node, path, "this --set changes nothing: tactics: decides for this combatant; write --set %s.tactics=NAME to play a library policy instead, or --set %s.tactics.params.NAME=VALUE to change the tactics", where, where)
		}
		return
	}
	if side {
		r.Warnf(node, path, "ignored: tactics: decides for this side")
	} else {
		r.Warnf(node, path, "ignored: tactics: decides for this combatant")
	}
}
