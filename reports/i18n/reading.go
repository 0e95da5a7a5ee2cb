package i18n

import "strings"

// simctl writes its figures in one machine form (51,789; 0.53; 93.94%;
// +1.25 pp; [-0.50, +2.10] pp), the form CSV, JSON and the Markdown of
// --format markdown keep in every language so that a spreadsheet reads
// them. Text meant for reading, the text tables and prose of the commands
// and the report, is passed through Reading (prose) or ReadingCell (a
// table's cell), which rewrite those figures as l writes them:
//
//   - Russian: a decimal comma (0,53), thousands grouped by a narrow
//     no-break space (51 789; prose leaves four digits whole, 5000, as
//     Russian typography does, a table groups them, 5 000, so a column
//     lines up), a no-break space before the percent sign in prose
//     (93,94 %; a table's cell keeps it close, 93,94%, to stay within a
//     terminal's width), and percentage points п. п. (+1,25 п. п.);
//   - Korean: percentage points %p (+1.25%p), the form Korean statistics
//     writes; the numbers themselves as in English.
//
// A number that is part of a word or a setting is left alone: one after a
// Latin letter, '_', '=', '#', '/' or '.' (p90, d20, init=0.5, v0.9.1),
// before a Latin letter (1d8, 2x, and 2pp: what a user types for --delta), and one written without a separator
// (a seed, an index: 12345).

const (
	nnbsp = "\u202f" // narrow no-break space: Russian thousands
	nbsp  = "\u00a0" // no-break space: before % and units
)

// PointsUnit is l's unit of percentage points as it follows a number.
func (l Lang) PointsUnit() string {
	switch l.Or() {
	case Ko:
		return "%p"
	case Ru:
		return nbsp + "п." + nbsp + "п."
	}
	return " pp"
}

// Reading rewrites the machine-form figures of the prose s as l writes
// them for reading (see above); English is returned unchanged.
func (l Lang) Reading(s string) string { return l.reading(s, 5, nbsp) }

// ReadingCell is Reading for a table's cell: Russian groups four-digit
// numbers too, and writes the percent sign close.
func (l Lang) ReadingCell(s string) string { return l.reading(s, 4, "") }

// FigureNumber rewrites s, a number as strconv writes it (-1.5, 12000)
// or a value as a user typed it on a varied axis, as l writes a number in
// a figure: as its prose does (Russian: 0,5 and 12 000, four digits
// whole; English and Korean unchanged). Anything but a plain decimal
// number (a category, 1e3, "—") is returned as it is.
func (l Lang) FigureNumber(s string) string {
	if l.Or() != Ru {
		return s
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return s
	}
	intPart, frac, hasFrac := strings.Cut(body, ".")
	if intPart == "" || !allDigits(intPart) || hasFrac && (frac == "" || !allDigits(frac)) {
		return s
	}
	return s[:len(s)-len(body)] + l.number(body, 5)
}

// reading rewrites s, grouping integers of at least group digits, with
// pctSpace before a Russian percent sign.
func (l Lang) reading(s string, group int, pctSpace string) string {
	if l.Or() == En {
		return s
	}
	var b strings.Builder
	i := 0
	depth := 0 // open square brackets: an interval's ends
	for i < len(s) {
		c := s[i]
		switch c {
		case '[':
			depth++
		case ']':
			depth = max(depth-1, 0)
		case ',':
			// [0,11, 3,64] reads as four numbers with decimal commas:
			// Russian separates an interval's ends by a semicolon.
			if l.Or() == Ru && depth > 0 && strings.HasPrefix(s[i:], ", ") && i > 0 && (isDigit(s[i-1]) || s[i-1] == '%') && intervalEnd(s, i+2) {
				b.WriteString("; ")
				i += 2
				continue
			}
		}
		if c < '0' || c > '9' || !numberStart(s, i) {
			// " pp" after a closing bracket: an interval's unit.
			if c == ']' && strings.HasPrefix(s[i+1:], " pp") && unitEnd(s, i+4) {
				b.WriteString("]" + l.PointsUnit())
				i += 4
				continue
			}
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(s) && (isDigit(s[j]) || (s[j] == ',' || s[j] == '.') && j+1 < len(s) && isDigit(s[j+1])) {
			j++
		}
		num := s[i:j]
		if l.Or() == Ru && pctSpace != "" && allDigits(num) && strings.HasPrefix(s[j:], "%") && !strings.HasPrefix(s[j:], "%p") {
			// 95%: a whole number's percent sign takes the space too.
			b.WriteString(num + pctSpace + "%")
			i = j + 1
			continue
		}
		if allDigits(num) && strings.HasPrefix(s[j:], " pp") && unitEnd(s, j+3) {
			// 2 pp: a whole number of points (--precision 0.02).
			b.WriteString(l.number(num, group) + l.PointsUnit())
			i = j + 3
			continue
		}
		if j < len(s) && (isASCIILetter(s[j]) || s[j] == '_') || !machineNumber(num) {
			// 1d8, 2x, 0.9.1: not a figure; copy the digits and go on.
			k := i
			for k < j && isDigit(s[k]) {
				k++
			}
			if k == i {
				k++
			}
			b.WriteString(s[i:k])
			i = k
			continue
		}
		b.WriteString(l.number(num, group))
		i = j
		switch {
		case l.Or() == Ru && strings.HasPrefix(s[i:], "%") && !strings.HasPrefix(s[i:], "%p"):
			b.WriteString(pctSpace + "%")
			i++
		case strings.HasPrefix(s[i:], " pp") && unitEnd(s, i+3):
			b.WriteString(l.PointsUnit())
			i += 3
		}
	}
	return b.String()
}

// intervalEnd: s[i:] starts with a number (an interval's second end).
func intervalEnd(s string, i int) bool {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	return i < len(s) && isDigit(s[i])
}

// number writes the machine-form figure num (validated) in l.
func (l Lang) number(num string, group int) string {
	if l.Or() != Ru {
		return num
	}
	intPart, frac, _ := strings.Cut(num, ".")
	digits := strings.ReplaceAll(intPart, ",", "")
	var b strings.Builder
	if len(digits) >= group {
		for k, r := range digits {
			if k > 0 && (len(digits)-k)%3 == 0 {
				b.WriteString(nnbsp)
			}
			b.WriteRune(r)
		}
	} else {
		b.WriteString(digits)
	}
	if frac != "" {
		b.WriteString("," + frac)
	}
	return b.String()
}

// numberStart tells whether the digit at s[i] starts a figure: not inside
// a word or a setting.
func numberStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	p := s[i-1]
	switch {
	case isDigit(p), isASCIILetter(p), strings.IndexByte("_=#/.", p) >= 0:
		return false
	case (p == '-' || p == '+') && i >= 2:
		q := s[i-2]
		return !(isDigit(q) || isASCIILetter(q) || q == '_' || q == '.') // run-1.5, 3-4
	}
	return true
}

// machineNumber is a figure in simctl's machine form: 51,789 or 0.53 or
// 51,789.25; a bare run of digits (a seed, an index) is not rewritten.
func machineNumber(num string) bool {
	intPart, frac, hasFrac := strings.Cut(num, ".")
	if hasFrac && (frac == "" || strings.ContainsAny(frac, ".,")) {
		return false
	}
	if strings.Contains(intPart, ",") {
		groups := strings.Split(intPart, ",")
		if len(groups[0]) < 1 || len(groups[0]) > 3 || groups[0][0] == '0' {
			// 0,125 is a decimal comma already (a Russian prose number).
			return false
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return false
			}
		}
		return true
	}
	return hasFrac
}

// unitEnd: the unit ending at s[i] is a word of its own.
func unitEnd(s string, i int) bool {
	return i >= len(s) || !isASCIILetter(s[i]) && !isDigit(s[i])
}

func allDigits(s string) bool { return strings.Trim(s, "0123456789") == "" }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
