package app

import (
	"regexp"
	"strconv"
	"strings"

	"simctl/rulesets"
	"simctl/sim"
	"simctl/sim/scenario"
)

// obj is a JSON Schema node.
type obj = map[string]any

// commonSchemas types the fields every scenario has; the field lists
// themselves come from the decoder (scenario.Fields), so a field it
// accepts is never missing from the schema.
var commonSchemas = map[string]obj{
	"top.name":        {"type": "string", "description": "the scenario's name, printed in results"},
	"top.description": {"type": "string", "description": "what the scenario is about"},
	"top.max_rounds":  {"type": "integer", "minimum": 1, "maximum": scenario.MaxRounds, "description": "a draw when reached with both sides standing (default 100)"},
	"top.distance":    {"type": "integer", "minimum": 0, "maximum": 100000, "description": "feet between the sides at the start; 0: already in melee"},
	"side.name":       {"type": "string", "pattern": "^[^.=]+$", "description": "the side's name; --set addresses the side by it (heroes.aware=false)"},
	"side.aware":      {"type": "boolean", "description": "false: this side is surprised (default true)"},
	"side.referee":    {"type": "boolean", "description": "the referee's side (ACKS II same-number rule)"},
	"combatant.name":  {"type": "string", "pattern": "^[^.#=]+$", "description": "the combatant's name; copies are Name#1, Name#2, ..."},
	"combatant.count": {"type": "integer", "minimum": 1, "maximum": scenario.MaxCombatants, "description": "copies of this combatant (default 1)"},
	"combatant.hp":    {"type": []string{"integer", "string"}, "description": "hit points: a number (20) or dice rolled per encounter (3d10+6)"},
	"combatant.ac":    {"type": "integer", "description": "armour class"},
	"combatant.init":  {"type": "integer", "description": "initiative modifier"},
	"combatant.initiative_roll": {"type": "integer", "minimum": 1,
		"description": "pins the initiative die (\"what is going first worth?\")"},
	"combatant.attacks": {"type": []string{"integer", "array"}, "items": obj{"type": "integer"},
		"description": "attack bonuses; the first is the standard-action attack, e.g. [6, 1]"},
	"combatant.damage": {"type": []string{"integer", "string"}, "description": "weapon damage as dice, e.g. 1d8+3"},
	"combatant.speed":  {"type": "integer", "minimum": 0, "description": "feet per move (default 30)"},
	"combatant.aware":  {"type": "boolean", "description": "overrides the side's aware"},
}

// extraSchemas is the extension point for fields a feature adds to the
// decoder (scenario.Fields): "top.tactics", "side.tactics" or
// "combatant.tactics" set here give that field its schema. A field the
// decoder accepts with no entry still appears, untyped, so an editor
// never flags a valid file.
var extraSchemas = map[string]obj{
	"side.tactics":      tacticsSchema("the side's tactics (docs/tactics.md); a combatant's own block overrides it"),
	"combatant.tactics": tacticsSchema("this combatant's tactics (docs/tactics.md); overrides its side's"),
}

// tacticsSchema is a tactics: block: a library name (simctl policies), or
// {use, params} over one, or params and ordered rules grouped by moment.
// Which moments a ruleset offers is checked by simctl check, not here.
func tacticsSchema(doc string) obj {
	rule := obj{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"do"},
		"properties": obj{
			"name":   obj{"type": "string", "description": "a name for the rule counts and traces"},
			"when":   obj{"type": "string", "description": "a condition, e.g. self.hp_pct < $low and round == 1"},
			"do":     obj{"type": "string", "description": "a decision of the ruleset at this moment (simctl policies RULESET)"},
			"target": obj{"type": "string", "description": "weakest, strongest, nearest, lowest_ac, casters_first, random, first or a name, optionally \"in reach\""},
		},
	}
	rules := obj{"type": "array", "items": rule}
	return obj{
		"description": doc,
		"oneOf": []any{
			obj{"type": "string", "description": "a library tactic (simctl policies)"},
			obj{
				"type": "object",
				"properties": obj{
					"use":               obj{"type": "string", "description": "a library tactic to start from"},
					"params":            obj{"type": "object", "description": "named numbers and names, used as $name; --set PATH.params.NAME sweeps them"},
					"turn":              rules,
					"before_initiative": rules,
					"reactions":         rules,
					"same_number":       rules,
					"move":              rules,
					"attack":            rules,
				},
				"additionalProperties": false,
			},
		},
	}
}

// Schema is the JSON Schema (draft-07, what editors' YAML
// extensions read) of a scenario file: the common fields, and for each
// ruleset (selected by ruleset:) its options, fields and policies, from
// its Schema() and Doc().
func Schema() map[string]any {
	top, side, comb := scenario.Fields()
	names := rulesets.Names()
	defs := obj{}
	root := obj{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"$id":                  "https://simctl.invalid/scenario.schema.json",
		"title":                "simctl scenario",
		"description":          "An encounter for simctl (simctl help; simctl rules NAME for a ruleset).",
		"type":                 "object",
		"required":             []string{"name", "ruleset", "sides"},
		"additionalProperties": false,
		"definitions":          defs,
	}
	props := obj{}
	for _, f := range top {
		switch f {
		case "ruleset":
			props[f] = obj{"enum": names, "description": "the rules: " + strings.Join(names, ", ")}
		case "options":
			props[f] = obj{"type": "object", "description": "ruleset options; simctl rules NAME lists them with defaults"}
		case "sides":
			props[f] = obj{"type": "array", "minItems": 2, "maxItems": 2, "description": "exactly two sides"}
		default:
			props[f] = fieldSchema("top", f, "")
		}
	}
	root["properties"] = props
	var cases []any
	for _, name := range names {
		r, _ := rulesets.Lookup(name)
		d, sch := r.Doc(), r.Schema()
		docs := map[string]string{}
		for _, f := range d.Fields {
			docs[f.Name] = f.Doc
		}
		defs["policy."+name] = policySchema(d.Policies)
		defs["options."+name] = optionsSchema(d.Options)
		cp := obj{}
		for _, f := range append(append([]string(nil), comb...), sch.CombatantFields...) {
			if f == "policy" {
				cp[f] = obj{"$ref": "#/definitions/policy." + name}
				continue
			}
			cp[f] = fieldSchema("combatant", f, docs[f])
		}
		if sch.InitDie > 0 {
			cp["initiative_roll"] = obj{"type": "integer", "minimum": 1, "maximum": sch.InitDie, "description": "pins the initiative die"}
		}
		defs["combatant."+name] = obj{"type": "object", "required": []string{"name", "hp", "damage"}, "properties": cp, "additionalProperties": false}
		sp := obj{}
		for _, f := range append(append([]string(nil), side...), sch.SideFields...) {
			switch f {
			case "policy":
				sp[f] = obj{"$ref": "#/definitions/policy." + name}
			case "combatants":
				sp[f] = obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/definitions/combatant." + name}}
			default:
				sp[f] = fieldSchema("side", f, docs[f])
			}
		}
		defs["side."+name] = obj{"type": "object", "required": []string{"name", "combatants"}, "properties": sp, "additionalProperties": false}
		cases = append(cases, obj{
			"if": obj{"properties": obj{"ruleset": obj{"const": name}}, "required": []string{"ruleset"}},
			"then": obj{"properties": obj{
				"options": obj{"$ref": "#/definitions/options." + name},
				"sides":   obj{"items": obj{"$ref": "#/definitions/side." + name}},
			}},
		})
	}
	root["allOf"] = cases
	return root
}

// fieldSchema is the schema of a field at a level (top, side, combatant):
// the common one, an extension's, or an untyped one with its ruleset doc.
func fieldSchema(level, name, doc string) obj {
	if s, ok := extraSchemas[level+"."+name]; ok {
		return s
	}
	if s, ok := commonSchemas[level+"."+name]; ok {
		c := obj{}
		for k, v := range s {
			c[k] = v
		}
		if doc != "" {
			c["description"] = doc
		}
		return c
	}
	if doc == "" {
		doc = "see simctl rules"
	}
	return obj{"description": doc}
}

func policySchema(ps []sim.Field) obj {
	var names []string
	var docs []string
	for _, p := range ps {
		names = append(names, p.Name)
		docs = append(docs, p.Name+": "+p.Doc)
	}
	return obj{
		"description": "scripted tactics: a name, or {name: NAME, param: value}.\n" + strings.Join(docs, "\n"),
		"oneOf": []any{
			obj{"type": "string", "enum": names},
			obj{"type": "object", "required": []string{"name"}, "properties": obj{"name": obj{"enum": names}}},
		},
	}
}

var (
	reRange = regexp.MustCompile(`^(-?\d+)\s*(?:-|\.\.|to)\s*(-?\d+)$`)
	reToken = regexp.MustCompile(`^[A-Za-z0-9_+.-]+$`)
)

func optionsSchema(os []sim.Option) obj {
	props := obj{}
	for _, o := range os {
		s := obj{"description": o.Doc + " (default " + o.Default + "; valid: " + o.Valid + ")"}
		if m := reRange.FindStringSubmatch(strings.TrimSpace(o.Valid)); m != nil {
			lo, _ := strconv.Atoi(m[1])
			hi, _ := strconv.Atoi(m[2])
			s["type"], s["minimum"], s["maximum"] = "integer", lo, hi
		} else if vals := enumValues(o.Valid); vals != nil {
			s["enum"] = vals
		}
		props[o.Name] = s
	}
	return obj{"type": "object", "properties": props, "additionalProperties": false}
}

// enumValues reads "a | b | c" as YAML scalars (true and 3 are a boolean
// and a number), or nil when Valid is prose.
func enumValues(valid string) []any {
	parts := strings.Split(valid, "|")
	if len(parts) < 2 {
		return nil
	}
	var out []any
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if !reToken.MatchString(p) {
			return nil
		}
		if b, err := strconv.ParseBool(p); err == nil && (p == "true" || p == "false") {
			out = append(out, b)
		} else if n, err := strconv.Atoi(p); err == nil {
			out = append(out, n)
		} else {
			out = append(out, p)
		}
	}
	return out
}
