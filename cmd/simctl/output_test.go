//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptWhileReadingExits130: a command stopped while it waits for
// an input (a FIFO nobody writes) exits 130, as every interrupted command
// does, whatever the command and whichever input.
func TestInterruptWhileReadingExits130(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", fifo},
		{"check", fifo},
		{"sweep", fifo, "--vary", "heroes.Fighter.init=1,2"},
		{"trace", fifo, "--seed", "1", "--encounter", "0"},
		{"report", fifo, "-o", filepath.Join(dir, "rep")},
		{"compare", "d20/duel", "--compare", fifo},
		{"run", "d20/duel", "--json", "-o", filepath.Join(dir, "r.json"), "--resume", fifo},
		{"merge", fifo},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		code, _, errOut := simctl(t, ctx, args...)
		cancel()
		if code != exitInterrupted || !strings.Contains(errOut, "interrupted") {
			t.Errorf("simctl %s interrupted while reading: exit %d, %s", strings.Join(args, " "), code, errOut)
		}
	}
}

// TestOutputRefusedBeforeWork: -o ” and an output that is an input are
// refused before anything is read or played, and the input is untouched;
// a complete result is not replaced by a command that saves partial
// documents there, unless --force (or --resume, whose file it is).
func TestOutputRefusedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.yaml")
	code, text, _ := cli(t, "scenarios", "show", "d20/duel")
	if code != exitOK {
		t.Fatal("scenarios show")
	}
	os.WriteFile(in, []byte(text), 0o644)
	link := filepath.Join(dir, "link.yaml")
	os.Symlink(in, link)
	for _, args := range [][]string{
		{"run", in, "-o", in},
		{"run", in, "-o", link}, // the same file by another name
		{"sweep", in, "--vary", "heroes.Fighter.init=1,2", "--results", in},
		{"run", in, "-o", ""},
	} {
		code, out, errOut := cli(t, args...)
		if code != exitUsage || out != "" || !(strings.Contains(errOut, "is the input") || strings.Contains(errOut, "empty file name")) {
			t.Errorf("simctl %q: exit %d, %q", args, code, errOut)
		}
	}
	if b, _ := os.ReadFile(in); string(b) != text {
		t.Fatal("the scenario was overwritten")
	}
	res := filepath.Join(dir, "r.json")
	if code, _, e := cli(t, "run", in, "-n", "200", "-o", res); code != exitOK {
		t.Fatal(e)
	}
	before, _ := os.ReadFile(res)
	if code, _, e := cli(t, "run", in, "-n", "300", "-o", res); code != exitUsage || !strings.Contains(e, "holds a complete simctl result") {
		t.Errorf("over a complete result: exit %d, %s", code, e)
	}
	if after, _ := os.ReadFile(res); string(after) != string(before) {
		t.Error("the complete result was replaced")
	}
	// Not JSON: nothing partial is written there as the command goes.
	if code, _, e := cli(t, "run", in, "-n", "300", "--format", "text", "-o", filepath.Join(dir, "r.txt")); code != exitOK {
		t.Error(e)
	}
	if code, _, e := cli(t, "run", in, "-n", "300", "-o", res, "--force"); code != exitOK {
		t.Errorf("--force: exit %d, %s", code, e)
	}
}
