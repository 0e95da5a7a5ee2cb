package i18n

import (
	"testing"

	"simctl/sim/msg"
)

// TestSprintf: a narrated line is translated with the messages among its
// arguments, the user's words untouched, and a Russian plural chosen by
// its count ([[N|one|few|many]]).
func TestSprintf(t *testing.T) {
	for _, c := range []struct {
		l    Lang
		f    string
		args []any
		want string
	}{
		{En, "== draw after %d rounds", []any{1}, "== draw after 1 rounds"},
		{Ru, "== draw after %d rounds", []any{1}, "== ничья после 1 раунда"},
		{Ru, "== draw after %d rounds", []any{3}, "== ничья после 3 раундов"},
		{Ru, "== draw after %d rounds", []any{21}, "== ничья после 21 раунда"},
		{Ru, "== draw after %d rounds", []any{11}, "== ничья после 11 раундов"},
		{Ko, "== draw after %d rounds", []any{2}, "== 무승부, 2라운드 후"},
		{Ko, "%s attacks %s: d20 %d %+d = %d vs AC %d: %s for %d (damage x%d)", []any{"hit", "Orc", 15, 5, 20, 14, msg.New("critical hit"), 12, 2},
			"hit → Orc 공격: d20 15 +5 = 20, 방어도 14: 치명타, 피해 12 (배수 ×2)"},
		{Ru, "not in any catalog %d", []any{1}, "not in any catalog 1"},
	} {
		if got := c.l.Sprintf(c.f, c.args...); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.l, c.f, got, c.want)
		}
	}
}
