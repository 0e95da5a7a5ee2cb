//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMergeFIFOInputError: a FIFO that brings something not a result is
// an error at once; before, merge read the FIFO a second time to say what
// the file was, waiting for another writer, deaf to the context (the first
// Ctrl-C did nothing).
func TestMergeFIFOInputError(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "shard.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString("not json\n")
			f.Close()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type res struct {
		code        int
		out, errOut string
	}
	done := make(chan res, 1)
	go func() {
		var out, errb bytes.Buffer
		code := Main(ctx, []string{"merge", "--json", fifo}, &out, &errb)
		done <- res{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		if r.code != exitFailure || !strings.Contains(r.errOut, "shard.json") {
			t.Errorf("exit %d, %q; want a failure naming the file", r.code, r.errOut)
		}
	case <-time.After(20 * time.Second):
		cancel() // the old code does not hear this either; a writer frees it
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatal("merge of a FIFO holding garbage waited for a second writer")
	}
}
