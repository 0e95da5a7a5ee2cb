package i18n

import "strings"

// Width is the number of terminal columns s takes: two for each East
// Asian Wide or Fullwidth rune (Hangul, CJK, fullwidth forms), one for
// every other. Bytes would not do: a Cyrillic letter is two bytes and one
// column, a Hangul syllable three bytes and two columns.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if Wide(r) {
			n++
		}
	}
	return n
}

// Wide reports the East Asian Wide and Fullwidth ranges (UAX #11) simctl's
// languages and the names users write can meet.
func Wide(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r <= 0x115F, // Hangul Jamo leading consonants
		r >= 0x2E80 && r <= 0x303E, // CJK radicals, punctuation
		r >= 0x3041 && r <= 0x33FF, // kana, compatibility Jamo, CJK symbols
		r >= 0x3400 && r <= 0x4DBF, // CJK extension A
		r >= 0x4E00 && r <= 0x9FFF, // CJK ideographs
		r >= 0xA960 && r <= 0xA97F, // Hangul Jamo extended A
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility ideographs
		r >= 0xFE30 && r <= 0xFE4F, // CJK compatibility forms
		r >= 0xFF00 && r <= 0xFF60, // fullwidth forms
		r >= 0xFFE0 && r <= 0xFFE6:
		return true
	}
	return false
}

// Wrap fills s into lines of at most width terminal columns, each after
// indent (a word wider than that gets a line of its own). Words break at
// spaces, tabs and newlines only: a no-break space keeps what it ties
// ("10 000", a Russian one-letter preposition and its word) on one line.
func Wrap(s string, width int, indent string) string {
	var lines []string
	line, n := indent, Width(indent)
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) {
		ww := Width(w)
		if n+ww+1 > width && strings.TrimSpace(line) != "" {
			lines = append(lines, line)
			line, n = indent, Width(indent)
		}
		if strings.TrimSpace(line) != "" {
			line += " "
			n++
		}
		line += w
		n += ww
	}
	if strings.TrimSpace(line) != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
