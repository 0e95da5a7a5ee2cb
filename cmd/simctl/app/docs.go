package app

import (
	"fmt"
	"slices"
	"strings"

	"simctl/agents"
	"simctl/reports/i18n"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/msg"
	"simctl/sim/names"
	"simctl/sim/scenario"
)

// The reference texts both front ends show: simctl rules, policies, init
// and schema print them, and the lab's documentation panes, template and
// editor completion serve the same text.

// Rules is what simctl rules prints for r in language l: its own
// documentation (options with defaults, fields, policies, actions,
// counters). Every text comes from the catalog (rules.NAME.* keys, the
// English generated from r.Doc(), see RulesCatalog); names that are the
// scenario format (options, fields, policies, counters, option values)
// stay as written.
func Rules(r sim.Ruleset, l i18n.Lang) string {
	var b strings.Builder
	d := RulesDoc(r, l)
	fmt.Fprintf(&b, "%s — %s\n%s %s\n\n%s\n", d.Name, d.Title, l.T("rulesdoc.source"), d.Source, Wrap(d.Summary, 88, ""))
	fmt.Fprintf(&b, "\n%s\n", l.T("rulesdoc.options"))
	for _, o := range d.Options {
		fmt.Fprintf(&b, "  %s: %s  [%s]\n%s\n", o.Name, o.Default, o.Valid, Wrap(o.Doc, 84, "      "))
	}
	section := func(title string, fs []sim.Field) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, f := range fs {
			fmt.Fprintf(&b, "  %s\n%s\n", f.Name, Wrap(f.Doc, 84, "      "))
		}
	}
	section(l.T("rulesdoc.fields", commonFields), d.Fields)
	section(l.T("rulesdoc.policies"), d.Policies)
	section(l.T("rulesdoc.actions"), d.Actions)
	section(l.T("rulesdoc.counters", strings.Join(sim.BaseCounters, ", ")), d.Counters)
	section(l.T("rulesdoc.moments"), d.Moments)
	section(l.T("rulesdoc.quantities"), d.Quantities)
	section(l.T("rulesdoc.conditions"), d.Conditions)
	section(l.T("rulesdoc.traits"), d.Traits)
	return b.String()
}

// RulesDoc is r's documentation with its texts in language l (the lab
// shows it as HTML): every text from the catalog; the names that are the
// scenario format (options, fields, policies, counters, option values)
// stay as written, an action's name is a heading and is translated.
func RulesDoc(r sim.Ruleset, l i18n.Lang) sim.RulesDoc {
	d := r.Doc()
	k := "rules." + d.Name + "."
	d.Title, d.Source, d.Summary = l.T(k+"title"), l.T(k+"source"), l.T(k+"summary")
	d.Options = append([]sim.Option(nil), d.Options...)
	for i := range d.Options {
		d.Options[i].Doc = l.T(k + "option." + d.Options[i].Name)
	}
	local := func(kind string, fs []sim.Field) []sim.Field {
		out := append([]sim.Field(nil), fs...)
		for i, f := range out {
			key := RulesKey(d.Name, kind, f.Name)
			if kind == "action" {
				out[i].Name = l.T(key + ".name")
			}
			out[i].Doc = l.T(key)
		}
		return out
	}
	d.Fields, d.Policies = local("field", d.Fields), local("policy", d.Policies)
	d.Actions, d.Counters = local("action", d.Actions), local("counter", d.Counters)
	d.Moments, d.Quantities = local("moment", d.Moments), local("quantity", d.Quantities)
	d.Conditions, d.Traits = local("condition", d.Conditions), local("trait", d.Traits)
	return d
}

// commonFields are the combatant fields every ruleset reads (simctl rules
// lists the others).
const commonFields = "name, count, hp, ac, init, initiative_roll, attacks, damage, speed, aware, policy"

// RulesKey is the catalog key of one entry of ruleset's Doc: kind is
// option, field, policy, action or counter. An action is keyed by a slug
// of its name, since the name is a heading that is translated.
func RulesKey(ruleset, kind, name string) string {
	if kind == "action" {
		name = slug(name)
	}
	return "rules." + ruleset + "." + kind + "." + name
}

// slug is name in lower case, runs of other characters as one '_', cut
// at 48 bytes.
func slug(name string) string {
	var b strings.Builder
	us := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			us = false
		} else if !us && b.Len() > 0 {
			b.WriteByte('_')
			us = true
		}
	}
	out := strings.TrimSuffix(b.String(), "_")
	if len(out) > 48 {
		out = strings.TrimSuffix(out[:48], "_")
	}
	return out
}

// CatalogEntry is one line of a generated catalog.
type CatalogEntry struct{ Key, Text string }

// RulesCatalog is the English catalog of a ruleset's documentation, in
// Doc order: what catalog/en/rules.txt holds (TestRulesCatalogCurrent
// compares them and rewrites the file with -update).
func RulesCatalog(d sim.RulesDoc) []CatalogEntry {
	k := "rules." + d.Name + "."
	es := []CatalogEntry{{k + "title", d.Title}, {k + "source", d.Source}, {k + "summary", d.Summary}}
	for _, o := range d.Options {
		es = append(es, CatalogEntry{k + "option." + o.Name, o.Doc})
	}
	for _, sec := range []struct {
		kind string
		fs   []sim.Field
	}{{"field", d.Fields}, {"policy", d.Policies}, {"action", d.Actions}, {"counter", d.Counters},
		{"moment", d.Moments}, {"quantity", d.Quantities}, {"condition", d.Conditions}, {"trait", d.Traits}} {
		for _, f := range sec.fs {
			key := RulesKey(d.Name, sec.kind, f.Name)
			if sec.kind == "action" {
				es = append(es, CatalogEntry{key + ".name", f.Name})
			}
			es = append(es, CatalogEntry{key, f.Doc})
		}
	}
	return es
}

// UnknownRuleset is the mistake of naming a ruleset there is not, with the
// one probably meant and the valid names.
func UnknownRuleset(name string) error {
	return msg.Errorf("unknown ruleset %q%s; valid: %s", name, suggest(name, rulesets.Names()), strings.Join(rulesets.Names(), ", "))
}

// suggest is " (did you mean "x"?)" for the valid name closest to s, as a
// message (scenario.Suggest's English words would stay English).
func suggest(s string, valid []string) msg.Text {
	if c := names.Closest(s, valid); c != "" {
		return msg.New(" (did you mean %q?)", c)
	}
	return msg.Text{}
}

// Policies is what simctl policies prints in language l: the tactics
// library (the named policies written in the tactics language) of
// ruleset, or of every ruleset when it is "", and for one ruleset the
// facts and decisions a tactics block may use. A library tactic's
// description is its source's first comment; the catalog holds it
// (policies.lib.RULESET.NAME, see PoliciesCatalog) so it is translated.
func Policies(ruleset string, l i18n.Lang) (string, error) {
	names := rulesets.Names()
	if ruleset != "" {
		if _, ok := rulesets.Lookup(ruleset); !ok {
			return "", UnknownRuleset(ruleset)
		}
		names = []string{ruleset}
	}
	var b strings.Builder
	for i, rs := range names {
		if i > 0 {
			fmt.Fprintln(&b)
		}
		r, _ := rulesets.Lookup(rs)
		lib := agents.LibraryNames(rs)
		fmt.Fprintf(&b, "%s\n", rs)
		if len(lib) == 0 {
			fmt.Fprintf(&b, "  %s\n", l.T("policies.no_library", rs))
		}
		for _, n := range lib {
			fmt.Fprintf(&b, "  %s\n%s\n", n, Wrap(l.T(PolicyKey(rs, n)), 84, "      "))
		}
		var goOnly []string
		for _, p := range r.Doc().Policies {
			if !slices.Contains(lib, p.Name) {
				goOnly = append(goOnly, p.Name)
			}
		}
		if len(lib) > 0 && len(goOnly) > 0 {
			fmt.Fprintf(&b, "  %s\n", l.T("policies.go_only", strings.Join(goOnly, ", "), rs))
		}
		if bd, ok := agents.LookupBinding(rs); ok && bd.Describe != nil && ruleset != "" {
			bd.Describe(&b, l.T)
		}
	}
	fmt.Fprintf(&b, "\n%s\n", l.T("policies.footer"))
	return b.String(), nil
}

// PolicyKey is the catalog key of library tactic name's description.
func PolicyKey(ruleset, name string) string { return "policies.lib." + ruleset + "." + name }

// PoliciesCatalog is the English catalog of the library tactics'
// descriptions (their sources' first comments) and of the facts' docs of
// each ruleset's tactics binding: the generated part of
// catalog/en/policies.txt (TestPoliciesCatalogCurrent).
func PoliciesCatalog() []CatalogEntry {
	var es []CatalogEntry
	for _, rs := range rulesets.Names() {
		for _, n := range agents.LibraryNames(rs) {
			src, _ := agents.LibrarySource(rs, n)
			es = append(es, CatalogEntry{PolicyKey(rs, n), firstComment(string(src))})
		}
	}
	// The facts simctl policies RULESET lists.
	for _, rs := range rulesets.Names() {
		if bd, ok := agents.LookupBinding(rs); ok && bd.Facts != nil {
			for _, f := range bd.Facts() {
				es = append(es, CatalogEntry{agents.FactKey(rs, f.Name), f.Doc})
			}
		}
	}
	return es
}

// Tactic is what simctl policies show prints: one library tactic, named
// RULESET/NAME or NAME (the ruleset whose library has it, d20 first), to
// copy and edit; its heading comment in language l.
func Tactic(spec string, l i18n.Lang) (string, error) {
	rs, name, ok := strings.Cut(spec, "/")
	if !ok {
		rs, name = "d20", spec
		for _, r := range rulesets.Names() {
			if _, found := agents.LibrarySource(r, name); found {
				rs = r
			}
		}
	}
	src, found := agents.LibrarySource(rs, name)
	if !found {
		return "", msg.Errorf("no library tactic %q for %s%s; library: %s", name, rs, scenario.Suggest(name, agents.LibraryNames(rs)), strings.Join(agents.LibraryNames(rs), ", "))
	}
	return "# " + l.T("policies.show_header", rs, name) + "\n" + string(src), nil
}

// firstComment joins the leading comment lines of a library file.
func firstComment(src string) string {
	var parts []string
	for _, line := range strings.Split(src, "\n") {
		c, ok := strings.CutPrefix(line, "#")
		if !ok {
			break
		}
		parts = append(parts, strings.TrimSpace(c))
	}
	return strings.Join(parts, " ")
}

// Starter is the text of simctl init's starter scenario for r: the
// ruleset's built-in duel, headed by comments generated from the
// ruleset's own documentation, so the template always runs and never
// drifts from what the decoder accepts.
func Starter(r sim.Ruleset) (string, error) { return StarterIn(r, i18n.En) }

// StarterIn is Starter with its comments in l (simctl init --lang):
// simctl's own lines and the ruleset's documentation (RulesDoc) are
// translated; the YAML keys, field and option names, commands and the
// scenario itself stay as they are.
func StarterIn(r sim.Ruleset, l i18n.Lang) (string, error) {
	return starter(r, l.Or())
}

// starterBase is the built-in a starter of ruleset copies (its duel, else
// its first) and that scenario's text.
func starterBase(ruleset string) (string, []byte, error) {
	base := ""
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, ruleset+"/") && (base == "" || n == ruleset+"/duel") {
			base = n
		}
	}
	data, _, ok := scenarios.Read(base)
	if base == "" || !ok {
		return "", nil, msg.Errorf("no built-in scenario of ruleset %s to start from", ruleset)
	}
	return base, data, nil
}

// commonCombatantFields describes the common combatant fields the
// ruleset accepts, found by compiling its built-in base scenario with each
// one set on the first combatant: a starter must not name a field its
// ruleset refuses (Cavaliers has defence, not ac).
func commonCombatantFields(base string, data []byte) []string {
	src := &Source{Name: base, Display: "builtin:" + base + ".yaml", Data: data}
	sc, _, err := src.Compile(nil, nil)
	fields := []string{"a name", "count (copies Name#1, Name#2, ...)", "hp (a number or dice such as 3d10+6)"}
	if err != nil || len(sc.Sides[0].Combatants) == 0 {
		return append(fields, "and the fields below")
	}
	at := sc.Sides[0].Name + "." + sc.Sides[0].Combatants[0].Name + "."
	for _, f := range []struct{ name, value, doc string }{
		{"ac", "12", "ac"},
		{"init", "1", "init"},
		{"initiative_roll", "1", "initiative_roll (pins the die)"},
		{"attacks", "[3]", "attacks"},
		{"damage", "1d6", "damage (dice)"},
		{"speed", "30", "speed"},
	} {
		if _, _, err := src.Compile([]scenario.Set{{Path: at + f.name, Value: f.value}}, nil); err == nil {
			fields = append(fields, f.doc)
		}
	}
	return append(fields, "aware", "policy and tactics")
}

// Wrap fills s into lines of at most width terminal columns, each after
// indent (i18n.Wrap: Korean and Russian fill the width English does).
func Wrap(s string, width int, indent string) string { return i18n.Wrap(s, width, indent) }

func starter(r sim.Ruleset, l i18n.Lang) (string, error) {
	d := RulesDoc(r, l)
	base, data, err := starterBase(d.Name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	c := func(s string) { b.WriteString(strings.TrimRight("# "+s, " ") + "\n") }
	wrapped := func(indent, s string) {
		for _, line := range strings.Split(Wrap(s, 86, indent), "\n") {
			c(line)
		}
	}
	for _, line := range strings.Split(l.T("init.head", d.Name, d.Name, Release, base), "\n") {
		c(line)
	}
	c("")
	c(l.T("init.ruleset", d.Name, d.Title))
	wrapped("  ", l.T("init.source")+" "+d.Source)
	wrapped("  ", d.Summary)
	c("")
	// A catalog's line breaks are kept (the English is laid out by hand);
	// each line is wrapped.
	for _, part := range strings.Split(l.T("init.common", strings.Join(commonCombatantFieldsIn(l, base, data), ", ")), "\n") {
		wrapped("", part)
	}
	c("")
	wrapped("", l.T("init.tactics", d.Name))
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, d.Name+"/tactics-") {
			c(l.T("init.example", n))
			break
		}
	}
	if len(d.Options) > 0 {
		c("")
		c(l.T("init.options", d.Options[0].Name, d.Options[0].Default))
		for _, o := range d.Options {
			c("  " + l.T("init.option", o.Name, o.Default, o.Valid)) // the catalog trims the indent
			wrapped("      ", o.Doc)
		}
	}
	if len(d.Fields) > 0 {
		c("")
		c(l.T("init.fields", d.Name))
		for _, f := range d.Fields {
			c("  " + f.Name)
			wrapped("      ", f.Doc)
		}
	}
	if len(d.Policies) > 0 {
		c("")
		c(l.T("init.policies"))
		for _, f := range d.Policies {
			c("  " + f.Name)
			wrapped("      ", f.Doc)
		}
	}
	c("")
	b.Write(data)
	return b.String(), nil
}

// commonCombatantFieldsIn is commonCombatantFields in l.
func commonCombatantFieldsIn(l i18n.Lang, base string, data []byte) []string {
	en := commonCombatantFields(base, data)
	keys := map[string]string{
		"a name": "init.field.name", "count (copies Name#1, Name#2, ...)": "init.field.count",
		"hp (a number or dice such as 3d10+6)": "init.field.hp", "and the fields below": "init.field.below",
		"initiative_roll (pins the die)": "init.field.initiative_roll", "damage (dice)": "init.field.damage",
		"policy and tactics": "init.field.policy",
	}
	out := make([]string, len(en))
	for i, f := range en {
		out[i] = f
		if k, ok := keys[f]; ok {
			out[i] = l.T(k)
		}
	}
	return out
}
