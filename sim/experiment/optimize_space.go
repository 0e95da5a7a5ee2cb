package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"simctl/sim/lang"
	"simctl/sim/msg"
	"simctl/sim/scenario"
)

// The search space of `simctl optimize`: the candidates a search may
// evaluate, enumerated in a fixed order so that the same command line
// always names the same candidate k.

// Dim is one varied --set path and the values it takes (YAML text). Nums
// holds the values as numbers when every one is a number (a numeric
// dimension: it may appear in --where, refinement walks along it and the
// landscape plot draws it), else nil.
type Dim struct {
	Path   string
	Values []string
	Nums   []float64
	// Switch marks a trait of a --traits list (values "0" and "1"): a
	// number to --where, but no grid to coarsen while screening (every
	// other value of 0/1 would be "never"), and written by its
	// TraitChoice, not as a --set of its own.
	Switch bool
}

// TraitChoice is one --traits list: which of Names (library traits) the
// combatant at Owner (a --set path, heroes.Fighter) takes. Each name is a
// Switch dimension, Dims[First+i], with path Owner.traits.NAME; a
// candidate writes Owner's traits: as Base (the list as written, after
// the common --set) followed by {name: NAME, use: NAME} for each trait it
// takes, so a trait's parameters are the --set and --vary paths
// Owner.traits.NAME.params.P (set only on candidates that take it).
type TraitChoice struct {
	Owner string
	Names []string
	Base  []*yaml.Node
	First int
}

// AddTraits adds a --traits list to the space: one Switch dimension per
// name, after the dimensions already there.
func (sp *Space) AddTraits(owner string, names []string, base []*yaml.Node) {
	sp.Traits = append(sp.Traits, TraitChoice{Owner: owner, Names: names, Base: base, First: len(sp.Dims)})
	for _, n := range names {
		sp.Dims = append(sp.Dims, Dim{Path: owner + ".traits." + n, Values: []string{"0", "1"}, Nums: []float64{0, 1}, Switch: true})
	}
}

// Taken lists the traits of choice c that the candidate at value indices
// idx takes, in the --traits order.
func (sp *Space) Taken(c int, idx []int) []string {
	tc := sp.Traits[c]
	var out []string
	for i, n := range tc.Names {
		if idx[tc.First+i] == 1 {
			out = append(out, n)
		}
	}
	return out
}

// traitsSet is the override that writes choice c's traits: list for the
// candidate at idx.
func (sp *Space) traitsSet(c int, idx []int) scenario.Set {
	tc := sp.Traits[c]
	seqNode := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, b := range tc.Base {
		seqNode.Content = append(seqNode.Content, flow(b))
	}
	for _, n := range sp.Taken(c, idx) {
		str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
		seqNode.Content = append(seqNode.Content, &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle,
			Content: []*yaml.Node{str("name"), str(n), str("use"), str(n)}})
	}
	out, err := yaml.Marshal(seqNode)
	if err != nil {
		panic("experiment: a traits list that was YAML does not marshal: " + err.Error())
	}
	return scenario.Set{Path: tc.Owner + ".traits", Value: strings.TrimSpace(string(out))}
}

// TraitsLabel names choice c's traits for the candidate at idx:
// "heroes.Fighter.traits=[dodge, power_attack]".
func (sp *Space) TraitsLabel(c int, idx []int) string {
	return sp.Traits[c].Owner + ".traits=[" + strings.Join(sp.Taken(c, idx), ", ") + "]"
}

// OffTrait reports whether dimension i sets a parameter of a --traits
// trait (Owner.traits.NAME.…) that the candidate at idx does not take:
// its value is not written and does not tell candidates apart.
func (sp *Space) OffTrait(i int, idx []int) bool {
	p := sp.Dims[i].Path
	for _, tc := range sp.Traits {
		for k, n := range tc.Names {
			if idx[tc.First+k] == 0 && strings.HasPrefix(p, tc.Owner+".traits."+n+".") {
				return true
			}
		}
	}
	return false
}

// NewDim reads a dimension; values that all parse as numbers make it numeric.
func NewDim(path string, values []string) Dim {
	d := Dim{Path: path, Values: values}
	nums := make([]float64, len(values))
	for i, v := range values {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return d
		}
		nums[i] = f
	}
	d.Nums = nums
	return d
}

// Alternative is a named set of overrides (--option NAME='--set ...').
type Alternative struct {
	Name string
	Sets []scenario.Set
}

// RulesMode says which structures of a tactics block a search tries.
type RulesMode int

const (
	RulesSubset RulesMode = iota + 1 // every non-empty subset of the rules, in the written order
	RulesOrder                       // every order of all the rules
	RulesBoth                        // every order of every non-empty subset
)

// ParseRulesMode reads --rules.
func ParseRulesMode(s string) (RulesMode, error) {
	switch s {
	case "subset":
		return RulesSubset, nil
	case "order":
		return RulesOrder, nil
	case "both":
		return RulesBoth, nil
	}
	return 0, msg.Errorf("%q: expected subset (each rule on or off), order (every order of the rules) or both", s)
}

// RuleBlock is a tactics block's rule list (a --set path such as
// heroes.Knight.tactics.turn) whose structure is searched.
type RuleBlock struct {
	Path  string
	Mode  RulesMode
	Rules []*yaml.Node // the rules as written (after the common --set)
	Names []string     // their names ("#k" for an unnamed rule)
	texts []string     // each rule's flow-style text (Set)
}

// MaxRules bounds a searched block: 8 rules already make 109,600 ordered subsets.
const MaxRules = 8

// NewRuleBlock reads the rule list at path from the scenario's text
// (after sets): a YAML sequence of rules.
func NewRuleBlock(data []byte, sets []scenario.Set, path string, mode RulesMode) (*RuleBlock, error) {
	text, ok, err := scenario.ValueAt(data, sets, path)
	if err != nil {
		return nil, msg.Errorf("%s %s: %v", "--block", path, err) // the flag is an argument: nothing to translate
	}
	if !ok {
		return nil, msg.Errorf("--block %s: the scenario writes no rules there; name a moment's rule list, e.g. heroes.Knight.tactics.turn", path)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.SequenceNode {
		return nil, msg.Errorf("--block %s: not a list of rules (it holds %s); name a moment's rule list, e.g. heroes.Knight.tactics.turn", path, oneLine(text))
	}
	seq := doc.Content[0]
	if len(seq.Content) < 2 {
		return nil, msg.Errorf("--block %s: %d rule(s); a structure search needs at least two", path, len(seq.Content))
	}
	if len(seq.Content) > MaxRules {
		return nil, msg.Errorf("--block %s: %d rules; a structure search takes at most %d", path, len(seq.Content), MaxRules)
	}
	b := &RuleBlock{Path: path, Mode: mode, Rules: seq.Content}
	for i, r := range seq.Content {
		name := fmt.Sprintf("#%d", i+1)
		if r.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(r.Content); j += 2 {
				if r.Content[j].Value == "name" && r.Content[j+1].Value != "" {
					name = r.Content[j+1].Value
				}
			}
		}
		b.Names = append(b.Names, name)
	}
	return b, nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// Structures lists the rule lists the mode asks for, each as indices into
// Rules: subsets keep the written order (the written list first), orders
// start with the written one.
func (b *RuleBlock) Structures() [][]int {
	n := len(b.Rules)
	var out [][]int
	switch b.Mode {
	case RulesSubset:
		for mask := (1 << n) - 1; mask > 0; mask-- {
			var s []int
			for i := 0; i < n; i++ {
				if mask&(1<<i) != 0 {
					s = append(s, i)
				}
			}
			out = append(out, s)
		}
	case RulesOrder:
		out = permutations(seq(n))
	case RulesBoth:
		for mask := (1 << n) - 1; mask > 0; mask-- {
			var s []int
			for i := 0; i < n; i++ {
				if mask&(1<<i) != 0 {
					s = append(s, i)
				}
			}
			out = append(out, permutations(s)...)
		}
	}
	return out
}

// NumStructures is len(Structures()), counted without listing them.
func (b *RuleBlock) NumStructures() int64 {
	n := int64(len(b.Rules))
	fact := func(k int64) int64 {
		f := int64(1)
		for i := int64(2); i <= k; i++ {
			f *= i
		}
		return f
	}
	switch b.Mode {
	case RulesSubset:
		return 1<<n - 1
	case RulesOrder:
		return fact(n)
	case RulesBoth:
		// Every non-empty subset of size k in each of its k! orders.
		var t int64
		choose := int64(1)
		for k := int64(1); k <= n; k++ {
			choose = choose * (n - k + 1) / k
			t += choose * fact(k)
		}
		return t
	}
	return 0
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// permutations lists every order of s, s itself first (lexicographic in
// positions of s).
func permutations(s []int) [][]int {
	if len(s) <= 1 {
		return [][]int{append([]int(nil), s...)}
	}
	var out [][]int
	for i := range s {
		rest := make([]int, 0, len(s)-1)
		rest = append(append(rest, s[:i]...), s[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{s[i]}, p...))
		}
	}
	return out
}

// Set is the override that writes structure s (indices into Rules): the
// flow-style text of each rule, written once per block (40,320 orders of
// 8 rules took 6 s of YAML marshalling), joined as a flow sequence, the
// same text as marshalling the sequence (TestRuleSetText).
func (b *RuleBlock) Set(s []int) scenario.Set {
	if b.texts == nil {
		b.texts = make([]string, len(b.Rules))
		for i, r := range b.Rules {
			out, err := yaml.Marshal(flow(r))
			if err != nil {
				panic("experiment: a rule that was YAML does not marshal: " + err.Error())
			}
			b.texts[i] = strings.TrimSpace(string(out))
		}
	}
	var sb strings.Builder
	sb.WriteByte('[')
	for k, i := range s {
		if k > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(b.texts[i])
	}
	sb.WriteByte(']')
	return scenario.Set{Path: b.Path, Value: sb.String()}
}

// marshalSet is Set by marshalling the whole sequence (what Set's text
// must equal).
func (b *RuleBlock) marshalSet(s []int) scenario.Set {
	seqNode := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, i := range s {
		seqNode.Content = append(seqNode.Content, flow(b.Rules[i]))
	}
	out, err := yaml.Marshal(seqNode)
	if err != nil {
		panic("experiment: a rule list that was YAML does not marshal: " + err.Error())
	}
	return scenario.Set{Path: b.Path, Value: strings.TrimSpace(string(out))}
}

// flow copies n in flow style, so a rule list fits on one --set line.
func flow(n *yaml.Node) *yaml.Node {
	c := *n
	c.Style = 0
	if c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
		c.Style = yaml.FlowStyle
	}
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	c.Content = nil
	for _, k := range n.Content {
		c.Content = append(c.Content, flow(k))
	}
	if c.Kind == yaml.ScalarNode && c.Style == 0 && (n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle) {
		c.Style = yaml.DoubleQuotedStyle
	}
	return &c
}

// Label names structure s by its rules: "[fight, brace]".
func (b *RuleBlock) Label(s []int) string {
	names := make([]string, len(s))
	for i, k := range s {
		names[i] = b.Names[k]
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// Space is what a search may try: every combination of one value of
// each Dim, one Alternative (when any are given) and one structure of the
// Block (when given), that satisfies Where.
type Space struct {
	Dims   []Dim
	Alts   []Alternative
	Block  *RuleBlock
	Traits []TraitChoice // --traits lists; their Switch dims are in Dims
	Where  *lang.Program // over the numeric dims' values; nil: no constraint
	where  string
	factOf []int // Where's slot k reads Dims[factOf[k]], or, if negative, counts Traits[-factOf[k]-1]'s traits taken
}

// fill writes Where's slots for the candidate at value indices idx.
func (sp *Space) fill(slots []float64, idx []int) {
	for k, di := range sp.factOf {
		if di >= 0 {
			slots[k] = sp.Dims[di].Nums[idx[di]]
			continue
		}
		tc := sp.Traits[-di-1]
		n := 0
		for i := range tc.Names {
			n += idx[tc.First+i]
		}
		slots[k] = float64(n)
	}
}

// pathArg is the argument kind of the fact path("..."): a --vary path
// written as a quoted name, as the tactics language names an ally
// (ally("Wizard").acted). Only Constrain's Resolve sees it.
const pathArg = lang.NoArg + 1

// Constrain compiles --where over the numeric dimensions, each a fact
// named by its path (heroes.Fighter.init), or quoted as path("...") —
// the only way to name a path the lexer cannot read as one dotted name
// (monsters.Orc#2.init, heroes.Half-Orc.hp). The error shows the column.
func (sp *Space) Constrain(src string) error {
	var numeric []int // the numeric dims: path("...")'s argument indexes these
	var quoted []string
	for i, d := range sp.Dims {
		if d.Nums != nil {
			numeric = append(numeric, i)
			quoted = append(quoted, fmt.Sprintf("path(%q)", d.Path))
		}
	}
	for _, tc := range sp.Traits {
		quoted = append(quoted, fmt.Sprintf("path(%q)", tc.Owner+".traits"))
	}
	if len(numeric) == 0 {
		return msg.Errorf("--where needs a numeric --vary (its paths are the names a constraint reads)")
	}
	env := lang.Env{Ruleset: "simctl optimize", Moment: "a candidate (the varied numeric paths)", MomentText: msg.New("a candidate (the varied numeric paths)"), Resolve: func(kind lang.ArgKind, name string) (int, msg.Text) {
		if kind != pathArg {
			return -1, msg.New("a --where fact takes no argument")
		}
		for k, i := range numeric {
			if sp.Dims[i].Path == name {
				return k, msg.Text{}
			}
		}
		for c, tc := range sp.Traits {
			if tc.Owner+".traits" == name {
				return len(numeric) + c, msg.Text{}
			}
		}
		return -1, msg.New("path(%q) is not a numeric --vary path; the paths: %s", name, strings.Join(quoted, ", "))
	}}
	var dims []int // env.Facts[k] reads Dims[dims[k]]; -1: path("...")
	for _, i := range numeric {
		if isFactName(sp.Dims[i].Path) {
			env.Facts = append(env.Facts, lang.Fact{Name: sp.Dims[i].Path, Type: lang.Number, Doc: "the candidate's value of --vary " + sp.Dims[i].Path})
			dims = append(dims, i)
		}
	}
	for c, tc := range sp.Traits {
		// A --traits list's count: how many of its traits a candidate takes.
		if isFactName(tc.Owner + ".traits") {
			env.Facts = append(env.Facts, lang.Fact{Name: tc.Owner + ".traits", Type: lang.Number, Doc: "how many of --traits " + tc.Owner + "'s traits the candidate takes"})
			dims = append(dims, -c-2)
		}
	}
	env.Facts = append(env.Facts, lang.Fact{Name: "path", Type: lang.Number, Arg: pathArg, Doc: "the candidate's value of a --vary path, quoted: path(\"monsters.Orc#2.init\")"})
	dims = append(dims, -1) // path("..."); -c-2: Traits[c]'s count
	prog, err := lang.Compile(src, &env)
	if err != nil {
		// The language spells an argument fact with a part after it
		// (ally("NAME").acted); path("...") has none.
		m := replaceInArgs(err.Text, `path("NAME").`, `path("PATH")`)
		var hint msg.Text
		for k, i := range numeric {
			if !isFactName(sp.Dims[i].Path) {
				hint = msg.New("\nhint: a path with characters other than letters, digits and _ between its dots is written quoted, as %s", quoted[k])
				break
			}
		}
		return &lang.At{Err: msg.Errorf("%s\n%s%s", m, lang.Caret(src, err.Pos), hint), Pos: err.Pos}
	}
	sp.Where, sp.where = prog, src
	sp.factOf = make([]int, len(prog.Slots))
	for k, s := range prog.Slots {
		switch d := dims[s.Fact]; {
		case d >= 0:
			sp.factOf[k] = d
		case d < -1:
			sp.factOf[k] = d + 1 // -c-1: Traits[c]'s count
		case s.Arg < len(numeric):
			sp.factOf[k] = numeric[s.Arg]
		default:
			sp.factOf[k] = -(s.Arg - len(numeric)) - 1
		}
	}
	return nil
}

// isFactName reports whether a path is spelled with identifiers the
// language's lexer reads as one dotted name.
func isFactName(p string) bool {
	for _, seg := range strings.Split(p, ".") {
		if seg == "" || !(seg[0] == '_' || seg[0] >= 'a' && seg[0] <= 'z' || seg[0] >= 'A' && seg[0] <= 'Z') {
			return false
		}
		for _, c := range seg {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// Point is one point of the space.
type Point struct {
	Name  string
	Sets  []scenario.Set
	Index []int // the value index in each Dim
	Alt   int   // the Alternative (-1: none given)
	Rules []int // the structure of the Block (nil: none given)
}

// Values maps each Dim's path to the candidate's value (YAML text), the
// alternative to "option" and the block's path to its rule list.
func (sp *Space) Values(c Point) map[string]string {
	m := map[string]string{}
	for i, d := range sp.Dims {
		if !sp.OffTrait(i, c.Index) {
			m[d.Path] = d.Values[c.Index[i]]
		}
	}
	for t, tc := range sp.Traits {
		m[tc.Owner+".traits"] = "[" + strings.Join(sp.Taken(t, c.Index), ", ") + "]"
	}
	if c.Alt >= 0 {
		m["option"] = sp.Alts[c.Alt].Name
	}
	if sp.Block != nil {
		m[sp.Block.Path] = sp.Block.Label(c.Rules)
	}
	return m
}

// Size is how many combinations the space holds before --where and
// deduplication (saturating at math.MaxInt64).
func (sp *Space) Size() int64 {
	n := int64(1)
	mul := func(k int) {
		if k == 0 {
			return
		}
		if n > math.MaxInt64/int64(k) {
			n = math.MaxInt64
			return
		}
		n *= int64(k)
	}
	for _, d := range sp.Dims {
		mul(len(d.Values))
	}
	mul(len(sp.Alts))
	if sp.Block != nil {
		mul(int(sp.Block.NumStructures()))
	}
	return n
}

// Count is the candidates Enumerate would list before merging those with
// the same key: the combinations Where admits, times the alternatives and
// the rule structures. It builds nothing (Where is evaluated on each
// combination of the numeric values, at most 10·MaxCandidates of them
// where Enumerate is allowed).
func (sp *Space) Count() int64 {
	per := int64(max(len(sp.Alts), 1))
	if sp.Block != nil {
		per *= sp.Block.NumStructures()
	}
	if sp.Where == nil {
		return sp.Size()
	}
	idx := make([]int, len(sp.Dims))
	var slots [lang.MaxSlots]float64
	var n int64
	for {
		sp.fill(slots[:], idx)
		if sp.Where.Eval(slots[:len(sp.factOf)]) {
			n += per
		}
		i := len(idx) - 1
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < len(sp.Dims[i].Values) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return n
		}
	}
}

// MaxCandidates bounds an enumerated space; past it, thin the ranges.
const MaxCandidates = 100_000

// SpaceCount is what Enumerate found.
type SpaceCount struct {
	Combinations int64 `json:"combinations"` // every combination of the values
	Excluded     int64 `json:"excluded"`     // rejected by --where
	Duplicates   int64 `json:"duplicates"`   // compiled to the same scenario as an earlier candidate
	Candidates   int64 `json:"candidates"`   // what is left: the space
	// Merged names each duplicate and the earlier candidate it is one
	// with, so an output can say which were merged, not only how many.
	Merged []Merged `json:"-"`
}

// Merged is a candidate dropped as the same scenario as an earlier one.
type Merged struct {
	Name string `json:"name"`
	Into string `json:"into"`
}

// Enumerate lists the distinct candidates that satisfy Where, in a fixed
// order (the first Dim slowest, then the alternative, then the structure).
// key gives a candidate's canonical form (the scenario it compiles to, as
// text): candidates with the same key are one, the first kept. A key
// error (the candidate is not a valid scenario) is returned at once.
func (sp *Space) Enumerate(key func(Point) (string, error)) ([]Point, SpaceCount, error) {
	var cnt SpaceCount
	cnt.Combinations = sp.Size()
	if cnt.Combinations > 10*MaxCandidates {
		return nil, cnt, msg.Errorf("the space holds %d combinations; at most %d can be listed (coarsen the --vary steps)", cnt.Combinations, 10*MaxCandidates)
	}
	// Counted before anything is keyed: a key may compile its candidate,
	// and a space past the bound took minutes and gigabytes to be
	// refused at its 100,001st distinct candidate.
	n := sp.Count()
	if n > MaxCandidates {
		return nil, cnt, msg.Errorf("the space holds %d candidates (after --where, before merging those that compile alike); at most %d can be searched: coarsen the --vary steps, tighten --where or use fewer rules", n, MaxCandidates)
	}
	var structs [][]int
	if sp.Block != nil {
		structs = sp.Block.Structures()
	}
	nAlt := max(len(sp.Alts), 1)
	nStruct := max(len(structs), 1)
	idx := make([]int, len(sp.Dims))
	seen := make(map[string]string, n) // key: the name of the candidate kept
	out := make([]Point, 0, n)
	perSets := len(sp.Dims) + len(sp.Traits) + 1
	if len(sp.Alts) > 0 {
		for _, a := range sp.Alts {
			perSets = max(perSets, len(sp.Dims)+len(sp.Traits)+1+len(a.Sets))
		}
	}
	var slots [lang.MaxSlots]float64
	for {
		ok := true
		if sp.Where != nil {
			sp.fill(slots[:], idx)
			ok = sp.Where.Eval(slots[:len(sp.factOf)])
		}
		for a := 0; a < nAlt; a++ {
			for s := 0; s < nStruct; s++ {
				if !ok {
					cnt.Excluded++
					continue
				}
				c := Point{Index: append([]int(nil), idx...), Alt: -1, Sets: make([]scenario.Set, 0, perSets)}
				parts := make([]string, 0, perSets)
				// A traits: list first: a varied parameter of a trait
				// taken is set inside it.
				for t := range sp.Traits {
					c.Sets = append(c.Sets, sp.traitsSet(t, idx))
					parts = append(parts, sp.TraitsLabel(t, idx))
				}
				for i, d := range sp.Dims {
					if d.Switch || sp.OffTrait(i, idx) {
						continue
					}
					c.Sets = append(c.Sets, scenario.Set{Path: d.Path, Value: d.Values[idx[i]]})
					parts = append(parts, d.Path+"="+d.Values[idx[i]])
				}
				if len(sp.Alts) > 0 {
					c.Alt = a
					c.Sets = append(c.Sets, sp.Alts[a].Sets...)
					parts = append(parts, sp.Alts[a].Name)
				}
				if sp.Block != nil {
					c.Rules = structs[s]
					c.Sets = append(c.Sets, sp.Block.Set(structs[s]))
					parts = append(parts, sp.Block.Path+"="+sp.Block.Label(structs[s]))
				}
				c.Name = strings.Join(parts, " ")
				k, err := key(c)
				if err != nil {
					return nil, cnt, msg.Errorf("candidate %s: %w", c.Name, err)
				}
				if into, ok := seen[k]; ok {
					cnt.Duplicates++
					cnt.Merged = append(cnt.Merged, Merged{Name: c.Name, Into: into})
					continue
				}
				seen[k] = c.Name
				if len(out) == MaxCandidates {
					return nil, cnt, msg.Errorf("the space holds more than %d distinct candidates; coarsen the --vary steps or tighten --where", MaxCandidates)
				}
				out = append(out, c)
			}
		}
		// Next combination: the last Dim fastest.
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(sp.Dims[i].Values) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			break
		}
	}
	cnt.Candidates = int64(len(out))
	return out, cnt, nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// replaceInArgs is t with old replaced by new in its string arguments and
// in the messages among them: the words of a message are its format's,
// the code it quotes is in its arguments.
func replaceInArgs(t msg.Text, old, new string) msg.Text {
	args := make([]any, len(t.Args))
	for i, a := range t.Args {
		switch a := a.(type) {
		case string:
			args[i] = strings.ReplaceAll(a, old, new)
		case msg.Text:
			args[i] = replaceInArgs(a, old, new)
		default:
			args[i] = a
		}
	}
	return msg.New(t.Format, args...)
}
