package traits

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim/dice"
	"simctl/sim/lang"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Trait is one compiled trait or house rule.
type Trait struct {
	Name     string
	Moment   int           // index into Decl.Moments
	When     *lang.Program // nil: always
	Slots    []Ref         // what When's slot k reads
	Effects  []Effect
	Uses     int // uses per fight, or per round with PerRound; -1: no limit
	PerRound bool
	House    bool // a house rule (rules:), not a trait
	// Action is the cost of a special action written as data (action:
	// full_round), "" for a trait: a tactics rule chooses it by Name, its
	// when: says when it can be taken, its effects are what it does.
	Action string
	Side   int // a house rule's side (-1: everyone)
	From   string
	Node   *yaml.Node
	Path   string
}

// EffectKind is what an effect does.
type EffectKind uint8

// Effect kinds.
const (
	Add    EffectKind = iota // QTY += AMOUNT, QTY -= AMOUNT
	Set                      // QTY = AMOUNT
	Apply                    // apply COND [to OTHER] [for N rounds]
	Remove                   // remove COND [from OTHER]
)

// Effect is one line of a do:.
type Effect struct {
	Kind EffectKind
	Q    int // Add, Set: index into Decl.Quantities
	Sign int // Add: +1 or -1
	// The amount: dice rolled when the effect applies (a constant is dice
	// without dice), or, when Num is set, a numeric expression over the
	// moment's facts.
	Dice   dice.Expr
	Num    *lang.Program
	Slots  []Ref // what Num's slot k reads
	Cond   int   // Apply, Remove: index into Decl.Conditions
	Who    Who   // Apply, Remove: Self or Other
	Rounds int   // Apply: round starts it lasts (0: until removed)
	// Type: Add's bonus type, 1 + an index into Decl.BonusTypes; 0:
	// untyped (every bonus adds).
	Type int
	Text string
}

// Library finds a library trait by name: its YAML mapping.
type Library func(name string) (*yaml.Node, bool)

// Options says what Read reads.
type Options struct {
	House    bool     // a rules: block (enabled:, side: allowed)
	Sides    []string // the scenario's side names, for a house rule's side:
	Lib      Library
	LibNames []string

	keepNames bool // a trait of a library list keeps its own name
}

var (
	traitFields = []string{"name", "description", "on", "action", "when", "do", "uses", "params", "use"}
	houseFields = []string{"name", "description", "on", "action", "when", "do", "uses", "params", "use", "side", "enabled"}
)

// Read reads a traits: list (or, with o.House, a rules: list) at path,
// reporting every problem through d; the traits that compiled come back
// (a house rule switched off with enabled: false is checked, not
// returned).
func Read(d *scenario.Decoder, n *yaml.Node, path string, decl *Decl, o Options) []Trait {
	if n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	what := "traits"
	if o.House {
		what = "rules"
	}
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, path, "%s is a list of {name, on, when, do}, e.g. [{name: Sneak Attack, on: hit, when: target.flat_footed, do: damage += 2d6}]", what)
		return nil
	}
	var out []Trait
	seen := map[string]bool{}
	for i, en := range n.Content {
		p := path + "[" + strconv.Itoa(i) + "]"
		// A library entry may hold several traits (Power Attack: a
		// penalty at attack_roll, a bonus at hit): each is read as if the
		// entry named it alone, with the entry's params: for all.
		opts := []Options{o}
		if ln := libList(en, o); ln != nil {
			opts = opts[:0]
			for _, elem := range ln.Content {
				oj := o
				oj.Lib = func(string) (*yaml.Node, bool) { return elem, true }
				oj.keepNames = true
				opts = append(opts, oj)
			}
		}
		for _, oj := range opts {
			t, ok, enabled := readOne(d, en, p, decl, oj)
			if t.Name != "" {
				if seen[t.Name] {
					d.Errorf(en, p+".name", "%s %q listed twice; --set addresses them by name", what, t.Name)
					ok = false
				}
				seen[t.Name] = true
			}
			if ok && enabled {
				out = append(out, t)
			}
		}
	}
	return out
}

// libList is the library entry en names when that entry is a list of
// traits, or nil.
func libList(en *yaml.Node, o Options) *yaml.Node {
	if o.Lib == nil {
		return nil
	}
	name := ""
	switch {
	case en.Kind == yaml.ScalarNode:
		name = en.Value
	case en.Kind == yaml.MappingNode && scenario.Value(en, "use") != nil:
		name = scenario.Value(en, "use").Value
	}
	if name == "" {
		return nil
	}
	if ln, ok := o.Lib(name); ok && ln.Kind == yaml.SequenceNode {
		return ln
	}
	return nil
}

// readOne reads one entry: a library trait's name, {use: NAME, params:
// {...}}, or a trait written out.
func readOne(d *scenario.Decoder, n *yaml.Node, path string, decl *Decl, o Options) (Trait, bool, bool) {
	t := Trait{Side: -1, Uses: -1, House: o.House, Node: n, Path: path}
	user := n // where problems are reported
	var overrides *yaml.Node
	lib := false
	useLib := func(name string, at *yaml.Node) bool {
		if o.Lib == nil {
			d.Errorf(at, path, "no library trait %q: %s has no trait library", name, decl.Ruleset)
			return false
		}
		ln, ok := o.Lib(name)
		if !ok {
			d.Errorf(at, path, "no library trait %q for %s%s; library: %s (simctl rules %s lists them)",
				name, decl.Ruleset, scenario.Suggest(name, o.LibNames), strings.Join(o.LibNames, ", "), decl.Ruleset)
			return false
		}
		t.From, n, lib = name, ln, true
		return true
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if !useLib(n.Value, n) {
			return t, false, false
		}
	case yaml.MappingNode:
		if u := scenario.Value(n, "use"); u != nil {
			for k := 0; k+1 < len(n.Content); k += 2 {
				if key := n.Content[k].Value; key != "use" && key != "params" && key != "enabled" && key != "side" && key != "name" {
					d.Errorf(n.Content[k], path+"."+key, "a trait with use: takes only name:, params:%s; copy the library trait to change its rule", houseExtra(o.House))
					return t, false, false
				}
			}
			overrides = scenario.Value(n, "params")
			if !useLib(d.Str(u, path+".use"), u) {
				return t, false, false
			}
		}
	default:
		d.Errorf(n, path, "a trait is a mapping {name, on, when, do} or a library trait's name")
		return t, false, false
	}
	if n.Kind != yaml.MappingNode {
		d.Errorf(user, path, "a trait is a mapping {name, on, when, do} or a library trait's name")
		return t, false, false
	}
	valid := traitFields
	if o.House {
		valid = houseFields
	}
	keys := d.Mapping(n, path, valid)
	at := func(k string) *yaml.Node { // a field's node, the user's entry for a library trait
		if lib {
			return user
		}
		return keys[k]
	}
	fpath := func(k string) string {
		if lib {
			return path + " (library trait " + t.From + ")." + k
		}
		return path + "." + k
	}
	ok, enabled := true, true
	if k := keys["name"]; k != nil {
		t.Name = d.Str(k, fpath("name"))
	}
	if un := scenario.Value(user, "name"); lib && !o.keepNames && un != nil && user.Kind == yaml.MappingNode {
		t.Name = d.Str(un, path+".name") // a library trait renamed where it is used
	}
	if t.Name == "" && ok {
		d.Errorf(user, path+".name", "missing; every trait has a name (counts, traces and --set use it)")
		ok = false
	} else if strings.ContainsAny(t.Name, ".=") {
		d.Errorf(at("name"), fpath("name"), "trait name %q may not contain '.' or '=' (--set addresses traits by name)", t.Name)
		ok = false
	}
	if o.House {
		if un := scenario.Value(user, "enabled"); un != nil {
			enabled = d.Bool(un, path+".enabled")
		} else if k := keys["enabled"]; k != nil {
			enabled = d.Bool(k, fpath("enabled"))
		}
		sn := scenario.Value(user, "side")
		if sn == nil {
			sn = keys["side"]
		}
		if sn != nil {
			s := d.Str(sn, path+".side")
			t.Side = -1
			for i, name := range o.Sides {
				if name == s {
					t.Side = i
				}
			}
			if t.Side < 0 {
				d.Errorf(sn, path+".side", "no side %q%s; sides: %s (leave side: out for everyone)", s, scenario.Suggest(s, o.Sides), strings.Join(o.Sides, ", "))
				ok = false
			}
		}
	}
	params, pok := readParams(d, keys["params"], fpath("params"))
	ok = ok && pok
	if overrides != nil {
		ov, ook := readParams(d, overrides, path+".params")
		ok = ok && ook
		for _, p := range ov {
			k := indexParam(params, p.name)
			if k < 0 {
				var names []string
				for _, q := range params {
					names = append(names, q.name)
				}
				d.Errorf(p.node, path+".params."+p.name, "library trait %s has no parameter %q%s; its params: %s", t.From, p.name, scenario.Suggest(p.name, names), strings.Join(names, ", "))
				ok = false
				continue
			}
			params[k] = p
		}
	}
	for _, p := range params {
		if p.missing {
			d.Errorf(user, path+".params", "library trait %s needs params: %s, e.g. {use: %s, params: {%s: ...}}", t.From, p.name, t.From, p.name)
			ok = false
		}
	}
	on := keys["on"]
	t.Moment = -1
	if an := keys["action"]; an != nil {
		// A special action: chosen by tactics, not fired at a moment.
		if on != nil {
			d.Errorf(at("on"), fpath("on"), "an action (action:) is chosen by a tactics rule (do: %s), not fired at a moment: drop on:", t.Name)
			return t, false, enabled
		}
		t.Action = d.Str(an, fpath("action"))
		if !slices.Contains(decl.ActionCosts, t.Action) {
			if len(decl.ActionCosts) == 0 {
				d.Errorf(at("action"), fpath("action"), "%s has no actions written as data yet", decl.Ruleset)
			} else {
				d.Errorf(at("action"), fpath("action"), "unknown action cost %q%s; %s offers: %s", t.Action, scenario.Suggest(t.Action, decl.ActionCosts), decl.Ruleset, strings.Join(decl.ActionCosts, ", "))
			}
			return t, false, enabled
		}
		t.Moment = decl.actionMoment()
	} else if on == nil {
		d.Errorf(at("name"), fpath("on"), "missing; give the moment it fires at (on:), one of %s", strings.Join(decl.MomentNames(), ", "))
		return t, false, enabled
	} else {
		mname := d.Str(on, fpath("on"))
		if t.Moment = decl.MomentIndex(mname); t.Moment < 0 || decl.Moments[t.Moment].Action {
			t.Moment = -1
			d.Errorf(at("on"), fpath("on"), "%s has no moment %q%s; moments: %s", decl.Ruleset, mname, scenario.Suggest(mname, decl.MomentNames()), strings.Join(decl.MomentNames(), ", "))
			return t, false, enabled
		}
	}
	var lp []lang.Param
	for _, p := range params {
		if p.isNum {
			lp = append(lp, lang.Param{Name: p.name, Val: p.num})
		}
	}
	env, refs := decl.env(t.Moment, lp)
	if w := keys["when"]; w != nil {
		src := d.Str(w, fpath("when"))
		prog, e := lang.Compile(src, env)
		if e != nil {
			report(d, at("when"), lib, fpath("when"), src, 0, e)
			ok = false
		} else {
			t.When, t.Slots = prog, slotRefs(prog, refs)
			if len(prog.Slots) == 0 && !prog.Eval(nil) {
				d.Warnf(at("when"), fpath("when"), "%s can never fire: its when: is always false", t.Name)
			}
		}
	}
	if u := keys["uses"]; u != nil {
		t.Uses, t.PerRound, ok = readUses(d, u, fpath("uses"), ok)
		if t.Uses == 0 && ok {
			d.Warnf(at("uses"), fpath("uses"), "%s can never fire: uses: 0", t.Name)
		}
	}
	dn := keys["do"]
	if dn == nil {
		d.Errorf(at("name"), fpath("do"), "missing; give its effects (do:), e.g. damage += 2d6")
		return t, false, enabled
	}
	var lines []*yaml.Node
	switch dn.Kind {
	case yaml.ScalarNode:
		lines = []*yaml.Node{dn}
	case yaml.SequenceNode:
		lines = dn.Content
	default:
		d.Errorf(at("do"), fpath("do"), "do: is an effect or a list of effects, e.g. damage += 2d6")
		return t, false, enabled
	}
	if len(lines) == 0 {
		d.Errorf(at("do"), fpath("do"), "do: is an effect or a list of effects, e.g. damage += 2d6")
		return t, false, enabled
	}
	for _, ln := range lines {
		node := ln
		if lib {
			node = user
		}
		e, eok := readEffect(d, node, lib, fpath("do"), d.Str(ln, fpath("do")), decl, t.Moment, env, refs, params)
		if eok {
			e.Text = withParams(e.Text, params)
			t.Effects = append(t.Effects, e)
		}
		ok = ok && eok
	}
	return t, ok, enabled
}

func houseExtra(house bool) string {
	if house {
		return ", enabled:, side:"
	}
	return ""
}

// slotRefs maps a program's slots to what they read.
func slotRefs(p *lang.Program, refs []Ref) []Ref {
	out := make([]Ref, len(p.Slots))
	for k, s := range p.Slots {
		out[k] = refs[s.Fact]
	}
	return out
}

// report records a compile error of an expression at column col+e.Pos of
// the text src written at n.
func report(d *scenario.Decoder, n *yaml.Node, lib bool, path, src string, col int, e *lang.Error) {
	if lib {
		d.Errorf(n, path, "%s%s", e.Text, lang.Caret(src, col+e.Pos))
		return
	}
	d.ErrorAt(n, col+e.Pos, path, "%s%s", e.Text, lang.Caret(src, col+e.Pos))
}

type param struct {
	name    string
	node    *yaml.Node
	isNum   bool
	num     float64
	dice    dice.Expr
	missing bool // a library parameter without a default (name: ~)
}

func indexParam(ps []param, name string) int {
	for i, p := range ps {
		if p.name == name {
			return i
		}
	}
	return -1
}

// withParams is an effect's text with each $NAME of params replaced by
// the value as written (damage += $dice: damage += 2d6), so that a trace
// says what this trait played rather than the library's placeholder.
func withParams(text string, params []param) string {
	if !strings.Contains(text, "$") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '$')
		if i < 0 {
			break
		}
		j := i + 1
		for j < len(text) && lang.IdentChar(text[j]) {
			j++
		}
		b.WriteString(text[:i])
		if k := indexParam(params, text[i+1:j]); k >= 0 && !params[k].missing {
			b.WriteString(strings.TrimSpace(params[k].node.Value))
		} else {
			b.WriteString(text[i:j])
		}
		text = text[j:]
	}
	b.WriteString(text)
	return b.String()
}

// readParams reads params: {NAME: number or dice}.
func readParams(d *scenario.Decoder, n *yaml.Node, path string) ([]param, bool) {
	if n == nil {
		return nil, true
	}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "params is a mapping of names to numbers or dice, e.g. {dice: 2d6, trade: 1}")
		return nil, false
	}
	var out []param
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := param{name: k.Value, node: v}
		switch {
		case !lang.ValidIdent(k.Value):
			d.Errorf(k, path+"."+k.Value, "parameter name %q: use letters, digits and _ (it is written $%s)", k.Value, k.Value)
			ok = false
			continue
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
			p.missing = true
		case v.Kind != yaml.ScalarNode:
			d.Errorf(v, path+"."+k.Value, "a trait parameter is a number (2) or dice (2d6)")
			ok = false
			continue
		default:
			if f, err := strconv.ParseFloat(v.Value, 64); err == nil {
				p.isNum, p.num = true, f
				p.dice = dice.Const(int(f))
				if f != float64(int(f)) {
					p.dice = dice.Expr{}
				}
			} else if e, err := dice.Parse(v.Value); err == nil {
				p.dice = e
			} else {
				d.Errorf(v, path+"."+k.Value, "parameter %s: %q is neither a number nor dice (2, 2d6, 1d8+1)", k.Value, v.Value)
				ok = false
				continue
			}
		}
		out = append(out, p)
	}
	return out, ok
}

// readUses reads uses: N (per fight), N/round or N/fight.
func readUses(d *scenario.Decoder, n *yaml.Node, path string, ok bool) (int, bool, bool) {
	s := strings.TrimSpace(d.Str(n, path))
	num, per, _ := strings.Cut(s, "/")
	k, err := strconv.Atoi(strings.TrimSpace(num))
	per = strings.TrimSpace(per)
	if err != nil || k < 0 || k > 1000 || per != "" && per != "round" && per != "fight" {
		d.Errorf(n, path, "uses %q: expected a count per fight (2, 2/fight) or per round (1/round), from 0 to 1000", s)
		return 0, false, false
	}
	return k, per == "round", ok
}

// readEffect reads one effect: QTY += AMOUNT, QTY -= AMOUNT, QTY = AMOUNT,
// apply COND [to OTHER|self] [for N round(s)], remove COND [from
// OTHER|self], grant action, spend action.
func readEffect(d *scenario.Decoder, n *yaml.Node, lib bool, path, src string, decl *Decl, m int, env *lang.Env, refs []Ref, params []param) (Effect, bool) {
	e := Effect{Text: strings.TrimSpace(src), Sign: 1}
	mo := &decl.Moments[m]
	r := &effReader{d: d, n: n, lib: lib, path: path, src: src}
	lead := len(src) - len(strings.TrimLeft(src, " \t"))
	s := strings.TrimSpace(src)
	words := strings.Fields(s)
	if len(words) == 0 {
		return r.fail(e, 0, "empty effect; write QUANTITY += AMOUNT, apply CONDITION or remove CONDITION")
	}
	switch words[0] {
	case "grant", "spend":
		if len(words) != 2 || words[1] != "action" {
			return r.fail(e, lead, "%s action: one more or one fewer action this turn; got %q", words[0], s)
		}
		if !decl.has(m, "actions") {
			return r.fail(e, lead, "%s action needs actions, which %s does not offer; actions change at %s", words[0], mo.Name, strings.Join(momentsWith(decl, "actions"), ", "))
		}
		e.Kind, e.Q, e.Dice = Add, decl.QuantityIndex("actions"), dice.Const(1)
		if words[0] == "spend" {
			e.Sign = -1
		}
		return e, true
	case "apply", "remove":
		return r.cond(e, words, s, lead, decl, mo)
	}
	// QTY OP AMOUNT
	end := 0
	for end < len(s) && lang.IdentChar(s[end]) {
		end++
	}
	opAt := end + len(s[end:]) - len(strings.TrimLeft(s[end:], " \t"))
	if end == 0 || !strings.ContainsAny(s, "=") {
		return r.fail(e, lead, "unknown effect %q; write QUANTITY += AMOUNT, QUANTITY -= AMOUNT, QUANTITY = AMOUNT, apply CONDITION, remove CONDITION, grant action or spend action", s)
	}
	qname := s[:end]
	op := s[opAt:]
	switch {
	case strings.HasPrefix(op, "+="):
		e.Kind, op = Add, "+="
	case strings.HasPrefix(op, "-="):
		e.Kind, e.Sign, op = Add, -1, "-="
	case strings.HasPrefix(op, "=") && !strings.HasPrefix(op, "=="):
		e.Kind, op = Set, "="
	default:
		return r.fail(e, lead+opAt, "expected +=, -= or = after %s", qname)
	}
	qi := decl.QuantityIndex(qname)
	if qi < 0 {
		var all []string
		for _, q := range decl.Quantities {
			all = append(all, q.Name)
		}
		return r.fail(e, lead, "%s has no quantity %q%s; quantities: %s", decl.Ruleset, qname, scenario.Suggest(qname, all), strings.Join(all, ", "))
	}
	if !decl.has(m, qname) {
		return r.fail(e, lead, "%s does not exist at %s (it offers: %s); %s changes at %s", qname, mo.Name, listOr(mo.Quantities), qname, strings.Join(momentsWith(decl, qname), ", "))
	}
	e.Q = qi
	rest := s[opAt+len(op):]
	col := lead + opAt + len(op) + len(rest) - len(strings.TrimLeft(rest, " \t"))
	amount := strings.TrimSpace(rest)
	if k := asAt(amount); k >= 0 {
		tcol := col + k + 2 + len(amount[k+2:]) - len(strings.TrimLeft(amount[k+2:], " \t"))
		tname := strings.TrimSpace(amount[k+2:])
		amount = strings.TrimSpace(amount[:k])
		var types []string
		for _, b := range decl.BonusTypes {
			types = append(types, b.Name)
		}
		switch {
		case e.Kind == Set:
			return r.fail(e, tcol, "a bonus type goes with += or -=, not with = (a set value is no bonus)")
		case len(types) == 0:
			return r.fail(e, tcol, "%s has no bonus types: every bonus adds; write the amount without as %s", decl.Ruleset, tname)
		case tname == "":
			return r.fail(e, tcol, "as needs a bonus type; bonus types: %s", strings.Join(types, ", "))
		}
		if e.Type = decl.BonusTypeIndex(tname) + 1; e.Type == 0 {
			return r.fail(e, tcol, "%s has no bonus type %q%s; bonus types: %s (no as: untyped)", decl.Ruleset, tname, scenario.Suggest(tname, types), strings.Join(types, ", "))
		}
	}
	if amount == "" {
		return r.fail(e, col, "missing the amount after %s: a number, dice (2d6) or $parameter", op)
	}
	if name, ok := strings.CutPrefix(amount, "$"); ok && lang.ValidIdent(name) {
		k := indexParam(params, name)
		if k < 0 {
			var names []string
			for _, p := range params {
				names = append(names, "$"+p.name)
			}
			if len(names) == 0 {
				return r.fail(e, col, "unknown parameter $%s: this trait has no params: (declare it, e.g. params: {%s: 2d6})", name, name)
			}
			return r.fail(e, col, "unknown parameter $%s%s; params: %s", name, lang.Suggest(name, names, "$"), strings.Join(names, ", "))
		}
		p := params[k]
		if p.missing {
			return e, false // reported: the library parameter has no value
		}
		if p.dice.IsZero() {
			return r.fail(e, col, "parameter $%s is %v, not a whole number or dice", name, p.num)
		}
		if !p.dice.IsConst() && !decl.Quantities[qi].Dice {
			return r.fail(e, col, "%s takes a number, not dice ($%s is %s)", qname, name, p.dice.String())
		}
		e.Dice = p.dice
		return e, true
	}
	if dx, err := dice.Parse(amount); err == nil {
		if !dx.IsConst() && !decl.Quantities[qi].Dice {
			return r.fail(e, col, "%s takes a number, not dice (%s)", qname, amount)
		}
		e.Dice = dx
		return e, true
	}
	prog, le := lang.CompileNumber(amount, env)
	if le != nil {
		report(d, n, lib, path, src, col, le)
		return e, false
	}
	e.Num, e.Slots = prog, slotRefs(prog, refs)
	return e, true
}

// effReader reports the problems of one effect, at a column of its text.
type effReader struct {
	d    *scenario.Decoder
	n    *yaml.Node
	lib  bool
	path string
	src  string
}

// fail records the problem at column col with a caret and returns e, false.
func (r *effReader) fail(e Effect, col int, format string, args ...any) (Effect, bool) {
	t := msg.New(format, args...)
	if r.lib {
		r.d.Errorf(r.n, r.path, "%s%s", t, lang.Caret(r.src, col))
	} else {
		r.d.ErrorAt(r.n, col, r.path, "%s%s", t, lang.Caret(r.src, col))
	}
	return e, false
}

func (r *effReader) cond(e Effect, words []string, s string, lead int, decl *Decl, mo *Moment) (Effect, bool) {
	verb := words[0]
	e.Kind = Apply
	if verb == "remove" {
		e.Kind = Remove
	}
	var conds []string
	for _, c := range decl.Conditions {
		conds = append(conds, c.Name)
	}
	if len(words) < 2 {
		return r.fail(e, lead, "%s needs a condition: %s CONDITION; conditions: %s", verb, verb, strings.Join(conds, ", "))
	}
	if e.Cond = decl.ConditionIndex(words[1]); e.Cond < 0 {
		return r.fail(e, lead+len(verb)+1, "%s has no condition %q%s; conditions: %s", decl.Ruleset, words[1], scenario.Suggest(words[1], conds), strings.Join(conds, ", "))
	}
	rest := words[2:]
	prep := "to"
	if e.Kind == Remove {
		prep = "from"
	}
	if len(rest) >= 2 && rest[0] == prep {
		switch rest[1] {
		case "self":
		case mo.Other:
			if mo.Other == "" {
				break
			}
			e.Who = Other
		default:
			whom := "self"
			if mo.Other != "" {
				whom = "self or " + mo.Other
			}
			return r.fail(e, lead, "%s %s %s: at %s a condition goes %s %s", verb, prep, rest[1], mo.Name, prep, whom)
		}
		rest = rest[2:]
	}
	if len(rest) >= 2 && rest[0] == "for" && e.Kind == Apply {
		k, err := strconv.Atoi(rest[1])
		if err != nil || k < 1 || k > 1000 || len(rest) > 3 || len(rest) == 3 && rest[2] != "round" && rest[2] != "rounds" {
			return r.fail(e, lead, "%q: a duration is for N rounds, N from 1 to 1000", s)
		}
		e.Rounds = k
		rest = nil
	}
	if len(rest) > 0 {
		if e.Kind == Apply {
			return r.fail(e, lead, "%q: write apply CONDITION [to self|to %s] [for N rounds]", s, otherOr(mo))
		}
		return r.fail(e, lead, "%q: write remove CONDITION [from self|from %s]", s, otherOr(mo))
	}
	return e, true
}

func otherOr(mo *Moment) string {
	if mo.Other == "" {
		return "self"
	}
	return mo.Other
}

func momentsWith(decl *Decl, q string) []string {
	var out []string
	for i, m := range decl.Moments {
		if decl.has(i, q) {
			out = append(out, m.Name)
		}
	}
	return out
}

func listOr(qs []string) string {
	if len(qs) == 0 {
		return "no quantities"
	}
	return strings.Join(qs, ", ")
}

// asAt is where the bonus type of an amount begins (AMOUNT as TYPE): the
// index of its last word "as", or -1.
func asAt(amount string) int {
	f := strings.Fields(amount)
	switch {
	case len(f) >= 2 && f[len(f)-2] == "as":
		return strings.LastIndex(strings.TrimRight(amount[:len(amount)-len(f[len(f)-1])], " \t"), "as")
	case len(f) >= 1 && f[len(f)-1] == "as":
		return len(amount) - 2
	}
	return -1
}
