package traitrun

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim"
	"simctl/sim/scenario"
	"simctl/sim/traits"
)

// Library is a ruleset's trait library: the YAML files NAME.yaml of dir in
// fsys (an embedded folder beside the ruleset).
type Library struct {
	FS  fs.FS
	Dir string
}

// Names lists the library traits, sorted.
func (l Library) Names() []string {
	entries, _ := fs.ReadDir(l.FS, l.Dir)
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Source is a library trait's YAML text.
func (l Library) Source(name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, false
	}
	data, err := fs.ReadFile(l.FS, path.Join(l.Dir, name+".yaml"))
	return data, err == nil
}

// Find is a library trait's YAML mapping (traits.Library).
func (l Library) Find(name string) (*yaml.Node, bool) {
	data, ok := l.Source(name)
	if !ok {
		return nil, false
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil, false
	}
	return doc.Content[0], true
}

// Lib is what Compile reads library traits with.
func (l Library) Lib() Lib { return Lib{Find: l.Find, Names: l.Names()} }

// Docs lists a table's moments (what each is, its other party, what it
// lets effects change), quantities and conditions for `simctl rules NAME`,
// in the words d20's listing uses.
func Docs(d *traits.Decl) (moments, quantities, conditions []sim.Field) {
	for _, m := range d.Moments {
		doc := m.Doc
		if m.Other != "" {
			doc += "; the other party: " + m.Other
		}
		if len(m.Quantities) > 0 {
			doc += "; changes: " + strings.Join(m.Quantities, ", ")
		}
		moments = append(moments, sim.Field{Name: m.Name, Doc: doc})
	}
	for _, q := range d.Quantities {
		quantities = append(quantities, sim.Field{Name: q.Name, Doc: q.Doc})
	}
	for _, c := range d.Conditions {
		conditions = append(conditions, sim.Field{Name: c.Name, Doc: c.Doc})
	}
	return moments, quantities, conditions
}

// LibraryDocs lists the library traits: description, moment (an entry
// of several traits: the first's description, every moment), parameters'
// defaults.
func (l Library) LibraryDocs() []sim.Field {
	var out []sim.Field
	for _, name := range l.Names() {
		n, _ := l.Find(name)
		on := scalar(n, "on")
		if n.Kind == yaml.SequenceNode {
			for _, e := range n.Content[1:] {
				on += ", " + scalar(e, "on")
			}
			n = n.Content[0]
			on = scalar(n, "on") + on
		}
		doc := scalar(n, "description") + " (on: " + on
		if a := scalar(n, "action"); a != "" {
			doc = scalar(n, "description") + " (action: " + a
		}
		if p := scenario.Value(n, "params"); p != nil && p.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(p.Content); i += 2 {
				doc += "; $" + p.Content[i].Value + ": " + p.Content[i+1].Value
			}
		}
		out = append(out, sim.Field{Name: name, Doc: doc + ")"})
	}
	return out
}

func scalar(n *yaml.Node, key string) string {
	if v := scenario.Value(n, key); v != nil {
		return v.Value
	}
	return ""
}
