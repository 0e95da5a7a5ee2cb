package agents

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The tactics library: the named policies written in the tactics language,
// embedded so `tactics: delay` and `simctl policies` work anywhere.
//
//go:embed library
var libraryFS embed.FS

// LibraryNames lists the library tactics of a ruleset, sorted.
func LibraryNames(ruleset string) []string {
	entries, err := fs.ReadDir(libraryFS, path.Join("library", ruleset))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// LibrarySource returns a library tactic's YAML text.
func LibrarySource(ruleset, name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, false
	}
	data, err := libraryFS.ReadFile(path.Join("library", ruleset, name+".yaml"))
	return data, err == nil
}

// libraryNode parses a library tactic. The embedded files are tested to
// parse, so an error here is impossible in a released binary.
func libraryNode(ruleset, name string) (*yaml.Node, bool) {
	data, ok := LibrarySource(ruleset, name)
	if !ok {
		return nil, false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil, false
	}
	return doc.Content[0], true
}

func d20Library(name string) (*yaml.Node, bool) { return libraryNode("d20", name) }
