package app

import (
	"fmt"
	"simctl/reports/i18n"
	"slices"
	"strings"

	"simctl/agents"
	"simctl/rulesets"
	"simctl/scenarios"
	"simctl/sim"
	"simctl/sim/scenario"
)

// The reference texts both front ends show: simctl rules, policies, init
// and schema print them, and the lab's documentation panes, template and
// editor completion serve the same text.

// Rules is what simctl rules prints for r: its own documentation
// (options with defaults, fields, policies, actions, counters).
func Rules(r sim.Ruleset) string {
	var b strings.Builder
	d := r.Doc()
	fmt.Fprintf(&b, "%s — %s\nsource: %s\n\n%s\n", d.Name, d.Title, d.Source, Wrap(d.Summary, 88, ""))
	fmt.Fprintf(&b, "\noptions (scenario options:, default first):\n")
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
	section("combatant fields (besides name, count, hp, ac, init, initiative_roll, attacks, damage, speed, aware, policy)", d.Fields)
	section("policies (policy: NAME or {name: NAME, param: value})", d.Policies)
	section("actions and rules", d.Actions)
	section("counters (action_economy, besides "+strings.Join(sim.BaseCounters, ", ")+")", d.Counters)
	return b.String()
}

// UnknownRuleset is the mistake of naming a ruleset there is not, with the
// one probably meant and the valid names.
func UnknownRuleset(name string) error {
	return fmt.Errorf("unknown ruleset %q%s; valid: %s", name, scenario.Suggest(name, rulesets.Names()), strings.Join(rulesets.Names(), ", "))
}

// Policies is what simctl policies prints: the tactics library (the named
// policies written in the tactics language) of ruleset, or of every
// ruleset when it is "", and for one ruleset the facts and decisions a
// tactics block may use.
func Policies(ruleset string) (string, error) {
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
			fmt.Fprintf(&b, "  no tactics library yet: its policies are Go (simctl rules %s)\n", rs)
		}
		for _, n := range lib {
			src, _ := agents.LibrarySource(rs, n)
			fmt.Fprintf(&b, "  %s\n%s\n", n, Wrap(firstComment(string(src)), 84, "      "))
		}
		var goOnly []string
		for _, p := range r.Doc().Policies {
			if !slices.Contains(lib, p.Name) {
				goOnly = append(goOnly, p.Name)
			}
		}
		if len(lib) > 0 && len(goOnly) > 0 {
			fmt.Fprintf(&b, "  Go only: %s (simctl rules %s)\n", strings.Join(goOnly, ", "), rs)
		}
		if bd, ok := agents.LookupBinding(rs); ok && bd.Describe != nil && ruleset != "" {
			bd.Describe(&b)
		}
	}
	fmt.Fprintln(&b, "\nsimctl policies show NAME prints one; docs/tactics.md is the reference.")
	return b.String(), nil
}

// Tactic is what simctl policies show prints: one library tactic, named
// RULESET/NAME or NAME (the ruleset whose library has it, d20 first), to
// copy and edit.
func Tactic(spec string) (string, error) {
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
		return "", fmt.Errorf("no library tactic %q for %s%s; library: %s", name, rs, scenario.Suggest(name, agents.LibraryNames(rs)), strings.Join(agents.LibraryNames(rs), ", "))
	}
	return fmt.Sprintf("# %s/%s: use it as tactics: %s (or {use: %s, params: {...}}), or copy it into tactics: and edit\n%s", rs, name, name, name, src), nil
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

// StarterIn is Starter with simctl's own comments in l (simctl init
// --lang): the YAML keys, field and option names, commands and the
// scenario itself stay as they are; the ruleset's documentation (its
// title, source, summary and the docs of its options, fields and
// policies) is the ruleset's own text, printed as the ruleset gives it.
func StarterIn(r sim.Ruleset, l i18n.Lang) (string, error) {
	if l = l.Or(); l == i18n.En {
		return starterEn(r)
	}
	return starterLang(r, l)
}

func starterEn(r sim.Ruleset) (string, error) {
	d := r.Doc()
	base := ""
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, d.Name+"/") && (base == "" || n == d.Name+"/duel") {
			base = n
		}
	}
	data, _, ok := scenarios.Read(base)
	if base == "" || !ok {
		return "", fmt.Errorf("no built-in scenario of ruleset %s to start from", d.Name)
	}
	var b strings.Builder
	c := func(format string, args ...any) { // a comment line
		line := strings.TrimRight("# "+fmt.Sprintf(format, args...), " ")
		b.WriteString(line + "\n")
	}
	wrapped := func(indent, s string) {
		for _, l := range strings.Split(Wrap(s, 86, indent), "\n") {
			c("%s", l)
		}
	}
	c("A starter %s scenario, written by simctl init %s (simctl %s) from the", d.Name, d.Name, Release)
	c("built-in %s. Next:", base)
	c("  simctl check FILE        validate it (every problem at once, with line:col)")
	c("  simctl run FILE          play 100,000 encounters and print the win rates")
	c("  simctl run FILE --json -o result.json && simctl report result.json -o report/")
	c("Editor completion: simctl schema -o simctl-scenario.schema.json, then make the")
	c("first line of this file: # yaml-language-server: $schema=simctl-scenario.schema.json")
	c("")
	c("Ruleset %s: %s", d.Name, d.Title)
	wrapped("  ", "Source: "+d.Source)
	wrapped("  ", d.Summary)
	c("")
	c("Common fields: name, description, ruleset, options, max_rounds (a draw when reached),")
	c("distance (feet between the sides at the start; 0: in melee), sides (exactly two, each")
	c("with name, aware (false: surprised), policy, tactics and combatants). Every combatant")
	wrapped("", "has "+strings.Join(commonCombatantFields(base, data), ", ")+".")
	c("")
	wrapped("", "tactics: on a side or a combatant, decisions as data instead of a policy: rules grouped by the moment of decision, each with name:, when: CONDITION, do: DECISION and target:, the first that applies deciding. simctl policies "+d.Name+" lists its moments, facts and decisions; docs/tactics.md explains the language.")
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, d.Name+"/tactics-") {
			c("A worked example: simctl scenarios show %s", n)
			break
		}
	}
	if len(d.Options) > 0 {
		c("")
		c("options: (add under options:, e.g. options: {%s: %s}; the default is shown)", d.Options[0].Name, d.Options[0].Default)
		for _, o := range d.Options {
			c("  %s: %s    # valid: %s", o.Name, o.Default, o.Valid)
			wrapped("      ", o.Doc)
		}
	}
	if len(d.Fields) > 0 {
		c("")
		c("%s combatant fields:", d.Name)
		for _, f := range d.Fields {
			c("  %s", f.Name)
			wrapped("      ", f.Doc)
		}
	}
	if len(d.Policies) > 0 {
		c("")
		c("policies (policy: NAME, or {name: NAME, param: value}, on a side or a combatant):")
		for _, f := range d.Policies {
			c("  %s", f.Name)
			wrapped("      ", f.Doc)
		}
	}
	c("")
	b.Write(data)
	return b.String(), nil
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

// Wrap fills s into lines of at most width bytes, each after indent.
func Wrap(s string, width int, indent string) string {
	var lines []string
	line := indent
	for _, w := range strings.Fields(s) {
		if len(line)+len(w)+1 > width && strings.TrimSpace(line) != "" {
			lines = append(lines, line)
			line = indent
		}
		if strings.TrimSpace(line) != "" {
			line += " "
		}
		line += w
	}
	if strings.TrimSpace(line) != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// starterLang is the starter with simctl's own comment lines in l.
func starterLang(r sim.Ruleset, l i18n.Lang) (string, error) {
	d := r.Doc()
	base := ""
	for _, n := range scenarios.Names() {
		if strings.HasPrefix(n, d.Name+"/") && (base == "" || n == d.Name+"/duel") {
			base = n
		}
	}
	data, _, ok := scenarios.Read(base)
	if base == "" || !ok {
		return "", fmt.Errorf("no built-in scenario of ruleset %s to start from", d.Name)
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
	c(l.T("init.source"))
	wrapped("    ", d.Source)
	wrapped("  ", d.Summary)
	c("")
	wrapped("", l.T("init.common", strings.Join(commonCombatantFieldsIn(l, base, data), ", ")))
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
			c(l.T("init.option", o.Name, o.Default, o.Valid))
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
