package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// simctl serve's flags: the lab itself is tested in cmd/simctl/lab.

func TestServeFlags(t *testing.T) {
	for _, args := range [][]string{{"--max-jobs", "0"}, {"--queue", "-1"}, {"--workers", "0"}, {"--job-ttl", "1s"}, {"extra"}, {"--dir", "/nonexistent/folder"}, {"--addr", "256.1.1.1:99999"}} {
		code, _, stderr := simctl(t, context.Background(), append([]string{"serve"}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, "simctl serve") {
			t.Errorf("serve %v: exit %d, %q", args, code, stderr)
		}
	}
}

// TestServeShutdown: the command serves until its context ends, then
// cancels its jobs and returns 0.
func TestServeShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int)
	go func() {
		done <- Main(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--addr", "0.0.0.0:0"}, &out, &errb)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "http://") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(errb.String(), "warning: listening on") {
		t.Errorf("no warning for a non-loopback bind: %q", errb.String())
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestServeAllowSaveFlag: --allow-save names the folder it may save into.
func TestServeAllowSaveFlag(t *testing.T) {
	code, _, stderr := simctl(t, context.Background(), "serve", "--allow-save")
	if code != exitUsage || !strings.Contains(stderr, "--allow-save needs --dir") {
		t.Errorf("serve --allow-save without --dir: exit %d, %q", code, stderr)
	}
}
