package web

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// activityServer is a Server with just what the Activity's tokens need.
func activityServer(key string) *Server {
	return &Server{activity: &activityState{key: []byte(key)}}
}

func TestActivitySessionTokens(t *testing.T) {
	s := activityServer(strings.Repeat("a", 32))
	want := activitySession{UserID: "111", GuildID: "222", ChannelID: "333", Instance: "i-444-gc-222-333", Expires: t0.Add(activityTTL)}
	tok := s.activitySessionToken(want)
	got, err := s.parseActivitySession(tok, t0)
	if err != nil || got != want {
		t.Fatalf("parseActivitySession = %+v, %v; want %+v", got, err, want)
	}
	dm := activitySession{UserID: "111", ChannelID: "333", Instance: "i-444-pc-333", Expires: t0.Add(time.Hour)}
	if got, err := s.parseActivitySession(s.activitySessionToken(dm), t0); err != nil || got != dm {
		t.Fatalf("a DM's session: %+v, %v", got, err)
	}
	other := activityServer(strings.Repeat("b", 32))
	for _, c := range []struct {
		name string
		tok  string
		at   time.Time
		want error
	}{
		{"expired", tok, t0.Add(activityTTL), errTokenExpired},
		{"another key", other.activitySessionToken(want), t0, errTokenMAC},
		{"another user", "999" + tok[3:], t0, errTokenMAC},
		{"another instance", strings.Replace(tok, "i-444", "i-445", 1), t0, errTokenMAC},
		{"a field short", tok[strings.Index(tok, ".")+1:], t0, errTokenForm},
		{"a user that is no id", "abc" + tok[3:], t0, errTokenForm},
		{"an instance with a dot", strings.Replace(tok, "i-444", "i.444", 1), t0, errTokenForm},
		{"a padded expiry", strings.Replace(tok, ".1", ".01", 1), t0, errTokenForm},
		{"empty", "", t0, errTokenForm},
		{"too long", strings.Repeat("1", 301), t0, errTokenForm},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := s.parseActivitySession(c.tok, c.at); !errors.Is(err, c.want) {
				t.Fatalf("parseActivitySession(%q) = %v, want %v", c.tok, err, c.want)
			}
		})
	}
}

func TestActivitySessionSees(t *testing.T) {
	a := activitySession{GuildID: "1", ChannelID: "2"}
	dm := activitySession{ChannelID: "2"}
	for _, c := range []struct {
		ses                    activitySession
		guild, channel, thread string
		guest, want            bool
	}{
		{a, "1", "2", "", false, true}, {a, "1", "9", "2", false, true}, {a, "1", "9", "8", false, false}, {a, "7", "2", "", false, false},
		{a, "", "2", "", false, false},
		// Guest games: of their channel, in a DM or a server without the bot.
		{a, "", "2", "", true, true}, {dm, "", "2", "", true, true}, {dm, "", "3", "", true, false},
		{dm, "", "2", "", false, false}, {dm, "1", "2", "", false, false},
	} {
		if got := c.ses.sees(c.guild, c.channel, c.thread, c.guest); got != c.want {
			t.Errorf("%+v sees(%q, %q, %q, guest %v) = %t, want %t", c.ses, c.guild, c.channel, c.thread, c.guest, got, c.want)
		}
	}
}

func TestActivityCredentials(t *testing.T) {
	for _, c := range []struct {
		s          string
		cred, inst bool
	}{
		{"abc123", true, true}, {"a.b_c-d", true, false}, {"", false, false}, {"a b", false, false},
		{"a/b", false, false}, {strings.Repeat("a", 129), true, false}, {strings.Repeat("a", 201), false, false},
		{"é", false, false},
	} {
		if got := credential(c.s); got != c.cred {
			t.Errorf("credential(%q) = %t, want %t", c.s, got, c.cred)
		}
		if got := instanceID(c.s); got != c.inst {
			t.Errorf("instanceID(%q) = %t, want %t", c.s, got, c.inst)
		}
	}
}

// FuzzActivitySession: no string makes the parser panic, and whatever it accepts
// is a token it would write, field for field.
func FuzzActivitySession(f *testing.F) {
	s := activityServer(strings.Repeat("a", 32))
	f.Add(s.activitySessionToken(activitySession{UserID: "1", GuildID: "2", ChannelID: "3", Instance: "i-4", Expires: t0.Add(time.Hour)}))
	f.Add("1..3.i-4.99999999999.x")
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		got, err := s.parseActivitySession(tok, t0)
		if err != nil {
			return
		}
		if again := s.activitySessionToken(got); again != tok {
			t.Fatalf("accepted %q, which writes back as %q", tok, again)
		}
	})
}
