package scenario

import (
	"bytes"
	"io"
	"sync"

	"go.yaml.in/yaml/v3"

	"simctl/sim/msg"
)

// Parsed is a scenario's text parsed once, for callers that decode it
// many times under different overrides (each candidate of a search):
// reading the YAML is most of a decode, and the tree it gives is the same
// every time. Each Decode works on its own copy of the tree, so a Parsed
// is read-only after Parse and safe to share between goroutines.
type Parsed struct {
	file  string
	root  *yaml.Node // the document's root; nil when err or an empty document
	err   error      // what Decode returns with a nil scenario
	alias bool       // root holds an alias: copies keep shared nodes shared
	nodes int        // nodes in the tree, and children in their lists:
	kids  int        // a copy allocates them in two blocks

	// values caches the overrides' values as parsed (VALUE text → node):
	// a search sets the same few values in many candidates. Only short
	// scalars are kept, at most maxValues, so the cache stays small
	// whatever the space (a searched rule list sets a long value per
	// candidate).
	mu     sync.Mutex
	values map[string]*yaml.Node
}

// The override values a Parsed keeps parsed: scalars of at most
// maxValueLen bytes, at most maxValues of them.
const (
	maxValueLen = 64
	maxValues   = 4096
)

// Parse reads data (file names it in errors) as Decode would, without
// applying overrides or decoding the fields.
func Parse(file string, data []byte) *Parsed {
	p := &Parsed{file: file}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		p.err = yamlError(file, data, err)
		return p
	}
	// A second document would be silently ignored: refuse it.
	var more yaml.Node
	if err := dec.Decode(&more); err != io.EOF {
		if err != nil {
			p.err = yamlError(file, data, err)
			return p
		}
		line := more.Line
		if len(more.Content) > 0 {
			line = more.Content[0].Line
		}
		t := msg.New("a second YAML document (after ---); a scenario file holds exactly one scenario: remove the --- line and what follows, or split the file")
		p.err = Errors{{File: file, Line: line, Msg: t.String(), Text: t}}
		return p
	}
	if len(doc.Content) == 0 {
		rep := &Reporter{File: file}
		rep.Errorf(nil, "", "empty scenario; expected a mapping with name, ruleset and sides")
		p.err = rep.Err()
		return p
	}
	root := doc.Content[0]
	if deep := tooDeep(root); deep != nil {
		t := msg.New("nested too deeply: more than %d levels of mappings and lists; a scenario needs a handful", MaxNodeDepth)
		p.err = Errors{{File: file, Line: deep.Line, Col: deep.Column, Msg: t.String(), Text: t}}
		return p
	}
	p.root = root
	p.alias = hasAlias(root)
	p.nodes, p.kids = count(root)
	return p
}

// Decode is Decode of the parsed text under sets: the same scenario and
// the same errors, on a copy of the tree.
func (p *Parsed) Decode(sets []Set, lookup Lookup) (*Scenario, error) {
	if p.root == nil {
		return nil, p.err
	}
	return decodeRoot(p.file, p.copy(), sets, lookup, p.value)
}

// Apply is the parsed text with sets applied, on a copy of the tree, to
// read fields from: what ValueAt reads, without parsing the text again.
// The error is ValueAt's (an override that does not apply), or Decode's
// when the text did not parse.
func (p *Parsed) Apply(sets []Set) (*Applied, error) {
	if p.root == nil {
		return nil, p.err
	}
	return applyAll(p.copy(), sets, p.value)
}

// copy is a deep copy of the parsed tree.
func (p *Parsed) copy() *yaml.Node {
	if p.alias {
		return copyShared(p.root, map[*yaml.Node]*yaml.Node{})
	}
	nodes, kids := make([]yaml.Node, p.nodes), make([]*yaml.Node, p.kids)
	return copyInto(p.root, &nodes, &kids)
}

// count counts the nodes of a tree without aliases and the entries of
// their lists of children.
func count(n *yaml.Node) (nodes, kids int) {
	nodes, kids = 1, len(n.Content)
	for _, c := range n.Content {
		a, b := count(c)
		nodes, kids = nodes+a, kids+b
	}
	return nodes, kids
}

// value is Set.parseValue, from the cache when it holds s's value.
func (p *Parsed) value(s Set) (*yaml.Node, error) {
	if len(s.Value) > maxValueLen {
		return s.parseValue()
	}
	p.mu.Lock()
	v, ok := p.values[s.Value]
	p.mu.Unlock()
	if ok {
		c := *v // a scalar: no children to copy
		return &c, nil
	}
	v, err := s.parseValue()
	if err != nil || v.Kind != yaml.ScalarNode {
		return v, err
	}
	c := *v
	p.mu.Lock()
	if p.values == nil {
		p.values = map[string]*yaml.Node{}
	}
	if len(p.values) < maxValues {
		p.values[s.Value] = &c
	}
	p.mu.Unlock()
	return v, nil
}

// decodeRoot applies sets to root (a tree of the caller's own) and
// decodes it. value parses an override's value (Set.parseValue, or a
// cache of it).
func decodeRoot(file string, root *yaml.Node, sets []Set, lookup Lookup, value func(Set) (*yaml.Node, error)) (*Scenario, error) {
	rep := &Reporter{File: file}
	if root.Kind == yaml.MappingNode {
		for _, s := range sets {
			v, err := value(s)
			if err == nil {
				err = s.put(root, rep, v)
			}
			if err != nil {
				rep.Errs = append(rep.Errs, newError(file, "--set "+s.String(), msg.New("%s", err)))
			}
		}
	}
	d := &Decoder{rep: rep}
	sc := &Scenario{File: file, MaxRounds: 100, Rep: rep, Dec: d, Root: root}
	sc.decode(d, root, lookup)
	return sc, rep.Err()
}

// hasAlias reports whether an alias node is in the tree under n.
func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

// copyInto is a deep copy of a tree without aliases, its nodes taken from
// the front of nodes and their lists of children from kids (count says
// how many of each). Each list is capped at its length, so an override
// that appends to one (a new key) moves it rather than writing over the
// next.
func copyInto(n *yaml.Node, nodes *[]yaml.Node, kids *[]*yaml.Node) *yaml.Node {
	c := &(*nodes)[0]
	*nodes = (*nodes)[1:]
	*c = *n
	if n.Content != nil { // (an empty list too, as parsed)
		k := len(n.Content)
		c.Content = (*kids)[:k:k]
		*kids = (*kids)[k:]
		for i, x := range n.Content {
			c.Content[i] = copyInto(x, nodes, kids)
		}
	}
	return c
}

// copyShared is a deep copy of n in which a node reached twice (an
// alias's target) is copied once, so the copy has the original's shape.
func copyShared(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node {
	if c, ok := seen[n]; ok {
		return c
	}
	c := new(yaml.Node)
	seen[n] = c
	*c = *n
	if n.Alias != nil {
		c.Alias = copyShared(n.Alias, seen)
	}
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, x := range n.Content {
			c.Content[i] = copyShared(x, seen)
		}
	}
	return c
}
