package i18n

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Russian noun after a count agrees with it: 1 бой, 2 боя, 5 боёв (and
// 21 бой, 11 боёв; a fraction takes the form of few: 1,5 боя). A message's
// count is often one of its arguments, and a message of sim/msg is
// formatted where no plural rule is known, so a Russian text writes the
// noun's three forms (CLDR one, few, many) in double brackets right after
// the count, "%d [[бой|боя|боёв]]", "из %s [[боя|боёв|боёв]]", and Agree
// picks the form by the number before it once the message is formatted
// (T, N, Sprintf, Err and Msg pass every Russian text through it). With
// no number before it, the last form is taken. (Sprintf's [[N|…]], which
// names its argument, is resolved before formatting; this one has no
// index.)
var agreeChoice = regexp.MustCompile(`\[\[([^\]|0-9][^\]]*\|[^\]]*)\]\]`)

// Agree picks the form of each [[one|few|many]] of s by the count before
// it (see above).
func Agree(s string) string {
	if !strings.Contains(s, "[[") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range agreeChoice.FindAllStringSubmatchIndex(s, -1) {
		forms := strings.Split(s[m[2]:m[3]], "|")
		k := len(forms) - 1
		if f, ok := countBefore(s[:m[0]]); ok {
			switch f {
			case One:
				k = 0
			case Few:
				k = 1
			}
			k = min(k, len(forms)-1)
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(forms[k])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// countBefore is the Russian plural form of the number s ends with (after
// blanks): 5 000, 5,000 and 5000 are one number, 1,5 and 1.5 a fraction.
func countBefore(s string) (PluralForm, bool) {
	s = strings.TrimRight(s, " \u00a0\u202f")
	end := len(s)
	i := end
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if r >= '0' && r <= '9' || r == ',' || r == '.' || r == '\u202f' || r == '\u00a0' {
			i -= n
			continue
		}
		break
	}
	num := strings.Trim(s[i:end], ",.\u00a0\u202f")
	if num == "" || num[len(num)-1] < '0' || num[len(num)-1] > '9' {
		return "", false
	}
	num = strings.NewReplacer("\u202f", "", "\u00a0", "").Replace(num)
	// A comma followed by groups of three digits groups thousands (the
	// machine form); any other comma or point starts a fraction.
	intPart := num
	if k := strings.IndexAny(num, ".,"); k >= 0 {
		if machineNumber(num) && !strings.Contains(num, ".") {
			intPart = strings.ReplaceAll(num, ",", "")
		} else {
			return Few, true
		}
	}
	n, err := strconv.ParseInt(intPart, 10, 64)
	if err != nil {
		return Many, true
	}
	return Ru.PluralForm(n), true
}
