package reports

import (
	"io"

	"simctl/reports/i18n"
	"simctl/reports/results"
)

// Write renders any simctl document in format f: a run result, a sweep, a
// comparison, or a value, matrix, tournament or optimize document (each
// as its WriteX does); any other value is written as JSON whatever f.
func Write(w io.Writer, doc any, f Format) error {
	switch d := doc.(type) {
	case *results.Result:
		return WriteResult(d, w, f)
	case *results.Sweep:
		return WriteSweep(d, w, f, i18n.En)
	case *results.Compare:
		return WriteCompare(d, w, f, i18n.En)
	case *results.Value:
		return WriteValue(d, w, f, i18n.En)
	case *results.Matrix:
		return WriteMatrix(d, w, f, i18n.En)
	case *results.Tournament:
		return WriteTournament(d, w, f, i18n.En)
	case *results.Optimize:
		return WriteOptimize(d, w, f, i18n.En)
	}
	return results.WriteJSON(w, doc)
}

// Document is a document with its renderer, for code that takes anything
// with a Write(w, f) method (the CLI's and the lab's job results).
type Document struct{ Doc any }

// Doc wraps a document of package results with Write.
func Doc(doc any) Document { return Document{doc} }

// Write renders the document in format f, as the package's Write does.
func (d Document) Write(w io.Writer, f Format) error { return Write(w, d.Doc, f) }
