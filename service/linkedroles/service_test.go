package linkedroles

import (
	"bytes"
	"maps"
	"testing"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

func TestMetadata(t *testing.T) {
	p := func(guild string, cat clock.Category, rating float64, games int) storage.LadderPlayer {
		return storage.LadderPlayer{GuildID: guild, Category: cat, UserID: "u", Rating: rating, Games: games}
	}
	for name, tc := range map[string]struct {
		in   []storage.LadderPlayer
		want map[string]string
	}{
		"no ladder": {nil, map[string]string{KeyGames: "0"}},
		"best across servers": {[]storage.LadderPlayer{p("g1", clock.Blitz, 1710.4, 3), p("g2", clock.Blitz, 1820.6, 5), p("g2", clock.Rapid, 1500, 1)},
			map[string]string{KeyBlitz: "1821", KeyRapid: "1500", KeyGames: "9"}},
		"seeded, never played": {[]storage.LadderPlayer{p("g1", clock.Standard, 2000, 0)}, map[string]string{KeyGames: "0"}},
		"every category": {[]storage.LadderPlayer{p("g", clock.Bullet, 1400, 1), p("g", clock.Blitz, 1500, 1), p("g", clock.Rapid, 1600, 1), p("g", clock.Standard, 1700, 1)},
			map[string]string{KeyBullet: "1400", KeyBlitz: "1500", KeyRapid: "1600", KeyClassical: "1700", KeyGames: "4"}},
		"unpushed categories count their games": {[]storage.LadderPlayer{p("g", clock.Correspondence, 1900, 2), p("g", clock.Chess960, 1800, 1)},
			map[string]string{KeyGames: "3"}},
	} {
		if got := Metadata(tc.in); !maps.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
	if n := len(Metadata([]storage.LadderPlayer{p("g", clock.Bullet, 1, 1), p("g", clock.Blitz, 1, 1), p("g", clock.Rapid, 1, 1), p("g", clock.Standard, 1, 1)})); n > storage.MaxLinkedMetadata {
		t.Errorf("%d values: more than Discord's %d records", n, storage.MaxLinkedMetadata)
	}
}

func TestSeal(t *testing.T) {
	s, err := newSealer([]byte("client secret of sixteen+"))
	if err != nil {
		t.Fatal(err)
	}
	g := Grant{AccessToken: "access-token-value", RefreshToken: "refresh-token-value"}
	b, err := s.seal("42", g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(g.AccessToken)) || bytes.Contains(b, []byte(g.RefreshToken)) {
		t.Fatal("a token is in the sealed bytes in clear")
	}
	if got, err := s.open("42", b); err != nil || got.Access != g.AccessToken || got.Refresh != g.RefreshToken {
		t.Fatalf("open: %+v, %v", got, err)
	}
	other, _ := newSealer([]byte("another client secret!!"))
	tampered := bytes.Clone(b)
	tampered[len(tampered)-1] ^= 1
	for name, tc := range map[string]struct {
		s    *sealer
		user string
		b    []byte
	}{
		"another user":   {s, "43", b},
		"another secret": {other, "42", b},
		"tampered":       {s, "42", tampered},
		"short":          {s, "42", b[:4]},
	} {
		if _, err := tc.s.open(tc.user, tc.b); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
	if _, err := newSealer([]byte("short")); err == nil {
		t.Error("a short secret accepted")
	}
}
