package results

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"simctl/stats"
)

// Num is a float64 that encodes NaN and ±Inf as JSON null (stats.Num).
type Num = stats.Num

// IntervalWilson names the interval of every win rate a document records
// (interval_method).
const IntervalWilson = "Wilson score interval, 95%"

const intervalWilson = IntervalWilson

// WriteJSON writes v as indented JSON, the way every simctl document is
// written.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Thousands writes n with comma thousands separators (1,000,000), the way
// every table prints counts and the documents' warnings name them.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// ShellJoin quotes args for a POSIX shell.
func ShellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(a)
	}
	return strings.Join(out, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:=,+@%", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// frac is k/n, 0 when n is 0.
func frac(k, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// signedPP writes a difference of proportions in signed percentage points.
func signedPP(f float64) string { return fmt.Sprintf("%+.2f pp", 100*f) }

// pp formats a proportion as percentage points.
func pp(f float64) string { return strconv.FormatFloat(100*f, 'f', -1, 64) + " pp" }
