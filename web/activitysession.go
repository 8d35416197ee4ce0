// activitysession.go: the Activity's session token: who (the Discord user), where (the
// server and the channel of the Activity instance) and which instance, until when,
// signed under a key of its own (a sign-in or cookie session never stands for one,
// nor the reverse). The page sends it in the Authorization header and in its socket's
// path; it is never logged (the request log names routes, not URLs).

package web

import (
	"crypto/hmac"
	"strconv"
	"strings"
	"time"
)

// activitySession is what an Activity session token carries.
type activitySession struct {
	UserID, GuildID, ChannelID string
	Instance                   string
	Expires                    time.Time
}

// activitySessionToken returns the token of a.
func (s *Server) activitySessionToken(a activitySession) string {
	body := a.UserID + "." + a.GuildID + "." + a.ChannelID + "." + a.Instance + "." + strconv.FormatInt(a.Expires.Unix(), 10)
	return body + "." + mac(s.activity.key, body, 18)
}

// parseActivitySession reads and checks an Activity session token at now.
func (s *Server) parseActivitySession(tok string, now time.Time) (activitySession, error) {
	parts := strings.Split(tok, ".")
	if len(tok) > 300 || len(parts) != 6 || !snowflake(parts[0]) || (parts[1] != "" && !snowflake(parts[1])) ||
		!snowflake(parts[2]) || !instanceID(parts[3]) {
		return activitySession{}, errTokenForm
	}
	exp, err := strconv.ParseInt(parts[4], 10, 64)
	if err != nil || exp <= 0 || parts[4] != strconv.FormatInt(exp, 10) {
		return activitySession{}, errTokenForm
	}
	body := strings.Join(parts[:5], ".")
	if !hmac.Equal([]byte(mac(s.activity.key, body, 18)), []byte(parts[5])) {
		return activitySession{}, errTokenMAC
	}
	a := activitySession{UserID: parts[0], GuildID: parts[1], ChannelID: parts[2], Instance: parts[3], Expires: time.Unix(exp, 0).UTC()}
	if !now.Before(a.Expires) {
		return activitySession{}, errTokenExpired
	}
	return a, nil
}
