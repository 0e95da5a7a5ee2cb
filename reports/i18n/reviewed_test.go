package i18n

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

var reviewed = flag.Bool("reviewed", false, "record the English texts of catalog/en as the ones the Korean and Russian translate (testdata/reviewed.txt)")

// sum is a short fingerprint of an English text.
func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:5])
}

// TestTranslationsReviewed fails when the English of a message changed
// after its Korean and Russian were written: a key keeps its name when its
// English is reworded, so completeness alone would not notice the stale
// translations. (The msg catalogs are keyed by the English itself: a
// reworded message is a new key, caught by TestMessagesTranslated.)
// After updating catalog/ko and catalog/ru, record the English with
// go test ./reports/i18n -run TestTranslationsReviewed -reviewed.
func TestTranslationsReviewed(t *testing.T) {
	const file = "testdata/reviewed.txt"
	var keys []string
	for _, k := range Keys(En) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if *reviewed {
		var b strings.Builder
		b.WriteString("# The English each Korean and Russian text translates: a key and a fingerprint of\n# its English (catalog/en) when the translations were last checked against it.\n# Written by go test ./reports/i18n -run TestTranslationsReviewed -reviewed.\n")
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s\n", sum(catalogs[En][k]), k)
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		h, k, _ := strings.Cut(line, " ")
		seen[k] = h
	}
	for _, k := range keys {
		switch h, ok := seen[k]; {
		case !ok:
			t.Errorf("%s: a new message: once its ko and ru texts are written, record it (-reviewed)", k)
		case h != sum(catalogs[En][k]):
			t.Errorf("%s: its English changed since the Korean and Russian were written: check them against %q, then record it (-reviewed)", k, catalogs[En][k])
		}
	}
}
