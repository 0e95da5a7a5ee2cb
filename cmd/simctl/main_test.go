package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"simctl/reports"
	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/scenarios"
	"simctl/sim"
)

var update = flag.Bool("update", false, "rewrite cmd/simctl/testdata/*.golden from the current output")

// simctl runs Main and returns its exit code, stdout and stderr.
func simctl(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// crash matches what a panic prints ("panic:", "goroutine 7 [running]:")
// and Main's message for a recovered one.
var crash = regexp.MustCompile(`panic|goroutine \d+|internal error`)

func noPanic(t *testing.T, outputs ...string) {
	t.Helper()
	for _, o := range outputs {
		if crash.MatchString(o) {
			t.Errorf("output shows a crash:\n%s", o)
		}
	}
}

// The scenario the bad cases edit, with its line numbers:
//
//	1 name: test            8        hp: 20           15    combatants:
//	2 ruleset: d20          9        ac: 17           16      - name: Orc
//	3 max_rounds: 50       10        init: 1          17        hp: 22
//	4 sides:               11        attacks: [6, 1]  18        ac: 14
//	5   - name: heroes     12        damage: 1d8+3    19        attacks: [5]
//	6     combatants:      13        crit: 19-20/x2   20        damage: 1d12+3
//	7       - name: Fighter 14  - name: monsters      21        crit: 20/x3
const (
	head = `name: test
ruleset: d20
max_rounds: 50
sides:
`
	heroes = `  - name: heroes
    combatants:
      - name: Fighter
        hp: 20
        ac: 17
        init: 1
        attacks: [6, 1]
        damage: 1d8+3
        crit: 19-20/x2
`
	monsters = `  - name: monsters
    combatants:
      - name: Orc
        hp: 22
        ac: 14
        attacks: [5]
        damage: 1d12+3
        crit: 20/x3
`
	good = head + heroes + monsters
)

// edit replaces the first old in good by new; old must be there.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(good, old) {
		t.Fatalf("%q is not in the scenario", old)
	}
	return strings.Replace(good, old, new, 1)
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Every bad scenario is a clear error and a non-zero exit, never a panic:
// exit 3 for an invalid scenario (and --set overrides that make it
// invalid), 2 for a bad command line. "@" in want stands for the file.
func TestBadScenarios(t *testing.T) {
	if code, _, stderr := simctl(t, context.Background(), "run", writeFile(t, "s.yaml", good), "-n", "10"); code != 0 {
		t.Fatalf("the base scenario fails (%d): %s", code, stderr)
	}
	cases := []struct {
		name string
		text func(t *testing.T) string // nil: no file is written
		args []string                  // after "run FILE"
		code int
		want []string
	}{
		{"typo in a top-level field", func(t *testing.T) string { return edit(t, "max_rounds: 50", "max_round: 50") }, nil, exitScenario,
			[]string{`@:3:1: max_round: unknown field "max_round" (did you mean "max_rounds"?); valid fields: description, distance, max_rounds, name, options, rules, ruleset, sides`}},
		{"unknown combatant field", func(t *testing.T) string { return edit(t, "init: 1\n", "init: 1\n        armour: 3\n") }, nil, exitScenario,
			[]string{`@:11:9: sides[0].combatants[0].armour: unknown field "armour"; valid fields: ac, attacks, aware,`}},
		{"bad dice expression", func(t *testing.T) string { return edit(t, "damage: 1d8+3", "damage: 1d8+x") }, nil, exitScenario,
			[]string{`@:12:21: sides[0].combatants[0].damage: bad dice expression "1d8+x": expected a number or NdM after "+", found "x"`}},
		{"dice without sides", func(t *testing.T) string { return edit(t, "damage: 1d12+3", "damage: 1d") }, nil, exitScenario,
			[]string{`@:20:19: sides[1].combatants[0].damage: bad dice expression "1d": expected the number of sides after d (as in 1d8 or d%)`}},
		{"negative hp", func(t *testing.T) string { return edit(t, "hp: 20", "hp: -5") }, nil, exitScenario,
			[]string{`@:8:13: sides[0].combatants[0].hp: hp must be at least 1, got -5`}},
		{"hp dice that can roll 0", func(t *testing.T) string { return edit(t, "hp: 22", "hp: 1d6-1") }, nil, exitScenario,
			[]string{`@:17:13: sides[1].combatants[0].hp: hp "1d6-1" can roll 0; it must be at least 1 on every roll`}},
		{"unknown ruleset", func(t *testing.T) string { return edit(t, "ruleset: d20", "ruleset: d2O") }, nil, exitScenario,
			[]string{`@:2:10: ruleset: unknown ruleset "d2O" (did you mean "d20"?); valid: `, "d20"}},
		{"missing ruleset", func(t *testing.T) string { return edit(t, "ruleset: d20\n", "") }, nil, exitScenario,
			[]string{`@:1:1: ruleset: missing; choose one of `, "d20"}},
		{"unknown policy", func(t *testing.T) string { return edit(t, "init: 1\n", "init: 1\n        policy: agressive\n") }, nil, exitScenario,
			[]string{`@:11:17: sides[0].combatants[0].policy: unknown policy "agressive"; valid: `, "default", "delay", "ready"}},
		{"unknown side policy", func(t *testing.T) string {
			return edit(t, "  - name: monsters\n", "  - name: monsters\n    policy: berserk\n")
		}, nil, exitScenario,
			[]string{`@:15:13: sides[1].policy: unknown policy "berserk"; valid: `}},
		{"unknown policy parameter", func(t *testing.T) string {
			return edit(t, "init: 1\n", "init: 1\n        policy: {name: delay, untill: Orc}\n")
		}, nil, exitScenario,
			[]string{`@:11:31: sides[0].combatants[0].policy.untill: unknown field "untill" (did you mean "until"?); valid fields: `}},
		{"delay until an unknown combatant", func(t *testing.T) string {
			return edit(t, "init: 1\n", "init: 1\n        policy: {name: delay, until: Cleric}\n")
		}, nil, exitScenario,
			[]string{`@:11:38: sides[0].combatants[0].policy: no combatant "Cleric"`, "combatants: Fighter, Orc"}},
		{"bad policy parameter value", func(t *testing.T) string {
			return edit(t, "init: 1\n", "init: 1\n        policy: {name: default, target: weakset}\n")
		}, nil, exitScenario,
			[]string{`@:11:41: sides[0].combatants[0].policy.target: "weakset" is not valid (did you mean "weakest"?); expected one of "weakest", "strongest"`}},
		{"empty side", func(t *testing.T) string {
			return head + heroes + "  - name: monsters\n    combatants: []\n"
		}, nil, exitScenario,
			[]string{`@:14:5: sides[1].combatants: side "monsters" has no combatants; give at least one`}},
		{"side without combatants", func(t *testing.T) string { return head + heroes + "  - name: monsters\n" }, nil, exitScenario,
			[]string{`@:14:5: sides[1].combatants: side "monsters" has no combatants`}},
		{"one side only", func(t *testing.T) string { return head + heroes }, nil, exitScenario,
			[]string{`@:5:3: sides: a scenario has exactly two sides, found 1`}},
		{"three sides", func(t *testing.T) string {
			return good + strings.ReplaceAll(strings.ReplaceAll(monsters, "monsters", "goblins"), "Orc", "Goblin")
		}, nil, exitScenario,
			[]string{`@:5:3: sides: a scenario has exactly two sides, found 3`}},
		{"duplicate combatant names in a side", func(t *testing.T) string {
			return head + heroes + strings.TrimPrefix(heroes, "  - name: heroes\n    combatants:\n") + monsters
		}, nil, exitScenario,
			[]string{`@:14:15: sides[0].combatants[1].name: combatant name "Fighter" is used twice in side "heroes"; use count: for copies`}},
		{"duplicate combatant names across sides", func(t *testing.T) string { return edit(t, "name: Orc", "name: Fighter") }, nil, exitScenario,
			[]string{`@:16:15: sides[1].combatants[0].name: combatant name "Fighter" is also used in side "heroes"`}},
		{"duplicate side names", func(t *testing.T) string { return edit(t, "name: monsters", "name: heroes") }, nil, exitScenario,
			[]string{`@:14:11: sides[1].name: side name "heroes" is used twice`}},
		{"YAML syntax error", func(t *testing.T) string {
			return edit(t, "    combatants:\n      - name: Orc", "   combatants:\n      - name: Orc")
		}, nil, exitScenario,
			[]string{`@:15: YAML syntax: `}},
		{"tab in indentation", func(t *testing.T) string { return edit(t, "        ac: 14", "\tac: 14") }, nil, exitScenario,
			[]string{`@:18: YAML syntax: found a tab character`}},
		{"a string for ac", func(t *testing.T) string { return edit(t, "ac: 17", "ac: high") }, nil, exitScenario,
			[]string{`@:9:13: sides[0].combatants[0].ac: expected a whole number from -100 to 1000, got a value "high"`}},
		{"a list for hp", func(t *testing.T) string { return edit(t, "hp: 20", "hp: [20]") }, nil, exitScenario,
			[]string{`@:8:13: sides[0].combatants[0].hp: expected a number or dice such as 2d6+3, got a list`}},
		{"initiative_roll out of range", func(t *testing.T) string { return edit(t, "init: 1\n", "init: 1\n        initiative_roll: 21\n") }, nil, exitScenario,
			[]string{`@:11:26: sides[0].combatants[0].initiative_roll: 21 is out of range; expected a whole number from 1 to 20`}},
		{"bad crit", func(t *testing.T) string { return edit(t, "crit: 19-20/x2", "crit: 19-20x2") }, nil, exitScenario,
			[]string{`@:13:15: sides[0].combatants[0].crit: crit "19-20x2": expected a threat range and multiplier such as "19-20/x2", "20/x3", "x3", or "none"`}},
		{"speed not in 5-foot steps", func(t *testing.T) string { return edit(t, "init: 1\n", "init: 1\n        speed: 33\n") }, nil, exitScenario,
			[]string{`@:7:9: sides[0].combatants[0].speed: speed 33 is not a multiple of 5 feet`}},
		{"unknown option", func(t *testing.T) string {
			return edit(t, "max_rounds: 50\n", "max_rounds: 50\noptions: {dyng: srd}\n")
		}, nil, exitScenario,
			[]string{`@:4:11: options.dyng: unknown field "dyng" (did you mean "dying"?); valid fields: confirm_crits, dying, flanking, range_penalty, surprise_ends_flat_footed`}},
		{"bad option value", func(t *testing.T) string {
			return edit(t, "max_rounds: 50\n", "max_rounds: 50\noptions: {dying: coma}\n")
		}, nil, exitScenario,
			[]string{`@:4:18: options.dying: "coma" is not valid; expected one of "out-at-0", "srd"`}},
		{"max_rounds 0", func(t *testing.T) string { return edit(t, "max_rounds: 50", "max_rounds: 0") }, nil, exitScenario,
			[]string{`@:3:13: max_rounds: 0 is out of range; expected a whole number from 1 to 100000`}},
		{"count 0", func(t *testing.T) string { return edit(t, "name: Orc\n", "name: Orc\n        count: 0\n") }, nil, exitScenario,
			[]string{`@:17:16: sides[1].combatants[0].count: 0 is out of range; expected a whole number from 1 to 64`}},
		{"too many combatants", func(t *testing.T) string { return edit(t, "name: Orc\n", "name: Orc\n        count: 64\n") }, nil, exitScenario,
			[]string{`@:5:3: sides: 65 combatants in all; at most 64 are supported`}},
		{"missing damage", func(t *testing.T) string { return edit(t, "        damage: 1d8+3\n", "") }, nil, exitScenario,
			[]string{`@:7:9: sides[0].combatants[0].damage: missing; give weapon damage as dice, e.g. 1d8+3`}},
		{"empty file", func(t *testing.T) string { return "" }, nil, exitScenario,
			[]string{`@: empty scenario; expected a mapping with name, ruleset and sides`}},
		{"a list, not a mapping", func(t *testing.T) string { return "- a\n- b\n" }, nil, exitScenario,
			[]string{`@:1:1: a scenario is a mapping (name:, ruleset:, sides:), not a list`}},
		{"--set to an unknown side", func(t *testing.T) string { return good }, []string{"--set", "heros.Fighter.init=4"}, exitScenario,
			[]string{`@: --set heros.Fighter.init=4: "heros" is neither a top-level field nor a side (did you mean "heroes"?)`, "sides: heroes, monsters"}},
		{"--set to an unknown combatant", func(t *testing.T) string { return good }, []string{"--set", "heroes.Figter.init=4"}, exitScenario,
			[]string{`@: --set heroes.Figter.init=4: side "heroes" has no combatant or field "Figter" (did you mean "Fighter"?)`, "combatants: Fighter;", "side fields: name, aware, referee, policy"}},
		{"--set with a bad value", func(t *testing.T) string { return good }, []string{"--set", "heroes.Fighter.ac=high"}, exitScenario,
			[]string{`@:9:13: sides[0].combatants[0].ac: expected a whole number from -100 to 1000, got a value "high" (from --set heroes.Fighter.ac=high)`}},
		{"--set with bad YAML", func(t *testing.T) string { return good }, []string{"--set", "heroes.Fighter.attacks=[6,"}, exitScenario,
			[]string{`@: --set heroes.Fighter.attacks=[6,: value "[6," is not valid YAML`}},
		{"--set without =", func(t *testing.T) string { return good }, []string{"--set", "heroes.Fighter.init"}, exitUsage,
			[]string{`expected PATH=VALUE, e.g. heroes.Fighter.init=4`}},
		{"-n 0", func(t *testing.T) string { return good }, []string{"-n", "0"}, exitUsage,
			[]string{`simctl run: -n "0": at least one encounter; expected a whole number of encounters of at least 1`}},
		{"--workers -1", func(t *testing.T) string { return good }, []string{"--workers", "-1"}, exitUsage,
			[]string{`simctl run: --workers "-1": expected 0 (one worker per core) or a number of workers up to 65536`}},
		{"--shard out of range", func(t *testing.T) string { return good }, []string{"--shard", "3/3"}, exitUsage,
			[]string{`--shard: index "3" must be a whole number from 0 to 2`}},
		{"a file that does not exist", nil, nil, exitUsage,
			[]string{`@: no such file or built-in scenario; built-ins: `, "d20/duel"}},
	}
	if len(cases) < 20 {
		t.Fatalf("only %d bad scenarios", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "missing.yaml")
			if tc.text != nil {
				path = writeFile(t, "s.yaml", tc.text(t))
			}
			args := append([]string{"run", path}, tc.args...)
			code, stdout, stderr := simctl(t, context.Background(), args...)
			noPanic(t, stdout, stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if stdout != "" {
				t.Errorf("a failed run printed a result:\n%s", stdout)
			}
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, "@", path)
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr:\n%s\nwant it to contain\n%s", stderr, w)
				}
			}
			if tc.code == exitScenario && !strings.Contains(stderr, "nothing was run") {
				t.Errorf("stderr does not say that nothing was run:\n%s", stderr)
			}
		})
	}
}

// All the problems of a file come back at once, one line each, in file
// order: the core fields' and the ruleset's own (crit is a d20 field).
func TestAllProblemsAtOnce(t *testing.T) {
	text := strings.NewReplacer(
		"max_rounds: 50", "max_rouds: 50",
		"damage: 1d8+3", "damage: 1d8+",
		"crit: 20/x3", "crit: 20/3x",
	).Replace(good)
	path := writeFile(t, "three.yaml", text)
	code, stdout, stderr := simctl(t, context.Background(), "run", path)
	noPanic(t, stdout, stderr)
	if code != exitScenario {
		t.Errorf("exit %d, want %d", code, exitScenario)
	}
	want := []string{
		path + `:3:1: max_rouds: unknown field "max_rouds" (did you mean "max_rounds"?)`,
		path + `:12:20: sides[0].combatants[0].damage: bad dice expression "1d8+": trailing "+"`,
		path + `:21:15: sides[1].combatants[0].crit: crit "20/3x": expected a threat range and multiplier`,
		"3 problem(s); nothing was run",
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != len(want) {
		t.Fatalf("stderr has %d lines, want %d:\n%s", len(lines), len(want), stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d:\n%s\nwant prefix\n%s", i+1, lines[i], w)
		}
	}
}

// jsonRun runs simctl run --json and returns the result's top-level fields.
func jsonRun(t *testing.T, args ...string) map[string]json.RawMessage {
	t.Helper()
	code, stdout, stderr := simctl(t, context.Background(), append([]string{"run", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("simctl run %v: exit %d\n%s", args, code, stderr)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("run --json printed no JSON object: %v\n%s", err, stdout)
	}
	return m
}

// Timing fields and the command line are the only fields that may differ
// between runs of the same encounters.
func withoutTiming(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range m {
		switch k {
		case "elapsed_seconds", "encounters_per_second", "command":
		default:
			out[k] = v
		}
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Same seed, same counts, byte for byte, whatever --workers is.
func TestSameSeedSameCountsAnyWorkers(t *testing.T) {
	one := jsonRun(t, "d20/duel", "-n", "50000", "--seed", "7", "--workers", "1")
	four := jsonRun(t, "d20/duel", "-n", "50000", "--seed", "7", "--workers", "4")
	if !bytes.Equal(one["tally"], four["tally"]) {
		t.Errorf("tally with --workers 1:\n%s\nwith --workers 4:\n%s", one["tally"], four["tally"])
	}
	for _, k := range []string{"sides", "draws", "encounters"} {
		if !bytes.Equal(one[k], four[k]) {
			t.Errorf("%s: %s with --workers 1, %s with --workers 4", k, one[k], four[k])
		}
	}
	if a, b := mustJSON(t, withoutTiming(one)), mustJSON(t, withoutTiming(four)); a != b {
		t.Errorf("results differ beyond timing:\n%s\n%s", a, b)
	}
	var enc int64
	if err := json.Unmarshal(one["encounters"], &enc); err != nil || enc != 50000 {
		t.Errorf("encounters = %s", one["encounters"])
	}
	other := jsonRun(t, "d20/duel", "-n", "50000", "--seed", "8", "--workers", "2")
	if bytes.Equal(one["tally"], other["tally"]) {
		t.Errorf("seeds 7 and 8 gave the same tally")
	}
}

// --shard k/K runs merge into exactly the single-process result; merge
// refuses results that are not shards of one run.
func TestShardsMergeIntoTheWholeRun(t *testing.T) {
	dir := t.TempDir()
	args := []string{"d20/duel", "-n", "30000", "--seed", "7", "--set", "max_rounds=40"}
	whole := jsonRun(t, args...)
	var files []string
	for _, k := range []string{"0/3", "1/3", "2/3"} {
		f := filepath.Join(dir, "shard"+k[:1]+".json")
		code, stdout, stderr := simctl(t, context.Background(), append([]string{"run", "--json", "--shard", k, "-o", f}, args...)...)
		if code != exitOK || stdout != "" {
			t.Fatalf("shard %s: exit %d, stdout %q\n%s", k, code, stdout, stderr)
		}
		files = append(files, f)
	}
	// Merge in any order.
	code, stdout, stderr := simctl(t, context.Background(), "merge", "--json", files[2], files[0], files[1])
	if code != exitOK || stderr != "" {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	var merged map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &merged); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(merged["tally"], whole["tally"]) {
		t.Errorf("merged tally:\n%s\nsingle process:\n%s", merged["tally"], whole["tally"])
	}
	if a, b := mustJSON(t, withoutTiming(merged)), mustJSON(t, withoutTiming(whole)); a != b {
		t.Errorf("merged result differs from the single-process one:\n%s\n%s", a, b)
	}
	// The text table of the merge is the table of the whole run.
	_, mergedText, _ := simctl(t, context.Background(), "merge", files[0], files[1], files[2])
	if !strings.Contains(mergedText, "30,000 encounters") || !strings.Contains(mergedText, "heroes") {
		t.Errorf("merge table:\n%s", mergedText)
	}

	other := filepath.Join(dir, "seed8.json")
	if code, _, stderr := simctl(t, context.Background(), "run", "--json", "--shard", "1/3", "-o", other, "d20/duel", "-n", "30000", "--seed", "8", "--set", "max_rounds=40"); code != 0 {
		t.Fatal(stderr)
	}
	half := filepath.Join(dir, "half.json")
	if code, _, stderr := simctl(t, context.Background(), "run", "--json", "--shard", "0/2", "-o", half, args[0], "-n", "30000", "--seed", "7", "--set", "max_rounds=40"); code != 0 {
		t.Fatal(stderr)
	}
	unsharded := filepath.Join(dir, "whole.json")
	if code, _, stderr := simctl(t, context.Background(), append([]string{"run", "--json", "-o", unsharded}, args...)...); code != 0 {
		t.Fatal(stderr)
	}
	otherN := filepath.Join(dir, "n.json")
	if code, _, stderr := simctl(t, context.Background(), "run", "--json", "--shard", "1/3", "-o", otherN, "d20/duel", "-n", "3000", "--seed", "7", "--set", "max_rounds=40"); code != 0 {
		t.Fatal(stderr)
	}
	otherSet := filepath.Join(dir, "set.json")
	if code, _, stderr := simctl(t, context.Background(), "run", "--json", "--shard", "1/3", "-o", otherSet, "d20/duel", "-n", "30000", "--seed", "7"); code != 0 {
		t.Fatal(stderr)
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"different seeds", []string{files[0], other, files[2]}, "seeds 7 and 8 differ"},
		{"the same shard twice", []string{files[0], files[1], files[1]}, "shard 1/3 overlaps shard 1/3"},
		{"overlapping shards", []string{half, files[1]}, "shard 1/3 overlaps shard 0/2"},
		{"an unsharded result twice", []string{unsharded, unsharded}, "overlaps"},
		{"a run and its own shard", []string{unsharded, files[2]}, "shard 2/3 overlaps an unsharded result"},
		{"different -n", []string{files[0], otherN}, "shards of one run share -n"},
		{"different --set", []string{files[0], otherSet}, "max_rounds"},
	} {
		code, stdout, stderr := simctl(t, context.Background(), append([]string{"merge"}, tc.files...)...)
		noPanic(t, stdout, stderr)
		if code == exitOK || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("merge of %s: exit %d, stderr %q, stdout %q; want a refusal containing %q", tc.name, code, stderr, stdout, tc.want)
		}
	}
	// Shards 0/2, then 2/4 and 3/4, are another exact split of the run.
	var q []string
	for _, k := range []string{"2/4", "3/4"} {
		f := filepath.Join(dir, "q"+k[:1]+".json")
		if code, _, stderr := simctl(t, context.Background(), append([]string{"run", "--json", "--shard", k, "-o", f}, args...)...); code != 0 {
			t.Fatal(stderr)
		}
		q = append(q, f)
	}
	_, stdout, _ = simctl(t, context.Background(), "merge", "--json", half, q[0], q[1])
	var mixed map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &mixed); err != nil || !bytes.Equal(mixed["tally"], whole["tally"]) {
		t.Errorf("shards 0/2 + 2/4 + 3/4 do not merge into the whole run (%v)", err)
	}
	// A missing shard is an error unless --allow-partial; either way the
	// merged result says it is incomplete.
	code, _, stderr = simctl(t, context.Background(), "merge", files[0], files[2])
	if code != exitFailure || !strings.Contains(stderr, "cover 20000 of the run's 30000 encounters") ||
		!strings.Contains(stderr, "--allow-partial") {
		t.Errorf("merge with a missing shard: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr = simctl(t, context.Background(), "merge", "--json", "--allow-partial", files[0], files[2])
	if code != exitOK || !strings.Contains(stderr, "cover 20000 of the run's 30000 encounters") ||
		!strings.Contains(stdout, `"incomplete": true`) {
		t.Errorf("merge --allow-partial with a missing shard: exit %d, stderr %q, incomplete not marked", code, stderr)
	}
	// Not a result at all.
	junk := writeFile(t, "junk.json", `{"scenario": "x"}`)
	if code, _, stderr := simctl(t, context.Background(), "merge", junk); code == exitOK || !strings.Contains(stderr, "its tally section (the exact counts) is missing") {
		t.Errorf("merge of a non-result: exit %d, stderr %q", code, stderr)
	}
}

var counted = regexp.MustCompile(`(?m)^counted: (winner (\S+)|draw), rounds (\d+).*first to act (\S+)$`)

// simctl trace of an encounter tells what the run counted for it.
func TestTraceAgreesWithRun(t *testing.T) {
	_, g, err := load(context.Background(), "d20/duel", nil)
	if err != nil {
		t.Fatal(err)
	}
	const seed = 3
	sides := []string{"heroes", "monsters"}
	for _, i := range []int64{0, 1, 2, 5, 99, 4097} {
		tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: seed, Start: i, N: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		o, replay := sim.Replay(g, seed, i, &sim.Log{W: &log})
		if replay.Wins != tally.Wins || replay.Draws != tally.Draws || replay.Rounds.Sum != tally.Rounds.Sum {
			t.Errorf("encounter %d: replay wins %v draws %d rounds %d; run %v %d %d",
				i, replay.Wins, replay.Draws, replay.Rounds.Sum, tally.Wins, tally.Draws, tally.Rounds.Sum)
		}
		if !equalInts(replay.Counts.Sides, tally.Counts.Sides) || !equalInts(replay.FirstActor, tally.FirstActor) {
			t.Errorf("encounter %d: replay counters %v first %v; run %v %v", i, replay.Counts.Sides, replay.FirstActor, tally.Counts.Sides, tally.FirstActor)
		}

		code, stdout, stderr := simctl(t, context.Background(), "trace", "d20/duel", "--seed", "3", "--encounter", itoa(i))
		if code != exitOK {
			t.Fatalf("trace: exit %d\n%s", code, stderr)
		}
		m := counted.FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("trace of encounter %d has no counted: line:\n%s", i, stdout)
		}
		switch {
		case tally.Draws == 1 && m[1] != "draw":
			t.Errorf("encounter %d: the run counted a draw, the trace says %s", i, m[1])
		case tally.Draws == 0:
			winner := sides[0]
			if tally.Wins[1] == 1 {
				winner = sides[1]
			}
			if m[2] != winner {
				t.Errorf("encounter %d: the run counted a win for %s, the trace names %q", i, winner, m[2])
			}
		}
		if m[3] != itoa(tally.Rounds.Sum) {
			t.Errorf("encounter %d: the run counted %d rounds, the trace %s", i, tally.Rounds.Sum, m[3])
		}
		if first := g.Roster()[o.FirstActor].Name; m[4] != first || tally.FirstActor[o.FirstActor] != 1 {
			t.Errorf("encounter %d: trace first actor %s, replay %s, run %v", i, m[4], first, tally.FirstActor)
		}
		if !strings.Contains(stdout, strings.TrimSpace(reports.SideNames(log.String(), sides[0], sides[1]))) {
			t.Errorf("encounter %d: the trace's narration differs from the replay's", i)
		}
	}
}

func equalInts(a, b []int64) bool { return mustJSONString(a) == mustJSONString(b) }

func mustJSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func itoa(i int64) string { return mustJSONString(i) }

// An interrupted run prints what finished and exits 130.
func TestInterruptedRunKeepsWork(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stdout, stderr := simctl(t, ctx, "run", "d20/duel", "-n", "1000000")
	noPanic(t, stdout, stderr)
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if !strings.Contains(stdout, "(interrupted: partial result)") || !strings.Contains(stdout, "heroes") {
		t.Errorf("no partial result on stdout:\n%s", stdout)
	}
	if !strings.Contains(stderr, "interrupted after") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", stderr)
	}
	code, stdout, _ = simctl(t, ctx, "run", "d20/duel", "-n", "1000000", "--json")
	var r results.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != exitInterrupted || !r.Interrupted {
		t.Errorf("--json on an interrupted run: exit %d, interrupted %v, %v", code, r.Interrupted, err)
	}
	if r.Raw.Wins[0]+r.Raw.Wins[1]+r.Raw.Draws != r.Encounters || r.Encounters >= 1000000 {
		t.Errorf("inconsistent partial result: %d encounters, wins %v, draws %d", r.Encounters, r.Raw.Wins, r.Raw.Draws)
	}
}

// maskTiming is the one part of run's text output that changes from run to
// run: "  0.01 s  2,106,030/s" on the first line becomes "  <elapsed> s  <rate>/s".
var maskTiming = regexp.MustCompile(`  \d+\.\d\d s  [\d,]+/s`)

// catalogNeed is a message catalog a golden output needs: key in lang.
type catalogNeed struct {
	lang i18n.Lang
	key  string
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
		mask   func(string) string
		// needs: a catalog the output needs; skipped while it is missing
		// (the Russian rules catalog is translated on another branch).
		needs catalogNeed
	}{
		{"run_duel.golden", []string{"run", "d20/duel", "-n", "20000", "--seed", "3"}, func(s string) string {
			masked := maskTiming.ReplaceAllString(s, "  <elapsed> s  <rate>/s")
			if masked == s {
				t.Errorf("no elapsed time and rate to mask in:\n%s", s)
			}
			return masked
		}, catalogNeed{}},
		{"rules_d20.golden", []string{"rules", "d20"}, nil, catalogNeed{}},
		{"rules_cavaliers.golden", []string{"rules", "cavaliers"}, nil, catalogNeed{}},
		{"rules_d20_ko.golden", []string{"rules", "d20", "--lang", "ko"}, nil, catalogNeed{i18n.Ko, "rules.d20.title"}},
		{"rules_d20_ru.golden", []string{"rules", "d20", "--lang", "ru"}, nil, catalogNeed{i18n.Ru, "rules.d20.title"}},
		{"policies_ko.golden", []string{"policies", "--lang", "ko"}, nil, catalogNeed{}},
		{"policies_d20_ko.golden", []string{"policies", "d20", "--lang", "ko"}, nil, catalogNeed{}},
		{"scenarios.golden", []string{"scenarios"}, nil, catalogNeed{}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			if tc.needs.key != "" && !i18n.Has(tc.needs.lang, tc.needs.key) {
				t.Skipf("no %s catalog with %s yet", tc.needs.lang, tc.needs.key)
			}
			code, got, stderr := simctl(t, context.Background(), tc.args...)
			if code != exitOK {
				t.Fatalf("simctl %v: exit %d\n%s", tc.args, code, stderr)
			}
			if tc.mask != nil {
				got = tc.mask(got)
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/simctl -run TestGolden -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("simctl %s differs from %s (go test ./cmd/simctl -run TestGolden -update rewrites it after a deliberate change)\n--- got\n%s\n--- want\n%s",
					strings.Join(tc.args, " "), path, got, want)
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in stdout or stderr
	}{
		{nil, exitUsage, "usage:"},
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"help"}, exitOK, "simctl run SCENARIO"},
		{[]string{"version"}, exitOK, "simctl " + version},
		{[]string{"run", "-h"}, exitOK, "-seed"},
		{[]string{"run"}, exitUsage, "simctl run: give one SCENARIO"},
		{[]string{"run", "d20/duel", "d20/duel"}, exitUsage, "simctl run: give one SCENARIO"},
		{[]string{"run", "d20/duel", "--bogus"}, exitUsage, "simctl run: unknown flag --bogus\nsee simctl help run"},
		{[]string{"run", "d20/duel", "--progress", "sometimes"}, exitUsage, "expected auto, always or never"},
		{[]string{"run", "."}, exitUsage, "is a directory"},
		{[]string{"rules"}, exitUsage, "simctl rules: give one ruleset NAME"},
		{[]string{"rules", "d21"}, exitUsage, `unknown ruleset "d21"`},
		{[]string{"trace", "d20/duel", "--encounter", "-1"}, exitUsage, "must be 0 or more"},
		{[]string{"trace", "nothing.yaml"}, exitUsage, "no such file or built-in scenario"},
		{[]string{"merge"}, exitUsage, "simctl merge: give the RESULT.json files"},
		{[]string{"merge", "nothing.json"}, exitFailure, "nothing.json"},
		{[]string{"run", "d20/duel", "-n", "100", "--set", "heroes.Fighter.init=4", "--set", "options.dying=srd"}, exitOK, "100 encounters"},
	} {
		code, stdout, stderr := simctl(t, context.Background(), tc.args...)
		noPanic(t, stdout, stderr)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("simctl %v: exit %d, want %d, and %q in\n%s%s", tc.args, code, tc.code, tc.want, stdout, stderr)
		}
	}
}

// -o writes the result atomically as an ordinary readable file, and a
// result file read back is the result printed.
func TestOutputFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := simctl(t, context.Background(), "run", "d20/duel", "-n", "500", "--json", "-o", f)
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d stdout %q\n%s", code, stdout, stderr)
	}
	st, err := os.Stat(f)
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("result file: %v, mode %v; want 0644", err, st.Mode().Perm())
	}
	r, err := results.ReadFile(f)
	if err != nil || r.Encounters != 500 || r.Sides[0].Name != "heroes" {
		t.Errorf("ReadFile: %+v, %v", r, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(f))
	if len(entries) != 1 {
		t.Errorf("-o left %d files behind", len(entries))
	}
}

// Every built-in scenario is valid for its ruleset and runs.
func TestBuiltinScenariosRun(t *testing.T) {
	for _, name := range scenarios.Names() {
		code, stdout, stderr := simctl(t, context.Background(), "run", name, "-n", "200", "--seed", "1")
		noPanic(t, stdout, stderr)
		if code != exitOK || !strings.Contains(stdout, "200 encounters") {
			t.Errorf("simctl run %s: exit %d\n%s%s", name, code, stdout, stderr)
		}
	}
}
