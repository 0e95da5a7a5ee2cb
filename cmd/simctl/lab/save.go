package lab

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"time"

	"simctl/reports/safeio"
	"simctl/sim/msg"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
)

// labRoutes adds the lab's own endpoints: saving into --dir, option
// suggestions from the editor's scenario, the page's icon and the
// figures' font.
func (s *server) labRoutes(m *http.ServeMux) {
	m.HandleFunc("/api/save", s.post(s.handleSave))
	m.HandleFunc("/api/suggest", s.post(s.handleSuggest))
	m.HandleFunc("/favicon.ico", s.get(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "max-age=86400")
		w.Write([]byte(favicon))
	}))
	// The figures' font (style.css's @font-face): the Liberation Sans
	// gonum/plot embeds and measures their text in, for browsers on
	// machines without it.
	m.HandleFunc("/fonts/LiberationSans-Regular.ttf", s.get(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "font/ttf")
		w.Header().Set("Cache-Control", "max-age=86400")
		http.ServeContent(w, r, "LiberationSans-Regular.ttf", time.Time{}, bytes.NewReader(liberationsansregular.TTF))
	}))
}

// favicon is a d20 outline: the browser's tab stops asking for a 404.
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><polygon points="16,2 29,9.5 29,22.5 16,30 3,22.5 3,9.5" fill="#1d4ed8"/><polygon points="16,8 24,21 8,21" fill="none" stroke="#fff" stroke-width="2"/></svg>`

type saveRequest struct {
	Name string `json:"name"` // a plain .yaml name in --dir
	Text string `json:"text"`
	// Base is the SHA-256 (hex) of the file's text when the page loaded
	// it; "" for a file the page did not load. A file on disk that no
	// longer has it was changed by someone else: not overwritten unless
	// Overwrite confirms.
	Base      string `json:"base,omitempty"`
	Overwrite bool   `json:"overwrite,omitempty"`
}

func sha256hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// handleSave is POST /api/save: write the editor's text as a file of
// --dir, confined as reads are (readDirFile's name rules, os.Root, no
// symbolic or hard links), atomically (a temporary file renamed over).
func (s *server) handleSave(w http.ResponseWriter, r *http.Request) {
	var req saveRequest
	if !readJSON(w, r, &req) {
		return
	}
	if !s.cfg.AllowSave || s.root == nil {
		jsonError(w, r, http.StatusForbidden, "saving is off: start the server with --dir FOLDER --allow-save to save into FOLDER (or download the file)")
		return
	}
	if int64(len(req.Text)) > safeio.MaxScenarioBytes {
		jsonError(w, r, http.StatusRequestEntityTooLarge, "text: %d bytes, more than the %d a scenario may have", len(req.Text), safeio.MaxScenarioBytes)
		return
	}
	if !plainYAMLName(req.Name) {
		jsonError(w, r, http.StatusBadRequest, "name %q: the plain name of a .yaml file in the served folder, such as my-duel.yaml (no folders)", req.Name)
		return
	}
	cur, err := s.readDirFile(r.Context(), req.Name)
	exists := err == nil
	if err != nil {
		if _, lerr := s.root.Lstat(req.Name); errors.Is(err, errNoFile) && (lerr == nil || !errors.Is(lerr, fs.ErrNotExist)) {
			// A bad name, or a link or special file by that name.
			jsonError(w, r, http.StatusBadRequest, "name %v", err)
			return
		} else if !errors.Is(err, errNoFile) {
			jsonError(w, r, http.StatusBadRequest, "name %v", err)
			return
		}
	}
	if exists && !req.Overwrite {
		if sum := sha256hex(cur); req.Base == "" || sum != req.Base {
			what := msg.New("it was changed on disk since the page loaded it")
			if req.Base == "" {
				what = msg.New("a file of that name exists and the page did not load it")
			}
			writeJSON(w, http.StatusConflict, map[string]any{"error": langOf(r).Msg(msg.New("%s: not saved: %s; save again with overwrite to replace it, or pick another name", req.Name, what)), "conflict": true})
			return
		}
	}
	tmp := ".simctl-save-" + rand.Text() + ".tmp"
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		jsonError(w, r, http.StatusInternalServerError, "saving %s: %v", req.Name, err)
		return
	}
	_, werr := f.Write([]byte(req.Text))
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = s.root.Rename(tmp, req.Name)
	}
	if werr != nil {
		s.root.Remove(tmp)
		jsonError(w, r, http.StatusInternalServerError, "saving %s: %v (nothing was changed)", req.Name, werr)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": "dir:" + req.Name, "file": req.Name, "base": sha256hex([]byte(req.Text)), "replaced": exists})
}
