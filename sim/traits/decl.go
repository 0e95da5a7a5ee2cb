// Package traits reads the rules a designer writes as data: a combatant's
// or a side's traits: and a scenario's house rules: (rules:), each a named
// rule that changes the numbers a referee uses at a moment the ruleset
// declares (`on: hit`, `when: target.flat_footed`, `do: damage += 2d6`).
//
// It knows no ruleset. A ruleset declares its moments, the quantities each
// moment exposes and lets effects change, its conditions and the facts a
// when: may read, in one table (Decl); Read checks a block against it
// (unknown moment, quantity, condition, parameter: file:line:col with the
// caret and did-you-mean; an effect on a quantity its moment lacks is an
// error; a trait that can never fire is a warning) and compiles every
// condition and amount once, with sim/lang. The referee runs the compiled
// Traits in its own code path (see rulesets/d20/traits.go): no interpreter
// of its own here, no allocation per encounter.
//
// Concurrency: a Decl and the Traits Read returns are immutable and may be
// shared by every worker.
package traits

import (
	"slices"

	"simctl/sim/lang"
)

// Quantity is a number a moment exposes: an effect may add to it or set
// it, and a when: may read it under its name.
type Quantity struct {
	Name string
	Doc  string
	// Dice: an amount may be dice (damage += 2d6), rolled when the
	// effect applies; otherwise a number or a numeric expression.
	Dice bool
}

// Moment is a point in the ruleset's round where traits fire.
type Moment struct {
	Name string
	Doc  string
	// Other is the prefix of the other party's facts at this moment
	// (target at hit, attacker at hit_taken), "" when there is none.
	Other      string
	Quantities []string // names of Decl.Quantities the moment exposes
	// Action: the moment of a special action written as data (action:
	// COST instead of on:), not a moment a trait names.
	Action bool
}

// Condition is a state a combatant can be in, with a duration: effects
// apply and remove it, facts self.NAME and OTHER.NAME read it.
type Condition struct {
	Name string
	Doc  string
}

// BonusType is a type of bonus an effect may give (QTY += 2 as morale):
// bonuses of one type that does not stack do not add up on one roll, the
// highest applies (and of penalties of that type, the worst); untyped
// ones, and those of a type that Stacks, all add.
type BonusType struct {
	Name   string
	Stacks bool
	Doc    string
}

// Fact is a fact a when: may read: a combatant's, written self.NAME for
// the trait's owner and OTHER.NAME for the moment's other party (at
// moments with one), or, with Event, the moment's own (NAME).
type Fact struct {
	Name    string
	Type    lang.Type
	Event   bool
	Moments []string // the moments that offer it (nil: every moment)
	Doc     string
}

// Who is whose fact, or whose condition, a slot reads.
type Who uint8

// Parties.
const (
	Self Who = iota
	Other
	Event // the moment's own: crit, ranged, ...
)

// Decl is a ruleset's declaration of what traits may use.
type Decl struct {
	Ruleset string
	// ActionCosts are the costs an action: may have in the ruleset's
	// economy (d20: standard, full_round), empty without actions as data.
	ActionCosts []string
	Moments     []Moment
	Quantities  []Quantity
	Conditions  []Condition
	Facts       []Fact
	// BonusTypes are the types an effect's bonus may have (as TYPE);
	// none: every bonus is untyped.
	BonusTypes []BonusType
}

// Ref says what one slot of a compiled expression reads: fact ID (an
// index into Decl.Facts) of Who, the moment's quantity ID, or condition
// ID of Who.
type Ref struct {
	Kind RefKind
	Who  Who
	ID   int
}

// RefKind is what a Ref reads.
type RefKind uint8

// Ref kinds.
const (
	RefFact RefKind = iota
	RefQuantity
	RefCondition
)

// MomentIndex is the index of moment name in d.Moments, or -1.
func (d *Decl) MomentIndex(name string) int {
	return slices.IndexFunc(d.Moments, func(m Moment) bool { return m.Name == name })
}

// QuantityIndex is the index of quantity name in d.Quantities, or -1.
func (d *Decl) QuantityIndex(name string) int {
	return slices.IndexFunc(d.Quantities, func(q Quantity) bool { return q.Name == name })
}

// ConditionIndex is the index of condition name in d.Conditions, or -1.
func (d *Decl) ConditionIndex(name string) int {
	return slices.IndexFunc(d.Conditions, func(c Condition) bool { return c.Name == name })
}

// BonusTypeIndex is the index of bonus type name in d.BonusTypes, or -1.
func (d *Decl) BonusTypeIndex(name string) int {
	return slices.IndexFunc(d.BonusTypes, func(b BonusType) bool { return b.Name == name })
}

// MomentNames lists the moments a trait may name (on:), in order.
func (d *Decl) MomentNames() []string {
	var out []string
	for _, m := range d.Moments {
		if !m.Action {
			out = append(out, m.Name)
		}
	}
	return out
}

// actionMoment is the index of the actions' moment, or -1.
func (d *Decl) actionMoment() int {
	return slices.IndexFunc(d.Moments, func(m Moment) bool { return m.Action })
}

// has reports whether moment m offers quantity q.
func (d *Decl) has(m int, q string) bool { return slices.Contains(d.Moments[m].Quantities, q) }

// env is the expression environment of moment m: the owner's facts and
// conditions (self.NAME), the other party's (OTHER.NAME), the moment's
// own facts and its quantities (NAME), with refs[k] saying what fact k
// of the environment reads.
func (d *Decl) env(m int, params []lang.Param) (*lang.Env, []Ref) {
	mo := &d.Moments[m]
	env := &lang.Env{Ruleset: d.Ruleset, Moment: mo.Name, Params: params}
	var refs []Ref
	add := func(name string, t lang.Type, doc string, r Ref) {
		env.Facts = append(env.Facts, lang.Fact{Name: name, Type: t, Doc: doc})
		refs = append(refs, r)
	}
	for _, q := range mo.Quantities {
		qi := d.QuantityIndex(q)
		add(q, lang.Number, d.Quantities[qi].Doc, Ref{Kind: RefQuantity, ID: qi})
	}
	for i, f := range d.Facts {
		if f.Moments != nil && !slices.Contains(f.Moments, mo.Name) {
			continue
		}
		if f.Event {
			add(f.Name, f.Type, f.Doc, Ref{Kind: RefFact, Who: Event, ID: i})
			continue
		}
		add("self."+f.Name, f.Type, f.Doc, Ref{Kind: RefFact, Who: Self, ID: i})
		if mo.Other != "" {
			add(mo.Other+"."+f.Name, f.Type, f.Doc, Ref{Kind: RefFact, Who: Other, ID: i})
		}
	}
	for i, c := range d.Conditions {
		add("self."+c.Name, lang.Bool, c.Doc, Ref{Kind: RefCondition, Who: Self, ID: i})
		if mo.Other != "" {
			add(mo.Other+"."+c.Name, lang.Bool, c.Doc, Ref{Kind: RefCondition, Who: Other, ID: i})
		}
	}
	return env, refs
}

// FactsAt lists what a when: may read at moment m, as written (simctl
// rules, docs).
func (d *Decl) FactsAt(m int) []lang.Fact {
	env, _ := d.env(m, nil)
	return env.Facts
}
