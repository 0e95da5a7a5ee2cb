package scenario

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// syntaxLineQuadratic is the old procedure (re-parse every growing
// prefix from line from on): the reference the linear one must agree
// with.
func syntaxLineQuadratic(data []byte, from int) int {
	lines := strings.SplitAfter(string(data), "\n")
	if from < 1 {
		return from
	}
	end := 0
	for i, l := range lines {
		end += len(l)
		if i+1 < from {
			continue
		}
		if probeParse(data[:end]) != nil {
			return i + 1
		}
	}
	return from
}

// libraryLine is the line the YAML library blames, as yamlError reads it.
func libraryLine(data []byte) (int, bool) {
	var n yaml.Node
	err := yaml.Unmarshal(data, &n)
	if err == nil {
		return 0, false
	}
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, false
	}
	var l int
	fmt.Sscan(m[1], &l)
	return l, true
}

// mutants are the example scenarios with one line broken in one of the
// ways people break YAML (a tab, a wrong indent, an unclosed bracket or
// quote, a stray colon, a lost dash), at fixed seeds; broken is the
// 1-based line that was broken.
type mutant struct {
	data   []byte
	broken int
}

func mutants(t *testing.T) []mutant {
	files, _ := filepath.Glob("../../scenarios/*/*.yaml")
	if len(files) < 10 {
		t.Fatalf("found %d example scenarios", len(files))
	}
	breaks := []func(string) string{
		func(l string) string { return "\t" + l },
		func(l string) string { return " " + l },
		func(l string) string { return "   " + l },
		func(l string) string { return l + " [" },
		func(l string) string { return l + ` "` },
		func(l string) string { return l + ": :" },
		func(l string) string { return strings.Replace(l, "- ", "", 1) },
		func(l string) string { return strings.Replace(l, ":", "", 1) },
		func(l string) string { return "{" + l },
		func(l string) string { return l + "\n  - x: [1, 2" },
	}
	r := rand.New(rand.NewPCG(21, 4))
	var out []mutant
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for range 40 {
			k := r.IntN(len(lines))
			b := breaks[r.IntN(len(breaks))]
			m := append([]string(nil), lines...)
			m[k] = b(m[k])
			out = append(out, mutant{[]byte(strings.Join(m, "\n")), k + 1})
		}
	}
	return out
}

// TestSyntaxLineAgrees: on a thousand broken example scenarios the
// linear syntaxLine names the line the old quadratic probe named, in all
// but a few (where they differ, the linear one's line is still one whose
// cut fails to parse, at most syntaxBack+1 lines away, or it is the line
// that was broken, where the old probe stopped short of it).
func TestSyntaxLineAgrees(t *testing.T) {
	ms := mutants(t)
	tested, differ := 0, 0
	for _, mu := range ms {
		data := mu.data
		from, ok := libraryLine(data)
		if !ok {
			continue
		}
		tested++
		got, want := syntaxLine(data, from), syntaxLineQuadratic(data, from)
		if got != want {
			differ++
			var n yaml.Node
			t.Logf("differ: got %d want %d from %d", got, want, from)
			if got == mu.broken {
				continue
			}
			if got < from || yaml.Unmarshal(data[:lineEnd(data, got)], &n) == nil || got-want > syntaxBack+1 || want-got > syntaxBack+1 {
				t.Errorf("syntaxLine = %d, the old probe %d (library: %d) in\n%s", got, want, from, data)
			}
		}
	}
	t.Logf("%d broken scenarios, %d with a syntax error; the lines differ in %d", len(ms), tested, differ)
	if tested < 300 || differ*100 > tested {
		t.Errorf("%d of %d lines differ from the old probe's (at most 1%%)", differ, tested)
	}
}

// TestSyntaxLineLinear: a megabyte of 1,900 long lines with its syntax
// error at the end is located by parsing a few times its size, counted in
// bytes handed to the parser (not timed: the machines are shared). The
// old probe parsed every growing prefix: about 1,000 MB here, minutes.
func TestSyntaxLineLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: big\nruleset: d20\nsides:\n")
	pad := strings.Repeat("x", 540)
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "  - name: s%d%s\n", i, pad)
	}
	b.WriteString("  - name: last\n   combatants: []\n")
	data := []byte(b.String())
	from, ok := libraryLine(data)
	if !ok {
		t.Fatal("no syntax error")
	}
	var parsed int
	defer func(p func([]byte) error) { probeParse = p }(probeParse)
	probe := probeParse
	probeParse = func(b []byte) error { parsed += len(b); return probe(b) }
	lines := strings.Count(b.String(), "\n")
	got := syntaxLine(data, from)
	t.Logf("%d lines, %d bytes; library line %d, syntaxLine %d; %d bytes parsed by the probes", lines, len(data), from, got, parsed)
	if got != lines {
		t.Errorf("syntaxLine = %d, want %d (the last line)", got, lines)
	}
	if parsed > 8*len(data) {
		t.Errorf("the probes parsed %d bytes, %.0f times the file", parsed, float64(parsed)/float64(len(data)))
	}
}
