package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
	"simctl/stats"
)

// TestDistBarsAnyRange: whatever the range of the observations (all
// above the histogram's cap, partly above, within, one side empty), the
// bars are drawn without a panic and account for every observation of
// each side, to 100% (the 0.1% left out when the tail is within the cap
// aside). Before, every value above the cap crashed the report
// ("makeslice: len out of range").
func TestDistBarsAnyRange(t *testing.T) {
	mk := func(capN int, vs ...int) stats.Hist {
		h := stats.NewHist(capN)
		for _, v := range vs {
			h.Add(v)
		}
		return h
	}
	rep := func(v, k int) []int {
		out := make([]int, k)
		for i := range out {
			out[i] = v
		}
		return out
	}
	cases := []struct {
		name   string
		hs     [2]stats.Hist
		capped bool
		note   string
	}{
		{"all above the cap", [2]stats.Hist{mk(100, 3000, 3050, 3100), mk(100, 2900, 3200)}, true, "100.00% above 100, up to 3200: the bar at the right"},
		{"one side above the cap", [2]stats.Hist{mk(100, 5, 7, 9), mk(100, 500, 600)}, true, "above 100, up to 600"},
		{"within the cap", [2]stats.Hist{mk(100, 5, 7, 9), mk(100, 10, 11)}, false, ""},
		{"one side empty", [2]stats.Hist{mk(100, 1000), {}}, true, "above 100, up to 1000"},
		{"both empty", [2]stats.Hist{{}, {}}, false, ""},
		{"huge values", [2]stats.Hist{mk(10, math.MaxInt32, 0), mk(10, 1<<40)}, true, "up to 1099511627776"},
		{"a long tail", [2]stats.Hist{mk(50, append(rep(10, 5000), 49)...), mk(50, 20)}, false, "not drawn"},
	}
	for _, c := range cases {
		bs, _, _, cut, n, _, capped := distBars(c.hs)
		if capped != c.capped {
			t.Errorf("%s: capped %v, want %v", c.name, capped, c.capped)
		}
		var share [2]float64
		for _, b := range bs {
			s := 0
			if b.Color == SideColors[1] {
				s = 1
			}
			share[s] += b.Y
		}
		for s := 0; s < 2; s++ {
			want := 100.0
			if c.hs[s].N == 0 {
				want = 0
			} else if !capped {
				// Observations above the 99.9th percentile are cut.
				want = 100 * (1 - float64(cut)/float64(n))
			}
			if c.hs[s].N > 0 && !capped && cut > 0 {
				continue // the cut falls on one side; checked by the note
			}
			if math.Abs(share[s]-want) > 1e-9 {
				t.Errorf("%s: side %d's bars sum to %v%%, want %v%%", c.name, s, share[s], want)
			}
		}
		r := &results.Result{Sides: []results.SideResult{{Name: "heroes"}, {Name: "monsters"}}}
		f := distFigure(i18n.En, r, c.hs, "t", "x", "y")
		var b bytes.Buffer
		if err := f.SVG(&b); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if c.note != "" && !strings.Contains(b.String(), c.note) {
			t.Errorf("%s: the figure does not say %q", c.name, c.note)
		}
	}
}
