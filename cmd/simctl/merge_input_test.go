package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"simctl/cmd/simctl/app"
)

// mergeTakes is the part of merge's message on a file it cannot read
// that says what it takes.
const mergeTakes = "merge adds the shards of one experiment, as JSON: those of simctl run --json --shard k/K, or of sweep, compare, value, matrix or optimize with --shard k/K --format json"

// TestMergeInputErrorKinds: merge given a file that is no simctl document
// it reads (text, JSON but no object, a kind simctl does not know) says
// what it takes, in every language, and never that a sweep or a
// comparison goes elsewhere (merge takes both); a find document, which
// does not shard, says so; a damaged document of a kind merge takes (a
// run result's, which has no kind, too) keeps its reader's error alone.
// The kinds named are the table's that merge shards: every kind with a
// Merge but the tournament's, which refuses.
func TestMergeInputErrorKinds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeFile(t, name, text) }
	find := filepath.Join(dir, "find.json")
	if code, _, errOut := cli(t, "find", "d20/duel", "-n", "200", "--where", "rounds >= 3", "--format", "json", "-o", find, "--quiet"); code != exitOK {
		t.Fatalf("find: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		file string
		want []string
	}{
		{write("shard.txt", "Fighter vs Orc (d20)  seed 9\n"), []string{"not a simctl JSON document", mergeTakes}},
		{write("list.json", `["x"]`), []string{"it is a JSON array, not an object", mergeTakes}},
		{write("package.json", `{"name": "x"}`), []string{"not a whole simctl run result: its tally section"}},
		{write("odd.json", `{"kind": "odd"}`), []string{`unknown kind "odd"`, mergeTakes}},
		{find, []string{find + " is a find document, which does not shard; there is nothing to merge"}},
		{write("sweep.json", `{"kind": "sweep"}`), []string{"a sweep with no points"}},
	} {
		code, _, errOut := cli(t, "merge", c.file)
		if code != exitFailure {
			t.Errorf("merge %s: exit %d", c.file, code)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("merge %s says %q, not %q", c.file, errOut, w)
			}
		}
		if strings.Contains(errOut, "goes to simctl report") || len(c.want) == 1 && strings.Contains(errOut, "merge adds") {
			t.Errorf("merge %s says %q", c.file, errOut)
		}
	}
	for lang, want := range map[string]string{"ko": "merge는 한 실험의 샤드를 JSON으로 받아 합칩니다", "ru": "merge сливает части одного эксперимента"} {
		if _, _, errOut := cli(t, "merge", "--lang", lang, write("shard.txt", "text")); !strings.Contains(errOut, want) {
			t.Errorf("merge --lang %s says %q", lang, errOut)
		}
	}

	// The kinds named against the table.
	named := regexp.MustCompile(`or of (.*) with --shard`).FindStringSubmatch(mergeTakes)[1]
	names := strings.FieldsFunc(strings.ReplaceAll(named, " or ", ","), func(r rune) bool { return r == ',' || r == ' ' })
	var shard []string
	for _, a := range app.Analyses() {
		if a.Merge == nil {
			continue
		}
		if a.Name == "tournament" {
			if _, err := a.Merge(nil, []string{"t.json"}); err == nil || !strings.Contains(err.Error(), "does not shard") {
				t.Errorf("the tournament's Merge no longer refuses (%v): name it in merge's message", err)
			}
			continue
		}
		shard = append(shard, a.Name)
	}
	slices.Sort(names)
	slices.Sort(shard)
	if !slices.Equal(names, shard) {
		t.Errorf("merge's message names %v; the kinds table merges the shards of %v", names, shard)
	}
}
