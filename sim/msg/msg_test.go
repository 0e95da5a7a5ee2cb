package msg

import (
	"errors"
	"io/fs"
	"testing"
)

// upper is a translator for the test: it knows one format.
func upper(f string) (string, bool) {
	if f == "no side %q%s" {
		return "NO SIDE %q%s", true
	}
	if f == " (did you mean %q?)" {
		return " (MEANT %q?)", true
	}
	return "", false
}

func TestLocalize(t *testing.T) {
	m := New("no side %q%s", "herows", New(" (did you mean %q?)", "heroes"))
	if got, want := m.String(), `no side "herows" (did you mean "heroes"?)`; got != want {
		t.Errorf("English %q, want %q", got, want)
	}
	// The part is translated with the whole; the user's words are not.
	if got, want := m.Localize(upper), `NO SIDE "herows" (MEANT "heroes"?)`; got != want {
		t.Errorf("translated %q, want %q", got, want)
	}
	// A format the translator lacks prints in English.
	if got, want := New("%d left", 3).Localize(upper), "3 left"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestErrorfWraps(t *testing.T) {
	err := Errorf("reading %s: %w", "a.yaml", fs.ErrNotExist)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is does not see the wrapped error")
	}
	if got, want := err.Error(), "reading a.yaml: file does not exist"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// Two wrapped errors, as fmt.Errorf allows.
	a, b := errors.New("a"), errors.New("b")
	if e := Errorf("%w and %w", a, b); !errors.Is(e, a) || !errors.Is(e, b) {
		t.Error("errors.Is misses one of two wrapped errors")
	}
	if got := Localize(Errorf("no side %q%s", "x", ""), upper); got != `NO SIDE "x"` {
		t.Errorf("Localize: %q", got)
	}
	if got := Localize(errors.New("plain"), upper); got != "plain" {
		t.Errorf("a plain error: %q", got)
	}
}
