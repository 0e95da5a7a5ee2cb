package i18n

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Korean particles (조사) that take two shapes by the sound before them:
// 이/가, 은/는, 을/를, 과/와, 아/야 choose by whether that sound ends in a
// final consonant (받침); (으)로 by whether it ends in one other than ㄹ.
// A catalog cannot know what a %s will hold, so a Korean text writes such
// a particle after an argument in its combined form, attached without a
// space: "%s은(는)", "%q이(가)", "%d(으)로", "%s과(와)", "%s(이)나"; Particles
// then picks the shape by what precedes it once the message is formatted
// (T, N, Sprintf, Err and Msg pass every Korean text through it). Where the
// sound cannot be told, as after a Latin name ("Hobgoblin은(는)": Korean
// readers say English names several ways), the combined form stays: the
// usual way Korean software writes it.

// A pair is a combined form and its two shapes: after a final consonant,
// after none.
type particlePair struct{ combined, cons, vowel string }

var particlePairs = []particlePair{
	{"이(가)", "이", "가"}, {"가(이)", "이", "가"},
	{"은(는)", "은", "는"}, {"는(은)", "은", "는"},
	{"을(를)", "을", "를"}, {"를(을)", "을", "를"},
	{"과(와)", "과", "와"}, {"와(과)", "과", "와"},
	{"아(야)", "아", "야"}, {"야(아)", "아", "야"},
	// (이): the copula and the particles built on it (이나, 이며, 이고,
	// 이라는, 이다), dropped after a vowel; 이어(야) becomes 여(야) there.
	{"(이)", "이", ""},
}

// sound is the ending of the syllable a particle follows.
type sound int

const (
	unknown   sound = iota
	vowel           // no final consonant
	rieul           // final ㄹ: (으)로 takes 로, the others their consonant shape
	consonant       // another final consonant
)

// lastSound is the sound s ends with when read aloud in Korean: a Hangul
// syllable's own, a number's as Sino-Korean reads it (12 십이, 10 십, 3.5
// 삼 점 오, 5,000 오천), a percent sign's (퍼센트, %p 퍼센트포인트). It
// reads through closing quotes and brackets ("\"전사\"" is 전사); after a
// closing parenthesis it is the word before the parenthesis, as Korean
// spelling has it (검(sword)을). Anything else, a Latin letter first of all,
// is unknown.
func lastSound(s string) sound {
	for s != "" {
		r, n := utf8.DecodeLastRuneInString(s)
		switch {
		case r >= 0xAC00 && r <= 0xD7A3:
			switch (r - 0xAC00) % 28 {
			case 0:
				return vowel
			case 8:
				return rieul
			}
			return consonant
		case r >= '0' && r <= '9':
			return numberSound(s)
		case r == '%':
			return vowel
		case r == 'p' && strings.HasSuffix(s, "%p"):
			return vowel
		case r == ')' || r == '）':
			if i := strings.LastIndexAny(s, "(（"); i > 0 && strings.TrimSpace(s[:i]) != "" {
				s = strings.TrimRightFunc(s[:i], unicode.IsSpace)
				continue
			}
			s = s[:len(s)-n]
		case strings.ContainsRune("\"'`’”」』》〉]*", r):
			s = s[:len(s)-n]
		default:
			return unknown
		}
	}
	return unknown
}

// numberSound reads the number s ends with: a decimal's last digit on its
// own; an integer's last nonzero digit, or after zeros the power they make
// (십, 백, 천, 만, 억: all end in a consonant other than ㄹ).
func numberSound(s string) sound {
	end := len(s)
	i := end
	for i > 0 && (s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == ',' || s[i-1] == '.') {
		i--
	}
	num := strings.TrimLeft(s[i:end], ",.")
	last := num[len(num)-1]
	if strings.Contains(num, ".") || last != '0' {
		return digitReading(last)
	}
	return consonant // 영, 십, 백, 천, 만, 억
}

// digitReading is the sound of one digit as Sino-Korean reads it: 일, 칠,
// 팔 end in ㄹ; 영, 삼, 육 in another consonant; 이, 사, 오, 구 in a vowel.
func digitReading(d byte) sound {
	switch d {
	case '1', '7', '8':
		return rieul
	case '0', '3', '6':
		return consonant
	}
	return vowel
}

// Particles picks the shape of every combined Korean particle in s by the
// sound before it (see above); a combined form after a space, a Latin
// letter or anything else whose sound is unknown stays as it is.
func Particles(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	var b strings.Builder
	rest := s
	done := 0 // bytes of s written to b
	for {
		i, p, ro := nextParticle(rest)
		if i < 0 {
			break
		}
		at := done + i
		before := s[:at]
		snd := unknown
		if before != "" {
			if r, _ := utf8.DecodeLastRuneInString(before); !unicode.IsSpace(r) {
				snd = lastSound(before)
			}
		}
		b.WriteString(s[done:at])
		width := len(p.combined)
		switch {
		case ro: // (으)로
			width = len("(으)")
			switch snd {
			case vowel, rieul:
			case consonant:
				b.WriteString("으")
			default:
				b.WriteString("(으)")
			}
		case snd == unknown:
			b.WriteString(p.combined)
		case snd == vowel && p.combined == "(이)" && strings.HasPrefix(s[at+width:], "어"):
			// 이어(야) after a vowel contracts: 전사여야.
			b.WriteString("여")
			width += len("어")
		case snd == vowel:
			b.WriteString(p.vowel)
		default:
			b.WriteString(p.cons)
		}
		done = at + width
		rest = s[done:]
	}
	b.WriteString(rest)
	return b.String()
}

// nextParticle finds the first combined particle in s: its byte offset,
// which pair, and whether it is (으)로 (whose 로 stays in the text).
func nextParticle(s string) (int, particlePair, bool) {
	best, bp, bro := -1, particlePair{}, false
	if i := strings.Index(s, "(으)로"); i >= 0 {
		best, bro = i, true
	}
	for _, p := range particlePairs {
		if i := strings.Index(s, p.combined); i >= 0 && (best < 0 || i < best) {
			best, bp, bro = i, p, false
		}
	}
	return best, bp, bro
}

// finish passes s through Particles when l is Korean, and a Russian s
// through Agree: the rules each language applies once a message is
// formatted.
func (l Lang) finish(s string) string {
	switch l {
	case Ko:
		return Particles(s)
	case Ru:
		return Agree(s)
	}
	return s
}
