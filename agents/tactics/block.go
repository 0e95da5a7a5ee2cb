package tactics

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim/lang"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// Block is a tactics: block as written: parameters and, per moment of
// decision, the ordered rules. Rulesets compile it (their binding checks
// conditions against their facts and parses do: and target: themselves).
type Block struct {
	Params  []Param
	Names   []string // string parameters ($until: Captain), substituted in do:, target: and fact arguments
	Moments []Moment
	Node    *yaml.Node
	Path    string
	From    string // the library tactic it came from ("" when written inline)

	required []string // library parameters without a default (until: ~)
}

// Moment is one moment's rules, in order.
type Moment struct {
	Name  string
	Rules []Rule
	Node  *yaml.Node
	Path  string
}

// Rule is one rule as written.
type Rule struct {
	Name   string // the name: field, or "#N" (1-based) without one
	When   Text   // empty S: always
	Do     Text
	Target Text
	Node   *yaml.Node
	Path   string
}

// Text is a string field with its node, for positions.
type Text struct {
	S    string
	Node *yaml.Node
	Path string
	Lib  bool // from a library tactic: Node is the user's tactics: node, columns do not apply
}

// declared are the moments of decision each binding declared (Declare), so
// a block that names one its ruleset lacks is told so rather than "unknown
// field". Written only from init, read after.
var declared = map[string][]string{}

// Declare records ruleset's moments of decision; its binding calls it from
// init, so the list of every ruleset's moments is derived, never kept by
// hand. A second declaration for one ruleset panics (a programming error).
func Declare(ruleset string, ms ...string) {
	if _, dup := declared[ruleset]; dup {
		panic("tactics: moments of " + ruleset + " declared twice")
	}
	declared[ruleset] = ms
}

// AllMoments returns the moments every declared ruleset offers, sorted.
func AllMoments() []string {
	var all []string
	for _, ms := range declared {
		for _, m := range ms {
			if !slices.Contains(all, m) {
				all = append(all, m)
			}
		}
	}
	slices.Sort(all)
	return all
}

// Library finds a library tactic by name: its YAML block.
type Library func(name string) (*yaml.Node, bool)

// ReadBlock reads a tactics: block, checking its shape: the moments
// against those the ruleset offers, and each rule's fields. n is either a
// mapping (params:, moments) or the name of a library tactic, or a mapping
// {use: NAME, params: {...}} that takes a library tactic and overrides its
// parameters.
func ReadBlock(d *scenario.Decoder, n *yaml.Node, path, ruleset string, moments []string, lib Library, libNames []string) (Block, bool) {
	b := Block{Node: n, Path: path}
	bad := func(format string, args ...any) (Block, bool) {
		d.Errorf(n, path, format, args...)
		return b, false
	}
	useLib := func(name string, at *yaml.Node) (*yaml.Node, bool) {
		ln, ok := lib(name)
		if !ok {
			d.Errorf(at, path, "no library tactic %q for %s%s; library: %s (simctl policies %s lists them)",
				name, ruleset, scenario.Suggest(name, libNames), strings.Join(libNames, ", "), ruleset)
		}
		return ln, ok
	}
	var overrides *yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		ln, ok := useLib(n.Value, n)
		if !ok {
			return b, false
		}
		b.From = n.Value
		n = ln
	case yaml.MappingNode:
		if u := scenario.Value(n, "use"); u != nil {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i].Value; k != "use" && k != "params" {
					d.Errorf(n.Content[i], path+"."+k, "a tactics block with use: takes only params: (to change the library tactic's parameters); copy the library tactic to edit its rules")
				}
			}
			ln, ok := useLib(d.Str(u, path+".use"), u)
			if !ok {
				return b, false
			}
			b.From = u.Value
			overrides = scenario.Value(n, "params")
			n = ln
		}
	default:
		return bad("a tactics block is a mapping (params:, %s:) or the name of a library tactic, got a %s", strings.Join(moments, ":, "), kindOf(n))
	}
	if n.Kind != yaml.MappingNode {
		return bad("a tactics block is a mapping (params:, %s:)", strings.Join(moments, ":, "))
	}
	ok := true
	user := b.Node
	valid := append([]string{"params"}, moments...)
	all := AllMoments()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if slices.Contains(all, k) && slices.Index(moments, k) < 0 {
			d.Errorf(n.Content[i], path+"."+k, "%s has no %s moment (its book offers no such decision); %s offers: %s", ruleset, k, ruleset, strings.Join(moments, ", "))
			valid = append(valid, k) // reported here, not as an unknown field
			ok = false
		}
	}
	keys := d.Mapping(n, path, valid)
	if pn := keys["params"]; pn != nil {
		ok = b.readParams(d, pn, path+".params") && ok
	}
	if overrides != nil {
		ok = b.override(d, overrides, path+".params") && ok
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name := n.Content[i].Value
		if name == "params" || keys[name] == nil || slices.Index(moments, name) < 0 {
			continue
		}
		m, mok := readMoment(d, keys[name], path+"."+name, name)
		ok = ok && mok
		b.Moments = append(b.Moments, m)
	}
	if len(b.required) > 0 {
		d.Errorf(user, path, "library tactic %s needs params: %s, e.g. {use: %s, params: {%s: ...}}", b.From, strings.Join(b.required, ", "), b.From, b.required[0])
		ok = false
	}
	if b.From != "" {
		// Problems inside a library tactic (a name parameter that is not a
		// combatant here) are the user's tactics: line's.
		for mi := range b.Moments {
			for ri := range b.Moments[mi].Rules {
				r := &b.Moments[mi].Rules[ri]
				for _, t := range []*Text{&r.When, &r.Do, &r.Target} {
					t.Node, t.Lib = user, true
					t.Path = path + " (library tactic " + b.From + ", rule " + r.Name + ")"
				}
				r.Node, r.Path = user, path+" (library tactic "+b.From+", rule "+r.Name+")"
			}
		}
	}
	if len(b.Moments) == 0 && ok {
		d.Errorf(n, path, "no rules: give at least one moment (%s:) with a list of rules", strings.Join(moments, ":, "))
		ok = false
	}
	return b, ok
}

func (b *Block) readParams(d *scenario.Decoder, n *yaml.Node, path string) bool {
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "params is a mapping of names to numbers or names, e.g. {low: 0.4, until: Wizard}")
		return false
	}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !lang.ValidIdent(k.Value) {
			d.Errorf(k, path+"."+k.Value, "parameter name %q: use letters, digits and _ (it is written $%s)", k.Value, k.Value)
			ok = false
			continue
		}
		ok = b.setParam(d, k.Value, v, path+"."+k.Value) && ok
	}
	return ok
}

func (b *Block) setParam(d *scenario.Decoder, name string, v *yaml.Node, path string) bool {
	if v.Kind != yaml.ScalarNode {
		d.Errorf(v, path, "a parameter is a number (0.4) or a name (Wizard), got a %s", kindOf(v))
		return false
	}
	if f, err := strconv.ParseFloat(v.Value, 64); err == nil && v.Style == 0 {
		b.Params = append(b.Params, Param{Name: name, Val: f})
		return true
	}
	if v.Tag == "!!null" {
		b.required = append(b.required, name)
		return true
	}
	b.Names = append(b.Names, name+"="+v.Value)
	return true
}

// override replaces library parameters by the user's: only names the
// library tactic declares, so a typo is not silently ignored.
func (b *Block) override(d *scenario.Decoder, n *yaml.Node, path string) bool {
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "params is a mapping of names to numbers or names")
		return false
	}
	var o Block
	if !o.readParams(d, n, path) {
		return false
	}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		name := n.Content[i].Value
		if !b.has(name) {
			d.Errorf(n.Content[i], path+"."+name, "library tactic %s has no parameter %q%s; its params: %s", b.From, name, scenario.Suggest(name, b.ParamNames()), strings.Join(b.ParamNames(), ", "))
			ok = false
		}
	}
	for _, name := range o.ParamNames() {
		for i := 0; i < len(b.required); i++ {
			if b.required[i] == name {
				b.required = append(b.required[:i], b.required[i+1:]...)
				i--
			}
		}
	}
	for _, p := range o.Params {
		b.drop(p.Name)
		b.Params = append(b.Params, p)
	}
	for _, s := range o.Names {
		name, _, _ := strings.Cut(s, "=")
		b.drop(name)
		b.Names = append(b.Names, s)
	}
	return ok
}

func (b *Block) has(name string) bool {
	for _, r := range b.required {
		if r == name {
			return true
		}
	}
	for _, p := range b.ParamNames() {
		if p == name {
			return true
		}
	}
	return false
}

func (b *Block) drop(name string) {
	for i := 0; i < len(b.Params); i++ {
		if b.Params[i].Name == name {
			b.Params = append(b.Params[:i], b.Params[i+1:]...)
			i--
		}
	}
	for i := 0; i < len(b.Names); i++ {
		if n, _, _ := strings.Cut(b.Names[i], "="); n == name {
			b.Names = append(b.Names[:i], b.Names[i+1:]...)
			i--
		}
	}
}

// ParamNames lists every parameter, numbers and names.
func (b *Block) ParamNames() []string {
	out := append([]string(nil), b.required...)
	for _, p := range b.Params {
		out = append(out, p.Name)
	}
	for _, s := range b.Names {
		n, _, _ := strings.Cut(s, "=")
		out = append(out, n)
	}
	return out
}

// Name returns the value of string parameter name.
func (b *Block) Name(name string) (string, bool) {
	for _, s := range b.Names {
		if n, v, _ := strings.Cut(s, "="); n == name {
			return v, true
		}
	}
	return "", false
}

// Expand substitutes string parameters ($until) in a do: or target: text.
// It returns a message naming the parameter when one is unknown (the zero
// Text, Format "", when all are known).
func (b *Block) Expand(s string) (string, msg.Text) {
	if !strings.Contains(s, "$") {
		return s, msg.Text{}
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			out.WriteByte(s[i])
			continue
		}
		j := i + 1
		for j < len(s) && lang.IdentChar(s[j]) {
			j++
		}
		name := s[i+1 : j]
		v, ok := b.Name(name)
		if !ok {
			for _, p := range b.Params {
				if p.Name == name {
					v, ok = strconv.FormatFloat(p.Val, 'f', -1, 64), true
				}
			}
		}
		if !ok {
			return s, msg.New("unknown parameter $%s%s; params: %s", name, lang.Suggest(name, b.ParamNames(), ""), strings.Join(b.ParamNames(), ", "))
		}
		out.WriteString(v)
		i = j - 1
	}
	return out.String(), msg.Text{}
}

func readMoment(d *scenario.Decoder, n *yaml.Node, path, name string) (Moment, bool) {
	m := Moment{Name: name, Node: n, Path: path}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.Errorf(n, path, "%s: is a list of rules, e.g. [{when: round == 1, do: attack}]", name)
		return m, false
	}
	ok := true
	for i, rn := range n.Content {
		rp := fmt.Sprintf("%s[%d]", path, i)
		r := Rule{Node: rn, Path: rp, Name: fmt.Sprintf("#%d", i+1)}
		if rn.Kind != yaml.MappingNode {
			d.Errorf(rn, rp, "a rule is a mapping {name:, when:, do:, target:}")
			ok = false
			continue
		}
		keys := d.Mapping(rn, rp, []string{"name", "when", "do", "target"})
		text := func(k string) Text {
			if v := keys[k]; v != nil {
				return Text{S: strings.TrimSpace(d.Str(v, rp+"."+k)), Node: v, Path: rp + "." + k}
			}
			return Text{Path: rp + "." + k}
		}
		if v := keys["name"]; v != nil {
			r.Name = d.Str(v, rp+".name")
		}
		r.When, r.Do, r.Target = text("when"), text("do"), text("target")
		if keys["when"] != nil && r.When.S == "" {
			d.Errorf(keys["when"], rp+".when", "empty condition; leave out when: for a rule that always applies")
			ok = false
		}
		if r.Do.S == "" {
			d.Errorf(rn, rp+".do", "missing; every rule needs a decision (do:)")
			ok = false
		}
		m.Rules = append(m.Rules, r)
	}
	return m, ok
}

// kindOf names n's kind, a word the message around it translates with.
func kindOf(n *yaml.Node) msg.Text {
	switch n.Kind {
	case yaml.ScalarNode:
		return msg.New("scalar")
	case yaml.SequenceNode:
		return msg.New("list")
	}
	return msg.New("mapping")
}

// Report records a compile error of the condition in t through d, at the
// column of the error, with the condition and a caret under it.
func Report(d *scenario.Decoder, t Text, e *Error) {
	// e.Text, not e.Msg: the message translates, the caret line stays.
	if t.Lib {
		d.Errorf(t.Node, t.Path, "%s%s", e.Text, lang.Caret(t.S, e.Pos))
		return
	}
	d.ErrorAt(t.Node, e.Pos, t.Path, "%s%s", e.Text, lang.Caret(t.S, e.Pos))
}
