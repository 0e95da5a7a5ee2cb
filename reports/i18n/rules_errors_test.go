package i18n_test

import (
	"errors"
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

	_ "simctl/agents" // registers the scripted policies and the tactics bindings
	"simctl/reports/i18n"
	"simctl/reports/i18n/i18ntest"
	"simctl/rulesets"
	_ "simctl/rulesets/acks2"
	_ "simctl/rulesets/cavaliers"
	_ "simctl/rulesets/d20"
	_ "simctl/rulesets/lotm"
	"simctl/sim/scenario"
)

// A broken scenario of one ruleset: what the English message says (so the
// case is known to hit the error it means) and the words of the file
// format its message may name besides the scenario's own names (decision
// words, option values).
type rulesCase struct {
	name, yaml string
	want       string   // in the English message
	code       []string // file-format words the message names
	warning    bool     // the scenario compiles; the message is a warning
}

// The scenarios' own names, allowed in every rendering.
var rulesNames = []string{"t.yaml", "heroes", "monsters", "Fighter", "Orc", "Cavalier", "Rival", "Investigator", "Cultist", "Zzyzx", "fire bolt"}

var rulesCases = []rulesCase{
	// d20
	{name: "d20 option", yaml: `ruleset: d20
options: {dying: forever}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 20, ac: 17, attacks: [6], damage: 1d8+3}
  - name: monsters
    combatants:
      - {name: Orc, hp: 22, ac: 14, attacks: [5], damage: 1d12+3}
`, want: `"forever" is not valid`, code: []string{"forever", "out-at-0", "srd"}},
	{name: "d20 field", yaml: `ruleset: d20
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 20, ac: 17, attacks: [6], damage: 1d8+3, speed: 33, crit: 19-20}
  - name: monsters
    combatants:
      - {name: Orc, hp: 22, ac: 14, attacks: [5], damage: 1d12+3}
`, want: "is not a multiple of 5 feet", code: []string{"none", "x2", "x3"}},
	{name: "d20 policy", yaml: `ruleset: d20
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 20, ac: 17, attacks: [6], damage: 1d8+3, policy: {name: ready}}
  - name: monsters
    combatants:
      - {name: Orc, hp: 22, ac: 14, attacks: [5], damage: 1d12+3}
`, want: "policy ready needs trigger", code: []string{"ready", "trigger", "charge"}},
	{name: "d20 tactics", yaml: `ruleset: d20
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 20, ac: 17, attacks: [6], damage: 1d8+3, tactics: {turn: [{when: 'ally("Zzyzx").acted', do: zzz}, {do: cast any}]}}
  - name: monsters
    combatants:
      - {name: Orc, hp: 22, ac: 14, attacks: [5], damage: 1d12+3}
`, want: `no ally "Zzyzx"`, code: []string{"zzz", "turn", "attack", "charge", "cast", "SPELL", "any", "counterspell", "delay", "until", "NAME", "to", "COUNT", "ready", "ACTION", "on", "TRIGGER", "for", "advance", "and", "shoot", "acted", "ALLY", "move"}},
	{name: "d20 never fires", yaml: `ruleset: d20
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 20, ac: 17, attacks: [6], damage: 1d8+3, tactics: {turn: [{do: attack}, {when: round == 1, do: charge}]}}
  - name: monsters
    combatants:
      - {name: Orc, hp: 22, ac: 14, attacks: [5], damage: 1d12+3}
`, want: "can never fire", code: []string{"when"}, warning: true},

	// acks2
	{name: "acks2 option", yaml: `ruleset: acks2
options: {morale_repeat: sometimes}
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 2d8, ac: 4, attack_throw: 9, damage: 1d8}
  - name: monsters
    referee: true
    combatants:
      - {name: Orc, hp: 1d8+1, ac: 2, attack_throw: 10, damage: 1d8}
`, want: `"sometimes" is not valid`, code: []string{"sometimes", "once", "every_round"}},
	{name: "acks2 field", yaml: `ruleset: acks2
sides:
  - name: heroes
    referee: true
    combatants:
      - {name: Fighter, hp: 2d8, ac: 4, attack_throw: 9, damage: 1d8, range: 50}
  - name: monsters
    referee: true
    combatants:
      - {name: Orc, hp: 1d8+1, ac: 2, attack_throw: 10, damage: 1d8}
`, want: "range is for a missile weapon", code: []string{"range", "melee"}},
	{name: "acks2 policy", yaml: `ruleset: acks2
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 2d8, ac: 4, attack_throw: 9, damage: 1d8, policy: {name: delay, until: Zzyzx}}
  - name: monsters
    referee: true
    combatants:
      - {name: Orc, hp: 1d8+1, ac: 2, attack_throw: 10, damage: 1d8}
`, want: `no combatant "Zzyzx"`},
	{name: "acks2 tactics", yaml: `ruleset: acks2
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 2d8, ac: 4, attack_throw: 9, damage: 1d8, tactics: {turn: [{do: ready now}, {do: declare any}]}}
  - name: monsters
    referee: true
    combatants:
      - {name: Orc, hp: 1d8+1, ac: 2, attack_throw: 10, damage: 1d8}
`, want: "ready takes no argument", code: []string{"ready", "declare", "before_initiative", "turn", "any", "withdraw", "retreat", "nothing", "SPELL", "ACKS", "acks2", "attack", "without", "charging", "delay", "until", "NAME", "to", "COUNT", "floor"}},
	{name: "acks2 never fires", yaml: `ruleset: acks2
sides:
  - name: heroes
    combatants:
      - {name: Fighter, hp: 2d8, ac: 4, attack_throw: 9, damage: 1d8, tactics: {turn: [{do: attack}, {when: round == 1, do: ready}]}}
  - name: monsters
    referee: true
    combatants:
      - {name: Orc, hp: 1d8+1, ac: 2, attack_throw: 10, damage: 1d8}
`, want: "can never fire", code: []string{"when"}, warning: true},

	// cavaliers
	{name: "cavaliers option", yaml: `ruleset: cavaliers
options: {attack_ties: maybe}
sides:
  - name: heroes
    combatants:
      - {name: Cavalier, specialty: impulse, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1}
  - name: monsters
    combatants:
      - {name: Rival, specialty: none, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1}
`, want: `"maybe" is not valid`, code: []string{"maybe", "hit", "miss"}},
	{name: "cavaliers field", yaml: `ruleset: cavaliers
sides:
  - name: heroes
    combatants:
      - {name: Cavalier, specialty: impulse, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1, ac: 12, speed: 30}
  - name: monsters
    combatants:
      - {name: Rival, specialty: none, attribute: d8, pool: 2d6+3, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1}
`, want: "cavaliers does not use ac", code: []string{"ac", "defence", "speed", "cavaliers", "d8", "d6", "Move", "Area", "Areas", "pool"}},
	{name: "cavaliers policy", yaml: `ruleset: cavaliers
sides:
  - name: heroes
    combatants:
      - {name: Cavalier, specialty: impulse, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: guard}}
  - name: monsters
    combatants:
      - {name: Rival, specialty: none, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1, policy: {name: default, reserve: seize}}
`, want: "policy guard needs ward", code: []string{"guard", "ward", "NAME", "reserve"}},
	{name: "cavaliers tactics", yaml: `ruleset: cavaliers
sides:
  - name: heroes
    combatants:
      - {name: Cavalier, specialty: impulse, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1, tactics: {move: [{do: follow}, {do: save}], attack: [{do: attack, target: Zzyzx}]}}
  - name: monsters
    combatants:
      - {name: Rival, specialty: none, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1}
`, want: "follow needs a name", code: []string{"follow", "NAME", "save", "self.plus", "offer.price", "move", "advance", "to", "hold", "weakest", "strongest", "random", "first", "cavaliers"}},
	{name: "cavaliers never fires", yaml: `ruleset: cavaliers
sides:
  - name: heroes
    combatants:
      - {name: Cavalier, specialty: impulse, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1, tactics: {move: [{do: hold}, {when: round == 1, do: advance}]}}
  - name: monsters
    combatants:
      - {name: Rival, specialty: none, attribute: d8, pool: 2d6, hp: 15, attack: 2d6, defence: 2d6, damage: 1d6+1}
`, want: "can never fire", code: []string{"when"}, warning: true},

	// lotm
	{name: "lotm option", yaml: `ruleset: lotm
options: {initiative: agility}
sides:
  - name: heroes
    combatants:
      - {name: Investigator, hp: 18, ac: 8, dodge: 2, agility: 3, attacks: [5], damage: 1d8+2, strength: 2, initiative_roll: 12}
  - name: monsters
    combatants:
      - {name: Cultist, hp: 20, ac: 9, dodge: 1, agility: 2, attacks: [4], damage: 1d8+2, strength: 2}
`, want: "option initiative: agility rolls no die", code: []string{"initiative", "agility", "d20+agility"}},
	{name: "lotm field", yaml: `ruleset: lotm
sides:
  - name: heroes
    combatants:
      - {name: Investigator, hp: 18, ac: 8, dodge: 2, agility: 3, attacks: [5, 2], damage: 1d8+2, strength: 2, dodge_light: true}
  - name: monsters
    combatants:
      - {name: Cultist, hp: 20, ac: 9, dodge: 1, agility: 2, attacks: [4], damage: 1d8-9, strength: 2}
`, want: "dodge_light needs fast_dodge: true", code: []string{"lotm"}},
	{name: "lotm policy", yaml: `ruleset: lotm
sides:
  - name: heroes
    combatants:
      - {name: Investigator, hp: 18, ac: 8, dodge: 2, agility: 3, attacks: [5], damage: 1d8+2, strength: 2, policy: {name: combo}}
  - name: monsters
    combatants:
      - {name: Cultist, hp: 20, ac: 9, dodge: 1, agility: 2, attacks: [4], damage: 1d8+2, strength: 2, policy: {name: default, attack: double}}
`, want: "policy combo needs ally", code: []string{"combo", "ally", "NAME", "double_strike", "BONUS"}},
	{name: "lotm tactics", yaml: `ruleset: lotm
sides:
  - name: heroes
    combatants:
      - {name: Investigator, hp: 18, ac: 8, dodge: 2, agility: 3, attacks: [5], damage: 1d8+2, strength: 2, tactics: {turn: [{do: leg_sweep}, {do: attack with zzz}], reactions: [{do: pass, target: weakest}]}}
  - name: monsters
    combatants:
      - {name: Cultist, hp: 20, ac: 9, dodge: 1, agility: 2, attacks: [4], damage: 1d8+2, strength: 2}
`, want: "Leg Sweep needs 5 or more", code: []string{"with", "zzz", "feint", "aim", "intimidate", "meditate", "pass"}},
	{name: "lotm never fires", yaml: `ruleset: lotm
sides:
  - name: heroes
    combatants:
      - {name: Investigator, hp: 18, ac: 8, dodge: 2, agility: 3, attacks: [5], damage: 1d8+2, strength: 2, tactics: {turn: [{do: attack}, {when: round == 1, do: strike}]}}
  - name: monsters
    combatants:
      - {name: Cultist, hp: 20, ac: 9, dodge: 1, agility: 2, attacks: [4], damage: 1d8+2, strength: 2}
`, want: "can never fire", code: []string{"when"}, warning: true},
}

// compileRules decodes and compiles a scenario as simctl does, returning
// its errors (or, when it compiles, its warnings).
func compileRules(t *testing.T, c rulesCase) scenario.Errors {
	t.Helper()
	data := "name: " + c.name + "\nmax_rounds: 10\n" + c.yaml
	sc, err := scenario.Decode("t.yaml", []byte(data), nil, rulesets.Schema)
	if sc == nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if err == nil {
		_, err = rulesets.Compile(sc)
	} else if _, ok := rulesets.Lookup(sc.Ruleset); ok {
		rulesets.Compile(sc)
		err = sc.Rep.Err()
	}
	if c.warning {
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		return sc.Rep.Warns
	}
	var es scenario.Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("%s: want scenario errors, got %v", c.name, err)
	}
	return es
}

// unconverted says whether e is an option's error whose message is still
// English text formatted before it reached the Reporter (a "%s" of a
// string): the decoder's own message for an invalid value, until
// sim/scenario makes it a message of sim/msg. Its place is checked; its
// words cannot be yet. (Only options: every message of the rulesets and
// agents is checked whole.)
func unconverted(e *scenario.Error) bool {
	if !strings.HasPrefix(e.Path, "options.") {
		return false
	}
	if strings.ContainsFunc(strings.ReplaceAll(e.Text.Format, "%s", ""), unicode.IsLetter) {
		return false
	}
	for _, a := range e.Text.Args {
		if _, ok := a.(string); !ok {
			return false
		}
	}
	return true
}

// TestRulesErrorsTranslated compiles broken scenarios of every ruleset (a
// bad ruleset option, a bad ruleset field, a bad policy parameter, a
// tactics block the binding rejects) and a tactics rule that can never
// fire, and renders each error and warning in Korean and Russian: the
// file:line:col, the field path and any caret line stay as in English, and
// no English word is left but the scenario's names and the file format's
// words the message quotes.
func TestRulesErrorsTranslated(t *testing.T) {
	scripts := map[i18n.Lang]*unicode.RangeTable{i18n.Ko: unicode.Hangul, i18n.Ru: unicode.Cyrillic}
	for _, c := range rulesCases {
		es := compileRules(t, c)
		if en := es.Localize(nil); !strings.Contains(en, c.want) {
			t.Errorf("%s: the English does not say %q:\n%s", c.name, c.want, en)
			continue
		}
		allowed := append(append([]string(nil), rulesNames...), c.code...)
		for _, e := range es {
			en := e.Localize(nil)
			// file:line:col: path: — all that precedes the message.
			head := e.File
			if e.Line > 0 {
				head = strings.SplitN(en, ": ", 2)[0]
			}
			head += ": " + e.Path + ": "
			if !strings.HasPrefix(en, head) {
				t.Fatalf("%s: %q does not start %q", c.name, en, head)
			}
			enLines := strings.Split(en, "\n")
			for _, l := range []i18n.Lang{i18n.Ko, i18n.Ru} {
				got := l.Err(e)
				if testing.Verbose() {
					t.Logf("%s %s: %s", c.name, l, got)
				}
				if !strings.HasPrefix(got, head) {
					t.Errorf("%s %s: %q lost its place %q", c.name, l, got, head)
				}
				// A caret under a condition: the condition and the caret
				// line are the English ones.
				if lines := strings.Split(got, "\n"); len(lines) != len(enLines) || strings.Join(lines[1:], "\n") != strings.Join(enLines[1:], "\n") {
					t.Errorf("%s %s: the lines under the message differ:\n%s\nEnglish:\n%s", c.name, l, got, en)
				}
				if unconverted(e) {
					t.Logf("%s %s: %s (sim/scenario's message, not yet a sim/msg format)", c.name, l, got)
					continue
				}
				if !strings.ContainsFunc(got, func(r rune) bool { return unicode.Is(scripts[l], r) }) {
					t.Errorf("%s %s: not translated: %s", c.name, l, got)
				}
				msgPart := strings.TrimPrefix(strings.Split(got, "\n")[0], head)
				if bad := i18ntest.EnglishLines(msgPart, allowed); len(bad) > 0 {
					t.Errorf("%s %s: English left in %q:\n%s", c.name, l, got, strings.Join(bad, "\n"))
				}
			}
		}
	}
}

// TestForwardedMessagesTranslated covers what TestMessagesTranslated
// cannot see in agents and rulesets: a literal format given to a local
// function that forwards it to a message function (the bindings' fail,
// ReadBlock's bad, a parameter such as unknownLotmVerb's fail), any
// function value taking (format string, args ...any).
func TestForwardedMessagesTranslated(t *testing.T) {
	known := map[string]bool{}
	for _, f := range i18n.MsgFormats() {
		known[f] = true
	}
	letters := regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)
	fset := token.NewFileSet()
	found := 0
	for _, root := range []string{"../../agents", "../../rulesets"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			// The names bound to such functions in this file, and the
			// index of their format.
			fwd := map[string]int{}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for k, r := range n.Rhs {
						if fl, ok := r.(*ast.FuncLit); ok && k < len(n.Lhs) {
							if id, ok := n.Lhs[k].(*ast.Ident); ok {
								if i := formatParam(fl.Type); i >= 0 {
									fwd[id.Name] = i
								}
							}
						}
					}
				case *ast.Field:
					if ft, ok := n.Type.(*ast.FuncType); ok {
						if i := formatParam(ft); i >= 0 {
							for _, id := range n.Names {
								fwd[id.Name] = i
							}
						}
					}
				}
				return true
			})
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				id, ok := call.Fun.(*ast.Ident)
				if !ok {
					return true
				}
				i, ok := fwd[id.Name]
				if !ok || i >= len(call.Args) {
					return true
				}
				lit, ok := call.Args[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				found++
				if strings.ContainsFunc(letters.ReplaceAllString(s, ""), unicode.IsLetter) && !known[s] {
					t.Errorf("%s: message %q is in no catalog/msg file", fset.Position(call.Pos()), s)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found < 50 {
		t.Fatalf("found only %d forwarded messages; the scan is broken", found)
	}
}

// formatParam is the index of ft's format parameter, a string followed by
// ...any, or -1.
func formatParam(ft *ast.FuncType) int {
	ps := ft.Params.List
	i := 0
	for k, p := range ps {
		n := max(len(p.Names), 1)
		if id, ok := p.Type.(*ast.Ident); ok && id.Name == "string" && k+1 < len(ps) {
			if el, ok := ps[k+1].Type.(*ast.Ellipsis); ok {
				if a, ok := el.Elt.(*ast.Ident); ok && a.Name == "any" {
					return i + n - 1
				}
			}
		}
		i += n
	}
	return -1
}
