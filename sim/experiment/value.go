package experiment

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim"
	"simctl/sim/dice"
	"simctl/sim/msg"
	"simctl/sim/scenario"
	"simctl/stats"
)

// SideFields are the short parameter names of an exchange-rate experiment:
// each steps that field of every combatant of the chosen side. Any other
// parameter is a scenario path, as for --set.
var SideFields = map[string]string{
	"init":   "init",
	"hp":     "hp",
	"ac":     "ac",
	"attack": "attacks",
	"damage": "damage",
}

// SideFieldNames lists SideFields' keys in documentation order.
var SideFieldNames = []string{"init", "hp", "ac", "attack", "damage"}

// fieldDefaults are the values of side fields a scenario may leave out.
var fieldDefaults = map[string]string{"init": "0"}

// Param is one quantity an experiment steps down and up by Step from its
// value in the scenario.
type Param struct {
	Name  string  // as the user named it: "init", or a scenario path
	Step  float64 // the step h, in the field's own units
	Paths []string
	// Down and Up are the --set overrides that move every path by -h and
	// +h (on top of the run's own --set).
	Down, Up []scenario.Set
}

// NewParam builds the overrides for parameter name stepped by step. name is
// one of SideFieldNames (every combatant of side) or a scenario path. The
// current values are read from the scenario data with the run's sets
// applied; a whole-number field takes whole steps only.
func NewParam(data []byte, sets []scenario.Set, sc *scenario.Scenario, side, name string, step float64) (Param, error) {
	if !(step > 0) || math.IsInf(step, 0) {
		return Param{}, msg.Errorf("parameter %s: the step must be a positive number, got %v", name, step)
	}
	p := Param{Name: name, Step: step}
	if field, ok := SideFields[name]; ok {
		si := -1
		var names []string
		for i, s := range sc.Sides {
			names = append(names, s.Name)
			if s.Name == side {
				si = i
			}
		}
		if si < 0 {
			return Param{}, msg.Errorf("no side %q%s; sides: %s", side, scenario.Suggest(side, names), strings.Join(names, ", "))
		}
		for _, c := range sc.Sides[si].Combatants {
			p.Paths = append(p.Paths, side+"."+c.Name+"."+field)
		}
	} else if strings.Contains(name, ".") {
		p.Paths = []string{name}
	} else {
		return Param{}, msg.Errorf("unknown parameter %q%s: give one of %s, or a scenario path such as heroes.Fighter.init",
			name, scenario.Suggest(name, SideFieldNames), strings.Join(SideFieldNames, ", "))
	}
	for _, path := range p.Paths {
		cur, ok, err := scenario.ValueAt(data, sets, path)
		if err != nil {
			return Param{}, msg.Errorf("parameter %s: %v", name, err)
		}
		if !ok {
			def, has := fieldDefaults[path[strings.LastIndexByte(path, '.')+1:]]
			if !has {
				return Param{}, msg.Errorf("parameter %s: %s is not set in the scenario, so there is no value to step from", name, path)
			}
			cur = def
		}
		down, err := shift(cur, -step)
		if err == nil {
			var up string
			up, err = shift(cur, step)
			p.Up = append(p.Up, scenario.Set{Path: path, Value: up})
		}
		if err != nil {
			return Param{}, msg.Errorf("parameter %s: %s = %s: %v", name, path, cur, err)
		}
		p.Down = append(p.Down, scenario.Set{Path: path, Value: down})
	}
	return p, nil
}

// shift returns value moved by h: an integer (h must be whole), a decimal
// number, a dice expression (its constant moves), or a list of integers
// (each moves: a full-attack bonus list).
func shift(value string, h float64) (string, error) {
	whole := h == math.Trunc(h)
	if strings.HasPrefix(strings.TrimSpace(value), "[") {
		var list []int
		if err := yaml.Unmarshal([]byte(value), &list); err != nil {
			return "", msg.Errorf("a list that is not whole numbers cannot be stepped")
		}
		if !whole {
			return "", msg.Errorf("a whole-number field takes whole steps, not %v", math.Abs(h))
		}
		parts := make([]string, len(list))
		for i, v := range list {
			parts[i] = strconv.Itoa(v + int(h))
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	if v, err := strconv.Atoi(value); err == nil {
		if !whole {
			return "", msg.Errorf("a whole-number field takes whole steps, not %v", math.Abs(h))
		}
		return strconv.Itoa(v + int(h)), nil
	}
	if v, err := strconv.ParseFloat(value, 64); err == nil {
		return strconv.FormatFloat(v+h, 'f', -1, 64), nil
	}
	e, err := dice.Parse(value)
	if err != nil {
		return "", msg.Errorf("not a number, a list of numbers or a dice expression")
	}
	if !whole {
		return "", msg.Errorf("a dice expression takes whole steps, not %v", math.Abs(h))
	}
	return e.Plus(int(h)).String(), nil
}

// Games lists the overrides of every game Value plays, in its order: the
// base, then each parameter's down and up steps.
func Games(params []Param) [][]scenario.Set {
	out := [][]scenario.Set{nil}
	for _, p := range params {
		out = append(out, p.Down, p.Up)
	}
	return out
}

// Effect is one parameter's marginal effect on a side's win rate.
type Effect struct {
	Param string  `json:"param"`
	Step  float64 `json:"step"`
	// WinRate at value-step, value, value+step.
	WinRate [3]float64 `json:"win_rate"`
	// PerUnit is the central difference (W(+h) - W(-h)) / 2h: win-rate
	// points (as a fraction) per unit of the parameter, with its paired
	// standard error and 95% interval (stats.PairedCI of the up game
	// against the down game, over 2h: exact when few encounters differ).
	PerUnit float64    `json:"per_unit"`
	SE      float64    `json:"se"`
	CI95    [2]float64 `json:"ci95"`
}

// Rate is what one unit of parameter A is worth in units of parameter B:
// the ratio of their effects, with Fieller's 95% confidence set. When
// Bounded the set is [CI95[0], CI95[1]]; when Split it is the two rays
// (-∞, CI95[0]] and [CI95[1], +∞) (CI95 holds the ends of the excluded
// gap); otherwise every value. Value is ±Inf or NaN when B's effect
// estimate is exactly 0. Its JSON form (value_json.go) makes the set
// explicit and always encodes.
type Rate struct {
	A       string     `json:"a"`
	B       string     `json:"b"`
	Value   float64    `json:"value"`
	CI95    [2]float64 `json:"ci95"`
	Bounded bool       `json:"bounded"`
	Split   bool       `json:"split"`
	// NeededN is an estimate of the encounters that would make the interval
	// ±25% of the rate, when it is wider than that (0 otherwise).
	NeededN int64 `json:"needed_encounters,omitempty"`
}

// ValueResult is an exchange-rate experiment's outcome for one side.
type ValueResult struct {
	Side       string   `json:"side"`
	Encounters int64    `json:"encounters"`
	Effects    []Effect `json:"effects"`
	Rates      []Rate   `json:"rates"`
	Warnings   []string `json:"warnings,omitempty"`
	// WarningsMsg is Warnings as messages, for a front end that prints
	// them in the user's language (results.Value stores them as
	// warnings_msg; this JSON keeps the English).
	WarningsMsg []msg.Text `json:"-"`
	// Joint holds the exact sums every figure is computed from: the win
	// indicators of the side in every game (base, then each parameter's
	// down and up), so shards merge exactly.
	Joint stats.Joint `json:"joint"`
}

// Value plays games (built from Games(params): the base, then each
// parameter's down and up steps) on common random numbers and computes
// each parameter's marginal effect on side's win rate and the exchange
// rates between every pair of parameters. A cancelled run returns what
// finished with ctx's error.
func Value(ctx context.Context, games []sim.Game, params []Param, side int, sideName string, cfg sim.RunConfig) (*ValueResult, *CRN, error) {
	if len(games) != 1+2*len(params) {
		panic(fmt.Sprintf("experiment: Value with %d games for %d parameters", len(games), len(params)))
	}
	crn, err := RunCRN(ctx, games, cfg)
	res := Analyse(crn.Wins[side], params, sideName)
	return res, crn, err
}

// Analyse computes effects and rates from the joint win indicators of the
// base and each parameter's down and up games (in Games order).
func Analyse(j stats.Joint, params []Param, sideName string) *ValueResult {
	const conf = 0.95
	z := stats.Z(conf)
	res := &ValueResult{Side: sideName, Encounters: j.N, Joint: j}
	contrast := make([][]float64, len(params))
	for i, p := range params {
		c := make([]float64, j.K)
		c[1+2*i], c[2+2*i] = -1/(2*p.Step), 1/(2*p.Step)
		contrast[i] = c
		e := Effect{Param: p.Name, Step: p.Step,
			WinRate: [3]float64{j.Mean(1 + 2*i), j.Mean(0), j.Mean(2 + 2*i)},
			PerUnit: j.Contrast(c), SE: math.Sqrt(j.ContrastCov(c, c))}
		// The effect is the paired difference of the up and down games
		// over 2h: its interval is stats.PairedCI's (the normal one
		// PerUnit ± z·SE unless few encounters differ, then the exact one).
		ci := stats.PairedCI(j.Paired(2+2*i, 1+2*i), conf)
		e.CI95 = [2]float64{ci.Lo / (2 * p.Step), ci.Hi / (2 * p.Step)}
		res.Effects = append(res.Effects, e)
		if e.CI95[0] <= 0 && 0 <= e.CI95[1] {
			res.warn(msg.New("the effect of %s is not distinguishable from 0 at %d encounters%s",
				p.Name, j.N, neededFor(j.N, e.PerUnit, e.SE, z, 0.5)))
		}
	}
	// Fieller's set rests on the effects' normal variances. An effect
	// whose up and down games differ on few encounters has a normal
	// variance that understates it (0 when none differ, which would make
	// a zero-width set); there its variance is raised to the one its
	// exact interval implies, ((hi - lo)/2z)², which keeps the covariance
	// matrix positive semi-definite and only widens the set.
	effVar := make([]float64, len(params))
	for i, e := range res.Effects {
		effVar[i] = j.ContrastCov(contrast[i], contrast[i])
		if p := j.Paired(2+2*i, 1+2*i); p.Binary() && p.SumD2 < stats.PairedExactBelow {
			effVar[i] = math.Max(effVar[i], math.Pow((e.CI95[1]-e.CI95[0])/(2*z), 2))
		}
	}
	for a := range params {
		for b := range params {
			if a == b {
				continue
			}
			ea, eb := res.Effects[a], res.Effects[b]
			f := stats.FiellerRatio(ea.PerUnit, eb.PerUnit,
				effVar[a], effVar[b], j.ContrastCov(contrast[a], contrast[b]), conf)
			r := Rate{A: ea.Param, B: eb.Param, Value: f.Value, CI95: [2]float64{f.Lo, f.Hi}, Bounded: f.Bounded, Split: f.Split}
			if f.Bounded && !math.IsNaN(f.Value) {
				// The estimate solves the Fieller inequality with
				// equality on the left, so it is in the set; only
				// rounding could put it a hair outside.
				r.CI95 = [2]float64{math.Min(f.Lo, f.Value), math.Max(f.Hi, f.Value)}
			}
			if !f.Bounded || f.Hi-f.Lo > 0.5*math.Abs(f.Value) {
				// The delta method's variance of the ratio, for the size of
				// run that would make it readable (±25%).
				v := (ea.SE*ea.SE - 2*f.Value*j.ContrastCov(contrast[a], contrast[b]) + f.Value*f.Value*eb.SE*eb.SE) / (eb.PerUnit * eb.PerUnit)
				if target := 0.25 * math.Abs(f.Value); target > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
					r.NeededN = int64(math.Ceil(float64(j.N) * z * z * v / (target * target)))
				}
			}
			res.Rates = append(res.Rates, r)
		}
	}
	for _, r := range res.Rates {
		if r.A > r.B { // each pair once
			continue
		}
		switch {
		case r.Split:
			res.warn(msg.New("1 %s in units of %s: no finite interval at %d encounters, only two rays (at most %s or at least %s: the effect of %s may be of either sign)%s",
				r.A, r.B, j.N, strconv.FormatFloat(r.CI95[0], 'g', 3, 64), strconv.FormatFloat(r.CI95[1], 'g', 3, 64), r.B, needed(r.NeededN)))
		case !r.Bounded:
			res.warn(msg.New("1 %s in units of %s: no finite interval at %d encounters (the effect of %s is too uncertain)%s",
				r.A, r.B, j.N, r.B, needed(r.NeededN)))
		case r.NeededN > 0:
			res.warn(msg.New("1 %s in units of %s: the interval is wider than ±25%% of the rate%s", r.A, r.B, needed(r.NeededN)))
		}
	}
	return res
}

// neededFor says how many encounters would make an effect of this size
// stand out (its interval half as wide as the effect, i.e. about 4 SE).
func neededFor(n int64, effect, se, z, frac float64) msg.Text {
	if effect == 0 || math.IsInf(se, 0) {
		return msg.Text{}
	}
	return needed(int64(math.Ceil(float64(n) * math.Pow(z*se/(frac*math.Abs(effect)), 2))))
}

func needed(n int64) msg.Text {
	if n <= 0 {
		return msg.Text{}
	}
	return msg.New("; about %s encounters would resolve it (-n %d)", humanCount(n), n)
}

// warn records a warning, in English and as a message.
func (res *ValueResult) warn(t msg.Text) {
	res.Warnings = append(res.Warnings, t.String())
	res.WarningsMsg = append(res.WarningsMsg, t)
}

func humanCount(n int64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%.0fM", float64(n)/1e6)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return strconv.FormatInt(n, 10)
}
