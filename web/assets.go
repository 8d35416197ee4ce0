// assets.go: the embedded static files (the style sheet, the page script), and the
// theme style sheet made from render's board themes; each served under a name that
// carries its content's hash, gzipped for the browsers that take it.

package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/gambitchess/gambit/render"
)

//go:embed static
var staticFS embed.FS

//go:embed templates
var templateFS embed.FS

// asset is one static file, ready to send.
type asset struct {
	name  string // e.g. game.js
	ctype string
	body  []byte
	gz    []byte
	etag  string
}

// assets are the static files by name, and the URL of each (with its hash).
type assets struct {
	byName map[string]*asset
	urls   map[string]string
}

// themesCSS is the style sheet of the board themes: one class per theme of render,
// with the square colours as custom properties, so the web board and the PNG boards
// have the same colours.
func themesCSS() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("/* The board themes, from render's themes. */\n")
	for _, name := range render.Themes() {
		t, err := render.Theme(name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, ".theme-%s{--sq-light:%s;--sq-dark:%s;--sq-last-light:%s;--sq-last-dark:%s;--sq-check:%s}\n",
			t.Name, t.Light, t.Dark, t.LastLight, t.LastDark, t.Check)
	}
	return b.Bytes(), nil
}

func loadAssets() (*assets, error) {
	a := &assets{byName: map[string]*asset{}, urls: map[string]string{}}
	add := func(name string, body []byte) error {
		var gz bytes.Buffer
		zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		if err != nil {
			return err
		}
		if _, err := zw.Write(body); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		h := hex.EncodeToString(sum[:6])
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		a.byName[name] = &asset{name: name, ctype: ctype, body: body, gz: gz.Bytes(), etag: `"` + h + `"`}
		a.urls[name] = "/static/" + name + "?v=" + h
		return nil
	}
	err := fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		return add(strings.TrimPrefix(p, "static/"), body)
	})
	if err != nil {
		return nil, fmt.Errorf("web: load the static files: %w", err)
	}
	css, err := themesCSS()
	if err != nil {
		return nil, err
	}
	if err := add("themes.css", css); err != nil {
		return nil, err
	}
	return a, nil
}

// URL returns the address of a static file, with its hash so that it may be cached
// for ever.
func (a *assets) URL(name string) string {
	u, ok := a.urls[name]
	if !ok {
		panic("web: no static file " + name) // a template names a file that is not embedded
	}
	return u
}

// serve sends the static file of the request.
func (a *assets) serve(w http.ResponseWriter, r *http.Request) {
	f, ok := a.byName[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("ETag", f.etag)
	h.Set("Vary", "Accept-Encoding")
	if r.URL.Query().Get("v") != "" {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
