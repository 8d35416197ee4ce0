// pages.go: the page templates (templates/*.html, each on the shared layout) and how a
// page is rendered: the layout's data, the status, the headers of a page.

package web

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// pages holds one template set per page: the layout with that page's blocks.
type pages struct {
	set map[string]*template.Template
}

// layoutFile is the shared layout; every other file of templates/ is a page that
// defines the blocks "title" and "content" (and may define "head").
const layoutFile = "templates/layout.html"

func loadPages(as *assets) (*pages, error) {
	funcs := template.FuncMap{
		"asset": as.URL,
	}
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, layoutFile)
	if err != nil {
		return nil, fmt.Errorf("web: parse the layout: %w", err)
	}
	p := &pages{set: map[string]*template.Template{}}
	files, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f == layoutFile {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(templateFS, f)
		if err != nil {
			return nil, fmt.Errorf("web: parse %s: %w", f, err)
		}
		p.set[strings.TrimSuffix(path.Base(f), ".html")] = t
	}
	return p, nil
}

// Page is what the layout shows around a page's content.
type Page struct {
	// Title is the window's title; Description the summary a pasted link unfurls with.
	Title, Description string
	// URL is the page's own address (Open Graph), Image the picture a pasted link shows
	// (absolute URLs; Image may be empty).
	URL, Image string
	// BoardTheme is the board theme's name (a class theme-<name> on the body).
	BoardTheme string
	// Script adds the page script (game.js).
	Script bool
	// Data is the page's own data.
	Data any
}

// render writes page name with status. A page is never cached: it shows a live game.
func (s *Server) render(w http.ResponseWriter, status int, name string, p Page) {
	t, ok := s.pages.set[name]
	if !ok {
		s.log.Error("web: no page template", "page", name)
		http.Error(w, "Something went wrong on our side.", http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", p); err != nil {
		s.log.Error("web: render page", "page", name, "err", err)
		http.Error(w, "Something went wrong on our side.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// errorPage answers with status and a short explanation for people.
func (s *Server) errorPage(w http.ResponseWriter, status int, title, text string) {
	s.render(w, status, "error", Page{Title: title, Data: struct {
		Status      int
		Title, Text string
	}{status, title, text}})
}

// notFound is the answer to a link that names nothing: the same for a game that does
// not exist and for a token that is not the game's, so a changed link learns nothing.
func (s *Server) notFound(w http.ResponseWriter) {
	s.errorPage(w, http.StatusNotFound, "Not found", "There is nothing at this address. Check the link you were given.")
}
