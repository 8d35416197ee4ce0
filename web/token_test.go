package web

import (
	"strings"
	"testing"
	"time"
)

var testKeys = deriveKeys([]byte(strings.Repeat("k", 32)))

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestGameTokens(t *testing.T) {
	a, b := testKeys.GameToken(1), testKeys.GameToken(2)
	if len(a) != 22 || a == b {
		t.Fatalf("tokens %q %q: want 22 characters, one per game", a, b)
	}
	other := deriveKeys([]byte(strings.Repeat("x", 32)))
	for _, c := range []struct {
		id   uint64
		tok  string
		want bool
	}{
		{1, a, true}, {2, b, true}, {2, a, false}, {1, b, false}, {1, "", false}, {1, a[:21], false},
		{1, a + "A", false}, {1, strings.ToUpper(a), strings.ToUpper(a) == a}, {1, other.GameToken(1), false},
	} {
		if got := testKeys.validGameToken(c.id, c.tok); got != c.want {
			t.Errorf("validGameToken(%d, %q) = %t, want %t", c.id, c.tok, got, c.want)
		}
	}
}

func TestSignInTokens(t *testing.T) {
	tok := testKeys.signInToken(signIn{UserID: "123456789012345678", GameID: 42, Expires: t0.Add(signInTTL)})
	got, err := testKeys.parseSignIn(tok, t0)
	if err != nil || got.UserID != "123456789012345678" || got.GameID != 42 {
		t.Fatalf("parseSignIn = %+v, %v", got, err)
	}
	for _, c := range []struct {
		name string
		tok  string
		now  time.Time
		want error
	}{
		{"expired", tok, t0.Add(signInTTL), errTokenExpired},
		{"another user", strings.Replace(tok, "123456789012345678", "123456789012345679", 1), t0, errTokenMAC},
		{"another game", strings.Replace(tok, ".42.", ".43.", 1), t0, errTokenMAC},
		{"a later expiry", strings.Replace(tok, "."+strings.Split(tok, ".")[2]+".", ".9999999999.", 1), t0, errTokenMAC},
		{"a session for a sign-in", testKeys.sessionToken(session{UserID: "1", Expires: t0.Add(time.Hour)}), t0, errTokenForm},
		{"empty", "", t0, errTokenForm},
		{"a leading zero", strings.Replace(tok, ".42.", ".042.", 1), t0, errTokenForm},
		{"not a user id", "abc.42.1.x", t0, errTokenForm},
	} {
		if _, err := testKeys.parseSignIn(c.tok, c.now); err != c.want {
			t.Errorf("%s: parseSignIn(%q) error %v, want %v", c.name, c.tok, err, c.want)
		}
	}
}

func TestSessions(t *testing.T) {
	tok := testKeys.sessionToken(session{UserID: "77", Expires: t0.Add(sessionTTL)})
	if s, err := testKeys.parseSession(tok, t0); err != nil || s.UserID != "77" {
		t.Fatalf("parseSession = %+v, %v", s, err)
	}
	if _, err := testKeys.parseSession(tok, t0.Add(sessionTTL)); err != errTokenExpired {
		t.Errorf("an expired session: %v", err)
	}
	if _, err := testKeys.parseSession(strings.Replace(tok, "77.", "78.", 1), t0); err != errTokenMAC {
		t.Errorf("another user's session: %v", err)
	}
	if !testKeys.validCSRF(tok, testKeys.csrfToken(tok)) || testKeys.validCSRF(tok, testKeys.csrfToken(tok+"x")) || testKeys.validCSRF("", testKeys.csrfToken("")) {
		t.Error("the CSRF token is not bound to its session")
	}
}

// FuzzTokens: the sign-in and session parsers never panic, accept only what the keys
// signed, and what they accept reads back to the same token.
func FuzzTokens(f *testing.F) {
	f.Add(testKeys.signInToken(signIn{UserID: "1", GameID: 1, Expires: t0.Add(time.Minute)}))
	f.Add(testKeys.sessionToken(session{UserID: "123456789012345678", Expires: t0.Add(time.Hour)}))
	f.Add("1.1.1.AAAA")
	f.Add("....")
	f.Fuzz(func(t *testing.T, tok string) {
		if s, err := testKeys.parseSignIn(tok, t0); err == nil {
			if testKeys.signInToken(s) != tok {
				t.Fatalf("sign-in %q accepted as %+v, which signs as another token", tok, s)
			}
		}
		if s, err := testKeys.parseSession(tok, t0); err == nil {
			if testKeys.sessionToken(s) != tok {
				t.Fatalf("session %q accepted as %+v, which signs as another token", tok, s)
			}
		}
	})
}
