package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"simctl/sim/msg"
)

// Message is a message a document stores beside its English text
// (warnings_msg beside warnings): the English fmt format and its
// arguments, so a report or table in another language translates it
// from the catalogs without reading the English back. An argument is a
// JSON string, a number (an integer, or a float written with a decimal
// point or exponent, so it reads back as the verb expects) or a nested
// message {format, args} (a part translated with it). Anything else is
// stored as its English text.
type Message struct {
	Format string `json:"format"`
	Args   []any  `json:"args,omitempty"`
}

// NewMessage stores t.
func NewMessage(t msg.Text) Message {
	m := Message{Format: t.Format}
	for _, a := range t.Args {
		m.Args = append(m.Args, storedArg(a))
	}
	return m
}

func storedArg(a any) any {
	switch a := a.(type) {
	case msg.Text:
		return NewMessage(a)
	case string:
		return a
	case int:
		return int64(a)
	case int32:
		return int64(a)
	case int64, uint64:
		return a
	case float64:
		return a
	case float32:
		return float64(a)
	case msg.Localizer:
		return a.Localize(nil)
	}
	return fmt.Sprint(a)
}

// Text is the message to print (String is its English, Localize a
// translation).
func (m Message) Text() msg.Text {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		if n, ok := a.(Message); ok {
			args[i] = n.Text()
		} else {
			args[i] = a
		}
	}
	return msg.New(m.Format, args...)
}

// MarshalJSON writes a float with a decimal point (2.0, not 2), so it
// reads back as a float.
func (m Message) MarshalJSON() ([]byte, error) {
	var args []json.RawMessage
	for _, a := range m.Args {
		var b []byte
		var err error
		if f, ok := a.(float64); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			b = []byte(strconv.FormatFloat(f, 'g', -1, 64))
			if !bytes.ContainsAny(b, ".eE") {
				b = append(b, ".0"...)
			}
		} else if ok {
			b, err = json.Marshal(fmt.Sprint(f))
		} else {
			b, err = json.Marshal(a)
		}
		if err != nil {
			return nil, err
		}
		args = append(args, b)
	}
	type plain struct {
		Format string            `json:"format"`
		Args   []json.RawMessage `json:"args,omitempty"`
	}
	return json.Marshal(plain{m.Format, args})
}

// UnmarshalJSON reads the arguments back with their types: an integer
// as int64, a number with a point or exponent as float64, an object as a
// nested Message.
func (m *Message) UnmarshalJSON(data []byte) error {
	var raw struct {
		Format string            `json:"format"`
		Args   []json.RawMessage `json:"args"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	m.Format, m.Args = raw.Format, nil
	for _, r := range raw.Args {
		r = bytes.TrimSpace(r)
		var a any
		switch {
		case len(r) > 0 && r[0] == '"':
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				return err
			}
			a = s
		case len(r) > 0 && r[0] == '{':
			var n Message
			if err := n.UnmarshalJSON(r); err != nil {
				return err
			}
			a = n
		case bytes.ContainsAny(r, ".eE"):
			f, err := strconv.ParseFloat(string(r), 64)
			if err != nil {
				return err
			}
			a = f
		default:
			i, err := strconv.ParseInt(string(r), 10, 64)
			if err != nil {
				return msg.Errorf("a message argument %s is not a string, a number or a message", r)
			}
			a = i
		}
		m.Args = append(m.Args, a)
	}
	return nil
}

// addWarning appends a warning to a document's English warnings and its
// stored messages.
func addWarning(ws *[]string, ms *[]Message, format string, args ...any) {
	t := msg.New(format, args...)
	*ws = append(*ws, t.String())
	*ms = append(*ms, NewMessage(t))
}

// AddWarning is addWarning for a front end that adds a warning of its
// own to a document (compare's --precision note).
func AddWarning(ws *[]string, ms *[]Message, t msg.Text) {
	*ws = append(*ws, t.String())
	*ms = append(*ms, NewMessage(t))
}

// WarningTexts are a document's warnings to print: each from its stored
// message when the document has one that still says, in English, what
// the English warning says (a warning edited by hand, or from a simctl
// before warnings_msg, prints as written).
func WarningTexts(ws []string, ms []Message) []msg.Text {
	out := make([]msg.Text, len(ws))
	for i, w := range ws {
		out[i] = msg.New("%s", w)
		if i < len(ms) {
			if t := ms[i].Text(); t.String() == w {
				out[i] = t
			}
		}
	}
	return out
}
