package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// sourcePath is a reference to the rule texts the project was written
// from, which are not in the repository: a reader cannot open them.
var sourcePath = regexp.MustCompile(`shared/rules|shared/RULES|RULES\.md|rules/00[0-9]_[0-9a-f]+\.txt`)

// TestDocsCiteBooks: the documentation cites the rules by book and
// section (as simctl rules does), never by the path of a file outside the
// repository.
func TestDocsCiteBooks(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../README.md", "../../docs/*.md", "../../docs/*/*.md", "../../benchmarks/*.md"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d documents", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, loc := range sourcePath.FindAllIndex(data, -1) {
			line := 1
			for _, c := range data[:loc[0]] {
				if c == '\n' {
					line++
				}
			}
			t.Errorf("%s:%d: cites %q, a file not in the repository: cite the book and section", f, line, data[loc[0]:loc[1]])
		}
	}
}
