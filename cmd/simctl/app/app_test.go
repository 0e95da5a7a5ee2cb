package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"simctl/sim/msg"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	_ "simctl/agents" // registers the scripted policies
	"simctl/cmd/simctl/app"
	"simctl/reports/results"
	_ "simctl/rulesets/d20"
	"simctl/scenarios"
	"simctl/sim/scenario"
)

func duel(t *testing.T) *app.Source {
	t.Helper()
	data, disp, ok := scenarios.Read("d20/duel")
	if !ok {
		t.Fatal("no built-in d20/duel")
	}
	return &app.Source{Name: "d20/duel", Display: disp, Data: data}
}

func set(t *testing.T, s string) scenario.Set {
	t.Helper()
	x, err := scenario.ParseSet(s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// counts is what must not depend on workers, interruptions or resumes:
// every option's tally and paired sums.
func counts(t *testing.T, c *results.Compare) string {
	t.Helper()
	type opt struct {
		Raw  any
		Diff any
		X    []int64
	}
	var out []opt
	for _, o := range c.Options {
		out = append(out, opt{o.Result.Raw, o.Diff, o.EconomyCross})
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func compareReq(t *testing.T, workers int) *app.CompareRequest {
	return &app.CompareRequest{Source: duel(t), Seed: 7, N: 6000, Workers: workers, Batch: 1000,
		Options: []app.Option{{Name: "base"}, {Name: "fast", Sets: []scenario.Set{set(t, "heroes.Fighter.init=5")}}}}
}

// TestCompareResumeIsWhole: a comparison stopped at its first checkpoint
// and resumed from that checkpoint's JSON has exactly the counts of the
// comparison played at once, whatever the workers.
func TestCompareResumeIsWhole(t *testing.T) {
	whole, err := app.Compare(context.Background(), compareReq(t, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Interrupted || whole.Encounters != 6000 {
		t.Fatalf("whole: interrupted %v, %d encounters", whole.Interrupted, whole.Encounters)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var saved []byte
	obs := &app.Observer{CheckpointSegment: 500, Checkpoint: func(doc any) {
		if saved == nil {
			b, err := json.Marshal(doc)
			if err != nil {
				t.Error(err)
			}
			saved = b
			cancel()
		}
	}}
	part, err := app.Compare(ctx, compareReq(t, 2), obs)
	if err != nil {
		t.Fatal(err)
	}
	if saved == nil || !part.Interrupted {
		t.Fatalf("no checkpoint (saved %d bytes) or not interrupted (%v)", len(saved), part.Interrupted)
	}
	var old results.Compare
	if err := json.Unmarshal(saved, &old); err != nil {
		t.Fatal(err)
	}
	if !old.Interrupted || old.Encounters == 0 || old.Encounters >= 6000 {
		t.Fatalf("checkpoint: interrupted %v after %d encounters", old.Interrupted, old.Encounters)
	}
	req := compareReq(t, 3)
	req.Resume, req.ResumePath = &old, "saved.json"
	var notes []string
	done, err := app.Compare(context.Background(), req, &app.Observer{Note: func(m msg.Text) { notes = append(notes, m.String()) }})
	if err != nil {
		t.Fatal(err)
	}
	if done.Interrupted || done.Encounters != 6000 {
		t.Fatalf("resumed: interrupted %v, %d encounters", done.Interrupted, done.Encounters)
	}
	if counts(t, done) != counts(t, whole) {
		t.Errorf("resumed counts differ from the whole comparison's:\n%s\n%s", counts(t, done), counts(t, whole))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "resuming saved.json") {
		t.Errorf("notes %q", notes)
	}
	// A resume of another comparison is refused, not added to.
	other := compareReq(t, 1)
	other.Seed = 8
	other.Resume, other.ResumePath = &old, "saved.json"
	var ae *app.Error
	if _, err := app.Compare(context.Background(), other, nil); !errors.As(err, &ae) || ae.Kind != app.Usage || !strings.Contains(err.Error(), "seed 7, this one 8") {
		t.Errorf("resume with another seed: %v", err)
	}
}

// TestSweepWorkers: a sweep's points have the same counts whatever the
// workers, and the observer hears every point's progress.
func TestSweepWorkers(t *testing.T) {
	run := func(workers int) (*results.Sweep, int64) {
		a, err := results.ParseVary("heroes.Fighter.init=0:4:2")
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		obs := &app.Observer{Progress: func(n int64, done *atomic.Int64) func() {
			total = n
			return func() {
				if done.Load() != n {
					t.Errorf("progress: %d of %d", done.Load(), n)
				}
			}
		}}
		sw, err := app.Sweep(context.Background(), &app.SweepRequest{Source: duel(t), Axes: []results.Axis{a}, Seed: 3, N: 2000, Batch: 1000, Workers: workers}, obs)
		if err != nil {
			t.Fatal(err)
		}
		return sw, total
	}
	one, total := run(1)
	four, _ := run(4)
	if total != 3*2000 {
		t.Errorf("progress total %d, want %d", total, 3*2000)
	}
	if len(one.Points) != 3 {
		t.Fatalf("%d points", len(one.Points))
	}
	for k := range one.Points {
		if !reflect.DeepEqual(one.Points[k].Result.Raw, four.Points[k].Result.Raw) {
			t.Errorf("point %d: counts differ between 1 and 4 workers", k)
		}
	}
	if one.Points[0].Result.Command != "simctl run d20/duel -n 2000 --seed 3 --set heroes.Fighter.init=0" {
		t.Errorf("point command %q", one.Points[0].Result.Command)
	}
}

// TestRefused: requests no front end may pass on are refused before any
// work, with the kind of mistake and the CLI's words.
func TestRefused(t *testing.T) {
	ax := func(s string) results.Axis {
		a, err := results.ParseVary(s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	src := duel(t)
	cases := []struct {
		name string
		run  func() error
		kind app.Kind
		want string
	}{
		{"sweep twice", func() error {
			_, err := app.Sweep(context.Background(), &app.SweepRequest{Source: src, N: 1, Batch: 1, Axes: []results.Axis{ax("heroes.Fighter.init=0:1:1"), ax("heroes.Fighter.init=0:1:1")}}, nil)
			return err
		}, app.Usage, "--vary heroes.Fighter.init is given twice"},
		{"sweep set and vary", func() error {
			_, err := app.Sweep(context.Background(), &app.SweepRequest{Source: src, N: 1, Batch: 1, Sets: []scenario.Set{set(t, "heroes.Fighter.init=2")}, Axes: []results.Axis{ax("heroes.Fighter.init=0:1:1")}}, nil)
			return err
		}, app.Usage, "both --set and --vary"},
		{"sweep invalid points", func() error {
			_, err := app.Sweep(context.Background(), &app.SweepRequest{Source: src, N: 1, Batch: 1, Axes: []results.Axis{ax("heroes.Fighter.hp=-2:1:1")}}, nil)
			return err
		}, app.Invalid, "of 4 sweep points are invalid scenarios; nothing was run"},
		{"compare one option", func() error {
			_, err := app.Compare(context.Background(), &app.CompareRequest{Source: src, N: 1, Batch: 1, Options: []app.Option{{Name: "a"}}}, nil)
			return err
		}, app.Usage, "1 option(s); compare needs at least two"},
		{"compare twice", func() error {
			_, err := app.Compare(context.Background(), &app.CompareRequest{Source: src, N: 1, Batch: 1, Options: []app.Option{{Name: "a"}, {Name: "a"}}}, nil)
			return err
		}, app.Usage, `option "a" is given twice`},
		{"matrix one pairing", func() error {
			_, err := app.Matrix(context.Background(), &app.MatrixRequest{Source: src, N: 1, Rows: []app.Option{{Name: "a"}}, Cols: []app.Option{{Name: "b"}}}, nil)
			return err
		}, app.Usage, "at least two of one of them"},
		{"value no side", func() error {
			_, err := app.Value(context.Background(), &app.ValueRequest{Source: src, N: 1, Side: "herose", Params: []string{"hp"}}, nil)
			return err
		}, app.Usage, `--side "herose": no such side`},
		{"value step of no param", func() error {
			_, err := app.Value(context.Background(), &app.ValueRequest{Source: src, N: 1, Params: []string{"hp"}, Steps: map[string]float64{"ac": 2}}, nil)
			return err
		}, app.Usage, "--step ac: ac is not among --params"},
		{"invalid scenario", func() error {
			bad := &app.Source{Name: "x.yaml", Display: "x.yaml", Data: []byte("name: x\nruleset: nosuch\n")}
			_, err := app.Value(context.Background(), &app.ValueRequest{Source: bad, N: 1, Params: []string{"hp"}}, nil)
			return err
		}, app.Invalid, "x.yaml"},
	}
	for _, c := range cases {
		err := c.run()
		var ae *app.Error
		if !errors.As(err, &ae) || ae.Kind != c.kind || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (kind %v), want kind %v and %q", c.name, err, kindOf(err), c.kind, c.want)
		}
	}
}

func kindOf(err error) app.Kind {
	var ae *app.Error
	if errors.As(err, &ae) {
		return ae.Kind
	}
	return 0
}

// TestRunBatches: a run played in the lab's batches (Interim set) has
// exactly the counts of one sim.Run, and each interim tally grows.
func TestRunBatches(t *testing.T) {
	req := &app.RunRequest{Source: duel(t), Seed: 11, N: 20000, Workers: 2}
	whole, err := app.Run(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int64
	// InterimEvery 0 keeps every batch at the least (1000 encounters,
	// growing with played/8): many batches whatever the machine's pace.
	batched, err := app.Run(context.Background(), req, &app.Observer{Interim: func(doc any) {
		seen = append(seen, doc.(*results.Result).Encounters)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 5 || seen[0] != 1000 || seen[len(seen)-1] != 20000 || !slices.IsSorted(seen) {
		t.Errorf("interim tallies at %v", seen)
	}
	if !reflect.DeepEqual(whole.Raw, batched.Raw) || batched.Interrupted || batched.Planned != 20000 {
		t.Errorf("batched run differs from the whole run (interrupted %v, planned %d)", batched.Interrupted, batched.Planned)
	}
}

// An optimize stopped while its candidates are listed (each compiled)
// answers at once, as interrupted, having played and written nothing
// (issue 31 item 2: SIGTERM waited 32–79 s for the listing to end).
func TestOptimizeInterruptedWhileListing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	vals := make([]string, 400)
	for i := range vals {
		vals[i] = fmt.Sprint(i + 1)
	}
	req := &app.OptimizeRequest{Source: duel(t), Axes: []results.Axis{{Path: "heroes.Fighter.hp", Spec: "1:400", Values: vals}},
		Alpha: app.OptimizeAlpha, Delta: app.OptimizeDelta, Seed: 1, Workers: 1, First: 100, Confirm: 100}
	doc, err := app.Optimize(ctx, req, nil)
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Kind != app.Interrupted || doc != nil || !strings.Contains(err.Error(), "while listing the candidates") {
		t.Fatalf("got %v, %v; want an interruption while listing", doc, err)
	}
}

// Candidates are built when they first play (issue 38 item 4): one that
// is not a valid scenario ends the search there with a clear error naming
// it and its problem, of kind Invalid, and no document.
func TestOptimizeInvalidCandidateWhenPlayed(t *testing.T) {
	req := &app.OptimizeRequest{Source: duel(t), Axes: []results.Axis{{Path: "heroes.Fighter.hp", Spec: "10,-3", Values: []string{"10", "-3"}}},
		Alpha: app.OptimizeAlpha, Delta: app.OptimizeDelta, Seed: 1, Workers: 1, First: 100, Confirm: 100, Cap: 1000, Budget: 1_000_000}
	doc, err := app.Optimize(context.Background(), req, nil)
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Kind != app.Invalid || doc != nil ||
		!strings.Contains(err.Error(), "candidate heroes.Fighter.hp=-3 is not a valid scenario") || !strings.Contains(err.Error(), "hp") {
		t.Fatalf("got %v, %v; want the invalid candidate named", doc, err)
	}
}
