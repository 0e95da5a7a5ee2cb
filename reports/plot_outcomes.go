package reports

import (
	"fmt"
	"image/color"
	"math"
	"simctl/sim/msg"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/stats"
)

// ErrNoCombatants is returned for a per-combatant figure of a result
// written before simctl recorded per-combatant figures.
var ErrNoCombatants = msg.Errorf("reports: the result has no per-combatant figures (written by an older simctl; rerun it)")

// lighten blends c halfway to white: the second bar of a pair.
func lighten(c color.RGBA) color.RGBA {
	return color.RGBA{R: c.R/2 + 0x80, G: c.G/2 + 0x80, B: c.B/2 + 0x80, A: 0xFF}
}

// CombatantsFigure draws how often each combatant (each copy group: one
// bar for Hobgoblin#1..#5, the rate per copy) ended the encounter down
// (dead, dying, unconscious) and, lighter, out of the fight for any reason
// (down, fled, routed). A single combatant's bars carry 95% Wilson
// intervals; a group's do not, its copies' fates within one encounter
// being correlated, so the binomial interval over copies × encounters
// would be too narrow.
//
// Its words (titles, axes, legends, captions) are in l.
func CombatantsFigure(l i18n.Lang, r *results.Result) (*Figure, error) {
	raw := &r.Raw
	if raw.Encounters == 0 {
		return nil, ErrNoData
	}
	if len(raw.Combatants) != len(raw.Roster) || len(raw.RosterSides) != len(raw.Roster) || raw.Ended == 0 {
		return nil, ErrNoCombatants
	}
	gs := results.Groups(raw.Roster, raw.RosterSides)
	var names []string
	var bs bars
	for x, g := range gs {
		var down, out int64
		for _, i := range g.Members {
			down += raw.Combatants[i].EndedDown
			out += raw.Combatants[i].EndedDown + raw.Combatants[i].EndedGone
		}
		trials := int64(len(g.Members)) * raw.Ended
		name := g.Name
		if len(g.Members) > 1 {
			name = fmt.Sprintf("%s ×%d", g.Name, len(g.Members))
		}
		names = append(names, name)
		for k, v := range []int64{down, out} {
			col := SideColors[g.Side]
			if k == 1 {
				col = lighten(col)
			}
			b := bar{X: float64(x) + (float64(k)-0.5)*0.36, W: 0.34, Y: 100 * frac(v, trials), Color: col}
			if k == 0 {
				b.Label = figPct(l, b.Y, 0)
			}
			if len(g.Members) == 1 {
				ci := stats.Wilson95(v, trials)
				b.Lo, b.Hi, b.HasCI = 100*ci.Lo, 100*ci.Hi, true
			}
			bs = append(bs, b)
		}
	}
	title := l.T("fig.falls.title", r.Scenario,
		r.Sides[0].Name, l.Percent(r.Sides[0].AnyDeathRate, 2), r.Sides[1].Name, l.Percent(r.Sides[1].AnyDeathRate, 2))
	p := newPlot(l, title, l.T("fig.falls.x"), l.T("fig.falls.y"))
	hgrid(p)
	p.Add(bs)
	percentAxis(l, &p.Y)
	p.Y.Max = 114 // room for the legend above 100 %
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	if len(names) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	for s := 0; s < 2; s++ {
		p.Legend.Add(legendText(l, l.T("fig.falls.down", r.Sides[s].Name)), swatch{SideColors[s]})
		p.Legend.Add(legendText(l, l.T("fig.falls.out", r.Sides[s].Name)), swatch{lighten(SideColors[s])})
	}
	return &Figure{Name: "combatants", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: l.T("fig.falls.caption")}, nil
}

// DamageFigure draws the distribution of the damage each side dealt per
// encounter.
//
// Its words (titles, axes, legends, captions) are in l.
func DamageFigure(l i18n.Lang, r *results.Result) (*Figure, error) {
	if r.Raw.Encounters == 0 {
		return nil, ErrNoData
	}
	if r.Raw.Ended == 0 {
		return nil, ErrNoCombatants
	}
	hs := [2]stats.Hist{r.Raw.Damage[0].Hist(), r.Raw.Damage[1].Hist()}
	f := distFigure(l, r, hs, l.T("fig.damage.title", r.Scenario), l.T("fig.damage.x"), l.T("fig.damage.y"))
	f.Name = "damage"
	f.Caption = l.T("fig.damage.caption", l.Int(r.Raw.Ended))
	return f, nil
}

// HPLeftFigure draws how close the wins were: for each side, the
// distribution of the hit points its standing combatants had left at the
// end of the encounters it won.
//
// Its words (titles, axes, legends, captions) are in l.
func HPLeftFigure(l i18n.Lang, r *results.Result) (*Figure, error) {
	if r.Raw.Encounters == 0 {
		return nil, ErrNoData
	}
	if r.Raw.Ended == 0 {
		return nil, ErrNoCombatants
	}
	hs := [2]stats.Hist{r.Raw.WinnerHP[0].Hist(), r.Raw.WinnerHP[1].Hist()}
	f := distFigure(l, r, hs, l.T("fig.hpleft.title", r.Scenario), l.T("fig.hpleft.x"), l.T("fig.hpleft.y"))
	f.Name = "hpleft"
	f.Caption = l.T("fig.hpleft.caption")
	return f, nil
}

// distFigure draws two sides' histograms of one per-encounter figure as
// paired bars, each side as a share of its own observations. Values beyond
// the 99.9th percentile are left out of the drawing (counted in the
// title); bins widen so there are at most about 40.
func distFigure(l i18n.Lang, r *results.Result, hs [2]stats.Hist, title, xLabel, yLabel string) *Figure {
	bs, hi, width, cut, n, maxSeen, capped := distBars(hs)
	sub := ""
	for s := 0; s < 2; s++ {
		if s > 0 {
			sub += "; "
		}
		if hs[s].N == 0 {
			sub += l.T("fig.dist.none", r.Sides[s].Name)
			continue
		}
		sub += l.T("fig.dist.side", r.Sides[s].Name, hs[s].Quantile(0.5), hs[s].Quantile(0.9))
	}
	var notes []string
	switch {
	case cut > 0 && capped:
		notes = append(notes, l.T("fig.dist.capped", l.Percent(frac(cut, n), 2), hi, maxSeen))
	case cut > 0:
		notes = append(notes, l.T("fig.dist.cut", l.Percent(frac(cut, n), 2), hi))
	}
	if width > 1 {
		notes = append(notes, l.T("fig.dist.bins", width))
	}
	if len(notes) > 0 {
		sub += "\n(" + strings.Join(notes, "; ") + ")"
	}
	p := newPlot(l, title+"\n"+sub, xLabel, yLabel)
	hgrid(p)
	p.Add(bs)
	p.Y.Min = 0
	p.Y.Max *= 1.18 // room for the legend
	p.Y.Tick.Marker = niceTicks{l: l}
	p.X.Tick.Marker = niceTicks{l: l, most: 12, integer: true}
	for s := 0; s < 2; s++ {
		p.Legend.Add(legendText(l, r.Sides[s].Name), swatch{SideColors[s]})
	}
	return &Figure{W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p)}
}

// firstBothFigure draws, for each copy group, the share of encounters in
// which it (one of its copies) was the first to take an action (solid) and
// first in the initiative order (lighter), with 95% Wilson intervals (one
// group is first at most once per encounter, so these are binomial).
func firstBothFigure(l i18n.Lang, r *results.Result) *Figure {
	raw := &r.Raw
	n := raw.Encounters
	gs := results.Groups(raw.Roster, raw.RosterSides)
	var names []string
	var bs bars
	add := func(x float64, k int64, col color.RGBA, label bool) {
		ci := stats.Wilson95(k, n)
		b := bar{X: x, W: 0.34, Y: 100 * frac(k, n), Lo: 100 * ci.Lo, Hi: 100 * ci.Hi, HasCI: true, Color: col}
		if label {
			b.Label = figPct(l, b.Y, 0)
		}
		bs = append(bs, b)
	}
	for x, g := range gs {
		var act, order int64
		for _, i := range g.Members {
			act += raw.FirstActor[i]
			order += raw.FirstInOrder[i]
		}
		name := g.Name
		if len(g.Members) > 1 {
			name = fmt.Sprintf("%s ×%d", g.Name, len(g.Members))
		}
		names = append(names, name)
		add(float64(x)-0.18, act, SideColors[g.Side], true)
		add(float64(x)+0.18, order, lighten(SideColors[g.Side]), false)
	}
	if raw.NoActor > 0 || raw.NoOrder > 0 {
		x := float64(len(names))
		names = append(names, l.T("fig.nobody"))
		add(x-0.18, raw.NoActor, neutral, true)
		add(x+0.18, raw.NoOrder, lighten(neutral), false)
	}
	in := &r.Initiative
	title := l.T("fig.firstboth.title", r.Scenario,
		r.Sides[0].Name, l.Percent(in.FirstActorSide[r.Sides[0].Name], 2), r.Sides[1].Name, l.Percent(in.FirstActorSide[r.Sides[1].Name], 2),
		r.Sides[0].Name, l.Percent(in.FirstInOrderSide[r.Sides[0].Name], 2), r.Sides[1].Name, l.Percent(in.FirstInOrderSide[r.Sides[1].Name], 2))
	p := newPlot(l, title, l.T("fig.combatant"), l.T("fig.encounters_ci"))
	hgrid(p)
	p.Add(bs)
	percentAxis(l, &p.Y)
	p.Y.Max = 114 // room for the legend above 100 %
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	if len(names) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	for s := 0; s < 2; s++ {
		p.Legend.Add(legendText(l, l.T("fig.firstboth.act", r.Sides[s].Name)), swatch{SideColors[s]})
		p.Legend.Add(legendText(l, l.T("fig.firstboth.order", r.Sides[s].Name)), swatch{lighten(SideColors[s])})
	}
	return &Figure{Name: "first", W: 6.4 * vg.Inch, H: 4 * vg.Inch, draw: single(p),
		Caption: l.T("fig.firstboth.caption")}
}

// distBars bins two sides' histograms for distFigure: bars of width
// values from the smallest observation to the 99.9th percentile (at most
// the cap), each side as a share of its observations, and, when the
// percentile lies beyond the cap, one more bar with every observation
// above hi. cut counts the observations above hi, n all of them.
func distBars(hs [2]stats.Hist) (bs bars, hi, width int, cut, n, maxSeen int64, capped bool) {
	lo := math.MaxInt
	for s := 0; s < 2; s++ {
		if hs[s].N > 0 {
			lo = min(lo, hs[s].Quantile(0))
			hi = max(hi, hs[s].Quantile(0.999))
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	// Values above the histogram's cap have no bins of their own: when
	// more than 0.1% lie there (even all of them), they are drawn as one
	// bar to the right of the last bin rather than left out.
	capN := math.MaxInt
	for s := 0; s < 2; s++ {
		if len(hs[s].Counts) > 0 {
			capN = min(capN, hs[s].Cap())
		}
	}
	capped = hi > capN
	hi = min(hi, capN)
	lo = min(lo, hi)
	width = max(1, (hi-lo+40)/40)
	for s := 0; s < 2; s++ {
		h := &hs[s]
		n += h.N
		cut += h.Over
		maxSeen = max(maxSeen, h.MaxSeen)
		if h.N == 0 {
			continue
		}
		bins := make([]int64, (hi-lo)/width+1)
		above := h.Over
		for v, k := range h.Counts {
			switch {
			case v < lo:
			case v > hi:
				cut += k
				above += k
			default:
				bins[(v-lo)/width] += k
			}
		}
		if capped {
			bins = append(bins, above)
		}
		for b, k := range bins {
			x := float64(lo+b*width) + float64(width-1)/2
			bs = append(bs, bar{X: x + (float64(s)-0.5)*0.42*float64(width), W: 0.4 * float64(width),
				Y: 100 * float64(k) / float64(h.N), Color: SideColors[s]})
		}
	}
	return bs, hi, width, cut, n, maxSeen, capped
}
