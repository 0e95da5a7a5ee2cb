package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"simctl/reports/results"
)

// interruptAfter runs simctl args with a context cancelled once the
// command's progress counter reaches k encounter indices: an interrupt
// part way (where exactly depends on timing, which the tests do not rely
// on).
func interruptAfter(t *testing.T, k int64, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	testHook = func(done *atomic.Int64) {
		go func() {
			for done.Load() < k && ctx.Err() == nil {
				time.Sleep(50 * time.Microsecond)
			}
			cancel()
		}()
	}
	defer func() { testHook = func(*atomic.Int64) {} }()
	var out, errb bytes.Buffer
	code := Main(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// countsOf is a JSON document without what may differ between an
// uninterrupted run and an interrupted and resumed one: timings and the
// command line. Everything else (every count, sum and figure) must match
// byte for byte.
func countsOf(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var strip func(v any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range []string{"elapsed_seconds", "encounters_per_second", "command"} {
				delete(v, k)
			}
			for _, e := range v {
				strip(e)
			}
		case []any:
			for _, e := range v {
				strip(e)
			}
		}
	}
	strip(doc)
	b, _ := json.MarshalIndent(doc, "", " ")
	return b
}

// TestInterruptedExperimentsResume: compare, value, matrix and tournament,
// interrupted part way, write a result marked interrupted that says what is
// left (no row made up), and --resume plays only the rest: the resumed
// JSON equals an uninterrupted run's, every count and figure, byte for
// byte. A finished result has nothing to resume, and a resume with another
// command line is refused, saying what differs.
func TestInterruptedExperimentsResume(t *testing.T) {
	cases := []struct {
		name string
		args []string
		at   int64 // interrupt once this many encounter indices finished
	}{
		{"compare", []string{"compare", "d20/duel", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=5", "-n", "300000"}, 5000},
		{"value", []string{"value", "d20/duel", "--params", "init,hp", "-n", "200000"}, 5000},
		{"matrix", []string{"matrix", "d20/duel", "--row", "a=", "--row", "b=--set heroes.Fighter.init=4",
			"--col", "x=", "--col", "y=--set monsters.Orc.ac=15", "-n", "200000"}, 5000},
		// The two orders of the full attack are exactly tied but differ
		// encounter by encounter, so they are neither separated nor shown
		// within δ for many stages; the interrupt falls in stage 4.
		{"tournament", []string{"tournament", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.attacks=[1,6]",
			"--option", "c=--set heroes.Fighter.init=-3", "--first", "4000", "-n", "250000"}, 3*4000 + 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			part, whole := filepath.Join(dir, "part.json"), filepath.Join(dir, "whole.json")
			args := append(raceScaled(tc.args), "--seed", "13", "--workers", "2", "--format", "csv")
			code, out, errOut := interruptAfter(t, tc.at, append(args, "--results", part)...)
			if code != exitInterrupted {
				t.Fatalf("interrupted: exit %d, want %d; stderr:\n%s", code, exitInterrupted, errOut)
			}
			if !strings.Contains(errOut, "; the partial result (marked interrupted) was written to stdout, and its JSON to "+part+": add --resume "+part+" to play the rest\n") {
				t.Errorf("no resume hint:\n%s", errOut)
			}
			if strings.Contains(out, "0.00%, 100.00%") {
				t.Errorf("an interrupted %s prints rows of nothing:\n%s", tc.name, out)
			}
			var doc map[string]any
			data, _ := os.ReadFile(part)
			json.Unmarshal(data, &doc)
			if doc["interrupted"] != true || (doc["unplayed"] == nil && doc["state"] == nil) {
				t.Fatalf("the interrupted document says interrupted %v, unplayed %v, state %v", doc["interrupted"], doc["unplayed"], doc["state"])
			}
			before := countsOf(t, part)

			// Another command line is refused, and leaves the file alone.
			code, _, errOut = cli(t, append(raceScaled(tc.args), "--seed", "14", "--workers", "2", "--format", "csv", "--resume", part)...)
			if code != exitUsage || !strings.Contains(errOut, "seed 13, this one 14") {
				t.Errorf("resume with another seed: exit %d, %s", code, errOut)
			}
			if !bytes.Equal(before, countsOf(t, part)) {
				t.Error("a refused resume changed the file")
			}

			code, _, errOut = cli(t, append(args, "--results", part, "--resume", part)...)
			if code != exitOK || !strings.Contains(errOut, "resuming") {
				t.Fatalf("resume: exit %d; stderr:\n%s", code, errOut)
			}
			if code, _, errOut := cli(t, append(args, "--workers", "1", "--results", whole)...); code != exitOK {
				t.Fatal(errOut)
			}
			a, b := countsOf(t, part), countsOf(t, whole)
			if !bytes.Equal(a, b) {
				t.Errorf("the resumed %s differs from the uninterrupted one:\n%s\nwant\n%s", tc.name, a, b)
			}
			if code, _, errOut := cli(t, append(args, "--resume", whole)...); code != exitUsage || !strings.Contains(errOut, "nothing to resume") {
				t.Errorf("resume of a finished %s: exit %d, %s", tc.name, code, errOut)
			}
		})
	}
}

// TestShardedValueAndMatrixMerge: compare, value and matrix runs split into K
// shards and merged equal the unsharded run, every count and figure, byte
// for byte, whatever K; a missing shard marks the merge incomplete and
// fails without --allow-partial; a shard given twice, another seed or
// another scenario text is refused.
func TestShardedValueAndMatrixMerge(t *testing.T) {
	cases := map[string][]string{
		"compare": {"compare", "d20/duel", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=5", "--option", "slow=--set heroes.Fighter.init=-2", "-n", "30001"},
		"value":   {"value", "d20/duel", "--params", "init,ac", "-n", "30001"},
		"matrix":  {"matrix", "d20/duel", "--row", "a=", "--row", "b=--set heroes.Fighter.init=4", "--col", "x=", "--col", "y=--set monsters.Orc.ac=15", "-n", "30001"},
	}
	for name, base := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			args := append(raceScaled(base), "--seed", "21", "--format", "json")
			whole := filepath.Join(dir, "whole.json")
			if code, _, errOut := cli(t, append(args, "-o", whole)...); code != exitOK {
				t.Fatal(errOut)
			}
			for _, K := range []int{1, 3, 4} {
				var shards []string
				for k := 0; k < K; k++ {
					p := filepath.Join(dir, fmt.Sprintf("s%d-%d.json", K, k))
					if code, _, errOut := cli(t, append(args, "--shard", fmt.Sprintf("%d/%d", k, K), "--workers", "2", "-o", p)...); code != exitOK {
						t.Fatal(errOut)
					}
					shards = append(shards, p)
				}
				merged := filepath.Join(dir, fmt.Sprintf("merged%d.json", K))
				if code, _, errOut := cli(t, append([]string{"merge", "--json", "-o", merged}, shards...)...); code != exitOK {
					t.Fatalf("merge of %d shards: exit %d, %s", K, code, errOut)
				}
				if a, b := countsOf(t, merged), countsOf(t, whole); !bytes.Equal(a, b) {
					t.Errorf("%d shards merged differ from the whole run:\n%s\nwant\n%s", K, a, b)
				}
				if K == 1 {
					continue
				}
				if name == "compare" && K == 3 {
					// A shard of an older simctl, without the action-economy
					// cross sums: the merge leaves out the intervals they
					// give rather than make them up from part of the data.
					data, _ := os.ReadFile(shards[1])
					var doc map[string]any
					json.Unmarshal(data, &doc)
					for _, o := range doc["options"].([]any) {
						delete(o.(map[string]any), "action_economy_cross")
					}
					data, _ = json.Marshal(doc)
					old := filepath.Join(dir, "old-shard.json")
					os.WriteFile(old, data, 0o644)
					out := filepath.Join(dir, "merged-old.json")
					if code, _, errOut := cli(t, "merge", "--json", "-o", out, shards[0], old, shards[2]); code != exitOK {
						t.Errorf("merge with an older shard: exit %d, %s", code, errOut)
					} else if m, _ := os.ReadFile(out); !strings.Contains(string(m), `"action_economy_delta"`) ||
						strings.Contains(string(m), "action_economy_delta_ci95") || strings.Contains(string(m), "action_economy_cross") {
						t.Errorf("a merge with a shard lacking the cross sums still gives their intervals")
					}
					if w, _ := os.ReadFile(whole); !strings.Contains(string(w), "action_economy_delta_ci95") {
						t.Errorf("the whole comparison has no action-economy intervals")
					}
				}
				code, _, errOut := cli(t, append([]string{"merge", "--json", "-o", merged}, shards[1:]...)...)
				if code != exitFailure || !strings.Contains(errOut, "incomplete") {
					t.Errorf("merge without shard 0: exit %d, %s", code, errOut)
				}
				code, _, errOut = cli(t, append([]string{"merge", "--json", "--allow-partial", "-o", merged}, shards[1:]...)...)
				if data, _ := os.ReadFile(merged); code != exitOK || !strings.Contains(string(data), `"incomplete": true`) {
					t.Errorf("--allow-partial merge without shard 0: exit %d, %s", code, errOut)
				}
				if code, _, errOut := cli(t, append([]string{"merge", "--json"}, append(shards, shards[0])...)...); code != exitFailure || !strings.Contains(errOut, "overlaps") {
					t.Errorf("a shard given twice: exit %d, %s", code, errOut)
				}
			}
			other := filepath.Join(dir, "other.json")
			if code, _, errOut := cli(t, append(append([]string(nil), base...), "--seed", "22", "--format", "json", "--shard", "1/3", "-o", other)...); code != exitOK {
				t.Fatal(errOut)
			}
			if code, _, errOut := cli(t, "merge", "--json", filepath.Join(dir, "s3-0.json"), other); code != exitFailure || !strings.Contains(errOut, "seed 22") {
				t.Errorf("shards of two seeds: exit %d, %s", code, errOut)
			}
			edited := filepath.Join(dir, "edited.json")
			data, _ := os.ReadFile(filepath.Join(dir, "s3-1.json"))
			var doc map[string]any
			json.Unmarshal(data, &doc)
			var setSum func(v any)
			setSum = func(v any) {
				switch v := v.(type) {
				case map[string]any:
					for k, e := range v {
						if k == "scenario_sha256" {
							v[k] = strings.Repeat("0", 64)
						}
						setSum(e)
					}
				case []any:
					for _, e := range v {
						setSum(e)
					}
				}
			}
			setSum(doc)
			// The scenario text the document carries would no longer match
			// the edited sum (refused on reading as an edited file): leave
			// it out, as a document of another scenario has its own.
			delete(doc, "context")
			data, _ = json.Marshal(doc)
			os.WriteFile(edited, data, 0o644)
			if code, _, errOut := cli(t, "merge", "--json", filepath.Join(dir, "s3-0.json"), edited, filepath.Join(dir, "s3-2.json")); code != exitFailure || !strings.Contains(errOut, "another scenario text") {
				t.Errorf("shards of two scenario texts: exit %d, %s", code, errOut)
			}
			if code, _, errOut := cli(t, "merge", "--json", whole); code != exitFailure || !strings.Contains(errOut, "made without --shard") {
				t.Errorf("merge of a whole %s: exit %d, %s", name, code, errOut)
			}
		})
	}
}

// TestExperimentCheckpointsResume: compare, value, matrix and tournament
// save what they have played as they go (every segment here; every 10 s
// by default); a process killed after a checkpoint resumes from it to the
// uninterrupted result, byte for byte.
func TestExperimentCheckpointsResume(t *testing.T) {
	every, seg := checkpointEvery, checkpointSegment
	checkpointEvery, checkpointSegment = 0, 3000/raceScale
	defer func() { checkpointEvery, checkpointSegment = every, seg }()
	cases := map[string][]string{
		"compare": {"compare", "d20/duel", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=5", "-n", "40000"},
		"value":   {"value", "d20/duel", "--params", "init,hp", "-n", "40000"},
		"matrix": {"matrix", "d20/duel", "--row", "a=", "--row", "b=--set heroes.Fighter.init=4",
			"--col", "x=", "--col", "y=--set monsters.Orc.ac=15", "-n", "40000"},
		"tournament": {"tournament", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.attacks=[1,6]", "--first", strconv.Itoa(2000 / raceScale), "-n", "40000"},
	}
	for name, base := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			out, kept, whole := filepath.Join(dir, "out.json"), filepath.Join(dir, "kept.json"), filepath.Join(dir, "whole.json")
			args := append(raceScaled(base), "--seed", "5", "--workers", "2", "--format", "csv")
			saves := 0
			testSaved = func(p string) {
				if saves++; saves == 2 {
					data, _ := os.ReadFile(p)
					os.WriteFile(kept, data, 0o644)
				}
			}
			code, _, errOut := cli(t, append(args, "--results", out)...)
			testSaved = func(string) {}
			if code != exitOK || saves < 2 {
				t.Fatalf("exit %d, %d checkpoints; %s", code, saves, errOut)
			}
			data, _ := os.ReadFile(kept)
			var doc map[string]any
			json.Unmarshal(data, &doc)
			if doc["interrupted"] != true {
				t.Fatalf("a checkpoint is not marked interrupted: %.300s", data)
			}
			if code, _, errOut := cli(t, append(args, "--results", kept, "--resume", kept)...); code != exitOK {
				t.Fatalf("resume from the checkpoint: exit %d, %s", code, errOut)
			}
			if code, _, errOut := cli(t, append(args, "--results", whole)...); code != exitOK {
				t.Fatal(errOut)
			}
			if a, b := countsOf(t, kept), countsOf(t, whole); !bytes.Equal(a, b) || !bytes.Equal(countsOf(t, out), b) {
				t.Errorf("resumed from a checkpoint, %s differs from the uninterrupted run", name)
			}
		})
	}
}

// TestInterruptedShardResumes: an interrupted shard of a value run resumes
// as that shard only (another shard's command line is refused) and ends as
// the uninterrupted shard.
func TestInterruptedShardResumes(t *testing.T) {
	dir := t.TempDir()
	part, whole := filepath.Join(dir, "part.json"), filepath.Join(dir, "whole.json")
	args := []string{"value", "d20/duel", "--params", "init", "-n", "400000", "--seed", "3", "--workers", "2", "--format", "csv", "--shard", "1/2"}
	if code, _, errOut := interruptAfter(t, 5000, append(args, "--results", part)...); code != exitInterrupted {
		t.Fatalf("exit %d; %s", code, errOut)
	}
	other := append(append([]string(nil), args[:len(args)-1]...), "0/2")
	if code, _, errOut := cli(t, append(other, "--resume", part)...); code != exitUsage || !strings.Contains(errOut, "--shard differs") {
		t.Errorf("resume as another shard: exit %d, %s", code, errOut)
	}
	if code, _, errOut := cli(t, append(args, "--results", part, "--resume", part)...); code != exitOK {
		t.Fatalf("resume: exit %d, %s", code, errOut)
	}
	if code, _, errOut := cli(t, append(args, "--results", whole)...); code != exitOK {
		t.Fatal(errOut)
	}
	if a, b := countsOf(t, part), countsOf(t, whole); !bytes.Equal(a, b) {
		t.Error("the resumed shard differs from the uninterrupted one")
	}
}

// TestEditedResumeRefused: an interrupted document edited by hand, in a
// way every other check lets through (an unplayed range shifted with its
// length kept, as an audit did: [1368340,1370112] to [0,1772]; a finished
// sweep point's win moved to the other side; a tournament's sums changed
// and its standings recomputed from them), is refused by --resume with a
// message that names the file and says what to do, and the file is left
// alone; the document as written still resumes. Before resume_digest
// these resumes exited 0 with counts unlike an uninterrupted run's.
func TestEditedResumeRefused(t *testing.T) {
	asMap := func(edit func(map[string]any)) func(*testing.T, []byte) []byte {
		return func(t *testing.T, data []byte) []byte {
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			edit(doc)
			out, _ := json.MarshalIndent(doc, "", "  ")
			return out
		}
	}
	var skip string
	shift := asMap(func(d map[string]any) {
		u := d["unplayed"].([]any)
		first := u[0].([]any)
		lo, hi := first[0].(float64), first[1].(float64)
		if lo == 0 {
			skip = "the first unplayed range starts at 0: nothing to shift"
		}
		u[0] = []any{0.0, hi - lo}
	})
	cases := []struct {
		name string
		args []string
		at   int64
		edit func(*testing.T, []byte) []byte
	}{
		{"run", []string{"run", "d20/duel", "-n", "400000", "--json", "-o"}, 5000, shift},
		{"compare", []string{"compare", "d20/duel", "--option", "base=", "--option", "fast=--set heroes.Fighter.init=5", "-n", "300000", "--format", "csv", "--results"}, 5000, shift},
		{"value", []string{"value", "d20/duel", "--params", "init", "-n", "200000", "--format", "csv", "--results"}, 5000, shift},
		{"matrix", []string{"matrix", "d20/duel", "--row", "a=", "--row", "b=--set heroes.Fighter.init=4", "--col", "x=", "-n", "200000", "--format", "csv", "--results"}, 5000, shift},
		{"sweep", []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=0,1,2", "-n", "20000", "--format", "csv", "--results"}, 30000,
			asMap(func(d map[string]any) {
				p := d["points"].([]any)[0].(map[string]any)
				if p["unfinished"] == true {
					skip = "no point finished before the interrupt"
				}
				w := p["result"].(map[string]any)["tally"].(map[string]any)["wins"].([]any)
				w[0], w[1] = w[0].(float64)-1, w[1].(float64)+1
			})},
		{"tournament", []string{"tournament", "d20/duel", "--option", "a=", "--option", "b=--set heroes.Fighter.attacks=[1,6]",
			"--option", "c=--set heroes.Fighter.init=-3", "--first", "4000", "-n", "250000", "--format", "csv", "--results"}, 3*4000 + 100,
			func(t *testing.T, data []byte) []byte {
				var doc results.Tournament
				if err := json.Unmarshal(data, &doc); err != nil {
					t.Fatal(err)
				}
				st := doc.State
				st.Wins[0]--
				st.Only[0][0]--
				var names []string
				for _, o := range doc.Options {
					names = append(names, o.Name)
				}
				doc.Selection = *st.Result(names, doc.Side)
				out, _ := json.MarshalIndent(&doc, "", "  ")
				return out
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			part, edited := filepath.Join(dir, "part.json"), filepath.Join(dir, "edited.json")
			args := append(append([]string(nil), tc.args...), part, "--seed", "13", "--workers", "1")
			if code, _, errOut := interruptAfter(t, tc.at, args...); code != exitInterrupted {
				t.Fatalf("interrupted: exit %d, want %d; stderr:\n%s", code, exitInterrupted, errOut)
			}
			data, _ := os.ReadFile(part)
			if !bytes.Contains(data, []byte(`"resume_digest"`)) {
				t.Fatalf("the interrupted document has no resume_digest: %.300s", data)
			}
			skip = ""
			data = tc.edit(t, data)
			if skip != "" {
				t.Skip(skip)
			}
			os.WriteFile(edited, data, 0o644)
			args[len(tc.args)] = edited
			code, _, errOut := cli(t, append(args, "--resume", edited)...)
			want := "--resume " + edited + ": its resume_digest does not match"
			if code != exitUsage || !strings.Contains(errOut, want) || !strings.Contains(errOut, "edited or damaged") ||
				!strings.Contains(errOut, "without --resume") {
				t.Errorf("resume of the edited file: exit %d, want %d and %q; stderr:\n%s", code, exitUsage, want, errOut)
			}
			if after, _ := os.ReadFile(edited); !bytes.Equal(after, data) {
				t.Error("a refused resume changed the file")
			}
			// The file as simctl wrote it resumes.
			args[len(tc.args)] = part
			if code, _, errOut := cli(t, append(args, "--resume", part)...); code != exitOK || !strings.Contains(errOut, "resuming") {
				t.Errorf("resume of the file as written: exit %d; stderr:\n%s", code, errOut)
			}
		})
	}
}

// raceScaled divides the -n of a command line by raceScale: under -race a
// test interrupts and resumes the same concurrent play on fewer encounters.
func raceScaled(args []string) []string {
	out := append([]string(nil), args...)
	for i := 0; i+1 < len(out); i++ {
		if out[i] == "-n" {
			n, err := strconv.Atoi(out[i+1])
			if err != nil {
				panic(err)
			}
			m := n / raceScale
			if n%2 == 1 && m%2 == 0 {
				m++ // an odd count stays odd: shards split it unevenly
			}
			out[i+1] = strconv.Itoa(m)
		}
	}
	return out
}
