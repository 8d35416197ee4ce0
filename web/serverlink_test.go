package web

import (
	"strings"
	"testing"
	"time"
)

// testPagesServer is a Server with only what the link functions need.
func testPagesServer(secret string, now time.Time) *Server {
	return &Server{opts: Options{Secret: []byte(secret), BaseURL: "https://gambit.example", Now: func() time.Time { return now }},
		keys: deriveKeys([]byte(secret))}
}

func TestServerTokens(t *testing.T) {
	s := testPagesServer(strings.Repeat("k", 32), t0)
	a, b := s.serverToken("111111111111111111"), s.serverToken("222222222222222222")
	if len(a) != 22 || a == b {
		t.Fatalf("tokens %q %q: want 22 characters, one per server", a, b)
	}
	if a == testKeys.GameToken(111111111111111111) {
		t.Fatal("a server token equals the game token of the same number")
	}
	if other := testPagesServer(strings.Repeat("x", 32), t0); other.serverToken("111111111111111111") == a {
		t.Fatal("another secret makes the same server token")
	}
	if u := s.LadderURL("111111111111111111", "blitz"); u != "https://gambit.example/s/111111111111111111/"+a+"/ladder?cat=blitz" {
		t.Errorf("LadderURL = %s", u)
	}
}

func TestPuzzleSignIn(t *testing.T) {
	s := testPagesServer(strings.Repeat("k", 32), t0)
	const guild, user = "111111111111111111", "123456789012345678"
	u := s.PuzzleSignInURL(guild, user)
	tok := u[strings.LastIndex(u, "/")+1:]
	if got, err := s.parsePuzzleSignIn(guild, tok, t0); err != nil || got != user {
		t.Fatalf("parsePuzzleSignIn = %q, %v", got, err)
	}
	body := tok[:strings.LastIndex(tok, ".")]
	for _, c := range []struct {
		name, guild, tok string
		at               time.Time
		want             error
	}{
		{"expired", guild, tok, t0.Add(signInTTL), errTokenExpired},
		{"another server", "222222222222222222", tok, t0, errTokenMAC},
		{"changed user", guild, "9" + tok, t0, errTokenMAC},
		{"changed signature", guild, body + "." + flipChar(strings.Split(tok, ".")[2]), t0, errTokenMAC},
		{"longer expiry", guild, strings.Replace(tok, ".", ".9", 1), t0, errTokenMAC},
		{"empty", guild, "", t0, errTokenForm},
		{"no signature", guild, body, t0, errTokenForm},
		{"letters for the user", guild, "abc." + strings.SplitN(tok, ".", 2)[1], t0, errTokenForm},
		{"leading zero", guild, strings.Replace(tok, ".", ".0", 1), t0, errTokenForm},
		{"too long", guild, tok + strings.Repeat("A", 100), t0, errTokenForm},
	} {
		if got, err := s.parsePuzzleSignIn(c.guild, c.tok, c.at); err != c.want || (err != nil && got != "") {
			t.Errorf("%s: parsePuzzleSignIn = %q, %v; want %v", c.name, got, err, c.want)
		}
	}
}

func flipChar(s string) string {
	if s[0] == 'A' {
		return "B" + s[1:]
	}
	return "A" + s[1:]
}

func TestLadderSort(t *testing.T) {
	for _, c := range []struct {
		key, dir string
		wantKey  string
		wantDesc bool
		ok       bool
	}{
		{"", "", "rank", false, true}, {"rating", "", "rating", true, true}, {"rating", "asc", "rating", false, true},
		{"name", "desc", "name", true, true}, {"elo", "", "", false, false}, {"rank", "up", "", false, false},
		{"RATING", "", "", false, false},
	} {
		k, d, err := ladderSort(c.key, c.dir)
		if (err == nil) != c.ok || (c.ok && (k != c.wantKey || d != c.wantDesc)) {
			t.Errorf("ladderSort(%q, %q) = %q, %t, %v", c.key, c.dir, k, d, err)
		}
	}
	rows := []ladderRow{{Rank: 1, Name: "bob", Rating: 1510}, {Rank: 2, Name: "Alice", Rating: 1490}, {Rank: 2, Name: "carol", Rating: 1490, Games: 3}}
	sortLadder(rows, "name", false)
	if rows[0].Name != "Alice" || rows[1].Name != "bob" || rows[2].Name != "carol" {
		t.Errorf("by name: %+v", rows)
	}
	sortLadder(rows, "rating", false)
	if rows[0].Rating != 1490 || rows[2].Name != "bob" {
		t.Errorf("by rating, lowest first: %+v", rows)
	}
	sortLadder(rows, "games", true)
	if rows[0].Name != "carol" {
		t.Errorf("by games: %+v", rows)
	}
}

// FuzzServerLinks: no token but the one made for a server and user signs in, none
// panics, and the sort query takes only its known values.
func FuzzServerLinks(f *testing.F) {
	s := testPagesServer(strings.Repeat("k", 32), t0)
	const guild = "111111111111111111"
	u := s.PuzzleSignInURL(guild, "123456789012345678")
	good := u[strings.LastIndex(u, "/")+1:]
	f.Add(guild, good, "rating", "desc")
	f.Add("", "", "", "")
	f.Add(guild, "1.2.3", "name", "asc")
	f.Fuzz(func(t *testing.T, g, tok, key, dir string) {
		user, err := s.parsePuzzleSignIn(g, tok, t0)
		if err == nil && (g != guild || tok != good || user != "123456789012345678") {
			t.Fatalf("parsePuzzleSignIn(%q, %q) accepted a token it did not make: %q", g, tok, user)
		}
		if k, _, err := ladderSort(key, dir); err == nil {
			found := false
			for _, c := range ladderColumns {
				found = found || c.key == k
			}
			if !found || (dir != "" && dir != "asc" && dir != "desc") {
				t.Fatalf("ladderSort(%q, %q) accepted %q", key, dir, k)
			}
		}
	})
}
