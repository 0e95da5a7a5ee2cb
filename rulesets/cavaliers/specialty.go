package cavaliers

import "simctl/sim/msg"

// The three Initiative specialties differ only in what each ability costs.
// The source's success tables:
//
//	specialty            [+]                   [+][+]                [+][+][+]
//	Impulse (Verve)      Seize the Initiative  Interpose             Reprise Attack
//	Vigilance (Affinity) Interpose             Reprise Attack        Seize the Initiative
//	Timing (Guile)       Reprise Attack        Seize the Initiative  Interpose
//
// Specialty none (not in the source) is a combatant without ranks in any
// Initiative specialty: it rolls and is ranked like everyone, but has no
// ability to buy; it is the baseline the three are measured against.

// Specialty is a combatant's Initiative specialty.
type Specialty uint8

// Specialties.
const (
	NoSpecialty Specialty = iota
	Impulse
	Vigilance
	Timing
)

// SpecialtyNames are the scenario names, by value.
var SpecialtyNames = []string{"none", "impulse", "vigilance", "timing"}

func (s Specialty) String() string { return SpecialtyNames[s] }

// Ability is one of the three uses of the Initiative skill.
type Ability uint8

// Abilities.
const (
	Seize Ability = iota
	Interpose
	Reprise
	numAbilities
)

var abilityNames = [numAbilities]string{"Seize the Initiative", "Interpose", "Reprise Attack"}

func (a Ability) String() string { return abilityNames[a] }

// Localize is the ability's name translated by tr, for messages (the
// catalogs translate each of abilityNames).
func (a Ability) Localize(tr msg.Translator) string { return msg.New(abilityNames[a]).Localize(tr) }

// prices[specialty][ability] is the number of [+] an ability costs; 0:
// the specialty cannot use it.
var prices = [4][numAbilities]int{
	NoSpecialty: {0, 0, 0},
	Impulse:     {Seize: 1, Interpose: 2, Reprise: 3},
	Vigilance:   {Interpose: 1, Reprise: 2, Seize: 3},
	Timing:      {Reprise: 1, Seize: 2, Interpose: 3},
}

// ableWith[s][p] is the set of abilities (bit per Ability) a combatant
// of specialty s can pay for with p [+] (p up to 3, the highest price):
// prices[s][a] > 0 && p >= prices[s][a].
var ableWith = func() (w [4][4]uint8) {
	for s := range w {
		for p := range w[s] {
			for a, pr := range prices[s] {
				if pr > 0 && p >= pr {
					w[s][p] |= 1 << a
				}
			}
		}
	}
	return w
}()

// Price is what ability a costs a combatant of specialty s in [+], or 0
// when s cannot use it.
func Price(s Specialty, a Ability) int { return prices[s][a] }

// can reports whether combatant i may use ability a now: its specialty
// has the ability, its [+] reach the price (under budget: what is left
// unspent; under unlock: what it rolled) and it has not used the ability
// yet this round. Every ability is limited to once a round: the source
// says so of Interpose and Reprise Attack; Seize the Initiative moves the
// combatant's one turn of the round, so it cannot happen twice.
func (t *Table) can(i int, a Ability) bool {
	f := &t.f[i]
	p := prices[f.spec][a]
	return p > 0 && f.plus >= p && (t.in&^t.used[a&3])&(1<<(uint(i)&63)) != 0
}

// pay records a use of ability a by combatant i: the once-a-round mark
// and, under budget, the price out of its [+].
func (t *Table) pay(i int, a Ability) {
	f := &t.f[i]
	t.used[a&3] |= 1 << (uint(i) & 63)
	if t.g.Opt.Spend == Budget {
		p := prices[f.spec][a]
		f.plus -= p
		t.c.Add(t.side(i), RaisesSpent, int64(p))
	}
	switch a {
	case Seize:
		t.c.Inc(t.side(i), Seizes)
	case Interpose:
		t.c.Inc(t.side(i), Interposes)
	case Reprise:
		t.c.Inc(t.side(i), Reprises)
	}
}
