package d20

import (
	"regexp"
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

// The sneak_attack field's trace shows its dice and the damage they add,
// as the library trait's line does: with the same dice both play the same
// draws, so over many encounters of a rogue that sneak-attacks flat-footed
// and flanked orcs the two traces differ only in the line's name (the
// field's "sneak attack", the trait's "Sneak Attack"), and each sneak
// attack's line is there.
func TestSneakAttackFieldTraced(t *testing.T) {
	const yaml = `
name: sneak trace
ruleset: d20
max_rounds: 20
distance: 30
options: {flanking: two}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 26, ac: 17, dex_ac: 1, init: 1, attacks: [6, 1], damage: 1d8+3, crit: 19-20/x2}
      - {name: Rogue, position: 10, hp: 16, ac: 15, dex_ac: 3, init: 3, attacks: [4], damage: 1d6+1, crit: 19-20/x2, ROGUE}
  - name: orcs
    combatants:
      - {name: Orc, count: 2, hp: 13, ac: 14, dex_ac: 1, init: 0, attacks: [5], damage: 1d12+3, crit: 20/x3}
`
	field := g(t, strings.Replace(yaml, "ROGUE", "sneak_attack: 2d6", 1))
	trait := g(t, strings.Replace(yaml, "ROGUE", "traits: [{name: Sneak Attack, use: sneak_attack}]", 1))
	line := regexp.MustCompile(`^  Rogue's sneak attack: damage \+= 2d6 \(damage (\d+) -> (\d+)\)$`)
	lines := 0
	for seed := uint64(1); seed <= 40; seed++ {
		f, tr := play(t, field, seed), play(t, trait, seed)
		if got, want := f.dump(), strings.ReplaceAll(tr.dump(), "Rogue's Sneak Attack:", "Rogue's sneak attack:"); got != want {
			t.Fatalf("seed %d: the field's trace is not the trait's:\n%s\n--- the trait's:\n%s", seed, got, want)
		}
		for i, l := range f.lines {
			m := line.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			lines++
			// The attack it adds to follows, with the sum as its damage.
			if add := atoi(m[2]) - atoi(m[1]); add < 2 || add > 12 || i+1 == len(f.lines) || !strings.Contains(f.lines[i+1], "hit for "+m[2]+" ") {
				t.Errorf("seed %d: %q adds %d, not 2d6 to the hit that follows (%q)", seed, l, add, f.lines[min(i+1, len(f.lines)-1)])
			}
		}
	}
	if lines == 0 {
		t.Fatal("no sneak attack in 40 encounters: the test shows nothing")
	}
}
