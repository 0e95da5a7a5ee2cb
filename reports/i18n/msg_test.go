package i18n

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"simctl/sim/msg"
)

// TestMsgCatalog fails when a message's translation drops, adds or
// retypes an argument, or is left in English.
func TestMsgCatalog(t *testing.T) {
	scripts := map[Lang]*unicode.RangeTable{Ko: unicode.Hangul, Ru: unicode.Cyrillic}
	for _, f := range MsgFormats() {
		for _, l := range Langs[1:] {
			s, ok := MsgText(l, f)
			if !ok {
				t.Errorf("%s: %q has no text", l, f)
				continue
			}
			if got, want := strings.Join(args(s), " "), strings.Join(args(f), " "); got != want {
				t.Errorf("%s: %q takes arguments %q, English %q", l, s, got, want)
			}
			// A message that is only verbs and punctuation ("%s: %s") has
			// nothing to translate.
			letters := strings.ContainsFunc(verb.ReplaceAllString(f, ""), unicode.IsLetter)
			if letters && !strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(scripts[l], r) }) {
				t.Errorf("%s: %q = %q is not translated", l, f, s)
			}
		}
	}
}

// TestMsgTranslates checks the path a message takes: the format and the
// messages among its arguments are translated, the user's words are not,
// %w prints its error, and errors.Is still sees through msg.Errorf.
func TestMsgTranslates(t *testing.T) {
	inner := msg.New("bad dice expression %q: %s", "2d", "x")
	err := msg.Errorf("%s (from --set %s)", inner, "hp=2d")
	if got, want := Ko.Err(err), `잘못된 주사위 식 "2d": x (--set hp=2d에서)`; got != want {
		t.Errorf("ko: %q, want %q", got, want)
	}
	if got, want := En.Err(err), `bad dice expression "2d": x (from --set hp=2d)`; got != want {
		t.Errorf("en: %q, want %q", got, want)
	}
	sentinel := errors.New("sentinel")
	w := msg.Errorf("%s: %w", "x", sentinel)
	if !errors.Is(w, sentinel) {
		t.Error("errors.Is does not see through msg.Errorf's %w")
	}
	if got := Ru.Err(msg.Errorf("column %d: %s", 3, w)); got != "столбец 3: x: sentinel" {
		t.Errorf("ru: %q", got)
	}
}

// A message function takes a format and its arguments: msg.New, msg.Errorf
// and every function or method of the scanned tree with a parameter named
// format followed by ...any (the Reporter's Errorf and Warnf, errAt, …).
type msgFunc struct {
	pkg, name string // pkg "" for a method
	arg       int    // the format's index
}

// roots are the trees whose messages reach users.
var roots = []string{"../../sim", "../../agents", "../../rulesets", "../../stats", "..", "../../cmd"}

type goFile struct {
	path, dir string // dir relative to the module root
	f         *ast.File
}

func parseTree(t *testing.T) (*token.FileSet, []goFile) {
	fset := token.NewFileSet()
	var out []goFile
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "web") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			abs, _ := filepath.Abs(filepath.Dir(p))
			mod, _ := filepath.Abs("../..")
			rel, _ := filepath.Rel(mod, abs)
			out = append(out, goFile{p, filepath.ToSlash(rel), f})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return fset, out
}

// msgFuncs finds the message functions of the tree.
func msgFuncs(files []goFile) (funcs map[string]int, methods map[string]int) {
	funcs = map[string]int{"msg.New": 0, "msg.Errorf": 0}
	methods = map[string]int{}
	for _, gf := range files {
		ast.Inspect(gf.f, func(n ast.Node) bool {
			fd, ok := n.(*ast.FuncDecl)
			if !ok {
				return true
			}
			i := 0
			var params []*ast.Field
			if fd.Type.Params != nil {
				params = fd.Type.Params.List
			}
			for k, p := range params {
				for _, name := range p.Names {
					if name.Name == "format" && k+1 < len(params) {
						if _, ok := params[k+1].Type.(*ast.Ellipsis); ok {
							if fd.Recv != nil {
								methods[fd.Name.Name] = i
							} else {
								funcs[gf.f.Name.Name+"."+fd.Name.Name] = i
							}
						}
					}
					i++
				}
				if len(p.Names) == 0 {
					i++
				}
			}
			return false
		})
	}
	return funcs, methods
}

// literal is the value of a constant string expression ("a" or "a" + "b").
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := literal(e.X)
			b, ok2 := literal(e.Y)
			return a + b, ok1 && ok2
		}
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}

// TestMessagesTranslated fails when the code writes a message (a literal
// format given to a message function) that a msg catalog lacks: printed
// in Korean or Russian it would come out English.
func TestMessagesTranslated(t *testing.T) {
	fset, files := parseTree(t)
	funcs, methods := msgFuncs(files)
	found, missing := 0, map[string][]string{}
	for _, gf := range files {
		ast.Inspect(gf.f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			idx := -1
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				if i, ok := funcs[gf.f.Name.Name+"."+fn.Name]; ok {
					idx = i
				}
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok {
					if i, ok := funcs[x.Name+"."+fn.Sel.Name]; ok {
						idx = i
						break
					}
					if x.Name == "fmt" || x.Name == "t" || x.Name == "b" {
						return true
					}
				}
				if i, ok := methods[fn.Sel.Name]; ok {
					idx = i
				}
			}
			if idx < 0 || idx >= len(call.Args) {
				return true
			}
			f, ok := literal(call.Args[idx])
			if !ok {
				return true // a forwarded format: its callers are checked
			}
			found++
			// Only verbs and punctuation ("%s: %s"): nothing to translate.
			if !strings.ContainsFunc(verb.ReplaceAllString(f, ""), unicode.IsLetter) {
				return true
			}
			if _, ok := msgs[En][f]; !ok {
				missing[f] = append(missing[f], fset.Position(call.Pos()).String())
			}
			return true
		})
	}
	if found < 1000 {
		t.Fatalf("found only %d messages; the scan is broken", found)
	}
	var fs []string
	for f := range missing {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	for _, f := range fs {
		t.Errorf("message %q (%s) is in no catalog/msg file", f, strings.Join(missing[f], ", "))
	}
	if len(fs) > 0 {
		t.Logf("add a block per message to reports/i18n/catalog/msg/AREA.txt:\n\nen: FORMAT\nko: …\nru: …")
	}
}

// TestNoPlainErrors fails on fmt.Errorf and errors.New in the packages
// whose errors reach users: their messages could not be translated.
// msg.Errorf is fmt.Errorf keeping the format.
func TestNoPlainErrors(t *testing.T) {
	fset, files := parseTree(t)
	n := 0
	for _, gf := range files {
		// msg is where Errorf lives; i18n's own errors are a broken
		// catalog, a panic at start (Parse's is a message).
		// simtest is test helpers: its errors reach only test logs.
		if gf.dir == "sim/msg" || gf.dir == "reports/i18n" || gf.dir == "sim/simtest" {
			continue
		}
		n++
		ast.Inspect(gf.f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "fmt" && sel.Sel.Name == "Errorf" || x.Name == "errors" && sel.Sel.Name == "New") {
				t.Errorf("%s: %s.%s: use msg.Errorf, so the message can be translated", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
			}
			return true
		})
	}
	if n < 100 {
		t.Fatalf("scanned %d files; the scan is broken", n)
	}
}
