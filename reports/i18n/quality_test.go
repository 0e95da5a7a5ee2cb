package i18n

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// texts is every text of l in the catalogs: "file key" (or the English
// format of a message) and its text.
func texts(l Lang) map[string]string {
	out := map[string]string{}
	for _, k := range Keys(l) {
		out[k] = catalogs[l][k]
	}
	for _, f := range MsgFormats() {
		if s, ok := MsgText(l, f); ok {
			out["msg "+f] = s
		}
	}
	return out
}

func sorted(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// A Korean particle follows what it marks without a space; after an
// argument or a Latin word, one that changes its shape by the sound before
// it is written in its combined form (Particles picks the shape).
var (
	// An argument, a Latin word, a number or a closing mark, a space,
	// then a particle standing alone (이 aside: after a space it is as
	// often the demonstrative, 이 서버).
	particleAfterSpace = regexp.MustCompile(`((?:^|[^%])%(\[\d+\])?[a-zA-Z]|[A-Za-z0-9"'` + "`" + `\])])\s+(은|는|가|을|를|과|와|로|으로|에|에서|에는|에게|의|도|만|보다|까지|부터|이나|입니다|이어야|여야|인데도)([\s.,;:)]|$)`)
	// An argument, then a particle of two shapes in one of them.
	particleOneShape = regexp.MustCompile(`(?:^|[^%])%(\[\d+\])?[a-zA-Z]["'` + "`" + `]?(은|는|이|가|을|를|과|와|로|으로)([^가-힣(]|$)`)
)

// TestKoreanParticles: no space before a particle, and the combined form
// after an argument (whose last sound the catalog cannot know).
func TestKoreanParticles(t *testing.T) {
	ts := texts(Ko)
	for _, k := range sorted(ts) {
		s := ts[k]
		if m := particleAfterSpace.FindString(s); m != "" {
			t.Errorf("%s: a space before a particle in %q: %q", k, m, s)
		}
		if m := particleOneShape.FindString(s); m != "" {
			t.Errorf("%s: a particle after an argument in one shape, %q (write the combined form, e.g. %%s은(는), %%s(으)로): %q", k, m, s)
		}
	}
}

// typedPP is percentage points as a user types them for --delta and
// --precision (2pp, 0.5pp): a value of a flag, left as it is.
var typedPP = regexp.MustCompile(`\b\d+(\.\d+)?pp\b`)

// TestPercentagePoints: one form per language. Korean %p (not 퍼센트포인트,
// %포인트), Russian п. п. (not п.п.), and no Latin pp in either but the
// value a user types.
func TestPercentagePoints(t *testing.T) {
	for _, c := range []struct {
		l     Lang
		wrong []string
	}{
		{Ko, []string{"퍼센트포인트", "%포인트", "%%포인트", "퍼센트 포인트"}},
		{Ru, []string{"п.п.", "п. п.", "процентных пункт", "процентного пункт", "процентные пункт"}},
	} {
		ts := texts(c.l)
		for _, k := range sorted(ts) {
			s := strings.ReplaceAll(ts[k], "п.\u00a0п.", "") // the one form
			for _, w := range c.wrong {
				if strings.Contains(s, w) {
					t.Errorf("%s %s: %q is not the form of percentage points (%s): %q", c.l, k, w, c.l.PointsUnit(), ts[k])
				}
			}
			if regexp.MustCompile(`\bpp\b`).MatchString(typedPP.ReplaceAllString(s, "")) {
				t.Errorf("%s %s: Latin pp: %q", c.l, k, ts[k])
			}
		}
	}
	for _, l := range []Lang{Ko, Ru} {
		if got := l.Reading("+1.25 pp, [-0.50, +2.10] pp, 2 pp"); strings.Contains(got, "pp") {
			t.Errorf("%s: %q", l, got)
		}
	}
}

// countedNoun: a Russian noun counted by the argument before it, in one
// form where it must agree with the count.
var countedNoun = regexp.MustCompile(`%(\[\d+\])?[ds][ \x{a0}](бой|боя|боёв|боях|боям|раунд|раунда|раундов|вариант|варианта|вариантов|точка|точки|точек|кандидат|кандидата|кандидатов|клетка|клетки|клеток|байт|байта|интервал|интервала|интервалов|параметр|параметра|параметров|побед|победы|боец|бойца|бойцов)([^а-яё/]|$)`)

// TestRussianCounts: where an argument counts a noun, the noun agrees with
// it ([[one|few|many]], Agree; or a plural key of N), never one form for
// every count.
func TestRussianCounts(t *testing.T) {
	plural := regexp.MustCompile(`\[(one|few|many)\]$`)
	ts := texts(Ru)
	for _, k := range sorted(ts) {
		if plural.MatchString(k) {
			continue // its form is chosen by N
		}
		if m := countedNoun.FindString(ts[k]); m != "" {
			t.Errorf("%s: %q does not agree with its count (write %%d [[бой|боя|боёв]]): %q", k, m, ts[k])
		}
	}
	for n, want := range map[string]string{"1": "1 бой", "2": "2 боя", "5": "5 боёв", "21": "21 бой", "11": "11 боёв"} {
		if got := Agree(n + " [[бой|боя|боёв]]"); got != want {
			t.Errorf("%s: %q, want %q", n, got, want)
		}
	}
}

// wrongForms are the forms a native reading of the Korean and Russian
// output found wrong (issue 37), kept out for good.
var wrongForms = []struct {
	l         Lang
	form, why string
}{
	{Ru, "подподсч", "not a word: «те же числа»"},
	{Ru, "кономия действий", "«экономика действий» is the players' term"},
	{Ru, "кономии действий", "«экономика действий»"},
	{Ru, "парных сравнений", "agrees with its count: [[парное сравнение|парных сравнения|парных сравнений]]"},
	{Ru, "решало каждое правило", "«срабатывало»"},
	{Ru, "Тактика: как часто", "a heading inside «Вариант …:» doubles the colon"},
	{Ru, "Вариант %s: %s", "a capital after the colon: «%[2]s (вариант %[1]s)»"},
	{Ru, "насколько было близко", "a calque: «запас хитов победителя»"},
	{Ru, "по мере траты", "a calque: «по ходу поиска»"},
	{Ru, "Насколько близко", "a calque: «Запас хитов победителя»"},
	{Ru, "отсчёт", "the source's term: номер (инициативы), «Подсчет инициативы» for the count itself"},
	{Ru, "отсчёта", "номер инициативы"},
	{Ko, "짝지은 차이", "the statistics term is 대응 차이"},
	{Ko, "짝지은", "대응 (대응 차이, 대응 구간)"},
	{Ko, "인쇄된", "an HTML page shows: 표시된"},
	{Ko, "복제", "copies are 개체"},
	{Ko, "중앙값의 싸움", "중앙값 조우"},
	{Ko, "라운드 %d", "1라운드: the number before 라운드"},
	{Ko, "라운드 %v", "%v라운드"},
	{Ko, "쓰인 그대로", "원래 시나리오, 원문 그대로"},
	{Ko, "%포인트", "%p"},
	{Ko, "%%포인트", "%p"},
	{Ko, "퍼센트포인트", "%p"},
	{Ko, "%s 는", "no space before a particle"},
	{Ko, "%s 가", "no space before a particle"},
	{Ko, "%s 에 대한", "no space before a particle"},
	{Ko, "Schema 에서", "no space before a particle"},
	{Ko, "Tab 은", "no space before a particle: Tab은"},
	{Ko, "가장 긴 싸움", "가장 긴 조우"},
	{Ko, "선택지 %s: %s", "a heading inside 「선택지 …:」 doubles the colon: %[2]s (선택지 %[1]s)"},
	{Ko, "얼마나 아슬아슬했나", "승자에게 남은 히트 포인트"},
	{Ko, "같은 횟수를", "the same results (결과), not the same number of times"},
	{Ko, "주문학", "Spellcraft is the source's 주문공예"},
	{Ko, "세기가", "the initiative count is 카운트 (세기 reads as a century)"},
	{Ko, "세기에서", "카운트"},
	{Ko, "자기 차례", "a turn is 턴, as the source: 「자신의 정규 턴」"},
	{Ko, "이번 차례", "이번 턴"},
	{Ru, "знание заклинаний", "Spellcraft is «Колдовство»"},
	{Ru, "контрит", "slang: «отменяет контрзаклинанием»"},
	{Ru, "разности с базовым вариантом", "«разности относительно базового варианта»"},
	{Ru, "даны с интервалом:", "«для долей побед — 95-процентный интервал Уилсона»"},
	{Ru, "Уилсона, 95", "«95-процентный интервал Уилсона»"},
	{Ru, "95%% доверительный", "«95-процентный доверительный интервал»"},
	{Ko, "구간, 95%%", "「95% Wilson 점수 구간」"},
	{Ko, "200 미만", "「200회 미만」: a count of encounters takes 회"},
	{Ko, "선제력", "initiative is the source's 선제공격"},
	{Ko, "지연한 행동", "the source's 「지연된 행동」"},
	{Ru, "КД", "AC is КБ (класс брони), one form"},
	{Ru, "разрешает ничьи", "a calque of 'breaks ties': «решает при равных результатах»"},
	{Ru, "застигнутости", "«когда он перестаёт быть застигнутым врасплох»"},
	{Ru, "подготовленн", "a readied action is «заготовленное»"},
	{Ru, "раундов %d", "agrees with its count: %d [[раунд|раунда|раундов]]"},
	{Ko, "d 라운드", "%d라운드, no space"},
	{Ko, "대표 전투", "an encounter is 조우: 대표 조우"},
	{Ko, "횟수는 --workers", "the results (결과), not the number of times"},
	{Ko, "휘게", "a calque of 'bias': 치우치게"},
	{Ru, "интервал стал уже", "«у́же» (narrower), not «уже» (already)"},
	{Ru, "интервал доли побед уже", "«станет у́же»"},
	{Ko, "보여지", "a double passive: 입증되다, 드러나다"},
	{Ko, "여러 사본", "copies of a combatant are 개체"},
	{Ko, "돌격", "a charge is the source's 돌진"},
	{Ko, "베어 넘기기", "cleave is 연속 베기, one term"},
	{Ko, "베어 들어감", "연속 베기"},
	{Ru, "сценарий как написан", "a calque of 'as written': «сценарий без изменений»"},
	{Ko, "사본에는", "개체"},
	{Ko, "사본은", "개체"},
	{Ru, "после этапов: %d", "«после %[2]d [[этапа|этапов|этапов]] в игре %[1]d [[вариант|варианта|вариантов]]»"},
	{Ko, "특기", "a Cavaliers specialty is 전문 분야, one term (특기 reads as a feat)"},
	{Ko, "속성 주사위", "a Cavaliers attribute die is 능력치 주사위"},
	{Ko, "순서 첫째", "first in order is 순서상 첫째"},
	{Ko, "먼저 행동:", "the first actor is 첫 행동자"},
	{Ru, "Ошеломлён", "LotM's Stunned is «оглушён» (Dazed is «ошеломлён»)"},
	{Ru, "ошеломлённый", "LotM's Stunned is «оглушённый»"},
	{Ru, "шеломлени", "LotM's Stunned is «оглушение»"},
	{Ko, "카운터", "a counter is 계수기 (카운트 is ACKS's count)"},
	{Ru, "подсчёты", "the counts of a run are «результаты», «те же числа»"},
	{Ko, "고유 링크", "a permalink is 고정 링크"},
	{Ko, "영 대조군", "a null control is 음성 대조군"},
	{Ko, "속박", "LotM's Restrained is 제압됨, as the rules text says"},
	{Ko, "이점", "LotM's Advantage is 유리함"},
	{Ko, "(불리)", "LotM's Disadvantage is 불리함"},
	{Ko, "무방비 아님", "LotM's Caught Off Guard is 허를 찔림 (무방비 is d20's flat-footed)"},
	{Ko, "매복당한 쪽은 무방비", "LotM's Caught Off Guard is 허를 찔림"},
	{Ko, "순간, 수치", "a moment is 시점, as rulesdoc.moments says"},
	{Ko, "결정의 순간", "a moment is 시점"},
	{Ko, "분야에 등급", "a Cavaliers specialty's ranks are 랭크 (등급 is LotM's Rank)"},
	{Ru, "опци", "a ruleset option is «настройка», one word"},
	{Ru, "походи", "colloquial: «подействует», «уже действовал», as the trace says"},
	{Ko, "COUNT 라고", "a particle follows without a space"},
	{Ko, "몇 번 결정했는지", "a rule that fired is 발동 (the table's word)"},
	{Ru, "счёты", "«счёты» is an abacus: counts are «числа», «результаты», «счётчики»"},
	{Ru, "значении счёта", "a d20 count is «номер (инициативы)», as in ACKS"},
	{Ru, " счёт инициативы", "a d20 count is «номер инициативы» («подсчёт инициативы» is the counting down)"},
	{Ru, "до счёта", "«до номера»"},
	{Ko, "공짜 공격", "a free attack is 자유 공격, as a free action is 자유 행동"},
	{Ko, "무료 공격", "자유 공격"},
	{Ru, "добивающий или", "cleave is «рассечение», as the source says"},
	{Ko, "모형화", "one word: 모델링하지 않는다"},
	{Ru, "у него тоже длинное", "no pronoun for a combatant: «у противника»"},
	{Ru, "он отдал свой номер", "a combatant's gender is unknown (the source's Skandara is a woman): no pronoun"},
	{Ru, "из зоны", "a Cavaliers Area is «Зона», capitalised in the trace as in the rules"},
	{Ru, "в зону", "«в Зону»"},
	{Ru, "в зоне", "«в Зоне»"},
	{Ru, "в одной зоне", "«в одной Зоне»"},
	{Ru, "в его зоне", "«в его Зоне»"},
	{Ru, "зона %d", "«Зона %d»"},
	{Ru, "(зона", "«(Зона»"},
}

// koParenAfterWord is a Korean word (or a closing 」』) and a space
// before an opening parenthesis: Korean sets the parenthesis against the
// word it annotates (구역(Area), 없습니다(다시 실행하세요)). After a name,
// an argument or code (%s (…), --seed N (…), damage += 2d6 (…)) the
// space stays: there the parenthesis annotates the whole, and glued to
// code it would read as a call.
var koParenAfterWord = regexp.MustCompile(`[가-힣」』] \(`)

// TestKoreanParenthesesGlued: no space between a Korean word and the
// parenthesis after it (docs/glossary.ko.md, 괄호).
func TestKoreanParenthesesGlued(t *testing.T) {
	ts := texts(Ko)
	for _, k := range sorted(ts) {
		if m := koParenAfterWord.FindString(ts[k]); m != "" {
			t.Errorf("%s: a space before a parenthesis after a Korean word, %q: %q", k, m, ts[k])
		}
	}
}

// TestWrongFormsStayOut fails when a form found wrong comes back.
func TestWrongFormsStayOut(t *testing.T) {
	for _, w := range wrongForms {
		ts := texts(w.l)
		for _, k := range sorted(ts) {
			// The forms of a count's noun are chosen by the count.
			if strings.Contains(agreeChoice.ReplaceAllString(ts[k], ""), w.form) {
				t.Errorf("%s %s: %q (%s): %q", w.l, k, w.form, w.why, ts[k])
			}
		}
	}
}
