package results

import (
	"strings"
	"testing"
)

// A document ParseInput cannot read names every command whose JSON it
// reads: the built-in kinds (optimize among them) and a kind registered by
// the application layer; and a built-in kind cannot be registered.
func TestParseInputNamesEveryKind(t *testing.T) {
	RegisterDocument("toykind", func(path string, data []byte) (any, error) { return nil, nil })
	want := []string{"run", "merge", "sweep", "compare", "value", "matrix", "tournament", "optimize", "toykind"}
	for _, data := range []string{"{", `{"kind": "odd"}`} {
		_, err := ParseInput("x.json", []byte(data))
		if err == nil {
			t.Fatalf("%s: read", data)
		}
		for _, c := range want {
			if !strings.Contains(err.Error(), " "+c+",") && !strings.Contains(err.Error(), " "+c+")") {
				t.Errorf("%s: the error does not name simctl %s: %v", data, c, err)
			}
		}
	}
	for _, kind := range []string{"", "sweep", "optimize"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RegisterDocument(%q) took a kind ParseInput reads itself", kind)
				}
			}()
			RegisterDocument(kind, nil)
		}()
	}
}
