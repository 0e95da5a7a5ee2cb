package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim/scenario"
)

// A new user's path, for every ruleset: init writes a starter, check
// accepts it, run plays it to a JSON result, report turns that into a
// report; init never overwrites without --force.
func TestInitToReport(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, rs := range rulesets.Names() {
		t.Run(rs, func(t *testing.T) {
			file := rs + ".yaml"
			if code, _, stderr := simctl(t, context.Background(), "init", rs); code != exitOK || !strings.Contains(stderr, "wrote "+file) {
				t.Fatalf("init %s: exit %d %s", rs, code, stderr)
			}
			text, _ := os.ReadFile(file)
			if !strings.HasPrefix(string(text), "# A starter ") || !strings.Contains(string(text), "ruleset: "+rs) {
				t.Errorf("starter:\n%s", text)
			}
			if code, stdout, stderr := simctl(t, context.Background(), "check", file); code != exitOK || !strings.Contains(stdout, file+": ok") {
				t.Fatalf("check: exit %d %s%s", code, stdout, stderr)
			}
			if code, _, stderr := simctl(t, context.Background(), "run", file, "-n", "2k", "-o", rs+".json"); code != exitOK {
				t.Fatalf("run: exit %d %s", code, stderr)
			}
			code, stdout, stderr := simctl(t, context.Background(), "report", rs+".json", "-o", "report-"+rs)
			if code != exitOK || stderr != "" || !strings.Contains(stdout, "report.html") {
				t.Fatalf("report: exit %d\n%s%s", code, stdout, stderr)
			}
			if _, err := os.Stat(filepath.Join("report-"+rs, "report.md")); err != nil {
				t.Error(err)
			}
			// Never overwritten without --force; -o - prints it.
			if err := os.WriteFile(file, []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, _, _ := simctl(t, context.Background(), "init", rs); code != exitUsage {
				t.Errorf("init over an existing file: exit %d", code)
			}
			if data, _ := os.ReadFile(file); string(data) != "mine\n" {
				t.Errorf("init overwrote %s", file)
			}
			if code, _, _ := simctl(t, context.Background(), "init", rs, "--force"); code != exitOK {
				t.Errorf("init --force: exit %d", code)
			}
			if _, stdout, _ := simctl(t, context.Background(), "init", rs, "-o", "-"); stdout != string(text) {
				t.Errorf("init -o - differs from the file")
			}
		})
	}
}

// check lists every problem of every file and exits 3; valid files pass.
func TestCheck(t *testing.T) {
	bad := writeFile(t, "bad.yaml", edit(t, "hp: 20", "hp: -5")+"extra: 1\n")
	code, _, stderr := simctl(t, context.Background(), "check", "d20/duel", bad, "lotm/duel")
	if code != exitScenario || !strings.Contains(stderr, "hp must be at least 1") || !strings.Contains(stderr, `unknown field "extra"`) ||
		!strings.Contains(stderr, "1 of 3 scenario(s) invalid, 2 problem(s)") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	all := append([]string{"check"}, scenarios.Names()...)
	if code, _, stderr := simctl(t, context.Background(), all...); code != exitOK {
		t.Errorf("check of every built-in: exit %d %s", code, stderr)
	}
}

// schemaDoc is simctl schema's output, decoded.
func schemaDoc(t *testing.T) map[string]any {
	t.Helper()
	code, stdout, stderr := simctl(t, context.Background(), "schema")
	if code != exitOK {
		t.Fatalf("schema: exit %d %s", code, stderr)
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// The schema lists every field the decoder accepts, for every ruleset,
// and every option and policy the ruleset documents.
func TestSchemaListsEveryField(t *testing.T) {
	s := schemaDoc(t)
	defs := s["definitions"].(map[string]any)
	keys := func(m any) []string {
		var out []string
		for k := range m.(map[string]any)["properties"].(map[string]any) {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	top, side, comb := scenario.Fields()
	for _, f := range top {
		if !contains(keys(s), f) {
			t.Errorf("top-level field %s missing", f)
		}
	}
	for _, name := range rulesets.Names() {
		r, _ := rulesets.Lookup(name)
		sch, d := r.Schema(), r.Doc()
		for _, f := range append(append([]string(nil), side...), sch.SideFields...) {
			if !contains(keys(defs["side."+name]), f) {
				t.Errorf("%s: side field %s missing", name, f)
			}
		}
		for _, f := range append(append([]string(nil), comb...), sch.CombatantFields...) {
			if !contains(keys(defs["combatant."+name]), f) {
				t.Errorf("%s: combatant field %s missing", name, f)
			}
		}
		for _, o := range d.Options {
			if !contains(keys(defs["options."+name]), o.Name) {
				t.Errorf("%s: option %s missing", name, o.Name)
			}
		}
		pol := fmt.Sprint(defs["policy."+name])
		for _, p := range d.Policies {
			if !strings.Contains(pol, p.Name) {
				t.Errorf("%s: policy %s missing", name, p.Name)
			}
		}
	}
}

// Every built-in scenario validates against the schema (with a small
// validator of the draft-07 keywords the schema uses), and typical
// mistakes do not.
func TestBuiltinsValidateAgainstSchema(t *testing.T) {
	s := schemaDoc(t)
	v := &validator{root: s}
	for _, n := range scenarios.Names() {
		data, _, _ := scenarios.Read(n)
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if errs := v.check(s, doc, n); len(errs) > 0 {
			t.Errorf("%s:\n%s", n, strings.Join(errs, "\n"))
		}
	}
	for _, bad := range []struct{ old, new, want string }{
		{"max_rounds: 50", "max_round: 50", "max_round"},
		{"ruleset: d20", "ruleset: d21", "not one of"},
		{"        init: 1\n", "        init: 1\n        armour: 3\n", "armour"},
		{"        init: 1\n", "        init: 1\n        policy: deley\n", "no alternative"},
		{"max_rounds: 50", "max_rounds: 50\noptions: {dying: sometimes}", "not one of"},
	} {
		var doc any
		if err := yaml.Unmarshal([]byte(edit(t, bad.old, bad.new)), &doc); err != nil {
			t.Fatal(err)
		}
		errs := v.check(s, doc, "bad")
		if !strings.Contains(strings.Join(errs, "\n"), bad.want) {
			t.Errorf("%q: schema errors %v, want one about %q", bad.new, errs, bad.want)
		}
	}
}

type validator struct{ root map[string]any }

// check validates x against schema node s, returning every violation.
func (v *validator) check(s map[string]any, x any, at string) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/definitions/")
		return v.check(v.root["definitions"].(map[string]any)[name].(map[string]any), x, at)
	}
	if t, ok := s["type"]; ok && !typeOK(t, x) {
		bad("%v is not of type %v", x, t)
		return errs
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, ev := range e {
			found = found || fmt.Sprint(ev) == fmt.Sprint(x) && typeOK(jsonType(ev), x)
		}
		if !found {
			bad("%v is not one of %v", x, e)
		}
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(x) {
		bad("%v is not %v", x, c)
	}
	if p, ok := s["pattern"].(string); ok {
		if str, ok := x.(string); ok && !regexp.MustCompile(p).MatchString(str) {
			bad("%q does not match %s", str, p)
		}
	}
	if n, ok := x.(int); ok {
		if lo, ok := s["minimum"].(float64); ok && float64(n) < lo {
			bad("%d < %v", n, lo)
		}
		if hi, ok := s["maximum"].(float64); ok && float64(n) > hi {
			bad("%d > %v", n, hi)
		}
	}
	if m, ok := x.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, ok := m[r.(string)]; !ok {
				bad("missing %s", r)
			}
		}
		for k, val := range m {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, v.check(ps, val, at+"."+k)...)
			} else if s["additionalProperties"] == false {
				bad("unknown field %s", k)
			}
		}
	}
	if l, ok := x.([]any); ok {
		if lo, ok := s["minItems"].(float64); ok && float64(len(l)) < lo {
			bad("%d items < %v", len(l), lo)
		}
		if hi, ok := s["maxItems"].(float64); ok && float64(len(l)) > hi {
			bad("%d items > %v", len(l), hi)
		}
		if is, ok := s["items"].(map[string]any); ok {
			for i, e := range l {
				errs = append(errs, v.check(is, e, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	for _, sub := range asList(s["allOf"]) {
		sm := sub.(map[string]any)
		if cond, ok := sm["if"].(map[string]any); ok {
			if len(v.check(cond, x, at)) == 0 {
				errs = append(errs, v.check(sm["then"].(map[string]any), x, at)...)
			}
			continue
		}
		errs = append(errs, v.check(sm, x, at)...)
	}
	if alts := asList(s["oneOf"]); len(alts) > 0 {
		n := 0
		for _, a := range alts {
			if len(v.check(a.(map[string]any), x, at)) == 0 {
				n++
			}
		}
		if n != 1 {
			bad("%v matches %d alternatives of oneOf, no alternative or several", x, n)
		}
	}
	return errs
}

func asList(x any) []any {
	l, _ := x.([]any)
	return l
}

func jsonType(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case string:
		return "string"
	}
	return "number"
}

func typeOK(t any, x any) bool {
	if l, ok := t.([]any); ok {
		for _, e := range l {
			if typeOK(e, x) {
				return true
			}
		}
		return false
	}
	switch t {
	case "string":
		_, ok := x.(string)
		return ok
	case "integer":
		_, ok := x.(int)
		return ok
	case "number":
		switch x.(type) {
		case int, float64:
			return true
		}
		return false
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	}
	return true
}
