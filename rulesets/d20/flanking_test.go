package d20

// position: (a rear rank) and flanking (issue 34 items 12, 13).

import (
	"strings"
	"testing"

	"simctl/sim"
	"simctl/sim/rng"
)

// rogueYAML: the rogue question. A Fighter in front and a Rogue behind it
// (rogue's position), two Orcs 30 ft away going for the Rogue.
func rogueYAML(opts, rogue string) string {
	return `
name: rogue question
ruleset: d20
max_rounds: 1
distance: 30
options: {` + opts + `}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, ` + tough + `, initiative_roll: 1, policy: {name: test-script, do: idle}}
      - {name: Rogue, ` + tough + `, initiative_roll: 2, ` + rogue + ` policy: {name: test-script, do: idle}}
  - name: orcs
    combatants:
      - {name: Orc, ` + tough + `, speed: 30, count: 2, initiative_roll: 10, policy: {name: test-script, target: Rogue}}
`
}

// position: feet behind the side's front line. With the Rogue 10 ft
// behind the Fighter, an Orc going for the Rogue meets the Fighter first
// (no one passes an enemy on the line) and engages it; with both on the
// line the Orcs reach the Rogue.
func TestPositionRearRank(t *testing.T) {
	r := play(t, g(t, rogueYAML("", "position: 10,")), 1)
	if x := r.tb.f[r.idx("Rogue")].x; x != -10 {
		t.Errorf("the Rogue starts at %d ft, want -10 (10 ft behind the line at 0)", x)
	}
	if len(r.grep(r.round(1), "move * Fighter rule=blocked")) != 2 || len(r.grep(r.round(1), "attack * Fighter")) != 2 {
		t.Errorf("both Orcs should engage the Fighter in the Rogue's way\n%s", r.dump())
	}
	if got := r.grep(r.ev, "attack * Rogue"); len(got) != 0 {
		t.Errorf("attacks on the Rogue behind the Fighter: %v", got)
	}
	r = play(t, g(t, rogueYAML("", "")), 1)
	if len(r.grep(r.round(1), "attack * Rogue")) != 2 {
		t.Errorf("with both on the line the Orcs should reach the Rogue\n%s", r.dump())
	}
	// Side 1's rear: distance + position.
	src := strings.Replace(rogueYAML("", ""), "count: 2,", "count: 2, position: 15,", 1)
	r = play(t, g(t, src), 1)
	if !strings.Contains(r.dump(), "Orc#2 (side 1) hp 1000, ac 10, at 45 ft") {
		t.Errorf("Orc#2 should start at 45 ft\n%s", r.dump())
	}
	_, err := loadAndCompile(strings.Replace(rogueYAML("", ""), "count: 2,", "count: 2, position: 12,", 1))
	if err == nil || !strings.Contains(err.Error(), "position 12 is not a multiple of 5 feet") {
		t.Errorf("position 12: %v", err)
	}
}

// flankYAML: Fighter and Rogue (side a, attack +10) both 5 ft from the
// Orc (idle, AC 10): with flanking: two each attack is flanking.
func flankYAML(opts string) string {
	return `
name: flank
ruleset: d20
max_rounds: 1
distance: 5
options: {` + opts + `}
sides:
  - name: a
    combatants:
      - {name: Fighter, hp: 1000, ac: 10, attacks: [10], damage: 1, crit: none, initiative_roll: 20, policy: {name: test-script}}
      - {name: Rogue, hp: 1000, ac: 10, attacks: [10], damage: 1, crit: none, initiative_roll: 15, policy: {name: test-script}}
  - name: b
    combatants:
      - {name: Orc, hp: 1000, ac: 10, attacks: [10], damage: 1, crit: none, initiative_roll: 10, policy: {name: test-script}}
`
}

// "When making a melee attack, you get a +2 flanking bonus if your
// opponent is threatened by a character or creature friendly to you on
// the opponent's opposite border": flanking: line reads "opposite" along
// the line, so two attackers on the same side of the Orc do not flank it
// (+10, +10); flanking: two, the table reading, gives both +2 (+12, +12);
// the Orc, threatened by two, is flanked; its own attack, with no ally,
// is not (+10).
func TestFlankingBonus(t *testing.T) {
	for _, tc := range []struct {
		opts    string
		bonus   int
		flanked bool
	}{
		{"", 10, false},
		{"flanking: line", 10, false},
		{"flanking: two", 12, true},
	} {
		r := play(t, g(t, flankYAML(tc.opts)), 1)
		sw := swings(r.round(1))
		if len(sw) != 3 || sw[0].bonus != tc.bonus || sw[1].bonus != tc.bonus || sw[2].who != "Orc" || sw[2].bonus != 10 {
			t.Errorf("%q: attacks %+v; want Fighter and Rogue at %+d, the Orc at +10", tc.opts, sw, tc.bonus)
		}
		O, F := r.idx("Orc"), r.idx("Fighter")
		if r.tb.Flanked(O) != tc.flanked || r.tb.Flanks(F, O) != tc.flanked || r.tb.Flanked(F) {
			t.Errorf("%q: Orc flanked %v, Fighter flanks it %v, Fighter flanked %v", tc.opts, r.tb.Flanked(O), r.tb.Flanks(F, O), r.tb.Flanked(F))
		}
	}
}

// The line reading: an ally threatening the defender from its far side.
// Positions are set by hand (the line model never walks anyone past an
// enemy): Fighter at 0, Orc at 5, Rogue at 10.
func TestFlankingOnTheLine(t *testing.T) {
	gm := g(t, flankYAML(""))
	tb := gm.NewTable().(*Table)
	c := sim.NewCounts(len(gm.Counters()))
	tb.r, tb.c = rng.New(1, 0), &c
	tb.setup()
	F, R, O := 0, 1, 2
	tb.f[F].x, tb.f[O].x, tb.f[R].x = 0, 5, 10
	tb.moved(F)
	tb.moved(R)
	if !tb.Flanks(F, O) || !tb.Flanks(R, O) || !tb.Flanked(O) {
		t.Errorf("Fighter and Rogue on both sides of the Orc: flanks %v %v, flanked %v", tb.Flanks(F, O), tb.Flanks(R, O), tb.Flanked(O))
	}
	// The Rogue 10 ft past the Orc no longer threatens it (reach 5).
	tb.f[R].x = 15
	tb.moved(R)
	if tb.Flanks(F, O) || tb.Flanked(O) {
		t.Errorf("the Rogue out of reach still flanks")
	}
	// WouldFlank: the Fighter 20 ft away would attack from 0 (5 ft short
	// of the Orc) with the Rogue on the far side again.
	tb.f[R].x, tb.f[F].x = 10, -15
	tb.moved(R)
	tb.moved(F)
	if tb.Flanks(F, O) || !tb.WouldFlank(F, O) {
		t.Errorf("Fighter 20 ft off: flanks %v (want false), would flank %v (want true)", tb.Flanks(F, O), tb.WouldFlank(F, O))
	}
}
