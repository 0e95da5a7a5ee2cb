// Package msg keeps a user-facing message as its English format and its
// arguments, so the packages below the front ends speak English while a
// front end prints the same message in the user's language
// (reports/i18n's catalogs translate the format; the arguments, names the
// user wrote among them, are never translated).
//
// An argument that is itself a Text, or an error or value with a Localize
// method, is translated with the message around it, so a message built
// from parts ("unknown field %q%s" with a " (did you mean …?)" part)
// translates whole.
//
// Concurrency: Text and Error are values, read-only after they are made;
// every function may be called from any goroutine.
package msg

import (
	"fmt"
	"strings"
)

// Translator maps an English format to the format of another language;
// ok is false when it has none (English is then printed: the catalogs'
// completeness test keeps that from happening to a message simctl knows).
type Translator func(format string) (translated string, ok bool)

// Localizer is a message that can print itself through a Translator. A nil
// Translator means English.
type Localizer interface {
	Localize(tr Translator) string
}

// Text is a message: an English fmt format and its arguments.
type Text struct {
	Format string
	Args   []any
}

// New is the message format with args.
func New(format string, args ...any) Text { return Text{Format: format, Args: args} }

// String is the message in English.
func (t Text) String() string { return t.Localize(nil) }

// Localize is the message with its format translated by tr, and every
// argument that is a Localizer translated too.
func (t Text) Localize(tr Translator) string {
	f := t.Format
	if tr != nil {
		if s, ok := tr(f); ok {
			f = s
		}
	}
	// Sprintf has no %w; the wrapped error prints as with %v.
	f = strings.ReplaceAll(f, "%w", "%v")
	args := make([]any, len(t.Args))
	for i, a := range t.Args {
		args[i] = Arg(a, tr)
	}
	return fmt.Sprintf(f, args...)
}

// Arg is a as it prints inside a message translated by tr: a Localizer
// (an error or not) is translated, anything else is left as it is.
func Arg(a any, tr Translator) any {
	if l, ok := a.(Localizer); ok {
		return l.Localize(tr)
	}
	return a
}

// Error is an error whose message is a Text. It wraps what %w wraps, as
// fmt.Errorf does.
type Error struct {
	Text
	wrapped error // fmt.Errorf's result: keeps errors.Is/As working
}

// Errorf is fmt.Errorf keeping the format and arguments: %w wraps.
func Errorf(format string, args ...any) error {
	return &Error{Text: New(format, args...), wrapped: fmt.Errorf(format, args...)}
}

func (e *Error) Error() string { return e.Text.String() }

// Unwrap is what %w wrapped (one error, several, or none).
func (e *Error) Unwrap() []error {
	switch w := e.wrapped.(type) {
	case interface{ Unwrap() error }:
		if u := w.Unwrap(); u != nil {
			return []error{u}
		}
	case interface{ Unwrap() []error }:
		return w.Unwrap()
	}
	return nil
}

// Localize renders err through tr: a Localizer is translated, another
// error prints its English Error().
func Localize(err error, tr Translator) string {
	if err == nil {
		return ""
	}
	if l, ok := err.(Localizer); ok {
		return l.Localize(tr)
	}
	return err.Error()
}
