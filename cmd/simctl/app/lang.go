package app

import (
	"io"

	"simctl/reports/i18n"
	"simctl/sim/msg"
)

// LangWriter is where a front end's messages go (the CLI's stderr) with
// the language to print them in: what the app writes there itself
// (compile's warnings) is translated as the front end's own messages are.
type LangWriter struct {
	io.Writer
	Lang i18n.Lang
}

// WriterLang is the language of messages written to w: a LangWriter's,
// else English.
func WriterLang(w io.Writer) i18n.Lang {
	if lw, ok := w.(*LangWriter); ok {
		return lw.Lang
	}
	return i18n.En
}

// MsgWriter is a Warn writer that keeps messages as messages: the lab's,
// whose readers each ask in their own language.
type MsgWriter interface {
	WriteMsg(m msg.Text)
}

// Say writes the message to w in w's language, on a line of its own (to
// a MsgWriter, as the message).
func Say(w io.Writer, format string, args ...any) {
	if mw, ok := w.(MsgWriter); ok {
		mw.WriteMsg(msg.New(format, args...))
		return
	}
	io.WriteString(w, WriterLang(w).Msg(msg.New(format, args...))+"\n")
}
