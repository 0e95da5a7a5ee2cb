package experiment

import (
	"math"
	"sort"

	"simctl/stats"
)

// Swing is one parameter's one-at-a-time effect on a side's win rate: the
// change when it steps down and when it steps up, each against the base on
// the same dice, with paired 95% intervals (stats.PairedCI: exact on the
// discordant encounters when fewer than stats.PairedExactBelow differ, so
// a step that changes few fights never gets a zero-width interval).
type Swing struct {
	Param   string     `json:"param"`
	Step    float64    `json:"step"`
	WinRate [3]float64 `json:"win_rate"` // at value-step, value, value+step
	Down    float64    `json:"down"`     // W(value-step) - W(value)
	Up      float64    `json:"up"`       // W(value+step) - W(value)
	DownCI  [2]float64 `json:"down_ci95"`
	UpCI    [2]float64 `json:"up_ci95"`
}

// Size is the larger of the two swings' magnitudes: the tornado's order.
func (s Swing) Size() float64 { return math.Max(math.Abs(s.Down), math.Abs(s.Up)) }

// Sensitivity is a tornado: every parameter's swings, largest first.
type Sensitivity struct {
	Side       string      `json:"side"`
	Encounters int64       `json:"encounters"`
	Swings     []Swing     `json:"swings"`
	Joint      stats.Joint `json:"joint"`
}

// Swings computes the tornado from the joint win indicators of the base
// and each parameter's down and up games (in Games order). Ties in size
// keep the parameters' order, so the result is deterministic.
func Swings(j stats.Joint, params []Param, sideName string) *Sensitivity {
	res := &Sensitivity{Side: sideName, Encounters: j.N, Joint: j}
	for i, p := range params {
		down, up := j.Paired(1+2*i, 0), j.Paired(2+2*i, 0)
		dci, uci := stats.PairedCI(down, 0.95), stats.PairedCI(up, 0.95)
		res.Swings = append(res.Swings, Swing{
			Param: p.Name, Step: p.Step,
			WinRate: [3]float64{j.Mean(1 + 2*i), j.Mean(0), j.Mean(2 + 2*i)},
			Down:    down.Diff(), Up: up.Diff(),
			DownCI: [2]float64{dci.Lo, dci.Hi}, UpCI: [2]float64{uci.Lo, uci.Hi},
		})
	}
	sort.SliceStable(res.Swings, func(a, b int) bool { return res.Swings[a].Size() > res.Swings[b].Size() })
	return res
}
