// Package scenario reads the YAML encounter files users write.
//
// Decoding is strict and positioned: an unknown field, a bad dice expression,
// a negative HP, an unknown ruleset or policy is an *Error naming
// file:line:col and the field, saying what would be valid. Every problem in
// a file is reported at once (Errors). Fields that only one ruleset uses
// are declared by that ruleset (Schema) and kept as YAML nodes in Extra, so
// the ruleset decodes them with the same helpers and the same positions.
//
// `--set PATH=VALUE` overrides (Set) are applied to the YAML tree before
// decoding, so an override is validated exactly like the file itself.
//
// A Scenario is plain data, built once per run. Its decoded fields are
// read-only once Load (or Decode) returns. Rep and Dec are not: they are
// how the ruleset reports on its own fields, and rulesets.Compile writes
// errors and warnings into Rep (through Dec) while it compiles. So a
// Scenario is safe to share between goroutines once it has been compiled,
// or from Load on if it is never compiled; compile it once, on one
// goroutine, before sharing it.
package scenario

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"simctl/sim/dice"
	"simctl/sim/msg"
)

// Scenario is a decoded encounter file.
type Scenario struct {
	File        string
	Name        string
	Description string
	Ruleset     string
	Options     map[string]*yaml.Node // ruleset options, decoded by the ruleset
	OptionKey   map[string]*yaml.Node // the key node of each option, for positions
	MaxRounds   int
	Distance    int // feet between the sides at the start; 0: already in melee
	Sides       []Side
	// Root is the document as decoded, overrides applied: two scenarios
	// with the same tree (SameTree) are the same scenario.
	Root *yaml.Node
	// Rules is the rules: block as written (house rules; nil: none): the
	// ruleset reads it, as it reads traits:.
	Rules *yaml.Node

	// Rep collects errors while the ruleset compiles Extra fields and
	// options; Dec decodes them with positions. Both are written during
	// rulesets.Compile (see the package doc): the one mutable part.
	Rep *Reporter
	Dec *Decoder
}

// Side is one of the two opposing groups.
type Side struct {
	Name       string
	Aware      bool // false: this side is surprised
	Referee    bool // the referee's side (ACKS same-number rule)
	Policy     PolicySpec
	Tactics    *yaml.Node // the tactics: block as written (nil: none); the ruleset compiles it
	Combatants []Combatant
	Extra      map[string]*yaml.Node
	Node       *yaml.Node
	Path       string
}

// PolicySpec names a scripted tactic and its parameters, as written; the
// ruleset's policy registry validates it and compiles it into that
// ruleset's Policy.
type PolicySpec struct {
	Name   string // "" when not given
	Params map[string]*yaml.Node
	Keys   map[string]*yaml.Node // key nodes, for positions
	Node   *yaml.Node
	Path   string
}

// Combatant is one combatant entry; Count copies of it join the fight.
type Combatant struct {
	Name           string
	Count          int
	HP             dice.Expr // a constant or dice rolled per encounter
	AC             int
	Init           int // initiative modifier
	InitiativeRoll int // pinned die result; 0: rolled
	Attacks        []int
	Damage         dice.Expr
	Speed          int
	Aware          *bool // overrides the side's awareness
	Policy         PolicySpec
	Tactics        *yaml.Node // overrides the side's tactics and policy
	Extra          map[string]*yaml.Node
	ExtraKey       map[string]*yaml.Node
	Node           *yaml.Node
	Path           string
}

// Schema is what a ruleset adds to the common scenario contract.
type Schema struct {
	CombatantFields []string // extra combatant fields it reads from Extra
	SideFields      []string // extra side fields
	InitDie         int      // sides of the initiative die, for initiative_roll bounds (0: 20)
	// Traits: the ruleset reads traits: (list it in CombatantFields and
	// SideFields) and house rules (rules:); without it rules: is an error.
	Traits bool
}

// Common field names, for unknown-field messages.
var (
	topFields       = []string{"name", "ruleset", "options", "max_rounds", "distance", "sides", "description", "rules"}
	sideFields      = []string{"name", "aware", "referee", "policy", "tactics", "combatants"}
	combatantFields = []string{"name", "count", "hp", "ac", "init", "initiative_roll", "attacks", "damage", "speed", "aware", "policy", "tactics"}
)

// Fields lists the common field names the decoder accepts at the top level,
// in a side and in a combatant (copies; simctl schema lists them).
func Fields() (top, side, combatant []string) {
	return append([]string(nil), topFields...), append([]string(nil), sideFields...), append([]string(nil), combatantFields...)
}

// Limits that keep a typo from asking for a billion combatants.
const (
	MaxCombatants = 64
	MaxRounds     = 100000
)

// Lookup finds the schema of a ruleset by name; ok is false for an unknown
// ruleset. names lists the valid ones for the error.
type Lookup func(ruleset string) (s Schema, ok bool, names []string)

// Load decodes a scenario from data; file names it in errors. Reading the
// file (with its size bound) is the caller's: scenario knows no files. It returns
// either a valid scenario or every problem found (Errors).
func Load(file string, data []byte, sets []Set, lookup Lookup) (*Scenario, error) {
	sc, err := Decode(file, data, sets, lookup)
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// Decode is Load for callers that go on to compile the scenario: when the
// file is YAML it returns the decoded scenario even if it has problems, with
// the same error Load would return. The caller may then let the ruleset
// check its own fields into sc.Rep (rulesets.Compile), so a user sees every
// problem of the file in one pass, and must not run a scenario that had any.
// Where a problem left a field unreadable, the field holds its zero value.
// The scenario is nil only when the data is not YAML or holds no document.
func Decode(file string, data []byte, sets []Set, lookup Lookup) (*Scenario, error) {
	p := Parse(file, data)
	if p.root == nil {
		return nil, p.err
	}
	return decodeRoot(file, p.root, sets, lookup, Set.parseValue) // the tree is this call's own: no copy
}

// MaxNodeDepth bounds how deeply a scenario's mappings and lists nest
// (the YAML library allows 10,000): the decoder, the tactics compiler and
// the overrides walk the tree recursively, and no scenario needs more than
// a dozen levels.
const MaxNodeDepth = 64

// tooDeep returns the first node (in document order) deeper than
// MaxNodeDepth below n, n at depth 1, or nil. It walks with a stack of its
// own, so it is safe on any tree the library returns; aliases are not
// followed (nothing here expands them).
func tooDeep(n *yaml.Node) *yaml.Node {
	type item struct {
		n     *yaml.Node
		depth int
	}
	stack := []item{{n, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > MaxNodeDepth {
			return it.n
		}
		for i := len(it.n.Content) - 1; i >= 0; i-- {
			stack = append(stack, item{it.n.Content[i], it.depth + 1})
		}
	}
	return nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns the YAML library's "yaml: line N: msg" into file:N: msg.
// The library names the line where the enclosing block starts (for parser
// errors one line too early), not the line that breaks it, and no column;
// syntaxLine finds the line.
func yamlError(file string, data []byte, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Errors{newErrorAt(file, syntaxLine(data, line), msg.New("YAML syntax: %s", yamlProblem(m[2])))}
	}
	return Errors{newErrorAt(file, 0, msg.New("YAML syntax: %s", yamlErrText(err)))}
}

// newErrorAt is the Error at line of file (no field) saying text.
func newErrorAt(file string, line int, text msg.Text) *Error {
	e := newError(file, "", text)
	e.Line = line
	return e
}

// syntaxLine returns the first line at or after from such that the file cut
// after that line no longer parses: where the text stops being YAML.
//
// It takes linear time: one streaming parse that hands the parser one
// line at a time finds the line s at which it failed (the parser had read
// nothing after it, so the file cut after s fails too), then at most
// 2·(syntaxBack+1) parses of prefixes look for the first failing cut in
// the few lines after from and before s (a parser reads a little ahead,
// and an unclosed bracket fails only at the end of the stream). Re-parsing every
// growing prefix, as before, took minutes on a megabyte.
func syntaxLine(data []byte, from int) int {
	if from < 1 {
		return from
	}
	lr := &lineReader{data: data}
	var n yaml.Node
	if yaml.NewDecoder(lr).Decode(&n) == nil {
		return from // a document the streaming parse accepts: keep the library's line
	}
	s := lr.line()
	if s < from {
		return from
	}
	// The first failing cut lies in [from, s]: probe its first lines
	// (an unclosed bracket or quote fails at once, though the streaming
	// parse reads on to the end) and the last ones.
	for l := from; l < s; l++ {
		if l > from+syntaxBack && l < s-syntaxBack {
			l = s - syntaxBack
		}
		if probeParse(data[:lineEnd(data, l)]) != nil {
			return l
		}
	}
	return s
}

// probeParse parses a cut of the file (a variable so a test can count the
// bytes parsed).
var probeParse = func(b []byte) error {
	var n yaml.Node
	return yaml.Unmarshal(b, &n)
}

// syntaxBack is how many lines before the streaming parse's failure
// syntaxLine probes.
const syntaxBack = 3

// lineReader hands out data at most one line per Read, so the parser
// reads no further than it needs; line is the line of the last byte read.
type lineReader struct {
	data []byte
	off  int
}

func (r *lineReader) Read(p []byte) (int, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	rest := r.data[r.off:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i+1]
	}
	n := copy(p, rest)
	r.off += n
	return n, nil
}

func (r *lineReader) line() int {
	if r.off == 0 {
		return 1
	}
	return bytes.Count(r.data[:r.off-1], []byte{'\n'}) + 1
}

// lineEnd is the offset just after line l (1-based) of data.
func lineEnd(data []byte, l int) int {
	off := 0
	for ; l > 0; l-- {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}

func (sc *Scenario) decode(d *Decoder, root *yaml.Node, lookup Lookup) {
	if root.Kind != yaml.MappingNode {
		d.rep.Errorf(root, "", "a scenario is a mapping (name:, ruleset:, sides:), not a %s", kindName(root))
		return
	}
	keys := d.Mapping(root, "", topFields)
	if n := keys["name"]; n != nil {
		sc.Name = d.Str(n, "name")
		d.checkName(n, "name", msg.New("scenario name"), sc.Name)
	}
	if n := keys["description"]; n != nil {
		sc.Description = d.Str(n, "description")
	}
	var schema Schema
	if n := keys["ruleset"]; n != nil {
		sc.Ruleset = d.Str(n, "ruleset")
		s, ok, names := lookup(sc.Ruleset)
		if !ok {
			d.rep.Errorf(n, "ruleset", "unknown ruleset %q%s; valid: %s", sc.Ruleset, Suggest(sc.Ruleset, names), strings.Join(names, ", "))
		}
		schema = s
	} else {
		_, _, names := lookup("")
		d.rep.Errorf(root, "ruleset", "missing; choose one of %s", strings.Join(names, ", "))
	}
	if sc.Name == "" {
		sc.Name = strings.TrimSuffix(strings.TrimSuffix(baseName(sc.Rep.File), ".yaml"), ".yml")
	}
	sc.Options, sc.OptionKey = map[string]*yaml.Node{}, map[string]*yaml.Node{}
	if n := keys["options"]; n != nil {
		if n.Kind != yaml.MappingNode {
			if !(n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
				d.rep.Errorf(n, "options", "expected a mapping of ruleset options, got a %s", kindName(n))
			}
		} else {
			for i := 0; i+1 < len(n.Content); i += 2 {
				sc.Options[n.Content[i].Value] = n.Content[i+1]
				sc.OptionKey[n.Content[i].Value] = n.Content[i]
			}
		}
	}
	if n := keys["rules"]; n != nil {
		if schema.Traits || sc.Ruleset == "" {
			sc.Rules = n
		} else {
			d.rep.Errorf(n, "rules", "%s has no house rules yet (rules: is read by d20)", sc.Ruleset)
		}
	}
	if n := keys["max_rounds"]; n != nil {
		sc.MaxRounds = d.Int(n, "max_rounds", 1, MaxRounds)
	}
	if n := keys["distance"]; n != nil {
		sc.Distance = d.Int(n, "distance", 0, 100000)
	}
	n := keys["sides"]
	if n == nil {
		d.rep.Errorf(root, "sides", "missing; a scenario has exactly two sides")
		return
	}
	if n.Kind != yaml.SequenceNode {
		d.rep.Errorf(n, "sides", "expected a list of two sides, got a %s", kindName(n))
		return
	}
	if len(n.Content) != 2 {
		d.rep.Errorf(n, "sides", "a scenario has exactly two sides, found %d", len(n.Content))
	}
	total := 0
	names := map[string]bool{}
	sideOf := map[string]string{} // combatant name -> its side, across sides
	for i, sn := range n.Content {
		side := d.side(sn, fmt.Sprintf("sides[%d]", i), schema)
		if side.Name != "" && names[side.Name] {
			d.rep.Errorf(nameNode(sn), side.Path+".name", "side name %q is used twice; --set addresses sides by name", side.Name)
		}
		names[side.Name] = true
		seen := map[string]bool{}
		for _, c := range side.Combatants {
			total += c.Count
			if c.Name == "" || seen[c.Name] {
				continue // a duplicate within the side is reported by side
			}
			seen[c.Name] = true
			if other, ok := sideOf[c.Name]; ok {
				d.rep.Errorf(nameNode(c.Node), c.Path+".name", "combatant name %q is also used in side %q; names must be unique across sides (results and traces name combatants)", c.Name, other)
				continue
			}
			sideOf[c.Name] = side.Name
		}
		sc.Sides = append(sc.Sides, side)
	}
	if total > MaxCombatants {
		d.rep.Errorf(n, "sides", "%d combatants in all; at most %d are supported", total, MaxCombatants)
	}
}

// nameNode is the value of a mapping's name: key, for positions, or the
// mapping itself when it has none.
func nameNode(n *yaml.Node) *yaml.Node {
	if v := Value(n, "name"); v != nil {
		return v
	}
	return n
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func (d *Decoder) side(n *yaml.Node, path string, schema Schema) Side {
	s := Side{Aware: true, Node: n, Path: path, Extra: map[string]*yaml.Node{}}
	if n.Kind != yaml.MappingNode {
		d.rep.Errorf(n, path, "a side is a mapping (name:, combatants:), got a %s", kindName(n))
		return s
	}
	keys := d.Mapping(n, path, append(append([]string(nil), sideFields...), schema.SideFields...))
	if k := keys["name"]; k != nil {
		s.Name = d.Str(k, path+".name")
		if !d.checkName(k, path+".name", msg.New("side name"), s.Name) {
		} else if strings.ContainsAny(s.Name, ".=") {
			d.rep.Errorf(k, path+".name", "side name %q may not contain '.' or '=' (--set addresses sides by name: %s.aware=false)", s.Name, strings.NewReplacer(".", "_", "=", "_").Replace(s.Name))
		}
	} else {
		d.rep.Errorf(n, path+".name", "missing; every side has a name (--set and reports use it)")
	}
	if k := keys["aware"]; k != nil {
		s.Aware = d.Bool(k, path+".aware")
	}
	if k := keys["referee"]; k != nil {
		s.Referee = d.Bool(k, path+".referee")
	}
	if k := keys["policy"]; k != nil {
		s.Policy = d.policy(k, path+".policy")
	}
	s.Tactics = keys["tactics"]
	for _, f := range schema.SideFields {
		if k := keys[f]; k != nil {
			s.Extra[f] = k
		}
	}
	cn := keys["combatants"]
	if cn == nil || (cn.Kind == yaml.SequenceNode && len(cn.Content) == 0) {
		d.rep.Errorf(n, path+".combatants", "side %q has no combatants; give at least one", s.Name)
		return s
	}
	if cn.Kind != yaml.SequenceNode {
		d.rep.Errorf(cn, path+".combatants", "expected a list of combatants, got a %s", kindName(cn))
		return s
	}
	names := map[string]bool{}
	for i, c := range cn.Content {
		cb := d.combatant(c, fmt.Sprintf("%s.combatants[%d]", path, i), schema)
		if cb.Name != "" && names[cb.Name] {
			d.rep.Errorf(nameNode(c), cb.Path+".name", "combatant name %q is used twice in side %q; use count: for copies", cb.Name, s.Name)
		}
		names[cb.Name] = true
		s.Combatants = append(s.Combatants, cb)
	}
	return s
}

func (d *Decoder) combatant(n *yaml.Node, path string, schema Schema) Combatant {
	c := Combatant{Count: 1, Speed: 30, Node: n, Path: path, Extra: map[string]*yaml.Node{}, ExtraKey: map[string]*yaml.Node{}}
	if n.Kind != yaml.MappingNode {
		d.rep.Errorf(n, path, "a combatant is a mapping (name:, hp:, ...), got a %s", kindName(n))
		return c
	}
	keys := d.Mapping(n, path, append(append([]string(nil), combatantFields...), schema.CombatantFields...))
	if k := keys["name"]; k != nil {
		c.Name = d.Str(k, path+".name")
		if !d.checkName(k, path+".name", msg.New("combatant name"), c.Name) {
		} else if strings.ContainsAny(c.Name, ".#=") {
			d.rep.Errorf(k, path+".name", "name %q may not contain '.', '#' or '=' (they address combatants in --set and copies)", c.Name)
		}
	} else {
		d.rep.Errorf(n, path+".name", "missing; every combatant has a name")
	}
	if k := keys["count"]; k != nil {
		c.Count = d.Int(k, path+".count", 1, MaxCombatants)
	}
	if k := keys["hp"]; k != nil {
		c.HP = d.Dice(k, path+".hp")
		if c.HP.Min() < 1 && !c.HP.IsZero() {
			if c.HP.IsConst() {
				d.rep.Errorf(k, path+".hp", "hp must be at least 1, got %d", c.HP.Min())
			} else {
				d.rep.Errorf(k, path+".hp", "hp %q can roll %d; it must be at least 1 on every roll", c.HP.String(), c.HP.Min())
			}
		}
	} else {
		d.rep.Errorf(n, path+".hp", "missing; give hit points as a number (20) or dice (3d10+6)")
	}
	if k := keys["ac"]; k != nil {
		c.AC = d.Int(k, path+".ac", -100, 1000)
	}
	if k := keys["init"]; k != nil {
		c.Init = d.Int(k, path+".init", -100, 100)
	}
	if k := keys["initiative_roll"]; k != nil {
		die := schema.InitDie
		if die == 0 {
			die = 20
		}
		c.InitiativeRoll = d.Int(k, path+".initiative_roll", 1, die)
	}
	if k := keys["attacks"]; k != nil {
		c.Attacks = d.IntList(k, path+".attacks", -100, 100, 16)
		if len(c.Attacks) == 0 && k.Kind == yaml.SequenceNode {
			d.rep.Errorf(k, path+".attacks", "empty; give at least one attack bonus, e.g. [5]")
		}
	}
	if len(c.Attacks) == 0 {
		c.Attacks = []int{0}
	}
	if k := keys["damage"]; k != nil {
		c.Damage = d.Dice(k, path+".damage")
	} else {
		d.rep.Errorf(n, path+".damage", "missing; give weapon damage as dice, e.g. 1d8+3")
	}
	if k := keys["speed"]; k != nil {
		c.Speed = d.Int(k, path+".speed", 0, 1000)
	}
	if k := keys["aware"]; k != nil {
		b := d.Bool(k, path+".aware")
		c.Aware = &b
	}
	if k := keys["policy"]; k != nil {
		c.Policy = d.policy(k, path+".policy")
	}
	c.Tactics = keys["tactics"]
	for _, f := range schema.CombatantFields {
		if k := keys[f]; k != nil {
			c.Extra[f] = k
			c.ExtraKey[f], _ = Entry(n, f)
		}
	}
	return c
}

func (d *Decoder) policy(n *yaml.Node, path string) PolicySpec {
	p := PolicySpec{Node: n, Path: path, Params: map[string]*yaml.Node{}, Keys: map[string]*yaml.Node{}}
	switch n.Kind {
	case yaml.ScalarNode:
		p.Name = n.Value
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "name" {
				p.Name = d.Str(v, path+".name")
				continue
			}
			p.Params[k.Value] = v
			p.Keys[k.Value] = k
		}
		if p.Name == "" {
			d.rep.Errorf(n, path+".name", "an inline policy needs a name:, e.g. {name: ready, trigger: charge}")
		}
	default:
		d.rep.Errorf(n, path, "a policy is a name (default) or a mapping ({name: delay, until: Cleric}), got a %s", kindName(n))
	}
	return p
}

// Decoder reads typed values from YAML nodes, recording positioned errors
// in its Reporter instead of stopping at the first. Rulesets use it for
// their own fields (Scenario.Dec).
type Decoder struct{ rep *Reporter }

// Mapping checks the keys of a mapping node against valid and returns the
// value node of each known key.
func (d *Decoder) Mapping(n *yaml.Node, path string, valid []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	ok := map[string]bool{}
	for _, v := range valid {
		ok[v] = true
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		fp := k.Value
		if path != "" {
			fp = path + "." + k.Value
		}
		if !ok[k.Value] {
			d.rep.Errorf(k, fp, "%s", unknownField(k.Value, valid))
			continue
		}
		if out[k.Value] != nil {
			d.rep.Errorf(k, fp, "field %q given twice", k.Value)
		}
		out[k.Value] = n.Content[i+1]
	}
	return out
}

// checkName refuses a name that results, tables and reports could not
// show faithfully: empty or blank, with control characters (a newline
// breaks a table row), other unprintable characters, or '|' (the
// Markdown table separator). It reports and returns false when bad.
func (d *Decoder) checkName(n *yaml.Node, path string, what msg.Text, name string) bool {
	if n.Kind != yaml.ScalarNode {
		return true // d.Str has reported the kind
	}
	if why := NameProblem(name); why.Format != "" {
		d.rep.Errorf(n, path, "%s %q %s", what, name, why)
		return false
	}
	return true
}

// NameProblem says what is wrong with a name shown in results and
// reports, or the zero Text (Format "") if nothing: a name is non-empty,
// not only spaces, printable (no control or other invisible characters)
// and has no '|'.
func NameProblem(name string) msg.Text {
	if strings.TrimSpace(name) == "" {
		return msg.New("is empty; give a name of visible characters")
	}
	if strings.TrimSpace(name) != name {
		return msg.New("starts or ends with spaces; remove them")
	}
	for _, r := range name {
		switch {
		case r == '|':
			return msg.New("may not contain '|' (it separates table columns in reports)")
		case unicode.IsControl(r):
			return msg.New("contains the control character %U (a newline or tab breaks tables); use printable characters", r)
		case r == utf8.RuneError:
			return msg.New("is not valid UTF-8")
		case !unicode.IsPrint(r) && r != ' ':
			return msg.New("contains the unprintable character %U; use printable characters", r)
		}
	}
	return msg.Text{}
}

// kindName says what a node is, for "got a %s": a message part.
func kindName(n *yaml.Node) msg.Text {
	switch n.Kind {
	case yaml.MappingNode:
		return msg.New("mapping")
	case yaml.SequenceNode:
		return msg.New("list")
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return msg.New("null")
		}
		return msg.New("value %q", n.Value)
	case yaml.AliasNode:
		return msg.New("alias")
	}
	return msg.New("node")
}

// Str reads a string scalar.
func (d *Decoder) Str(n *yaml.Node, path string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.rep.Errorf(n, path, "expected a string, got a %s", kindName(n))
		return ""
	}
	return n.Value
}

// Bool reads true or false.
func (d *Decoder) Bool(n *yaml.Node, path string) bool {
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(n.Value) {
		case "true", "yes", "on":
			return true
		case "false", "no", "off":
			return false
		}
	}
	d.rep.Errorf(n, path, "expected true or false, got a %s", kindName(n))
	return false
}

// Int reads a whole number in [lo, hi].
func (d *Decoder) Int(n *yaml.Node, path string, lo, hi int) int {
	v, ok := ParseInt(n)
	if !ok {
		d.rep.Errorf(n, path, "expected a whole number from %d to %d, got a %s", lo, hi, kindName(n))
		return 0
	}
	if v < lo || v > hi {
		d.rep.Errorf(n, path, "%d is out of range; expected a whole number from %d to %d", v, lo, hi)
		return 0
	}
	return v
}

// IntList reads a list of whole numbers (a single number is a list of one).
func (d *Decoder) IntList(n *yaml.Node, path string, lo, hi, maxLen int) []int {
	if n.Kind == yaml.ScalarNode {
		return []int{d.Int(n, path, lo, hi)}
	}
	if n.Kind != yaml.SequenceNode {
		d.rep.Errorf(n, path, "expected a list of whole numbers, e.g. [6, 1], got a %s", kindName(n))
		return nil
	}
	if len(n.Content) > maxLen {
		d.rep.Errorf(n, path, "%d entries; at most %d", len(n.Content), maxLen)
		return nil
	}
	out := make([]int, 0, len(n.Content))
	for i, e := range n.Content {
		out = append(out, d.Int(e, fmt.Sprintf("%s[%d]", path, i), lo, hi))
	}
	return out
}

// Dice reads a dice expression; a plain number is a constant.
func (d *Decoder) Dice(n *yaml.Node, path string) dice.Expr {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.rep.Errorf(n, path, "expected a number or dice such as 2d6+3, got a %s", kindName(n))
		return dice.Expr{}
	}
	e, err := dice.Parse(n.Value)
	if err != nil {
		var se *dice.SyntaxError
		col := n.Column
		why := any(err)
		if asSyntax(err, &se) {
			if _, fromSet := d.rep.origin[n]; n.Style == 0 && !fromSet { // plain scalar in the file: columns line up
				col += se.Col - 1
			}
			why = se.Text
		}
		e := newError(d.rep.File, path, msg.New("bad dice expression %q: %s", n.Value, why))
		e.Line, e.Col = n.Line, col
		d.rep.add(e, n)
		return dice.Expr{}
	}
	return e
}

func asSyntax(err error, out **dice.SyntaxError) bool {
	se, ok := err.(*dice.SyntaxError)
	if ok {
		*out = se
	}
	return ok
}

// ParseInt reads an integer scalar; floats with no fraction are accepted.
func ParseInt(n *yaml.Node) (int, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, false
	}
	if v, err := strconv.Atoi(n.Value); err == nil {
		return v, true
	}
	if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return int(f), true
	}
	return 0, false
}

// Enum reads a string that must be one of valid.
func (d *Decoder) Enum(n *yaml.Node, path string, valid []string) string {
	s := d.Str(n, path)
	for _, v := range valid {
		if s == v {
			return s
		}
	}
	if n.Kind == yaml.ScalarNode {
		d.rep.Errorf(n, path, "%q is not valid%s; expected one of %s", s, Suggest(s, valid), quoteList(valid))
	}
	return ""
}

// Errorf records a problem at node.
func (d *Decoder) Errorf(n *yaml.Node, path, format string, args ...any) {
	d.rep.Errorf(n, path, format, args...)
}

// Unknown reports a key that is not among valid (for ruleset option maps and
// policy parameters).
func (d *Decoder) Unknown(key *yaml.Node, path string, valid []string) {
	d.rep.Errorf(key, path, "%s", unknownField(key.Value, valid))
}

// Mapping exported for rulesets whose fields are themselves mappings
// (d20 spells, for example).

// ErrorAt records a problem at column offset col within the scalar node n
// (a position inside a tactics condition), keeping the --set origin.
func (d *Decoder) ErrorAt(n *yaml.Node, col int, path, format string, args ...any) {
	e := newError(d.rep.File, path, msg.New(format, args...))
	if n != nil {
		e.Line, e.Col = n.Line, n.Column+col
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			e.Col++ // the opening quote
		}
	}
	d.rep.add(e, n)
}

// Warnf records a warning at node; see Reporter.Warnf.
func (d *Decoder) Warnf(n *yaml.Node, path, format string, args ...any) {
	d.rep.Warnf(n, path, format, args...)
}

// NewDecoder returns a Decoder that records problems in rep (for tests and
// for tools that decode YAML outside a scenario file).
func NewDecoder(rep *Reporter) *Decoder { return &Decoder{rep: rep} }

// IgnoredPolicy records a policy: that tactics: overrule; see
// Reporter.IgnoredPolicy.
func (d *Decoder) IgnoredPolicy(n *yaml.Node, path, where string, side bool) {
	d.rep.IgnoredPolicy(n, path, where, side)
}

// SameTree tells whether two documents say the same thing: the same
// kinds, tags, values and keys in the same order, whatever their
// positions, quoting or flow style (init: 1 in the file and --set
// ...init=1 are the same). A comparison uses it to tell an option that
// changes nothing from its baseline.
func SameTree(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind == yaml.AliasNode {
		return SameTree(a.Alias, b)
	}
	if b.Kind == yaml.AliasNode {
		return SameTree(a, b.Alias)
	}
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || a.Value != b.Value || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !SameTree(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}
