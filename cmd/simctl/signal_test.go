//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"simctl/reports/results"
)

// TestMain lets a test run the real simctl (main, with its signal
// handling) as a child process: the test binary re-executed with
// SIMCTL_AS_MAIN=1 is simctl.
func TestMain(m *testing.M) {
	if os.Getenv("SIMCTL_AS_MAIN") == "1" {
		// A child that checkpoints often, so a test need not wait 10 s.
		if os.Getenv("SIMCTL_TEST_CHECKPOINT") == "1" {
			checkpointEvery, checkpointSegment = 0, 2000
		}
		main()
		return
	}
	// The tests expect English: a developer's ko_KR or ru_RU locale would
	// otherwise choose the report's language (report_i18n_test.go sets
	// these itself).
	os.Unsetenv("LC_ALL")
	os.Unsetenv("LC_MESSAGES")
	os.Setenv("LANG", "C")
	os.Exit(m.Run())
}

// childOut is the stdout of the last child started (tests run one at a
// time: none is parallel).
var childOut bytes.Buffer

// child starts simctl args as a child process.
func child(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	return childEnv(t, nil, args...)
}

// childEnv is child with more environment variables.
func childEnv(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), "SIMCTL_AS_MAIN=1"), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.Stdout = &childOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, &errb
}

// waitExit waits for cmd at most limit and returns its exit code.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration, stderr *bytes.Buffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("simctl still running %v after the signal (liveness bound, not a speed test); stderr:\n%s", limit, stderr)
	}
	return cmd.ProcessState.ExitCode()
}

// waitFor waits until the child has written something to stderr or
// slept long enough to be inside the run.
func settle() { time.Sleep(1500 * time.Millisecond) }

// A run of heavy encounters (64 combatants, many rounds each) stops
// within a few seconds of Ctrl-C, and writes exactly what finished.
func TestInterruptHeavyRunStops(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	out := filepath.Join(t.TempDir(), "heavy.json")
	cmd, stderr := child(t, "run", "testdata/heavy.yaml", "-n", "100000", "--workers", "2", "--json", "-o", out)
	settle()
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, 10*time.Second, stderr); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	r, err := results.ReadFile(out) // checks the tally adds up
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Encounters < 1 || r.Encounters >= 100000 {
		t.Errorf("result: interrupted %v, %d encounters", r.Interrupted, r.Encounters)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Errorf("folder holds %d files, want only the result (no temp file)", len(ents))
	}
}

// A second Ctrl-C returns at once even while every worker is inside an
// encounter, still writing what the workers had committed.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	// Encounters of several seconds each: the first signal alone would
	// wait for them.
	slow := filepath.Join(t.TempDir(), "slow.yaml")
	data, err := os.ReadFile("testdata/heavy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("max_rounds: 5000"), []byte("max_rounds: 100000"), 1)
	data = bytes.ReplaceAll(data, []byte("hp: 3000"), []byte("hp: 300000"))
	os.WriteFile(slow, data, 0o644)
	out := filepath.Join(t.TempDir(), "slow.json")
	cmd, stderr := child(t, "run", slow, "-n", "1000", "--workers", "2", "--json", "-o", out)
	settle()
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, 10*time.Second, stderr); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	var doc map[string]any
	b, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(b, &doc) != nil || doc["interrupted"] != true {
		t.Fatalf("no interrupted result written (%v):\n%s\nstderr:\n%s", err, b, stderr)
	}
	if _, err := results.ReadFile(out); err != nil {
		t.Error(err)
	}
}

// An interrupted sweep keeps exactly its finished points, marks the
// others unfinished without fabricating figures for them, and --resume
// plays only those, ending with byte for byte the counts of an
// uninterrupted sweep.
func TestInterruptedSweepResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "sweep.json")
	args := []string{"sweep", "d20/duel", "--vary", "heroes.Fighter.init=0:7:1", "-n", "400000", "--seed", "11", "--workers", "1"}
	childOut.Reset()
	cmd, stderr := child(t, append(args, "--results", ckpt)...)
	table := &childOut
	// Wait for the first finished point to be saved, then interrupt.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(ckpt); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no point saved in 60 s; stderr:\n%s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, 30*time.Second, stderr); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	in, err := results.ReadInput(ckpt)
	if err != nil || in.Sweep == nil {
		t.Fatalf("checkpoint: %v", err)
	}
	finished := 0
	for _, p := range in.Sweep.Points {
		if p.Unfinished {
			if p.Result.Command != "" {
				t.Errorf("unfinished point %v carries a command %q", p.Values, p.Result.Command)
			}
			continue
		}
		finished++
		if p.Result.Encounters != 400000 {
			t.Errorf("finished point %v has %d encounters", p.Values, p.Result.Encounters)
		}
	}
	if finished == 0 || finished == len(in.Sweep.Points) {
		t.Skipf("the signal came when %d of %d points had finished; nothing to resume", finished, len(in.Sweep.Points))
	}
	if !in.Sweep.Interrupted || bytes.Contains(table.Bytes(), []byte("[0.00%, 100.00%]")) || bytes.Contains(table.Bytes(), []byte("-n 0")) ||
		!bytes.Contains(table.Bytes(), []byte("unfinished")) {
		t.Errorf("interrupted sweep output:\n%s", table.String())
	}

	code, _, errOut := cli(t, append(args, "--results", ckpt, "--resume", ckpt, "--format", "csv")...)
	if code != exitOK || !bytes.Contains([]byte(errOut), []byte("resuming")) {
		t.Fatalf("resume: exit %d, stderr %q", code, errOut)
	}
	whole := filepath.Join(dir, "whole.json")
	if code, _, errOut := cli(t, append(args, "--results", whole, "--format", "csv")...); code != exitOK {
		t.Fatal(errOut)
	}
	tallies := func(p string) []json.RawMessage {
		var doc struct {
			Points []struct {
				Unfinished bool `json:"unfinished"`
				Result     struct {
					Tally json.RawMessage `json:"tally"`
				} `json:"result"`
			} `json:"points"`
		}
		b, err := os.ReadFile(p)
		if err != nil || json.Unmarshal(b, &doc) != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var out []json.RawMessage
		for _, pt := range doc.Points {
			if pt.Unfinished {
				t.Errorf("%s: a point is still unfinished", p)
			}
			out = append(out, pt.Result.Tally)
		}
		return out
	}
	got, want := tallies(ckpt), tallies(whole)
	for k := range want {
		if !bytes.Equal(got[k], want[k]) {
			t.Errorf("point %d: resumed tally differs from the uninterrupted sweep's", k)
		}
	}
}

// An interrupted run records which encounters it did not play; --resume
// plays only those and the result's counts are byte for byte those of an
// uninterrupted run: nothing finished lost or counted twice.
func TestInterruptedRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	args := []string{"run", "d20/duel", "-n", "3000000", "--seed", "5", "--workers", "2", "--json", "-o", out}
	cmd, stderr := child(t, args...)
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, 30*time.Second, stderr); code != exitInterrupted {
		t.Skipf("exit %d: the run finished before the signal", code)
	}
	part, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !part.Interrupted || len(part.Unplayed) == 0 || part.Encounters == 0 {
		t.Fatalf("interrupted result: %d encounters, unplayed %v", part.Encounters, part.Unplayed)
	}
	code, _, errOut := cli(t, append(args, "--resume", out)...)
	if code != exitOK || !strings.Contains(errOut, "resuming") {
		t.Fatalf("resume: exit %d, %s", code, errOut)
	}
	whole := filepath.Join(dir, "whole.json")
	if code, _, errOut := cli(t, "run", "d20/duel", "-n", "3000000", "--seed", "5", "--json", "-o", whole); code != exitOK {
		t.Fatal(errOut)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(whole)
	if !bytes.Equal(tallyOf(t, a), tallyOf(t, b)) {
		t.Error("the resumed run's tally differs from the uninterrupted run's")
	}
	var doc map[string]any
	json.Unmarshal(a, &doc)
	if doc["interrupted"] != nil || doc["unplayed"] != nil {
		t.Errorf("the resumed result still says interrupted %v, unplayed %v", doc["interrupted"], doc["unplayed"])
	}
	// A finished result has nothing to resume.
	if code, _, errOut := cli(t, append(args, "--resume", whole)...); code != exitUsage || !strings.Contains(errOut, "not interrupted") {
		t.Errorf("resume of a whole run: exit %d, %s", code, errOut)
	}
}

// Ctrl-C on simctl serve says what it does (cancelling its jobs, shutting
// down), not the run's "finishing the encounters in play", and exits 0.
func TestInterruptServe(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	cmd, stderr := child(t, "serve", "--addr", "127.0.0.1:0")
	settle()
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, 10*time.Second, stderr); code != exitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	s := stderr.String()
	if strings.Contains(s, "finishing the encounters in play") || !strings.Contains(s, "simctl serve: interrupted; cancelling 0 running and 0 queued job(s) and shutting down") ||
		!strings.Contains(s, "simctl serve: stopped") {
		t.Errorf("stderr:\n%s", s)
	}
}

// TestRunCheckpointSurvivesSIGKILL: a run writing JSON to a file saves what
// it finished as it goes, so a process killed outright (no handler runs)
// leaves a checkpoint that --resume completes to the uninterrupted counts.
func TestRunCheckpointSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	dir := t.TempDir()
	out, whole := filepath.Join(dir, "out.json"), filepath.Join(dir, "whole.json")
	args := []string{"run", "d20/duel", "-n", "3000000", "--seed", "7", "--workers", "1", "--json"}
	cmd, stderr := childEnv(t, []string{"SIMCTL_TEST_CHECKPOINT=1"}, append(args, "-o", out)...)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if r, err := results.ReadFile(out); err == nil && r.Interrupted && r.Encounters >= 10000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint within 60 s; stderr:\n%s", stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	r, err := results.ReadFile(out)
	if err != nil {
		t.Fatalf("after SIGKILL the output is not a whole document: %v", err)
	}
	if !r.Interrupted || len(r.Unplayed) == 0 || r.Encounters >= 3000000 {
		t.Fatalf("checkpoint: interrupted %v, unplayed %v, %d encounters", r.Interrupted, r.Unplayed, r.Encounters)
	}
	if code, _, e := cli(t, append(args, "--resume", out, "-o", out)...); code != exitOK {
		t.Fatalf("resume: exit %d, %s", code, e)
	}
	if code, _, e := cli(t, append(args, "-o", whole)...); code != exitOK {
		t.Fatal(e)
	}
	if a, b := countsOf(t, out), countsOf(t, whole); !bytes.Equal(a, b) {
		t.Error("resumed from a SIGKILLed run's checkpoint, the counts differ from the uninterrupted run")
	}
}
