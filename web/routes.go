// routes.go: every route of the web server, in one place. A page of another concept
// (the ladder, a profile) adds its route here and its handler in a file of its own.

package web

import "net/http"

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /{$}", s.home)
	m.HandleFunc("GET /static/{name}", s.assets.serve)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})

	// A game: its page, socket, pictures and downloads, the form without script.
	m.HandleFunc("GET /g/{id}/{token}", s.gamePageHandler)
	m.HandleFunc("GET /g/{id}/{token}/ws", s.socket)
	m.HandleFunc("GET /g/{id}/{token}/board.png", s.boardPNG)
	m.HandleFunc("GET /g/{id}/{token}/pgn", s.pgn)
	m.HandleFunc("GET /g/{id}/{token}/gif", s.gif)
	m.HandleFunc("POST /g/{id}/{token}/move", s.postMove)

	// Signing in and out.
	m.HandleFunc("GET /signin/{token}", s.signIn)
	m.HandleFunc("POST /signout", s.signOut)

	// A server's pages (serverroutes.go).
	s.serverRoutes()

	// The board as a Discord Activity (activity.go), when it is on.
	s.activityRoutes()

	// The Linked Roles verification page (linkedroles.go), when it is on.
	s.linkedRolesRoutes()

	// Anything else.
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.notFound(w) })
}

// home serves GET /: what this site is, and where the games are.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "home", Page{Title: "Gambit", Description: "Chess on Discord, with a live board on the web"})
}
