package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"simctl/reports"
)

// TestMain lets a test run the real simctl (main, with its signal
// handling) as a child process: the test binary re-executed with
// SIMCTL_AS_MAIN=1 is simctl.
func TestMain(m *testing.M) {
	if os.Getenv("SIMCTL_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// child starts simctl args as a child process.
func child(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "SIMCTL_AS_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
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
	r, err := reports.ReadFile(out) // checks the tally adds up
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
	if _, err := reports.ReadFile(out); err != nil {
		t.Error(err)
	}
}
