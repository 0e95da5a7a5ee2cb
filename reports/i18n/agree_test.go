package i18n

import (
	"testing"

	"simctl/sim/msg"
)

// TestAgree: a Russian noun after a count takes the count's form: 1 бой,
// 2 боя, 5 боёв, 11 боёв, 21 бой, 22 боя, 1,5 боя; grouped numbers in
// every form simctl writes them.
func TestAgree(t *testing.T) {
	const nom = "[[бой|боя|боёв]]"
	for _, c := range []struct{ in, want string }{
		{"1 " + nom, "1 бой"},
		{"2 " + nom, "2 боя"},
		{"4 " + nom, "4 боя"},
		{"5 " + nom, "5 боёв"},
		{"0 " + nom, "0 боёв"},
		{"11 " + nom, "11 боёв"},
		{"12 " + nom, "12 боёв"},
		{"21 " + nom, "21 бой"},
		{"22 " + nom, "22 боя"},
		{"101 " + nom, "101 бой"},
		{"111 " + nom, "111 боёв"},
		{"5,000 " + nom, "5,000 боёв"},
		{"5\u202f001 " + nom, "5\u202f001 бой"},
		{"10\u00a0002 " + nom, "10\u00a0002 боя"},
		{"1,5 " + nom, "1,5 боя"},
		{"0.5 " + nom, "0.5 боя"},
		{"из 21 [[боя|боёв|боёв]]", "из 21 боя"},
		{"из 5 [[боя|боёв|боёв]]", "из 5 боёв"},
		{"в 1 [[бою|боях|боях]], в 3 [[бою|боях|боях]]", "в 1 бою, в 3 боях"},
		{"боёв нет: " + nom, "боёв нет: боёв"},
		{"на 4 [[парное сравнение|парных сравнения|парных сравнений]]", "на 4 парных сравнения"},
		{"no brackets", "no brackets"},
	} {
		if got := Agree(c.in); got != c.want {
			t.Errorf("Agree(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestAgreeInMessages: the catalogs' counts agree on every path a message
// takes, the count an argument.
func TestAgreeInMessages(t *testing.T) {
	const f = "interrupted after %s encounters"
	for _, c := range []struct{ n, want string }{
		{"1", "прервано после 1 боя"},
		{"3", "прервано после 3 боёв"},
		{"21", "прервано после 21 боя"},
		{"5,000", "прервано после 5,000 боёв"},
	} {
		if got := Ru.Err(msg.Errorf(f, c.n)); got != c.want {
			t.Errorf("Ru.Err(%s) = %q, want %q", c.n, got, c.want)
		}
		if got := Ru.Sprintf(f, c.n); got != c.want {
			t.Errorf("Ru.Sprintf(%s) = %q, want %q", c.n, got, c.want)
		}
	}
}
