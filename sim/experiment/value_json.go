package experiment

import (
	"encoding/json"
	"math"

	"simctl/sim/msg"
	"simctl/stats"
)

// The JSON forms of Effect and Rate. encoding/json refuses ±Inf and NaN,
// and an exchange rate's Fieller set is often not a finite interval, so
// these documents say what the set is instead of failing to encode:
//
//	"set": "interval", "bounded": true,  "split": false, "ci95": [lo, hi]
//	"set": "two rays", "bounded": false, "split": true,  "ci95": null,
//	     "rays": [[null, lo], [hi, null]]   (null: -∞ or +∞; the rate is ≤ lo or ≥ hi)
//	"set": "every value", "bounded": false, "split": false, "ci95": null
//
// and "value" is null when the effect it divides by is exactly 0 (no
// finite estimate). A finite value always lies in the set. Any other
// figure that is undefined (a standard error with fewer than two
// encounters) is null, and null reads back as NaN.

// num is stats.Num: a float64 whose JSON is null when it is not finite.
type num = stats.Num

// Set names for Rate's JSON "set".
const (
	SetInterval = "interval"
	SetRays     = "two rays"
	SetAll      = "every value"
)

type rateJSON struct {
	A       string     `json:"a"`
	B       string     `json:"b"`
	Value   num        `json:"value"`
	Set     string     `json:"set"`
	Bounded bool       `json:"bounded"`
	Split   bool       `json:"split"`
	CI95    *[2]num    `json:"ci95"`
	Rays    *[2][2]num `json:"rays,omitempty"`
	NeededN int64      `json:"needed_encounters,omitempty"`
}

// MarshalJSON writes the rate with its confidence set made explicit (see
// above); it never fails on an unbounded or split set.
func (r Rate) MarshalJSON() ([]byte, error) {
	j := rateJSON{A: r.A, B: r.B, Value: num(r.Value), Bounded: r.Bounded, Split: r.Split, NeededN: r.NeededN}
	switch {
	case r.Bounded:
		j.Set, j.CI95 = SetInterval, &[2]num{num(r.CI95[0]), num(r.CI95[1])}
	case r.Split:
		inf := num(math.Inf(1))
		j.Set, j.Rays = SetRays, &[2][2]num{{-inf, num(r.CI95[0])}, {num(r.CI95[1]), inf}}
	default:
		j.Set = SetAll
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes, and refuses a set that
// does not match its flags (a damaged file).
func (r *Rate) UnmarshalJSON(b []byte) error {
	var j rateJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Rate{A: j.A, B: j.B, Value: float64(j.Value), Bounded: j.Bounded, Split: j.Split, NeededN: j.NeededN}
	inf := math.Inf(1)
	switch {
	case j.Bounded && !j.Split && j.CI95 != nil:
		r.CI95 = [2]float64{float64(j.CI95[0]), float64(j.CI95[1])}
	case j.Split && !j.Bounded && j.Rays != nil:
		r.CI95 = [2]float64{float64(j.Rays[0][1]), float64(j.Rays[1][0])}
	case !j.Bounded && !j.Split:
		r.CI95 = [2]float64{-inf, inf}
	default:
		return msg.Errorf("exchange rate %s in units of %s: set %q with bounded %v and split %v is not a confidence set simctl writes", j.A, j.B, j.Set, j.Bounded, j.Split)
	}
	return nil
}

type effectJSON struct {
	Param   string  `json:"param"`
	Step    float64 `json:"step"`
	WinRate [3]num  `json:"win_rate"`
	PerUnit num     `json:"per_unit"`
	SE      num     `json:"se"`
	CI95    [2]num  `json:"ci95"`
}

// MarshalJSON writes undefined figures (SE with fewer than two
// encounters) as null instead of failing.
func (e Effect) MarshalJSON() ([]byte, error) {
	return json.Marshal(effectJSON{Param: e.Param, Step: e.Step,
		WinRate: [3]num{num(e.WinRate[0]), num(e.WinRate[1]), num(e.WinRate[2])},
		PerUnit: num(e.PerUnit), SE: num(e.SE), CI95: [2]num{num(e.CI95[0]), num(e.CI95[1])}})
}

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (e *Effect) UnmarshalJSON(b []byte) error {
	var j effectJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Effect{Param: j.Param, Step: j.Step,
		WinRate: [3]float64{float64(j.WinRate[0]), float64(j.WinRate[1]), float64(j.WinRate[2])},
		PerUnit: float64(j.PerUnit), SE: float64(j.SE), CI95: [2]float64{float64(j.CI95[0]), float64(j.CI95[1])}}
	return nil
}
