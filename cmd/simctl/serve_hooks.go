package main

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// jobHooks is the seam through which simctl serve runs the CLI's own
// sweep, compare, value and matrix commands in process: the context of
// Main carries it (withHooks), and the commands consult it at the few
// places where the CLI talks to a terminal or a file. Without hooks (the
// CLI) every one of those places behaves exactly as before.
//
// Concurrency: progress is called from one goroutine at a time (the
// command's progress ticker); interim is called synchronously while the
// command holds its document, from one goroutine at a time, and must not
// keep the document after it returns.
type jobHooks struct {
	// src is the editor's text: readSource returns it for src.name
	// instead of looking for a file or a built-in, so the command reads
	// the scenario under the page's name (no temporary file).
	src *source
	// warn receives compile's warnings (an unreachable tactics rule),
	// which the CLI prints on os.Stderr; nil: os.Stderr.
	warn io.Writer
	// progress hears the encounter indices played and the total, where
	// the CLI would draw its progress bar.
	progress func(done, total int64)
	// interim hears the partial document (*reports.Sweep, *reports.Compare,
	// *reports.Value or *reports.Matrix, marked interrupted) after each
	// finished sweep point and every interimEvery of a comparison, value
	// run or matrix, where the CLI writes its checkpoints.
	interim func(doc any)
}

type hooksKey struct{}

// withHooks returns ctx carrying h for the commands Main runs.
func withHooks(ctx context.Context, h *jobHooks) context.Context {
	return context.WithValue(ctx, hooksKey{}, h)
}

// hooksOf is ctx's hooks, nil for the CLI.
func hooksOf(ctx context.Context) *jobHooks {
	h, _ := ctx.Value(hooksKey{}).(*jobHooks)
	return h
}

// interims says whether h wants partial documents.
func (h *jobHooks) interims() bool { return h != nil && h.interim != nil }

// sendInterim hands doc to the interim hook, if any.
func (h *jobHooks) sendInterim(doc any) {
	if h.interims() {
		h.interim(doc)
	}
}

// How often a command with an interim hook hands over its partial
// document, and the segment of encounter indices (per worker) played
// between the checks: short, so the page sees the intervals narrow.
var (
	interimEvery         = 300 * time.Millisecond
	interimSegment int64 = 4 << 10
)

// progressEvery is how often the progress hook hears the count.
const progressEvery = 250 * time.Millisecond

// watch reports done and total to the progress hook until stop is called;
// stop reports the last count before it returns.
func (h *jobHooks) watch(total int64, done *atomic.Int64) (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				h.progress(done.Load(), total)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			wg.Wait()
			h.progress(done.Load(), total)
		})
	}
}
