package sim_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"simctl/sim"
)

// The pool plays every index of the run exactly once, whatever the worker
// count and however the chunks fall, reports progress for all of them, and
// a stopped pool's gaps plus what it played are the run again, each index
// once.
func TestPoolPlaysEachIndexOnce(t *testing.T) {
	const start, n = 1000, 103
	for _, workers := range []int{1, 2, 3, 7} {
		for _, chunk := range []int64{1, 4, 50, 200} {
			seen := make([]atomic.Int32, n)
			var done atomic.Int64
			p := sim.Pool[*[]int64]{
				Chunk: chunk,
				New:   func() *[]int64 { return new([]int64) },
				Play: func(w *[]int64, i int64) {
					seen[i-start].Add(1)
					*w = append(*w, i)
				},
				Crash: func(_ *[]int64, i int64, r any) error { return fmt.Errorf("%d: %v", i, r) },
			}
			var gaps []sim.Range
			ws, err := p.Run(context.Background(), sim.RunConfig{Start: start, N: n, Workers: workers, Done: &done, Unplayed: &gaps})
			if err != nil || len(gaps) != 0 || done.Load() != n {
				t.Fatalf("workers %d chunk %d: err %v, gaps %v, done %d", workers, chunk, err, gaps, done.Load())
			}
			total := 0
			for _, w := range ws {
				for k := 1; k < len(*w); k++ {
					if (*w)[k] <= (*w)[k-1] {
						t.Fatalf("workers %d chunk %d: a worker's indices do not ascend: %v", workers, chunk, *w)
					}
				}
				total += len(*w)
			}
			for i := range seen {
				if seen[i].Load() != 1 {
					t.Fatalf("workers %d chunk %d: index %d played %d times", workers, chunk, start+i, seen[i].Load())
				}
			}
			if total != n {
				t.Fatalf("workers %d chunk %d: the states hold %d indices, want %d", workers, chunk, total, n)
			}
		}
	}
}

// A panic stops the pool and comes back through Crash, naming the index;
// a pool cancelled midway reports as gaps exactly what it did not play.
func TestPoolCrashAndGaps(t *testing.T) {
	p := sim.Pool[*int]{
		Chunk: 8,
		New:   func() *int { return new(int) },
		Play: func(w *int, i int64) {
			if i == 37 {
				panic("boom")
			}
			*w++
		},
		Crash: func(_ *int, i int64, r any) error { return fmt.Errorf("encounter %d: %v", i, r) },
	}
	_, err := p.Run(context.Background(), sim.RunConfig{N: 100, Workers: 3})
	if err == nil || err.Error() != "encounter 37: boom" {
		t.Fatalf("err %v, want encounter 37: boom", err)
	}

	// One worker stops at a known place (inside the chunk [45, 50)); two
	// stop wherever the scheduler leaves them.
	for _, workers := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var played atomic.Int64
		q := sim.Pool[*[]int64]{
			Chunk: 5,
			New:   func() *[]int64 { return new([]int64) },
			Play: func(w *[]int64, i int64) {
				if played.Add(1) == 38 { // mid-chunk: the worker stops inside it
					cancel()
				}
				*w = append(*w, i)
			},
			Crash: func(_ *[]int64, i int64, r any) error { return fmt.Errorf("%d: %v", i, r) },
		}
		var gaps []sim.Range
		ws, err := q.Run(ctx, sim.RunConfig{Start: 10, N: 200, Workers: workers, Unplayed: &gaps})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("workers %d: err %v, want context.Canceled", workers, err)
		}
		in := map[int64]int{}
		for _, w := range ws {
			for _, i := range *w {
				in[i]++
			}
		}
		for _, g := range gaps {
			for i := g.Lo; i < g.Hi; i++ {
				in[i]++
			}
		}
		for i := int64(10); i < 210; i++ {
			if in[i] != 1 {
				t.Fatalf("workers %d: index %d: played or left as a gap %d times, want once (gaps %v)", workers, i, in[i], gaps)
			}
		}
		if len(in) != 200 {
			t.Fatalf("%d indices played or left, want 200", len(in))
		}
	}
}
