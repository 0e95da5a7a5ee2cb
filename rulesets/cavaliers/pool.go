package cavaliers

import (
	"math/bits"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets/internal/plain"
	"simctl/sim/rng"
	"simctl/sim/scenario"
)

// The Initiative roll is a pool: the attribute die of the specialty (Verve
// for Impulse, Affinity for Vigilance, Guile for Timing; field attribute:
// d6, d8 or d10) plus the skill dice (field pool, e.g. "2d6" or "d8+d6").
// The total of all dice ranks the combatant; every die showing raise_on or
// more is one success point [+].
//
// [+] need every die's own result, and a dice.Expr only rolls a sum, so
// the pool is kept here as the list of its dice sizes, attribute die first.
// The pool expression is still read by sim/dice (syntax, limits, positioned
// errors) and taken apart through its canonical form, Expr.String.

// MaxPool bounds the dice of one pool (attribute die included), so that a
// Table keeps a roll in a fixed array.
const MaxPool = 16

// Pool is an initiative pool: Dice[0] is the attribute die, the rest the
// skill dice, each given by its number of sides.
type Pool struct {
	Dice []int
}

// Roll rolls every die of the pool in order into out (len(out) >=
// len(p.Dice)) and returns the total and the number of dice showing at
// least raiseOn. pinned, when non-nil, gives the results instead.
func (p Pool) Roll(r *rng.Stream, pinned []int, raiseOn int, out []int) (total, raises int) {
	if pinned != nil {
		for k := range p.Dice {
			v := pinned[k]
			out[k] = v
			total += v
			if v >= raiseOn {
				raises++
			}
		}
		return total, raises
	}
	out = out[:len(p.Dice)]
	for k, sides := range p.Dice {
		// r.Die(sides) written out: the same word, IntN's rejection
		// out of line (and its panic on a die of no sides, which Compile
		// never makes).
		un := uint64(sides)
		hi, lo := bits.Mul64(r.Uint64(), un)
		v := int(hi) + 1
		if lo < un || sides <= 0 {
			if sides <= 0 {
				panic("rng: IntN with n <= 0")
			}
			v = plain.Reroll(r, un, hi, lo)
		}
		out[k] = v
		total += v
		if v >= raiseOn {
			raises++
		}
	}
	return total, raises
}

// String is the pool as written: the attribute die, then the skill dice
// grouped, e.g. "d8+2d6".
func (p Pool) String() string {
	if len(p.Dice) == 0 {
		return "(empty)"
	}
	var b strings.Builder
	b.WriteByte('d')
	b.WriteString(strconv.Itoa(p.Dice[0]))
	for k := 1; k < len(p.Dice); {
		n := 1
		for k+n < len(p.Dice) && p.Dice[k+n] == p.Dice[k] {
			n++
		}
		b.WriteByte('+')
		b.WriteString(strconv.Itoa(n))
		b.WriteByte('d')
		b.WriteString(strconv.Itoa(p.Dice[k]))
		k += n
	}
	return b.String()
}

// attributeDice are the valid attribute dice.
var attributeDice = []string{"d6", "d8", "d10"}

// readAttribute reads the attribute die: d6, d8 or d10.
func readAttribute(d *scenario.Decoder, n *yaml.Node, path string) int {
	switch d.Enum(n, path, attributeDice) {
	case "d6":
		return 6
	case "d8":
		return 8
	case "d10":
		return 10
	}
	return 0
}

// readSkillDice reads the skill dice: a dice expression of whole dice added
// together ("2d6", "d8+d6"); constants, subtraction and keep-highest/lowest
// are not pool dice. It returns the sides of each die in the order written.
func readSkillDice(d *scenario.Decoder, n *yaml.Node, path string, room int) []int {
	e := d.Dice(n, path)
	if e.IsZero() {
		return nil // the error, if any, is recorded
	}
	src := e.String() // canonical: NdM terms in order, then one constant
	if e.IsConst() || strings.ContainsAny(src, "-kK") || strings.Count(src, "d") != strings.Count(src, "+")+1 {
		d.Errorf(n, path, "pool %q: skill dice must be whole dice added together, such as 2d6 or d8+d6 (no constants, subtraction or keep-highest)", n.Value)
		return nil
	}
	var out []int
	for _, term := range strings.Split(src, "+") {
		cnt, sides, _ := strings.Cut(term, "d")
		c, _ := strconv.Atoi(cnt)
		s, _ := strconv.Atoi(sides)
		if s < 2 {
			d.Errorf(n, path, "pool %q: a d%d is not a die to roll; use dice of 2 or more sides", n.Value, s)
			return nil
		}
		for range c {
			out = append(out, s)
		}
	}
	if len(out) > room {
		d.Errorf(n, path, "pool %q has %d skill dice; at most %d (with the attribute die, %d dice in all)", n.Value, len(out), room, MaxPool)
		return nil
	}
	return out
}

// readPinned reads initiative_dice: one result per die of the pool,
// attribute die first, each within its die.
func readPinned(d *scenario.Decoder, n *yaml.Node, path string, p Pool) []int {
	vals := d.IntList(n, path, 1, 1000, MaxPool)
	if vals == nil {
		return nil
	}
	if len(vals) != len(p.Dice) {
		d.Errorf(n, path, "%d results for a pool of %d dice (%s); give one per die, attribute die first", len(vals), len(p.Dice), p)
		return nil
	}
	for k, v := range vals {
		if v > p.Dice[k] {
			d.Errorf(n, path, "result %d of die %d is above its d%d; expected 1 to %d", v, k+1, p.Dice[k], p.Dice[k])
			return nil
		}
	}
	return vals
}
