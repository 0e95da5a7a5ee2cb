package experiment

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"simctl/stats"
)

// TestRateJSONRoundTrip: every kind of Fieller set encodes (encoding/json
// refuses ±Inf) and reads back as the same set; a set whose flags
// contradict it is refused.
func TestRateJSONRoundTrip(t *testing.T) {
	inf := math.Inf(1)
	for _, r := range []Rate{
		{A: "a", B: "b", Value: 2, CI95: [2]float64{1, 3}, Bounded: true},
		{A: "a", B: "b", Value: -4, CI95: [2]float64{-1.5, 2.5}, Split: true},
		{A: "a", B: "b", Value: inf, CI95: [2]float64{-inf, inf}},
		{A: "a", B: "b", Value: math.NaN(), CI95: [2]float64{-inf, inf}},
	} {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		var back Rate
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		same := back.Bounded == r.Bounded && back.Split == r.Split && back.CI95 == r.CI95 &&
			(back.Value == r.Value || math.IsNaN(back.Value) && (math.IsNaN(r.Value) || math.IsInf(r.Value, 0)))
		if !same {
			t.Errorf("%+v -> %s -> %+v", r, data, back)
		}
		f := stats.FiellerRatio(0, 0, 1, 1, 0, 0.95) // the whole line
		if r.Split && !(stats.Ratio{Lo: r.CI95[0], Hi: r.CI95[1], Split: true}).Contains(r.Value) || f.Bounded {
			t.Errorf("%+v: its estimate is outside its set", r)
		}
	}
	var r Rate
	if err := json.Unmarshal([]byte(`{"a":"x","b":"y","value":1,"set":"interval","bounded":true,"split":true,"ci95":[0,2]}`), &r); err == nil || !strings.Contains(err.Error(), "not a confidence set") {
		t.Errorf("contradictory flags read without error: %v", err)
	}
}
