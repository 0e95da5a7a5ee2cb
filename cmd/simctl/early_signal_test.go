//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A child started with SIMCTL_TEST_SLOW_INIT=1 stands, in package main's
// init, for the imported packages' inits (message catalogs, fonts, plots:
// 0.1 s, 0.37 s under load): it says so on stdout and sleeps, so the test
// signals it there and not by chance.
func init() {
	if os.Getenv("SIMCTL_AS_MAIN") == "1" && os.Getenv("SIMCTL_TEST_SLOW_INIT") == "1" {
		os.Stdout.WriteString("in init\n")
		time.Sleep(400 * time.Millisecond)
	}
}

// TestSignalDuringInit: Ctrl-C or SIGTERM before main starts (while the
// packages initialize) is answered like any other: exit 130 with the
// message, not the signal's default action, which killed the process
// (issue 31 item 8: 8 of 40 early signals).
func TestSignalDuringInit(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(exe, "run", "d20/duel", "-n", "1000000000", "--quiet")
		cmd.Env = append(os.Environ(), "SIMCTL_AS_MAIN=1", "SIMCTL_TEST_SLOW_INIT=1")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var errb strings.Builder
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "in init\n" {
			t.Fatalf("the child said %q", line)
		}
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: still running 20 s after the signal (liveness bound)", sig)
		}
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if ws.Signaled() || cmd.ProcessState.ExitCode() != exitInterrupted || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("%v during init: %v (killed by a signal: %v), stderr:\n%s", sig, cmd.ProcessState, ws.Signaled(), errb.String())
		}
	}
}
