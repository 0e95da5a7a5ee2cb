package reports

import (
	"bytes"
	"io"
	"testing"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// FuzzRenderInput: a document results.ParseInput accepts renders as text,
// Markdown and CSV without panicking (results.FuzzReadResult fuzzes the
// reading itself).
func FuzzRenderInput(f *testing.F) {
	for _, doc := range []any{fixtureOutcomes(1000), fixtureSweep1(), fixtureCompare()} {
		var b bytes.Buffer
		if err := results.WriteJSON(&b, doc); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte(`{"scenario": "x"}`))
	f.Add([]byte(`{"kind": "sweep", "points": [{"values": ["1"], "result": {}}], "axes": [{"path": "a", "values": ["1"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := results.ParseInput("fuzz.json", data)
		if err != nil {
			return
		}
		switch {
		case in.Run != nil:
			if err := WriteResultText(in.Run, io.Discard, i18n.En); err != nil {
				t.Fatal(err)
			}
			WriteResult(in.Run, io.Discard, Markdown)
			WriteResult(in.Run, io.Discard, CSV)
		case in.Sweep != nil:
			WriteSweep(in.Sweep, io.Discard, Text, i18n.En)
			WriteSweep(in.Sweep, io.Discard, Markdown, i18n.En)
		case in.Compare != nil:
			WriteCompare(in.Compare, io.Discard, Text, i18n.En)
		}
	})
}
