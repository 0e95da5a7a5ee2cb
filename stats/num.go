package stats

import (
	"encoding/json"
	"math"
)

// Num is a float64 that encodes NaN and ±Inf (an undefined statistic, such
// as a standard error of one observation or a variance reduction with no
// variance at all) as JSON null, which encoding/json would otherwise
// refuse; null decodes as NaN.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}
