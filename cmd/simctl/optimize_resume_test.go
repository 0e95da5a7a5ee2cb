package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"simctl/reports/results"
)

// TestOptimizeInterruptInConfirmation: a search interrupted while it
// confirms (the selection finished) resumes to the uninterrupted search's
// document byte for byte, timings and the command line aside. The resumed
// one listed the selection's last incumbent twice (issue 31 item 6).
func TestOptimizeInterruptInConfirmation(t *testing.T) {
	dir := t.TempDir()
	// A long confirmation (50,000 encounters or more): the
	// interruption 2,000 encounters in lands inside it even under load.
	args := append(append([]string(nil), pointBuyArgs[:len(pointBuyArgs)-1]...), "--quiet", "--confirm", "10000")
	whole, part := filepath.Join(dir, "whole.json"), filepath.Join(dir, "part.json")
	if code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--json", "-o", whole)...); code != exitOK {
		t.Fatalf("whole: exit %d\n%s", code, stderr)
	}
	// Where the confirmation starts: after every stage before it.
	var doc struct {
		Search struct {
			Stages []struct {
				Name       string `json:"name"`
				Encounters int64  `json:"encounters"`
			} `json:"stages"`
		} `json:"search"`
	}
	data, _ := os.ReadFile(whole)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var before int64
	for _, s := range doc.Search.Stages {
		if s.Name == "confirmation" {
			break
		}
		before += s.Encounters
	}
	code, stdout, stderr := interruptAfter(t, before+2000, append(append([]string(nil), args...), "--json", "-o", part)...)
	noPanic(t, stdout, stderr)
	if code != exitInterrupted {
		t.Fatalf("interrupted run: exit %d\n%s", code, stderr)
	}
	var got struct {
		Search struct {
			Stages []struct {
				Name string `json:"name"`
			} `json:"stages"`
			Selection *struct{} `json:"selection"`
		} `json:"search"`
	}
	data, _ = os.ReadFile(part)
	json.Unmarshal(data, &got)
	if n := len(got.Search.Stages); n == 0 || got.Search.Stages[n-1].Name != "selection" {
		t.Fatalf("the interruption did not fall in the confirmation: stages %+v", got.Search.Stages)
	}
	if code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--json", "-o", part, "--resume", part)...); code != exitOK {
		t.Fatalf("resume: exit %d\n%s", code, stderr)
	}
	if a, b := countsOf(t, whole), countsOf(t, part); !bytes.Equal(a, b) {
		os.WriteFile(filepath.Join(t.TempDir(), "a"), a, 0o644)
		t.Errorf("the resumed search differs from the whole one:\n%s", diffLines(a, b))
	}
}

// diffLines is the first lines where a and b differ, for a message.
func diffLines(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	var out []byte
	for i := 0; i < max(len(la), len(lb)) && len(out) < 2000; i++ {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			out = append(out, "- "+string(x)+"\n+ "+string(y)+"\n"...)
		}
	}
	return string(out)
}

// TestOptimizeForgedResume: a stopped search's document, or a shard of a
// stage, edited anywhere --resume or merge would go on from (finalists out
// of range or repeated, a screened-out count, a shard's total or wins) is
// refused with exit 2 and a message, never an internal error or a result
// that ranks one candidate many times (issue 31 items 5 and 11).
func TestOptimizeForgedResume(t *testing.T) {
	dir := t.TempDir()
	f := func(name string) string { return filepath.Join(dir, name) }
	args := append(append([]string(nil), pointBuyArgs[:len(pointBuyArgs)-1]...), "--quiet", "--confirm", "2000")
	code, stdout, stderr := interruptAfter(t, 2500, append(append([]string(nil), args...), "--json", "-o", f("part.json"))...)
	noPanic(t, stdout, stderr)
	if code != exitInterrupted {
		t.Fatalf("interrupted run: exit %d\n%s", code, stderr)
	}
	data, _ := os.ReadFile(f("part.json"))
	edit := func(name string, change func(doc map[string]any)) string {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		change(doc)
		b, _ := json.MarshalIndent(doc, "", "  ")
		os.WriteFile(f(name), b, 0o644)
		return f(name)
	}
	search := func(doc map[string]any) map[string]any { return doc["search"].(map[string]any) }
	for name, change := range map[string]func(map[string]any){
		"finalist out of range": func(d map[string]any) { search(d)["finalists"] = []any{0, 1, 100000} },
		"finalist repeated": func(d map[string]any) {
			fin := search(d)["finalists"].([]any)
			search(d)["finalists"] = []any{fin[0], fin[0], fin[0]}
		},
		"negative finalist": func(d map[string]any) { search(d)["finalists"] = []any{-1, 0} },
		"encounters":        func(d map[string]any) { search(d)["encounters"] = 1 },
		"incumbent":         func(d map[string]any) { search(d)["incumbent"] = []any{} },
		"seed kept, digest dropped": func(d map[string]any) {
			delete(d, "resume_digest")
		},
	} {
		p := edit(name+".json", change)
		code, stdout, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--json", "-o", f("out.json"), "--resume", p)...)
		noPanic(t, stdout, stderr)
		if code != exitUsage || !bytes.Contains([]byte(stderr), []byte("resume_digest does not match")) {
			t.Errorf("%s: exit %d\n%s", name, code, stderr)
		}
	}
	// The untouched document resumes.
	if code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--json", "-o", f("out.json"), "--resume", f("part.json"))...); code != exitOK {
		t.Errorf("untouched: exit %d\n%s", code, stderr)
	}

	// Shards of a stage: an edited shard is refused by merge.
	for k := range 2 {
		if code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--shard", []string{"0/2", "1/2"}[k], "-o", f([]string{"p0.json", "p1.json"}[k]))...); code != exitOK {
			t.Fatalf("shard %d: exit %d\n%s", k, code, stderr)
		}
	}
	data, _ = os.ReadFile(f("p1.json"))
	for name, change := range map[string]func(map[string]any){
		"shard total": func(d map[string]any) { d["shard"].(map[string]any)["total"] = 999999 },
		"wins overflow": func(d map[string]any) {
			w := d["stage"].(map[string]any)["wins"].([]any)
			w[0] = 9223372036854775807
		},
	} {
		p := edit(name+".json", change)
		code, stdout, stderr := simctl(t, context.Background(), "merge", f("p0.json"), p, "-o", f("m.json"))
		noPanic(t, stdout, stderr)
		if code == exitOK || !bytes.Contains([]byte(stderr), []byte("resume_digest does not match")) {
			t.Errorf("merge with %s: exit %d\n%s", name, code, stderr)
		}
		// Without the digest (results.MergeOptimizeStages alone), the
		// part is checked against the stage before it is added.
		a, err1 := results.ReadInput(f("p0.json"))
		b, err2 := results.ReadInput(p)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if _, err := results.MergeOptimizeStages([]*results.Optimize{a.Optimize, b.Optimize}); err == nil || !strings.Contains(err.Error(), "merge: shard 2 of 2:") {
			t.Errorf("results merge with %s: %v", name, err)
		}
	}
	if code, _, stderr := simctl(t, context.Background(), "merge", f("p0.json"), f("p1.json"), "-o", f("m.json")); code != exitOK {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	// The merged stage is resumable, and an edit of it is refused.
	data, _ = os.ReadFile(f("m.json"))
	p := edit("m-forged.json", func(d map[string]any) {
		d["stage"].(map[string]any)["wins"].([]any)[0] = 0
	})
	if code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--json", "-o", f("out.json"), "--resume", p)...); code != exitUsage {
		t.Errorf("edited merged stage: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := simctl(t, context.Background(), append(append([]string(nil), args...), "--json", "-o", f("out.json"), "--resume", f("m.json"))...); code != exitOK {
		t.Errorf("merged stage: exit %d\n%s", code, stderr)
	}
}
