package scenario

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim/msg"
)

// Set is one `--set PATH=VALUE` override. PATH addresses the YAML tree with
// sides and combatants by name: `max_rounds`, `options.dying`,
// `heroes.aware`, `heroes.Fighter.init`, `heroes.Fighter.policy.until`.
// VALUE is YAML (`4`, `3d10+6`, `[6, 1]`, `{name: ready, trigger: charge}`).
type Set struct{ Path, Value string }

// ParseSet splits "PATH=VALUE".
func ParseSet(s string) (Set, error) {
	i := strings.IndexByte(s, '=')
	if i <= 0 || strings.TrimSpace(s[:i]) == "" { // " =" has no path either (found by FuzzParseSet)
		return Set{}, msg.Errorf("--set %q: expected PATH=VALUE, e.g. heroes.Fighter.init=4", s)
	}
	return Set{Path: strings.TrimSpace(s[:i]), Value: s[i+1:]}, nil
}

func (s Set) String() string { return s.Path + "=" + s.Value }

// apply writes the override into the document tree, telling rep which nodes
// it wrote so that problems with them name the override.
func (s Set) apply(root *yaml.Node, rep *Reporter) error {
	v, err := s.parseValue()
	if err != nil {
		return err
	}
	return s.put(root, rep, v)
}

// parseValue reads the override's VALUE as YAML.
func (s Set) parseValue() (*yaml.Node, error) {
	var val yaml.Node
	if err := yaml.Unmarshal([]byte(s.Value), &val); err != nil {
		return nil, msg.Errorf("value %q is not valid YAML: %v", s.Value, yamlLibErr(err))
	}
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: ""}
	if len(val.Content) > 0 {
		v = val.Content[0]
	}
	if deep := tooDeep(v); deep != nil {
		return nil, msg.Errorf("value nested too deeply: more than %d levels of mappings and lists, at column %d", MaxNodeDepth, deep.Column)
	}
	return v, nil
}

// put writes v, the override's value as parsed (a tree of its own: it
// becomes part of root), at the override's path.
func (s Set) put(root *yaml.Node, rep *Reporter, v *yaml.Node) error {
	n, rest, err := resolve(root, s.Path)
	if err != nil {
		return err
	}
	return setIn(n, rest, v, func(n *yaml.Node) { rep.markSet(n, s.String()) })
}

// ValueAt returns the YAML text of the field that PATH (as in --set)
// addresses in the scenario data after sets are applied, and false when
// the field is not written there (its default applies). Experiments that
// step a field up and down (exchange rates, sensitivity) read its current
// value with it.
func ValueAt(data []byte, sets []Set, path string) (string, bool, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return "", false, msg.Errorf("the scenario is not YAML")
	}
	a, err := applyAll(doc.Content[0], sets, Set.parseValue)
	if err != nil {
		return "", false, err
	}
	return a.ValueAt(path)
}

// Applied is a scenario's tree with overrides applied, to read fields
// from (ValueAt, without parsing the text again for every field).
type Applied struct{ root *yaml.Node }

// applyAll applies sets to root (a tree of the caller's own), each value
// parsed by value.
func applyAll(root *yaml.Node, sets []Set, value func(Set) (*yaml.Node, error)) (*Applied, error) {
	rep := &Reporter{}
	for _, s := range sets {
		v, err := value(s)
		if err == nil {
			err = s.put(root, rep, v)
		}
		if err != nil {
			return nil, msg.Errorf("%s %s: %v", "--set", s, err) // the flag is an argument: nothing to translate
		}
	}
	return &Applied{root: root}, nil
}

// ValueAt is the package's ValueAt of the tree: the YAML text of the
// field PATH addresses, false when it is not written.
func (a *Applied) ValueAt(path string) (string, bool, error) {
	root := a.root
	n, rest, err := resolve(root, path)
	if err != nil {
		return "", false, err
	}
	for _, p := range rest {
		if n.Kind == yaml.SequenceNode {
			n = Named(n, p)
		} else {
			n = Value(n, p)
		}
		if n == nil {
			return "", false, nil
		}
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value, true, nil
	}
	out, err := yaml.Marshal(n)
	if err != nil {
		return "", false, err
	}
	return strings.TrimSpace(string(out)), true, nil
}

// resolve finds where PATH starts inside the document: the root for a
// top-level field, a side's node for a side field, a combatant's node for a
// combatant field, with the remaining path segments below it.
func resolve(root *yaml.Node, path string) (*yaml.Node, []string, error) {
	if root.Kind != yaml.MappingNode {
		return nil, nil, msg.Errorf("the scenario is not a mapping")
	}
	parts := strings.Split(path, ".")
	for _, p := range parts {
		if p == "" {
			return nil, nil, msg.Errorf("empty segment in path %q", path)
		}
	}
	top := parts[0]
	for _, f := range topFields {
		if top == f {
			return root, parts, nil
		}
	}
	// A side by name.
	sides := Value(root, "sides")
	if sides == nil || sides.Kind != yaml.SequenceNode {
		return nil, nil, msg.Errorf("no sides to address")
	}
	var names []string
	for _, sn := range sides.Content {
		name := scalarField(sn, "name")
		names = append(names, name)
		if name != top {
			continue
		}
		if len(parts) == 1 {
			return nil, nil, msg.Errorf("%q is a side; name a field, e.g. %s.aware=false", top, top)
		}
		// A common side field, or a ruleset's side field the file already
		// has (blocks_exits in lotm, for example).
		if isSideField(parts[1]) || parts[1] != "combatants" && Value(sn, parts[1]) != nil {
			return sn, parts[1:], nil
		}
		cs := Value(sn, "combatants")
		var cnames []string
		if cs != nil && cs.Kind == yaml.SequenceNode {
			for _, cn := range cs.Content {
				cname := scalarField(cn, "name")
				cnames = append(cnames, cname)
				if cname == parts[1] {
					if len(parts) == 2 {
						return nil, nil, msg.Errorf("%q is a combatant; name a field, e.g. %s.%s.init=4", parts[1], top, parts[1])
					}
					return cn, parts[2:], nil
				}
			}
		}
		return nil, nil, msg.Errorf("side %q has no combatant or field %q%s (combatants: %s; side fields: %s)",
			top, parts[1], Suggest(parts[1], append(cnames, settableSideFields()...)),
			strings.Join(cnames, ", "), strings.Join(settableSideFields(), ", "))
	}
	return nil, nil, msg.Errorf("%q is neither a top-level field nor a side%s (top-level fields: %s; sides: %s)",
		top, Suggest(top, append(append([]string(nil), topFields...), names...)),
		strings.Join(topFields, ", "), strings.Join(names, ", "))
}

// settableSideFields are the side fields a --set can address directly
// (combatants are addressed by name instead).
func settableSideFields() []string {
	var out []string
	for _, f := range sideFields {
		if f != "combatants" {
			out = append(out, f)
		}
	}
	return out
}

func isSideField(f string) bool {
	for _, s := range sideFields {
		if s == f && s != "combatants" {
			return true
		}
	}
	return false
}

// setIn walks mapping keys, creating missing ones, and sets the last. A
// scalar policy is widened to {name: ...} when a parameter is set on it
// (heroes.Fighter.policy.until=Cleric on "policy: delay"). mark is told
// about every node the override writes.
func setIn(n *yaml.Node, parts []string, v *yaml.Node, mark func(*yaml.Node)) error {
	for i, p := range parts {
		last := i == len(parts)-1
		if n.Kind == yaml.ScalarNode && n.Tag != "!!null" && i > 0 && parts[i-1] == "policy" {
			// widen "policy: ready" to {name: ready} before setting a parameter
			name := *n
			*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: name.Line, Column: name.Column,
				Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "name", Line: name.Line, Column: name.Column}, &name}}
		}
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
		}
		if n.Kind == yaml.SequenceNode {
			// A list of named entries (traits:, rules:) is addressed by
			// name: heroes.Fighter.traits.Sneak Attack.params.dice.
			child := Named(n, p)
			if child == nil {
				var names []string
				for _, e := range n.Content {
					if v := scalarField(e, "name"); v != "" {
						names = append(names, v)
					}
				}
				return msg.Errorf("no entry named %q in the list%s (names: %s)", p, Suggest(p, names), strings.Join(names, ", "))
			}
			if last {
				place(v, child.Line, child.Column)
				*child = *v
				mark(child)
				return nil
			}
			n = child
			continue
		}
		if n.Kind != yaml.MappingNode {
			return msg.Errorf("cannot set %q inside a %s", p, kindName(n))
		}
		child := Value(n, p)
		if child == nil {
			key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p, Line: n.Line, Column: n.Column}
			child = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: n.Line, Column: n.Column}
			n.Content = append(n.Content, key, child)
			mark(key)
		}
		if last {
			// The value's own positions are columns of the --set text;
			// every node of it is reported at the field it replaces.
			place(v, child.Line, child.Column)
			*child = *v
			mark(child)
			return nil
		}
		n = child
	}
	return nil
}

// place moves n and everything under it to line:col.
func place(n *yaml.Node, line, col int) {
	n.Line, n.Column = line, col
	for _, c := range n.Content {
		place(c, line, col)
	}
}

// Entry returns the key and value nodes of key in mapping n, or nils when
// n is not a mapping or lacks the key: the one YAML key lookup.
func Entry(n *yaml.Node, key string) (k, v *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

// Value is the value node of key in mapping n, or nil (see Entry).
func Value(n *yaml.Node, key string) *yaml.Node {
	_, v := Entry(n, key)
	return v
}

// Named is the entry of list n whose name: is name (a scalar entry counts
// as its own name: a library trait written by name), or nil.
func Named(n *yaml.Node, name string) *yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	for _, e := range n.Content {
		if scalarField(e, "name") == name || e.Kind == yaml.ScalarNode && e.Value == name {
			return e
		}
	}
	return nil
}

func scalarField(n *yaml.Node, key string) string {
	if v := Value(n, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}
