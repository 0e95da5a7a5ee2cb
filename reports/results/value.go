package results

import (
	"simctl/sim/experiment"
	"simctl/sim/msg"
	"simctl/stats"
)

// Value is the document `simctl value` writes: each parameter's marginal
// effect on one side's win rate, the exchange rates between them, and the
// one-at-a-time swings (the tornado), all from one run on common random
// numbers. Joint holds the exact sums every figure comes from.
type Value struct {
	Header
	Side       string              `json:"side"`
	Encounters int64               `json:"encounters"`
	Params     []ValueParam        `json:"params"`
	Effects    []experiment.Effect `json:"effects"`
	Rates      []experiment.Rate   `json:"rates"`
	Swings     []experiment.Swing  `json:"swings"`
	Warnings   []string            `json:"warnings,omitempty"`
	// WarningsMsg is Warnings as messages, to translate (message.go).
	WarningsMsg []Message   `json:"warnings_msg,omitempty"`
	Joint       stats.Joint `json:"joint"`
}

// ValueParam records what a parameter moved: the --set overrides of its
// down and up steps.
type ValueParam struct {
	Name string   `json:"name"`
	Step float64  `json:"step"`
	Down []string `json:"down"`
	Up   []string `json:"up"`
}

// NewValue records in v the figures the experiment computed from its joint
// win indicators of v.Side: res is experiment.Analyse's, swings
// experiment.Swings' (v's header fields are the caller's). A document
// holds results; it computes none.
func NewValue(v *Value, params []experiment.Param, res *experiment.ValueResult, swings *experiment.Sensitivity) {
	v.Kind = "value"
	j := res.Joint
	v.Encounters, v.Effects, v.Rates, v.Joint = j.N, res.Effects, res.Rates, j
	v.Warnings, v.WarningsMsg = nil, nil
	for i, w := range res.Warnings {
		t := msg.New("%s", w)
		if i < len(res.WarningsMsg) {
			t = res.WarningsMsg[i]
		}
		AddWarning(&v.Warnings, &v.WarningsMsg, t)
	}
	v.Swings = swings.Swings
	v.Params = nil
	for _, p := range params {
		vp := ValueParam{Name: p.Name, Step: p.Step}
		for _, s := range p.Down {
			vp.Down = append(vp.Down, s.String())
		}
		for _, s := range p.Up {
			vp.Up = append(vp.Up, s.String())
		}
		v.Params = append(v.Params, vp)
	}
	if v.Interrupted {
		addWarning(&v.Warnings, &v.WarningsMsg, "interrupted: the figures cover only the encounters that finished")
	}
}
