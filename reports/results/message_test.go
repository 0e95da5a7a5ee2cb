package results

import (
	"encoding/json"
	"strings"
	"testing"

	"simctl/sim/msg"
)

// TestMessageRoundTrip: a stored message reads back with its arguments'
// types (an integral float stays a float for %.2f, an integer an integer
// for %d, a nested message a message), so it prints as it was made, and
// WarningTexts takes it only while it says what the English warning says.
func TestMessageRoundTrip(t *testing.T) {
	m := msg.New("%s vs %s: %d of %d, %.2f pp; %s", "a", "b", int64(3), 7, 2.0, msg.New("differs in at most %d encounters", 4))
	b, err := json.Marshal(NewMessage(m))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `2.0`) {
		t.Errorf("a float is stored without its point: %s", b)
	}
	var back Message
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := back.Text().String(), m.String(); got != want {
		t.Errorf("read back %q, made %q", got, want)
	}
	ws := []string{m.String(), "edited by hand"}
	ms := []Message{back, NewMessage(msg.New("interrupted: the figures cover only the encounters that finished"))}
	got := WarningTexts(ws, ms)
	if got[0].Format != m.Format || got[1].Format != "%s" || got[1].String() != "edited by hand" {
		t.Errorf("WarningTexts: %#v", got)
	}
	if err := json.Unmarshal([]byte(`{"format":"%d","args":[true]}`), &back); err == nil {
		t.Error("a boolean argument was accepted")
	}
}
