package cavaliers

import (
	"context"
	"fmt"
	"math"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// Exact initiative tests. The exact figures are computed here from the
// dice alone, by enumerating every face of every die of the pool (d8+2d6
// has 288 equally likely outcomes, d10+d8+d6 480), independently of the
// package's code; the simulator is then sampled at a fixed seed and every
// estimate must fall within 4 standard errors of the exact value,
// SE = sqrt(p(1-p)/N) for a probability p estimated from N samples (for a
// mean, sqrt(var/N)). At N = 200,000 the SE of a probability near 1/2 is
// 0.0011.

// outcome is one joint value of (total, [+]) with its probability.
type outcome struct{ total, raises int }

// enumerate is the exact joint distribution of (total, [+]) of a pool.
func enumerate(dice []int, raiseOn int) map[outcome]float64 {
	out := map[outcome]float64{}
	var rec func(k, total, raises int, p float64)
	rec = func(k, total, raises int, p float64) {
		if k == len(dice) {
			out[outcome{total, raises}] += p
			return
		}
		for v := 1; v <= dice[k]; v++ {
			r := raises
			if v >= raiseOn {
				r++
			}
			rec(k+1, total+v, r, p/float64(dice[k]))
		}
	}
	rec(0, 0, 0, 1)
	return out
}

const duelYAML = `ruleset: cavaliers
max_rounds: 1
options: {raise_on: %d, init_ties: %s}
sides:
  - name: a
    combatants:
      - {name: A, specialty: impulse, attribute: d8, pool: 2d6, hp: 100, attack: "1", defence: "5", damage: "1", policy: script}
  - name: b
    combatants:
      - {name: B, specialty: timing, attribute: d10, pool: d8+d6, hp: 100, attack: "1", defence: "5", damage: "1", policy: script}
`

func within(t *testing.T, what string, got, want, se float64) {
	t.Helper()
	if math.Abs(got-want) > 4*se+1e-12 {
		t.Errorf("%s: simulated %.5f, exact %.5f, off by %.1f SE (SE %.5f)", what, got, want, math.Abs(got-want)/se, se)
	}
}

func TestInitiativeDistributionExact(t *testing.T) {
	const n = 200_000
	for _, raiseOn := range []int{6, 5} {
		g := compile(t, fmt.Sprintf(duelYAML, raiseOn, "random"))
		tb := g.NewTable().(*Table)
		c := sim.NewCounts(len(g.Counters()))
		tb.r, tb.c = rng.New(20240601, uint64(raiseOn)), &c
		for i, dice := range [][]int{{8, 6, 6}, {10, 8, 6}} {
			if got := g.C[i].Pool.Dice; fmt.Sprint(got) != fmt.Sprint(dice) {
				t.Fatalf("pool of %s is %v, want %v", g.C[i].Name, got, dice)
			}
			exact := enumerate(dice, raiseOn)
			pTotal, pRaises := map[int]float64{}, map[int]float64{}
			mean := 0.0
			for o, p := range exact {
				pTotal[o.total] += p
				pRaises[o.raises] += p
				mean += float64(o.raises) * p
			}
			variance := 0.0
			for r, p := range pRaises {
				variance += p * (float64(r) - mean) * (float64(r) - mean)
			}
			simTotal, simRaises := map[int]int{}, map[int]int{}
			sum := 0
			for range n {
				tb.rollInitiative(i)
				f := &tb.f[i]
				simTotal[f.total]++
				simRaises[f.raises]++
				sum += f.raises
			}
			for v := range simTotal {
				if pTotal[v] == 0 {
					t.Errorf("raise_on %d %s: total %d is impossible but was rolled", raiseOn, g.C[i].Pool, v)
				}
			}
			for v, p := range pTotal {
				within(t, fmt.Sprintf("raise_on %d %s: P(total=%d)", raiseOn, g.C[i].Pool, v), float64(simTotal[v])/n, p, math.Sqrt(p*(1-p)/n))
			}
			for r, p := range pRaises {
				within(t, fmt.Sprintf("raise_on %d %s: P([+]=%d)", raiseOn, g.C[i].Pool, r), float64(simRaises[r])/n, p, math.Sqrt(p*(1-p)/n))
			}
			within(t, fmt.Sprintf("raise_on %d %s: mean [+]", raiseOn, g.C[i].Pool), float64(sum)/n, mean, math.Sqrt(variance/n))
			if raiseOn == 6 && i == 0 {
				// Spot check of the enumeration itself: P(no [+]) for d8+2d6
				// is 5/8 * 5/6 * 5/6.
				if p := pRaises[0]; math.Abs(p-125.0/288) > 1e-12 {
					t.Fatalf("enumeration: P([+]=0) = %v, want 125/288", p)
				}
			}
		}
	}
}

// pBefore is the exact probability that A ranks before B under a tie rule:
// the higher total; on equal totals the rule, and where the rule does not
// decide, an even chance (the random key).
func pBefore(ties string, raiseOn int) float64 {
	a, b := enumerate([]int{8, 6, 6}, raiseOn), enumerate([]int{10, 8, 6}, raiseOn)
	p := 0.0
	for x, px := range a {
		for y, py := range b {
			w := px * py
			switch {
			case x.total > y.total:
				p += w
			case x.total < y.total:
			case ties == "attribute": // d8 against d10: B first
			case ties == "raises" && x.raises != y.raises:
				if x.raises > y.raises {
					p += w
				}
			default:
				p += w / 2
			}
		}
	}
	return p
}

func TestRankBeforeExact(t *testing.T) {
	const n = 200_000
	for k, ties := range []string{"random", "attribute", "raises"} {
		g := compile(t, fmt.Sprintf(duelYAML, 6, ties))
		tb := g.NewTable().(*Table)
		c := sim.NewCounts(len(g.Counters()))
		tb.r, tb.c = rng.New(99, uint64(k)), &c
		first := 0
		for range n {
			tb.rank = tb.rank[:0]
			tb.enter(1)
			if tb.rank[0] == 0 {
				first++
			}
		}
		p := pBefore(ties, 6)
		within(t, "init_ties "+ties+": P(A ranks before B)", float64(first)/n, p, math.Sqrt(p*(1-p)/n))
	}
	// The tie rule must matter here, or the test above could not tell them apart.
	if r, a := pBefore("random", 6), pBefore("attribute", 6); r-a < 0.02 {
		t.Fatalf("exact P(A before B): random %.4f, attribute %.4f: too close to test the tie rule", r, a)
	}
}

// The whole runner: the first actor of a duel (no seizing) is the one
// ranked first, counted in the tally over sim.Run's workers.
func TestFirstActorThroughRunner(t *testing.T) {
	const n = 40_000
	g := compile(t, fmt.Sprintf(duelYAML, 6, "random"))
	tally, err := sim.Run(context.Background(), g, sim.RunConfig{Seed: 5, N: n, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := pBefore("random", 6)
	within(t, "runner: P(A acts first)", float64(tally.FirstActor[0])/n, p, math.Sqrt(p*(1-p)/n))
	if tally.FirstActor[0]+tally.FirstActor[1] != n {
		t.Errorf("first actors %v do not add up to %d", tally.FirstActor, n)
	}
	// Raises counted per side: mean [+] of d8+2d6 is 3/8 + 2/6.
	mean := 3.0/8 + 2.0/6
	sd := math.Sqrt(3.0/8*5/8 + 2*(1.0/6*5/6))
	within(t, "runner: mean [+] of A", float64(tally.Counts.Get(0, Raises))/n, mean, sd/math.Sqrt(n))
}
