package d20

import (
	"strings"
	"testing"
)

// SRD Rogue, Sneak Attack: "Basically, the rogue's attack deals extra
// damage any time her target would be denied a Dexterity bonus to AC
// (whether the target actually has a Dexterity bonus or not), or when the
// rogue flanks her target." The Orc has uncanny dodge, so being flat-footed
// (it acts last) does not open it: only flanking does. flanking: two gives
// the Fighter and the Rogue, both 5 ft from it, a flanking attack each;
// flanking: line does not (both on one side). The Go field and the
// library trait alike: the Rogue's hit deals 1 + 5 flanking, 1 otherwise.
func TestSneakAttackWhenFlanking(t *testing.T) {
	for _, rogue := range []string{"sneak_attack: 5,", "traits: [{use: sneak_attack, params: {dice: 5}}],"} {
		for _, tc := range []struct {
			opts string
			dmg  int
		}{{"", 1}, {"flanking: two", 6}} {
			src := strings.Replace(flankYAML(tc.opts), "initiative_roll: 15,", "initiative_roll: 15, "+rogue, 1)
			src = strings.Replace(src, "initiative_roll: 10,", "initiative_roll: 10, uncanny_dodge: true,", 1)
			r := play(t, g(t, src), 1)
			var got []swing
			for _, s := range swings(r.round(1)) {
				if s.who == "Rogue" && s.hit {
					got = append(got, s)
				}
			}
			if len(got) != 1 || got[0].dmg != tc.dmg {
				t.Errorf("%s %q: the Rogue's hits %+v; want one dealing %d", rogue, tc.opts, got, tc.dmg)
			}
		}
	}
}

// The trait fact flanked: target.flanked at the attack moments is this
// melee attack's flanking (the Rogue's on the Orc with
// flanking: two; the Orc's on either, with no ally, is not); self.flanked
// is whether an enemy flanks it (the Orc, threatened by two). Each trait
// adds 100 damage when its fact holds.
func TestTraitFactFlanked(t *testing.T) {
	for _, tc := range []struct {
		opts           string
		rogue, orc     int
		orcSelfFlanked int
	}{{"", 1, 1, 1}, {"flanking: two", 101, 1, 101}} {
		src := flankYAML(tc.opts)
		src = strings.Replace(src, "initiative_roll: 15,", "initiative_roll: 15, traits: [{name: Flanker, on: hit, when: target.flanked, do: damage += 100}],", 1)
		src = strings.Replace(src, "initiative_roll: 10,", "initiative_roll: 10, traits: [{name: Lucky, on: hit, when: target.flanked, do: damage += 100}, {name: Cornered, on: hit_taken, when: self.flanked and attacker.hp > 0, do: damage += 0}, {name: Pressed, on: turn_start, when: self.flanked, do: actions += 0}],", 1)
		r := play(t, g(t, src), 1)
		sw := swings(r.round(1))
		if len(sw) != 3 || sw[1].who != "Rogue" || sw[1].dmg != tc.rogue || sw[2].who != "Orc" || sw[2].dmg != tc.orc {
			t.Errorf("%q: attacks %+v; want the Rogue's hit %d, the Orc's %d", tc.opts, sw, tc.rogue, tc.orc)
		}
		pressed := strings.Contains(r.dump(), "Orc's Pressed")
		if pressed != (tc.orcSelfFlanked > 1) {
			t.Errorf("%q: the Orc's self.flanked at turn_start fired %v\n%s", tc.opts, pressed, r.dump())
		}
	}
}
