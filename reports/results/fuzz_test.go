package results

import (
	"bytes"
	"context"
	"io"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// FuzzParseVary: --vary ranges never panic, and an accepted range has at
// least one value, at most the sweep's point limit.
func FuzzParseVary(f *testing.F) {
	for _, s := range []string{"heroes.Fighter.init=1:5:1", "a=1,2,3", "a=0:1:0.1", "a=5:1:1", "a=1:1e300:1e-300", "a=", "=1", "a=x:y:z", "a=[1,2],{b: c}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseVary(s)
		if err != nil {
			return
		}
		if len(a.Values) == 0 || len(a.Values) > MaxSweepPoints {
			t.Fatalf("ParseVary(%q) accepted %d values", s, len(a.Values))
		}
	})
}

// resultSeed is a real run result, the seed every result fuzz target
// mutates.
func resultSeed(f *testing.F) []byte {
	g := fuzzGame{}
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 1, N: 50, Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	r := New(Meta{Scenario: "s", Ruleset: "toy", Version: "v", Sides: [2]string{"a", "b"}, ScenarioText: "x: 1\n", ScenarioSHA256: ScenarioSum([]byte("x: 1\n")),
		Shard: &Shard{K: 0, Of: 2, Start: 0, N: 50, Total: 100}}, g, tally)
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		f.Fatal(err)
	}
	return b.Bytes()
}

// FuzzReadResult: reading a document never panics, and a run result it
// accepts derives again from its tally and encodes as JSON without
// panicking (reports' FuzzRenderInput renders what it accepts).
func FuzzReadResult(f *testing.F) {
	f.Add(resultSeed(f))
	f.Add([]byte(`{"scenario": "x"}`))
	f.Add([]byte(`{"kind": "sweep", "points": [{"values": ["1"], "result": {}}], "axes": [{"path": "a", "values": ["1"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput("fuzz.json", data)
		if err != nil {
			return
		}
		if r := in.Run; r != nil {
			again := FromRaw(Meta{Sides: [2]string{r.Sides[0].Name, r.Sides[1].Name}}, r.Raw)
			if err := again.WriteJSON(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzMerge: merging two arbitrary results never panics (no "internal
// error: stats: need 0 <= k <= n"), and what it accepts is a result whose
// counts add up.
func FuzzMerge(f *testing.F) {
	seed := resultSeed(f)
	other := bytes.Replace(seed, []byte(`"k": 0`), []byte(`"k": 1`), 1)
	other = bytes.Replace(other, []byte(`"start": 0`), []byte(`"start": 50`), 1)
	f.Add(seed, other)
	f.Add(seed, seed)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ra, err := parseResult("a.json", a)
		if err != nil {
			return
		}
		rb, err := parseResult("b.json", b)
		if err != nil {
			return
		}
		m, err := Merge([]*Result{ra, rb})
		if err != nil {
			return
		}
		if err := m.check(); err != nil {
			t.Fatalf("merged result is damaged: %v", err)
		}
		// The cross-field invariants of a genuine result hold for the
		// merge, and its counts are the exact sums of its inputs' (no
		// int64 wrap-around).
		if err := m.consistent(); err != nil {
			t.Fatalf("merged result is inconsistent: %v", err)
		}
		for _, f := range []struct {
			name      string
			got, a, b int64
		}{{"encounters", m.Raw.Encounters, ra.Raw.Encounters, rb.Raw.Encounters}, {"rounds_sum", m.Raw.RoundsSum, ra.Raw.RoundsSum, rb.Raw.RoundsSum},
			{"draws", m.Raw.Draws, ra.Raw.Draws, rb.Raw.Draws}, {"wins", m.Raw.Wins[0], ra.Raw.Wins[0], rb.Raw.Wins[0]},
			{"damage sum", m.Raw.Damage[0].Sum, ra.Raw.Damage[0].Sum, rb.Raw.Damage[0].Sum}} {
			if f.got < 0 || f.got-f.a != f.b || f.a < 0 || f.b < 0 {
				t.Fatalf("merged %s %d is not %d + %d", f.name, f.got, f.a, f.b)
			}
		}
		if err := m.WriteJSON(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

// fuzzGame is a tiny game for the seeds: two combatants, coin flips.
type fuzzGame struct{}

func (fuzzGame) Roster() []sim.Entrant {
	return []sim.Entrant{{Name: "A", Side: 0}, {Name: "B", Side: 1}}
}
func (fuzzGame) Counters() []string  { return sim.BaseCounters }
func (fuzzGame) MaxRounds() int      { return 5 }
func (fuzzGame) NewTable() sim.Table { return fuzzTable{} }

type fuzzTable struct{}

func (fuzzTable) Play(r *rng.Stream, c *sim.Counts, _ *sim.Log) sim.Outcome {
	c.Turn(0, 0) // as a referee records a turn: the side's and the combatant's
	return sim.Outcome{Winner: r.IntN(3) - 1, Rounds: r.IntN(6), FirstActor: r.IntN(2)}
}
