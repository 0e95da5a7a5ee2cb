package results

import "simctl/sim/experiment"

// Header is what every experiment document records about how it was made,
// so each number can be traced to its command and seed.
type Header struct {
	Kind        string   `json:"kind"`
	Scenario    string   `json:"scenario"`
	File        string   `json:"file"`
	Ruleset     string   `json:"ruleset"`
	Seed        uint64   `json:"seed"`
	Version     string   `json:"version"`
	Command     string   `json:"command,omitempty"`
	Sets        []string `json:"sets,omitempty"`
	Interrupted bool     `json:"interrupted,omitempty"`
	Elapsed     float64  `json:"elapsed_seconds"`

	// The SHA-256 of the scenario text the experiment ran, which resume
	// and merge compare (reliability); empty on documents written before.
	ScenarioSHA256 string `json:"scenario_sha256,omitempty"`
	// Context is the scenario text as run, its ruleset options and the
	// roster's sides, which a report shows (absent on documents written
	// before reports took these kinds).
	Context *Context `json:"context,omitempty"`
	// Shard is set on one shard (--shard k/K) of a value or matrix run:
	// every game played encounters Start..Start+N-1 of Total.
	Shard *Shard `json:"shard,omitempty"`
	// Unplayed lists, on an interrupted value, matrix or compare run, the
	// encounter index ranges [lo, hi) it did not play: --resume plays
	// exactly those.
	Unplayed [][2]int64 `json:"unplayed,omitempty"`
	// ResumeDigest, on an interrupted value, matrix or tournament run, is
	// a keyed SHA-256 over what --resume trusts (unplayed, encounters and
	// sums, or the tournament's state).
	ResumeDigest string `json:"resume_digest,omitempty"`
	// Incomplete is set on a merge missing shards (--allow-partial).
	Incomplete bool `json:"incomplete,omitempty"`
}

// DocHeader is the header of the document that embeds h (value, matrix,
// tournament and optimize documents).
func (h *Header) DocHeader() *Header { return h }

// NamedSets is one named setting of a side: the --set overrides it applies.
type NamedSets struct {
	Name string   `json:"name"`
	Sets []string `json:"sets"`
}

// Matrix is the document `simctl matrix` writes.
type Matrix struct {
	Header
	RowOptions []NamedSets `json:"row_options"`
	ColOptions []NamedSets `json:"col_options"`
	experiment.MatrixResult
}

// TournamentFormat is the shape of the tournament document. Format 2 is
// the selection with a guarantee (experiment.Select); a document without
// it (the rounds of successive elimination simctl wrote before) is refused
// when read, since its figures mean something else.
const TournamentFormat = 2

// Tournament is the document `simctl tournament` writes.
type Tournament struct {
	Header
	Format int `json:"tournament_format"`
	// Options are the candidates and the overrides of each, in candidate
	// order (Selection.Candidates holds their standings in the same order).
	Options []NamedSets `json:"options"`
	experiment.Selection
}

// SelectMethod names the selection procedure and its intervals.
const SelectMethod = "sequential selection on common random numbers (betting tests valid at every stage); differences with confidence sequences simultaneous over all pairs"
