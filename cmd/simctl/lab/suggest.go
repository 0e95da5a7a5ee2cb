package lab

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/cmd/simctl/app"
	"simctl/reports/results"
	"simctl/sim/scenario"
)

// suggestion is POST /api/suggest's answer: options for Compare and
// Matrix made from the editor's own scenario (its sides, combatants and
// tactics parameters), so that a tab never starts with another
// scenario's names. Every option listed compiles against the scenario.
type suggestion struct {
	Sides   []string            `json:"sides"`
	Options []results.NamedSets `json:"options"` // the first side's, for Compare
	Rows    []results.NamedSets `json:"rows"`    // the first side's, for Matrix
	Cols    []results.NamedSets `json:"cols"`    // the second side's
	Params  []string            `json:"params"`  // every path an option may move, for Value and Sweep
	Vary    string              `json:"vary,omitempty"`
	// Tournament is the first side's candidates (more of them); Search
	// is up to two PATH=RANGE lines of the first side for Optimize.
	Tournament []results.NamedSets `json:"tournament"`
	Search     []string            `json:"search"`
}

// maxSuggest bounds the candidates tried per side: each is one compile.
const maxSuggest = 12

// handleSuggest is POST /api/suggest {file, text}.
func (s *server) handleSuggest(w http.ResponseWriter, r *http.Request) {
	req, ok := readCheckRequest(w, r)
	if !ok {
		return
	}
	src := &app.Source{Name: req.File, Display: req.File, Data: []byte(req.Text)}
	sc, _, _, err := src.CompileWarn(nil)
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, checkResponse(err, nil, langOf(r)))
		return
	}
	writeJSON(w, http.StatusOK, suggest(src, sc))
}

// suggest builds the options: per side, the scenario unchanged, then each
// tactics parameter moved, then each combatant's initiative, armour
// class and hit points as written moved, keeping only overrides the scenario accepts (Cavaliers
// refuses ac, a side may have no tactics).
func suggest(src *app.Source, sc *scenario.Scenario) suggestion {
	out := suggestion{}
	per := make([][]results.NamedSets, len(sc.Sides))
	var firstPaths []string
	for i, side := range sc.Sides {
		out.Sides = append(out.Sides, side.Name)
		var cands []results.NamedSets
		add := func(name, path, value string) {
			if len(cands) >= maxSuggest {
				return
			}
			set := scenario.Set{Path: path, Value: value}
			if _, _, _, err := src.CompileWarn([]scenario.Set{set}); err != nil {
				return
			}
			ns := results.NamedSets{Name: name, Sets: []string{set.String()}}
			// As a job checks it: a name that survives the command line.
			if app.CheckNamedSets([]results.NamedSets{ns}, "options") != nil {
				return
			}
			cands = append(cands, ns)
			out.Params = append(out.Params, path)
			if i == 0 {
				firstPaths = append(firstPaths, path)
			}
		}
		for _, p := range tacticsParams(side.Tactics) {
			add(p.key+" "+p.moved, side.Name+".tactics.params."+p.key, p.moved)
		}
		for _, c := range side.Combatants {
			for _, p := range tacticsParams(c.Tactics) {
				add(c.Name+" "+p.key+" "+p.moved, side.Name+"."+c.Name+".tactics.params."+p.key, p.moved)
			}
		}
		// Fields written as whole numbers in the file: what the designer
		// wrote, moved by 2 (a field the ruleset refuses fails to compile).
		for _, c := range side.Combatants {
			for _, f := range []string{"init", "ac", "hp"} {
				path := side.Name + "." + c.Name + "." + f
				if cur, ok, err := scenario.ValueAt(src.Data, nil, path); err == nil && ok {
					if v, err := strconv.Atoi(strings.TrimSpace(cur)); err == nil {
						add(c.Name+" "+f+"+2", path, strconv.Itoa(v+2))
					}
				}
			}
		}
		per[i] = cands
	}
	base := results.NamedSets{Name: "base", Sets: []string{}}
	first := func(side, n int) []results.NamedSets {
		o := []results.NamedSets{base}
		if side < len(per) {
			for _, c := range per[side] {
				if len(o) > n {
					break
				}
				o = append(o, c)
			}
		}
		return o
	}
	out.Options, out.Rows, out.Cols, out.Tournament = first(0, 2), first(0, 1), first(1, 1), first(0, 4)
	out.Search = []string{}
	for _, p := range firstPaths {
		if len(out.Search) == 2 {
			break
		}
		if r := sweepRange(src, p); r != "" {
			out.Search = append(out.Search, r)
		}
	}
	if len(out.Params) > 0 {
		out.Vary = sweepRange(src, out.Params[0])
	}
	if out.Params == nil {
		out.Params = []string{}
	}
	return out
}

type tacticsParam struct{ key, value, moved string }

// tacticsParams lists a tactics block's numeric params: {k: v} with a
// moved value: a fraction by 0.2 towards the middle, a whole number by 1
// (a 0/1 switch flipped).
func tacticsParams(t *yaml.Node) []tacticsParam {
	if t == nil || t.Kind != yaml.MappingNode {
		return nil
	}
	var out []tacticsParam
	for i := 0; i+1 < len(t.Content); i += 2 {
		if t.Content[i].Value != "params" || t.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		ps := t.Content[i+1].Content
		for k := 0; k+1 < len(ps); k += 2 {
			v, err := strconv.ParseFloat(ps[k+1].Value, 64)
			if err != nil || ps[k+1].Kind != yaml.ScalarNode {
				continue
			}
			out = append(out, tacticsParam{key: ps[k].Value, value: ps[k+1].Value, moved: moveParam(v, ps[k+1].Value)})
		}
	}
	return out
}

func moveParam(v float64, text string) string {
	whole := !strings.ContainsAny(text, ".eE")
	switch {
	case whole && v == 1:
		return "0"
	case whole:
		return strconv.FormatFloat(v+1, 'f', -1, 64)
	case v <= 0.5:
		return strconv.FormatFloat(float64(int64((v+0.2)*100+0.5))/100, 'f', -1, 64)
	default:
		return strconv.FormatFloat(float64(int64((v-0.2)*100+0.5))/100, 'f', -1, 64)
	}
}

// sweepRange is PATH=a:b:step around the path's current value: five
// points, fractions kept within [0, 1].
func sweepRange(src *app.Source, path string) string {
	cur, ok, err := scenario.ValueAt(src.Data, nil, path)
	if err != nil || !ok {
		return ""
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(cur), 64)
	if err != nil {
		return ""
	}
	if strings.ContainsAny(cur, ".eE") || strings.Contains(path, ".tactics.params.") && v > 0 && v < 1 {
		return path + "=0:1:0.25"
	}
	lo := int64(v) - 2
	if lo < 0 {
		lo = 0
	}
	return fmt.Sprintf("%s=%d:%d:1", path, lo, lo+4)
}
