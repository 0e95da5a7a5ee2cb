package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestOptimizeInterruptInConfirmation: a search interrupted while it
// confirms (the selection finished) resumes to the uninterrupted search's
// document byte for byte, timings and the command line aside. The resumed
// one listed the selection's last incumbent twice (issue 31 item 6).
func TestOptimizeInterruptInConfirmation(t *testing.T) {
	dir := t.TempDir()
	args := append(append([]string(nil), pointBuyArgs[:len(pointBuyArgs)-1]...), "--quiet", "--confirm", "5000")
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
