// serverlink.go: the link of a server's pages (/s/<guild>/<token>/...): the guild's
// Discord id and a MAC of it under a key of its own, made by the bot for the answers
// of /ladder, /rating, /tournament standings and /puzzle today. A changed id or token
// names nothing (404); a server whose admins turned the web view off is refused (403).

package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"net/url"
	"strconv"
)

// serverTokenBytes is the length of a server link's MAC: 128 bits, 22 characters.
const serverTokenBytes = 16

// serverKey is the key of the server links, derived from the secret like the keys of
// token.go but with a label of its own, so a game token never stands for a server's.
func serverKey(secret []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("gambit web key: server pages"))
	return m.Sum(nil)
}

// serverToken returns the token of guild's link.
func (s *Server) serverToken(guildID string) string {
	return mac(serverKey(s.opts.Secret), "server "+guildID, serverTokenBytes)
}

// serverPath is the path of guild's pages ("/s/<guild>/<token>").
func (s *Server) serverPath(guildID string) string {
	return "/s/" + guildID + "/" + s.serverToken(guildID)
}

// LadderURL returns the link of a server's ladder page in a category ("" for the
// busiest).
func (s *Server) LadderURL(guildID, category string) string {
	u := s.opts.BaseURL + s.serverPath(guildID) + "/ladder"
	if category != "" {
		u += "?cat=" + url.QueryEscape(category)
	}
	return u
}

// ProfileURL returns the link of a player's profile in a server.
func (s *Server) ProfileURL(guildID, userID string) string {
	return s.opts.BaseURL + s.serverPath(guildID) + "/player/" + url.PathEscape(userID)
}

// TournamentURL returns the link of a server's tournament page.
func (s *Server) TournamentURL(guildID string, id uint64) string {
	return s.opts.BaseURL + s.serverPath(guildID) + "/t/" + formatID(id)
}

// PuzzleURL returns the link of a server's puzzle of the day.
func (s *Server) PuzzleURL(guildID string) string {
	return s.opts.BaseURL + s.serverPath(guildID) + "/puzzle"
}

// guildOf returns the guild a request's server link names, or answers the request:
// 429 past the address's limit, 404 for a link that is not a server's (whatever is
// wrong in it), 403 when the server turned its web view off. page chooses a page or a
// plain-text answer.
func (s *Server) guildOf(w http.ResponseWriter, r *http.Request, page bool) (string, bool) {
	fail := func(status int, title, text string) {
		if page {
			s.errorPage(w, status, title, text)
		} else {
			http.Error(w, text, status)
		}
	}
	if !s.limits.request(addrOf(r)) {
		fail(http.StatusTooManyRequests, "Slow down", "Too many requests from your address; wait a minute.")
		return "", false
	}
	guild := r.PathValue("guild")
	if s.opts.LocalOnly || !snowflake(guild) || !hmac.Equal([]byte(s.serverToken(guild)), []byte(r.PathValue("stoken"))) {
		fail(http.StatusNotFound, "Not found", "There is nothing at this address. Check the link you were given.")
		return "", false
	}
	off, err := s.webViewOff(r.Context(), guild)
	if err != nil {
		s.log.Error("web: read a server's settings", "err", err)
		fail(http.StatusInternalServerError, "Something went wrong", "The server's settings could not be read; try again in a moment.")
		return "", false
	}
	if off {
		fail(http.StatusForbidden, "The web view is off", "This server has turned its web pages off (/settings web_view on Discord).")
		return "", false
	}
	return guild, true
}

// formatID writes a number as the links do.
func formatID(id uint64) string { return strconv.FormatUint(id, 10) }
