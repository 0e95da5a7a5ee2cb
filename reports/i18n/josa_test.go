package i18n

import (
	"testing"

	"simctl/sim/msg"
)

// TestParticles: the shape of each Korean particle by the sound before it,
// for words ending with and without a final consonant (받침), with ㄹ, for
// numbers as Sino-Korean reads them, and the combined form after a Latin
// name.
func TestParticles(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Hangul without 받침, with 받침, with ㄹ.
		{"전사은(는)", "전사는"},
		{"기사은(는)", "기사는"},
		{"마법사이(가)", "마법사가"},
		{"진영이(가)", "진영이"},
		{"진영은(는)", "진영은"},
		{"규칙을(를)", "규칙을"},
		{"라운드을(를)", "라운드를"},
		{"활과(와) 검", "활과 검"},
		{"검과(와) 활", "검과 활"},
		{"검(으)로", "검으로"},
		{"활(으)로", "활로"},   // ㄹ takes 로
		{"도끼(으)로", "도끼로"}, // vowel
		{"전사(이)나", "전사나"},
		{"검(이)나", "검이나"},
		{"전사아(야)", "전사야"},
		{"숫자(이)어야", "숫자여야"},
		{"정수(이)어야", "정수여야"},
		{"문자열(이)어야", "문자열이어야"},
		{"번째 (샤드 1/2)은(는)", "번째 (샤드 1/2)는"},
		// Numbers: 1 일, 2 이, 3 삼, 6 육, 7 칠, 8 팔, 10 십, 100 백, 0 영.
		{"1은(는)", "1은"},
		{"2은(는)", "2는"},
		{"3이(가)", "3이"},
		{"4을(를)", "4를"},
		{"5과(와)", "5와"},
		{"6(으)로", "6으로"},
		{"7(으)로", "7로"},
		{"8(으)로", "8로"},
		{"9(으)로", "9로"},
		{"10이(가)", "10이"},
		{"100을(를)", "100을"},
		{"5,000은(는)", "5,000은"},
		{"0이(가)", "0이"},
		{"3.5이(가)", "3.5가"},
		{"12.0(으)로", "12.0으로"},
		{"Hobgoblin#1..#5은(는)", "Hobgoblin#1..#5는"},
		{"Gnoll ×3이(가)", "Gnoll ×3이"},
		// Percentages and percentage points read 퍼센트, 퍼센트포인트.
		{"50%을(를)", "50%를"},
		{"2.5%p(으)로", "2.5%p로"},
		// Through quotes and brackets; a parenthesis: the word before it.
		{`"전사"은(는)`, `"전사"는`},
		{`"검"을(를)`, `"검"을`},
		{"「대기」을(를)", "「대기」를"},
		{"검(sword)을(를)", "검(sword)을"},
		{"선택지 (3개)은(는)", "선택지 (3개)는"},
		// Latin: the sound is not known, the combined form stays.
		{"Hobgoblin은(는)", "Hobgoblin은(는)"},
		{"delay에 대한", "delay에 대한"},
		{`"heroes"이(가)`, `"heroes"이(가)`},
		{"heroes(으)로", "heroes(으)로"},
		{"heroes(이)나", "heroes(이)나"},
		// After a space or at the start: nothing to go by.
		{"이(가) 없다", "이(가) 없다"},
		{"전사 은(는)", "전사 은(는)"},
		// Several in one text, and text without particles.
		{"전사은(는) 검(으)로 오크을(를) 친다", "전사는 검으로 오크를 친다"},
		{"괄호 (설명) 안", "괄호 (설명) 안"},
		{"", ""},
	} {
		if got := Particles(c.in); got != c.want {
			t.Errorf("Particles(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Particles(Particles(c.in)); got != c.want {
			t.Errorf("Particles twice on %q = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestParticlesInMessages: a Korean message picks its particles once its
// arguments are in, on every path a message is printed by.
func TestParticlesInMessages(t *testing.T) {
	const f = "%s is a directory; give a %s file"
	ko, ok := MsgText(Ko, f)
	if !ok {
		t.Fatalf("no Korean text for %q", f)
	}
	if got := Ko.Err(msg.Errorf(f, "결과", "JSON")); got == ko {
		t.Fatalf("not formatted: %q", got)
	}
	for _, c := range []struct {
		arg, want string
	}{
		{"결과", "결과는 폴더입니다"},
		{"출력", "출력은 폴더입니다"},
		{"out", "out은(는) 폴더입니다"},
	} {
		got := Ko.Err(msg.Errorf(f, c.arg, "JSON"))
		if len(got) < len(c.want) || got[:len(c.want)] != c.want {
			t.Errorf("Ko.Err(%q) = %q, want it to start %q", c.arg, got, c.want)
		}
		got = Ko.Msg(msg.New(f, c.arg, "JSON"))
		if len(got) < len(c.want) || got[:len(c.want)] != c.want {
			t.Errorf("Ko.Msg(%q) = %q, want it to start %q", c.arg, got, c.want)
		}
		got = Ko.Sprintf(f, c.arg, "JSON")
		if len(got) < len(c.want) || got[:len(c.want)] != c.want {
			t.Errorf("Ko.Sprintf(%q) = %q, want it to start %q", c.arg, got, c.want)
		}
	}
	// A wrapped error: the inner message's particles too.
	inner := msg.Errorf(f, "출력", "JSON")
	outer := msg.Errorf("%s: %w", "x", inner)
	if got := Ko.Err(outer); got != "x: 출력은 폴더입니다; JSON 파일을 지정하세요" {
		t.Errorf("wrapped: %q", got)
	}
}
