package lab

import (
	"sync"
	"sync/atomic"
	"time"
)

// jobHooks are what a lab job's observer (app.Observer) calls while it
// plays: progress hears the encounter indices played and the total, on a
// ticker (watch); interim hears the partial document (*results.Sweep,
// *results.Compare, *results.Value, *results.Matrix, *results.Tournament
// or *results.Optimize, marked interrupted) after each finished sweep
// point or stage and every interimEvery of a comparison, value run or
// matrix.
//
// Concurrency: progress is called from one goroutine at a time (watch's
// ticker); interim is called synchronously while the job holds its
// document, from one goroutine at a time, and must not keep the document
// after it returns.
type jobHooks struct {
	progress func(done, total int64)
	interim  func(doc any)
}

// How often a job hands the page its partial document, and the segment
// of encounter indices (per worker) played between the checks: short, so
// the page sees the intervals narrow.
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
