package app

import (
	"simctl/sim/msg"
	"strings"

	"simctl/sim/scenario"
)

// The words of the command lines documents record to reproduce them
// (RunCommand, results.ShellJoin) read back: both front ends accept an
// option as NAME='--set PATH=VALUE ...', the CLI from --option, --row and
// --col, the lab to check that what it records reads back unchanged.

// ParseOption reads NAME='--set PATH=VALUE ...'; NAME= with no overrides
// is the scenario unchanged.
func ParseOption(s string) (name string, sets []scenario.Set, err error) {
	name, spec, found := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !found || name == "" {
		return "", nil, msg.Errorf("expected NAME='--set PATH=VALUE ...', e.g. fast='--set heroes.Fighter.init=5' (NAME='' is the scenario unchanged)")
	}
	sets, err = ParseSets(spec)
	if err != nil {
		return "", nil, msg.Errorf("option %s: %v", name, err)
	}
	return name, sets, nil
}

// ParseSets reads "--set A=1 --set 'B={x: 1}'" (or bare A=1 words)
// with shell-style quoting.
func ParseSets(spec string) ([]scenario.Set, error) {
	words, err := SplitWords(spec)
	if err != nil {
		return nil, err
	}
	var sets []scenario.Set
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--set" || w == "-set":
			if i+1 == len(words) {
				return nil, msg.Errorf("%s needs PATH=VALUE", w)
			}
			i++
			w = words[i]
		case strings.HasPrefix(w, "--set=") || strings.HasPrefix(w, "-set="):
			w = w[strings.IndexByte(w, '=')+1:]
		case strings.HasPrefix(w, "-"):
			return nil, msg.Errorf("%q: an option is a list of --set PATH=VALUE", w)
		}
		s, err := scenario.ParseSet(w)
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// SplitWords splits s into words like a POSIX shell: blanks separate,
// single quotes keep everything, double quotes keep everything but \" and
// \\, a backslash outside quotes escapes the next character.
func SplitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false // inside a word
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, msg.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, msg.Errorf("unterminated \" in %q", s)
			}
			in = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}
