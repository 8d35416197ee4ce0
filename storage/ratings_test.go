package storage

import (
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
)

func ladderPlayer(guild string, cat clock.Category, user string, rating float64, w, d, l int) LadderPlayer {
	return LadderPlayer{GuildID: guild, Category: cat, UserID: user, Rating: rating, Peak: rating,
		Games: w + d + l, Wins: w, Draws: d, Losses: l,
		History: []RatingPoint{{At: t0, Rating: rating}}}
}

func TestLadderPlayersRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	players := []LadderPlayer{
		ladderPlayer("g1", clock.Blitz, "ann", 1520, 1, 0, 0),
		ladderPlayer("g1", clock.Blitz, "bob", 1480, 0, 0, 1),
		ladderPlayer("g1", clock.Blitz, "cid", 1520, 2, 0, 1),
		ladderPlayer("g1", clock.Rapid, "ann", 1610.25, 3, 1, 0),
		ladderPlayer("g10", clock.Blitz, "zed", 2000, 1, 0, 0), // a guild whose id extends g1's
		ladderPlayer("g", clock.Blitz, "yan", 2100, 1, 0, 0),   // a guild whose id g1's extends
	}
	players[3].RD, players[3].Volatility, players[3].Seed = 80.5, 0.0599, 1600
	for _, p := range players {
		if err := db.Update(func(tx Tx) error { return tx.PutLadderPlayer(p) }); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db, err = Open(path, nil) // read back from the file
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	got, err := Read(db, func(tx Tx) (LadderPlayer, error) { return tx.LadderPlayer("g1", clock.Rapid, "ann") })
	if err != nil || !reflect.DeepEqual(got, players[3]) {
		t.Errorf("LadderPlayer = %+v, %v; want %+v", got, err, players[3])
	}
	if _, err := Read(db, func(tx Tx) (LadderPlayer, error) { return tx.LadderPlayer("g1", clock.Bullet, "ann") }); !errors.Is(err, ErrNotFound) {
		t.Errorf("a player not in the bullet ladder: err %v, want ErrNotFound", err)
	}
	lad, err := Read(db, func(tx Tx) ([]LadderPlayer, error) { return tx.Ladder("g1", clock.Blitz) })
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range lad {
		ids = append(ids, p.UserID)
	}
	if strings.Join(ids, " ") != "ann bob cid" {
		t.Errorf("blitz ladder of g1 = %v, want ann bob cid (user id order)", ids)
	}
	all, err := Read(db, func(tx Tx) ([]LadderPlayer, error) { return tx.GuildLadders("g1") })
	if err != nil || !reflect.DeepEqual(all, []LadderPlayer{players[0], players[1], players[2], players[3]}) {
		t.Errorf("GuildLadders = %+v, %v; want g1's blitz players, then its rapid one", all, err)
	}
	if lad, _ := Read(db, func(tx Tx) ([]LadderPlayer, error) { return tx.Ladder("nobody", clock.Blitz) }); len(lad) != 0 {
		t.Errorf("an empty guild has %d players", len(lad))
	}
}

func TestLadderPlayerValidation(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		good := ladderPlayer("g", clock.Blitz, "u", 1500, 1, 0, 0)
		cases := map[string]func(p *LadderPlayer){
			"no guild":          func(p *LadderPlayer) { p.GuildID = "" },
			"long guild":        func(p *LadderPlayer) { p.GuildID = strings.Repeat("9", MaxIDLen+1) },
			"no category":       func(p *LadderPlayer) { p.Category = clock.NoCategory },
			"bad category":      func(p *LadderPlayer) { p.Category = 9 },
			"no user":           func(p *LadderPlayer) { p.UserID = "" },
			"record":            func(p *LadderPlayer) { p.Wins = 3 },
			"negative":          func(p *LadderPlayer) { p.Rating = -1 },
			"below the floor":   func(p *LadderPlayer) { p.Rating = 99 },
			"above the ceiling": func(p *LadderPlayer) { p.Rating = 4001 },
			"rating NaN":        func(p *LadderPlayer) { p.Rating = math.NaN() },
			"long history":      func(p *LadderPlayer) { p.History = make([]RatingPoint, MaxRatingHistory+1) },
			"negative games":    func(p *LadderPlayer) { p.Games, p.Wins, p.Losses = 0, 1, -1 },
		}
		for name, spoil := range cases {
			p := good
			spoil(&p)
			if err := db.Update(func(tx Tx) error { return tx.PutLadderPlayer(p) }); err == nil {
				t.Errorf("%s: accepted %+v", name, p)
			}
		}
		if err := db.Update(func(tx Tx) error { return tx.PutLadderPlayer(good) }); err != nil {
			t.Errorf("good player refused: %v", err)
		}
	})
}

func result(guild string, id uint64, white, black string, score float64, ended time.Time) RatedResult {
	return RatedResult{GuildID: guild, GameID: id, White: white, Black: black, Score: score,
		Category: clock.Blitz, Ended: ended, WhiteBefore: 1500, WhiteAfter: 1500 + 40*(score-0.5),
		BlackBefore: 1500, BlackAfter: 1500 - 40*(score-0.5)}
}

func TestRatedResultsOnceInEndOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		rs := []RatedResult{
			result("g", 7, "a", "b", 1, t0.Add(2*time.Minute)),
			result("g", 3, "b", "a", 0.5, t0.Add(time.Minute)),
			result("g", 9, "a", "c", 0, t0.Add(2*time.Minute)), // same end as game 7: by id
			result("h", 4, "a", "b", 1, t0),
		}
		for _, r := range rs {
			var added bool
			err := db.Update(func(w Tx) (err error) {
				added, err = w.AddRatedResult(r)
				return err
			})
			if err != nil || !added {
				t.Fatalf("add %+v: added %v, %v", r, added, err)
			}
		}
		// A second result for game 7, even with another end time, is refused.
		again := result("g", 7, "a", "b", 0, t0.Add(time.Hour))
		err := db.Update(func(w Tx) error {
			added, err := w.AddRatedResult(again)
			if added {
				t.Error("game 7 was added twice")
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(db, func(tx Tx) ([]RatedResult, error) { return tx.RatedResults("g") })
		if err != nil {
			t.Fatal(err)
		}
		var order []uint64
		for _, r := range got {
			order = append(order, r.GameID)
		}
		if !reflect.DeepEqual(order, []uint64{3, 7, 9}) {
			t.Errorf("results of g in order %v, want [3 7 9]", order)
		}
		if !got[1].Ended.Equal(rs[0].Ended) || got[1].Score != 1 || got[1].WhiteAfter != 1520 {
			t.Errorf("game 7 reads back as %+v", got[1])
		}
		one, err := Read(db, func(tx Tx) (RatedResult, error) { return tx.RatedResult(9) })
		if err != nil || one.White != "a" || one.Black != "c" || one.Score != 0 {
			t.Errorf("RatedResult(9) = %+v, %v", one, err)
		}
		if _, err := Read(db, func(tx Tx) (RatedResult, error) { return tx.RatedResult(5) }); !errors.Is(err, ErrNotFound) {
			t.Errorf("RatedResult of a game without one: %v, want ErrNotFound", err)
		}
		// Rewriting the ratings of a result works; changing what the game was does not.
		err = db.Update(func(w Tx) error {
			r := got[0]
			r.WhiteAfter, r.BlackAfter = 1499, 1501
			if err := w.ReplaceRatedResult(r); err != nil {
				return err
			}
			r.Score = 1
			if err := w.ReplaceRatedResult(r); err == nil {
				t.Error("ReplaceRatedResult changed a score")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := Read(db, func(tx Tx) (RatedResult, error) { return tx.RatedResult(3) }); r.WhiteAfter != 1499 || r.Score != 0.5 {
			t.Errorf("game 3 after its ratings were rewritten: %+v", r)
		}

		bad := map[string]RatedResult{
			"no game":    result("g", 0, "a", "b", 1, t0),
			"no guild":   result("", 11, "a", "b", 1, t0),
			"same":       result("g", 11, "a", "a", 1, t0),
			"no black":   result("g", 11, "a", "", 1, t0),
			"score":      result("g", 11, "a", "b", 0.25, t0),
			"no end":     result("g", 11, "a", "b", 1, time.Time{}),
			"untimed":    func() RatedResult { r := result("g", 11, "a", "b", 1, t0); r.Category = clock.NoCategory; return r }(),
			"before1970": result("g", 11, "a", "b", 1, time.Unix(-5, 0)),
		}
		for name, r := range bad {
			err := db.Update(func(w Tx) error {
				_, err := w.AddRatedResult(r)
				return err
			})
			if err == nil {
				t.Errorf("%s: accepted %+v", name, r)
			}
		}
	})
}

func TestUpdateIsAtomic(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		boom := errors.New("boom")
		err := db.Update(func(w Tx) error {
			if _, err := w.AddRatedResult(result("g", 1, "a", "b", 1, t0)); err != nil {
				return err
			}
			if err := w.PutLadderPlayer(ladderPlayer("g", clock.Blitz, "a", 1520, 1, 0, 0)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err %v, want boom", err)
		}
		if rs, _ := Read(db, func(tx Tx) ([]RatedResult, error) { return tx.RatedResults("g") }); len(rs) != 0 {
			t.Errorf("a failed update left %d results", len(rs))
		}
		if _, err := Read(db, func(tx Tx) (LadderPlayer, error) { return tx.LadderPlayer("g", clock.Blitz, "a") }); !errors.Is(err, ErrNotFound) {
			t.Errorf("a failed update left a player: %v", err)
		}
	})
}

func TestReplaceLaddersAndSettings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		for _, p := range []LadderPlayer{
			ladderPlayer("g", clock.Blitz, "a", 1520, 1, 0, 0),
			ladderPlayer("g", clock.Rapid, "b", 1480, 0, 0, 1),
			ladderPlayer("gg", clock.Blitz, "a", 1700, 1, 0, 0),
		} {
			if err := db.Update(func(tx Tx) error { return tx.PutLadderPlayer(p) }); err != nil {
				t.Fatal(err)
			}
		}
		repl := []LadderPlayer{ladderPlayer("g", clock.Bullet, "c", 1600, 1, 0, 0)}
		err := db.Update(func(w Tx) error {
			old, err := w.GuildLadders("g")
			if err != nil {
				return err
			}
			if len(old) != 2 || old[0].UserID != "a" || old[1].UserID != "b" {
				t.Errorf("GuildLadders(g) = %+v", old)
			}
			gs, err := w.GuildSettings("g")
			if err != nil {
				return err
			}
			gs.RatingSystem, gs.StartRating = RatingGlicko2, 1200
			if err := w.PutGuildSettings(gs); err != nil {
				return err
			}
			return w.ReplaceLadders("g", repl)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, cat := range []clock.Category{clock.Blitz, clock.Rapid} {
			if l, _ := Read(db, func(tx Tx) ([]LadderPlayer, error) { return tx.Ladder("g", cat) }); len(l) != 0 {
				t.Errorf("%s ladder of g still has %+v", cat, l)
			}
		}
		if l, _ := Read(db, func(tx Tx) ([]LadderPlayer, error) { return tx.Ladder("g", clock.Bullet) }); len(l) != 1 || l[0].UserID != "c" {
			t.Errorf("bullet ladder of g = %+v", l)
		}
		if l, _ := Read(db, func(tx Tx) ([]LadderPlayer, error) { return tx.Ladder("gg", clock.Blitz) }); len(l) != 1 {
			t.Errorf("another guild's ladder was touched: %+v", l)
		}
		if gs, _ := Read(db, func(tx Tx) (GuildSettings, error) { return tx.GuildSettings("g") }); gs.RatingSystem != RatingGlicko2 || gs.StartRating != 1200 {
			t.Errorf("settings %+v", gs)
		}
		err = db.Update(func(w Tx) error {
			return w.ReplaceLadders("g", []LadderPlayer{ladderPlayer("gg", clock.Blitz, "x", 1500, 0, 0, 0)})
		})
		if err == nil {
			t.Error("ReplaceLadders took a player of another guild")
		}
		err = db.Update(func(w Tx) error {
			gs := DefaultGuildSettings("g")
			gs.StartRating = 5
			return w.PutGuildSettings(gs)
		})
		if err == nil {
			t.Error("a start rating of 5 was stored")
		}
	})
}

func FuzzDecodeLadderPlayer(f *testing.F) {
	p := ladderPlayer("g", clock.Blitz, "u", 1520, 3, 1, 2)
	p.RD, p.Volatility, p.Seed = 92.25, 0.0601, 1800
	p.History = append(p.History, RatingPoint{At: t0.Add(time.Hour), Rating: 1533.5}, RatingPoint{At: t0.Add(time.Minute), Rating: 1490})
	f.Add(encodeLadderPlayer(&p))
	empty := LadderPlayer{}
	f.Add(encodeLadderPlayer(&empty))
	f.Add([]byte("J{}"))
	f.Add([]byte{ladderFormat, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var p LadderPlayer
		if err := decodeLadderPlayerValue(b, &p); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		again := encodeLadderPlayer(&p)
		var q LadderPlayer
		if err := decodeLadderPlayerValue(again, &q); err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip: %+v became %+v", p, q)
		}
	})
}

func TestLadderPlayerEncodingSize(t *testing.T) {
	p := ladderPlayer("g", clock.Blitz, "u", 1500, 0, 0, 0)
	p.History = nil
	for i := range 500 {
		p.History = append(p.History, RatingPoint{At: t0.Add(time.Duration(i) * 17 * time.Minute), Rating: 1500 + float64(i%40)})
	}
	p.Games, p.Wins = 500, 500
	b := encodeLadderPlayer(&p)
	if len(b) > 500*14+64 {
		t.Errorf("a 500-game history takes %d bytes", len(b))
	}
	var q LadderPlayer
	if err := decodeLadderPlayerValue(b, &q); err != nil {
		t.Fatal(err)
	}
	q.GuildID, q.Category, q.UserID = p.GuildID, p.Category, p.UserID
	if !reflect.DeepEqual(p, q) {
		t.Error("500-point history does not round-trip")
	}
}
