// serverroutes.go: the routes of a server's pages, each behind the server's link
// (/s/<guild>/<token>): the ladder, the profiles, the tournaments, the puzzle of the day
// and the picture they unfurl with; and a finished game's analysis.

package web

func (s *Server) serverRoutes() {
	m := s.mux
	const base = "/s/{guild}/{stoken}"
	m.HandleFunc("GET "+base+"/ladder", s.ladderPageHandler)
	m.HandleFunc("GET "+base+"/player/{user}", s.profilePageHandler)
	m.HandleFunc("GET "+base+"/t/{tid}", s.tournamentPageHandler)
	m.HandleFunc("GET "+base+"/t/{tid}/trf", s.tournamentTRF)
	m.HandleFunc("GET "+base+"/t/{tid}/pgn", s.tournamentPGN)
	m.HandleFunc("GET "+base+"/puzzle", s.puzzlePageHandler)
	m.HandleFunc("POST "+base+"/puzzle/move", s.postPuzzleMove)
	m.HandleFunc("GET "+base+"/puzzle/signin/{token}", s.puzzleSignIn)
	m.HandleFunc("GET "+base+"/board.png", s.serverBoardPNG)

	// A finished game's analysis hangs off the game's own link.
	m.HandleFunc("GET /g/{id}/{token}/analysis", s.analysisPageHandler)
	m.HandleFunc("POST /g/{id}/{token}/analysis", s.postAnalysis)
}
