package i18n

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"simctl/sim/msg"
)

// Messages (errors and warnings) are keyed by their English fmt format,
// the one the code below the front ends writes (sim/msg): catalog/msg/*.txt
// holds blocks of three lines,
//
//	en: unknown field %q%s; valid fields: %s
//	ko: 알 수 없는 필드 %q%s; 유효한 필드: %s
//	ru: неизвестное поле %q%s; допустимые поля: %s
//
// so a reviewer reads each translation beside its English. The text after
// "xx: " is taken verbatim (a leading space is part of the message); "\n"
// is a line break.

// msgs[l][english format] is l's format.
var msgs = map[Lang]map[string]string{}

func init() {
	m, err := loadMsgs()
	if err != nil {
		panic("i18n: " + err.Error())
	}
	msgs = m
}

func loadMsgs() (map[Lang]map[string]string, error) {
	out := map[Lang]map[string]string{}
	for _, l := range Langs {
		out[l] = map[string]string{}
	}
	entries, err := files.ReadDir("catalog/msg")
	if err != nil {
		return nil, err
	}
	where := map[string]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		name := "catalog/msg/" + e.Name()
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if err := parseMsgs(name, data, out, where); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseMsgs adds the blocks of one msg catalog file to out.
func parseMsgs(name string, data []byte, out map[Lang]map[string]string, where map[string]string) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	en, enLine := "", 0
	have := map[Lang]bool{}
	finish := func() error {
		if enLine == 0 {
			return nil
		}
		for _, l := range Langs {
			if !have[l] {
				return fmt.Errorf("%s:%d: %q has no %s line", name, enLine, en, l)
			}
		}
		return nil
	}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tag, text, ok := strings.Cut(line, ": ")
		l := Lang(tag)
		if !ok || (l != En && l != Ko && l != Ru) {
			return fmt.Errorf("%s:%d: expected a line `en: …`, `ko: …` or `ru: …`", name, n)
		}
		text = strings.ReplaceAll(text, `\n`, "\n")
		if l == En {
			if err := finish(); err != nil {
				return err
			}
			if w, dup := where[text]; dup {
				return fmt.Errorf("%s:%d: %q is translated in %s already", name, n, text, w)
			}
			en, enLine, have = text, n, map[Lang]bool{}
			where[text] = fmt.Sprintf("%s:%d", name, n)
		} else if enLine == 0 {
			return fmt.Errorf("%s:%d: a %s line before any en line", name, n, l)
		}
		if have[l] {
			return fmt.Errorf("%s:%d: a second %s line for %q", name, n, l, en)
		}
		have[l] = true
		out[l][en] = text
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return finish()
}

// Tr is l's translator for sim/msg messages: nil (English) for En.
func (l Lang) Tr() msg.Translator {
	if l.Or() == En {
		return nil
	}
	m := msgs[l]
	return func(format string) (string, bool) {
		s, ok := m[format]
		return s, ok
	}
}

// Err is err's message in l: a message of sim/msg (or an error that can
// localize itself) is translated, another error prints as it is.
func (l Lang) Err(err error) string { return l.finish(msg.Localize(err, l.Tr())) }

// Msg is the message m in l.
func (l Lang) Msg(m msg.Localizer) string { return l.finish(m.Localize(l.Tr())) }

// MsgFormats lists the English formats the msg catalogs translate (for
// tests).
func MsgFormats() []string {
	var fs []string
	for f := range msgs[En] {
		fs = append(fs, f)
	}
	return fs
}

// MsgText is l's format for the English format f, and whether it has one.
func MsgText(l Lang, f string) (string, bool) { s, ok := msgs[l.Or()][f]; return s, ok }
