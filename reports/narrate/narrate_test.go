package narrate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"simctl/reports/i18n"
)

var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

// TestNarrationTranslated fails when a ruleset or the tactics driver
// narrates a line (a literal format given to logf, Logf or a sim.Log's
// Printf) or builds a phrase for one (msg.New) that the msg catalogs lack:
// simctl trace --lang ko would print it in English. (The catalogs' own
// test checks each translation's verbs and script.)
func TestNarrationTranslated(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	for _, root := range []string{"../../rulesets", "../../agents"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(x ast.Node) bool {
				c, ok := x.(*ast.CallExpr)
				if !ok || len(c.Args) == 0 {
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				id, _ := sel.X.(*ast.Ident)
				switch {
				case id != nil && id.Name == "msg" && sel.Sel.Name == "New":
				case sel.Sel.Name == "logf" || sel.Sel.Name == "Logf":
				case sel.Sel.Name == "Printf" && (id == nil || id.Name != "fmt"):
				default:
					return true
				}
				lit, ok := c.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				n++
				if !strings.ContainsFunc(verb.ReplaceAllString(s, ""), unicode.IsLetter) {
					return true
				}
				for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
					if _, ok := i18n.MsgText(l, s); !ok {
						t.Errorf("%s: %q has no %s text in reports/i18n/catalog/msg/narrate.txt", fset.Position(c.Pos()), s, l)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 250 {
		t.Fatalf("found only %d narrated formats; the scan is broken", n)
	}
}
