package lab

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestArchiveDates: a downloaded report's entries carry the time their
// files were written, not zip's 1980 or tar's 1970.
func TestArchiveDates(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"report.md", "fig1-rounds.png"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"report.md", "fig1-rounds.png"}
	near := func(what string, at time.Time) {
		if d := time.Since(at); d < -time.Minute || d > time.Hour {
			t.Errorf("%s is dated %v", what, at)
		}
	}
	var zb bytes.Buffer
	if err := archive(&zb, "zip", dir, "simctl-report", files, "/nowhere/"); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(zb.Bytes()), int64(zb.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		near("zip "+f.Name, f.Modified)
	}
	var tb bytes.Buffer
	if err := archive(&tb, "tar.gz", dir, "simctl-report", files, "/nowhere/"); err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(&tb)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		near("tar "+h.Name, h.ModTime)
	}
}
