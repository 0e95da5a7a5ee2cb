package results

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocumentsComputeNothing: the documents (this package) and their
// renderers (package reports) hold and show results; the experiment
// designs compute them (sim/experiment, called by cmd/simctl/app). No
// non-test file here or in reports calls a function of sim/experiment
// (its types and constants are the documents' vocabulary).
func TestDocumentsComputeNothing(t *testing.T) {
	for _, dir := range []string{".", ".."} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(af, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "experiment" {
						t.Errorf("%s: calls experiment.%s: compute it before the document is made", fset.Position(call.Pos()), sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}
