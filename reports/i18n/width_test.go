package i18n

import "testing"

// TestWrap: Hangul takes two columns, Cyrillic one; a no-break space
// ties; ASCII breaks at the last space that fits.
func TestWrap(t *testing.T) {
	if got := Width("한글 ab ё"); got != 9 {
		t.Errorf("Width = %d, want 9", got)
	}
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{
		{"가나 다라 마바", 9, "가나 다라\n마바"},
		{"ёж ёж ёж", 5, "ёж ёж\nёж"},
		{"боёв: 10\u00a0000 всего", 10, "боёв:\n10\u00a0000\nвсего"},
		{"stop once every 95% win interval", 16, "stop once every\n95% win interval"},
		{"averyveryverylongword x", 8, "averyveryverylongword\nx"},
	} {
		if got := Wrap(c.s, c.width, ""); got != c.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
	}
	if got := Wrap("a b c", 4, "  "); got != "  a\n  b\n  c" {
		t.Errorf("indent: %q", got)
	}
}
