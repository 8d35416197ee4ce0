package storage

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func openTemp(t testing.TB, opts *Options) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "gambit.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// countGames counts the stored games and the live ones.
func countGames(db Store) (total, live int, err error) {
	err = db.View(func(tx Tx) (err error) {
		total, live, err = tx.CountGames()
		return err
	})
	return total, live, err
}

// schemaVersion reads the schema version of the open file.
func schemaVersion(db *DB) (v int, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) (err error) {
		v, err = readVersion(tx)
		return err
	})
	return v, err
}

func mustTC(t testing.TB, s string) clock.TimeControl {
	t.Helper()
	tc, err := clock.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// sampleGames are records exercising every field of the encoding.
func sampleGames(t testing.TB) []*Game {
	live := mustTC(t, "5+3")
	ck, err := clock.New(live)
	if err != nil {
		t.Fatal(err)
	}
	ck.FreeFirstMoves = true
	if err := ck.Start(t0); err != nil {
		t.Fatal(err)
	}
	ck.Press(t0.Add(time.Second))
	ck.Press(t0.Add(3 * time.Second))
	ck.Press(t0.Add(7*time.Second + 123456789))
	corr := mustTC(t, "3d")
	cc, _ := clock.New(corr)
	cc.Start(t0)
	return []*Game{
		{
			White: Player{"local:white", "White"}, Black: Player{"local:black", "Black"},
			Control: mustTC(t, "-"), Created: t0,
		},
		{
			GuildID: "111111111111111111", ChannelID: "222222222222222222", ThreadID: "333",
			White: Player{"1001", "Ana ♞"}, Black: Player{"1002", "Bo"}, Rated: true,
			Control: live, ChallengeID: 77, Created: t0,
			Moves:      []chesscore.Move{chesscore.NewMove(chesscore.E2, chesscore.E4), chesscore.NewMove(chesscore.E7, chesscore.E5), chesscore.NewMove(chesscore.G1, chesscore.F3)},
			MoveClocks: []time.Duration{5 * time.Minute, 5 * time.Minute, 4*time.Minute + 56*time.Second},
			Clock:      &ck,
			DrawOffer:  Offer{Pending: true, By: chesscore.White, Ply: 3}, DrawOffers: [2]int{1, 0}, LastDrawOffer: [2]int{3, 0},
			Takeback: Offer{Pending: true, By: chesscore.White, Ply: 3}, LastTakeback: [2]int{3, 0},
			AbortAt: t0.Add(5 * time.Minute),
		},
		{
			White: Player{"1", "a"}, Black: Player{"2", "b"}, Control: corr, Clock: &cc,
			StartFEN: "8/8/8/8/8/5k2/8/4K2R w K - 0 1", Created: t0, Ended: t0.Add(time.Hour),
			Outcome:     chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.Resignation},
			ReminderPly: 1,
		},
	}
}

func TestGameCodecRoundTrip(t *testing.T) {
	for i, g := range sampleGames(t) {
		g.ID = uint64(i + 1)
		b := encodeGame(g)
		got, err := decodeGame(g.ID, b)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Errorf("game %d round trip:\n got %+v\nwant %+v", i, got, g)
		}
		if again := encodeGame(got); !bytes.Equal(again, b) {
			t.Errorf("game %d: re-encoding differs", i)
		}
	}
}

func TestGameCodecRejects(t *testing.T) {
	good := encodeGame(sampleGames(t)[1])
	cases := map[string][]byte{
		"empty":          {},
		"unknown format": append([]byte{9}, good[1:]...),
		"truncated":      good[:len(good)-3],
		"trailing":       append(append([]byte(nil), good...), 0),
	}
	for name, b := range cases {
		if _, err := decodeGame(1, b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

func FuzzDecodeGame(f *testing.F) {
	for _, g := range sampleGames(f) {
		f.Add(encodeGame(g))
	}
	f.Add([]byte{1})
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := decodeGame(1, b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		again, err := decodeGame(1, encodeGame(g))
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !reflect.DeepEqual(again, g) {
			t.Fatalf("round trip changed the record:\n%+v\n%+v", g, again)
		}
	})
}

func newGame(white, black, channel string) *Game {
	return &Game{
		GuildID: "g1", ChannelID: channel,
		White: Player{white, "W " + white}, Black: Player{black, "B " + black},
		Control: clock.TimeControl{Untimed: true}, Created: t0,
	}
}

func ids(gs []*Game) []uint64 {
	var out []uint64
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func TestCommitAndIndexes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		var games []*Game
		for i, p := range [][3]string{{"a", "b", "c1"}, {"b", "c", "c1"}, {"a", "c", "c2"}, {"ab", "b", "c1"}} {
			g := newGame(p[0], p[1], p[2])
			r := &Receipt{RequestID: fmt.Sprint("req", i), At: t0, Effect: "started"}
			if err := db.Commit(&Change{Game: g, Receipt: r}); err != nil {
				t.Fatal(err)
			}
			if g.ID != uint64(i+1) || r.GameID != g.ID {
				t.Fatalf("game %d got id %d, receipt %d", i, g.ID, r.GameID)
			}
			games = append(games, g)
		}
		// Finish game 2.
		games[1].Outcome = chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Agreement}
		if err := db.Commit(&Change{Game: games[1]}); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			got  func() ([]*Game, error)
			want []uint64
		}{
			{"user a", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("a", Query{}) })
			}, []uint64{3, 1}},
			{"user b", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("b", Query{}) })
			}, []uint64{4, 2, 1}},
			{"user b live", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("b", Query{LiveOnly: true}) })
			}, []uint64{4, 1}},
			{"user b limit", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("b", Query{Limit: 1}) })
			}, []uint64{4}},
			{"user b page", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("b", Query{BeforeID: 4}) })
			}, []uint64{2, 1}},
			{"user ab", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("ab", Query{}) })
			}, []uint64{4}},
			{"user z", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("z", Query{}) })
			}, nil},
			{"channel c1", func() ([]*Game, error) {
				return Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesInChannel("c1", Query{}) })
			}, []uint64{4, 2, 1}},
			{"open", func() ([]*Game, error) { return Read(db, Tx.OpenGames) }, []uint64{1, 3, 4}},
		}
		for _, tt := range tests {
			gs, err := tt.got()
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got := ids(gs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
			}
		}
		total, live, err := countGames(db)
		if err != nil || total != 4 || live != 3 {
			t.Errorf("CountGames = %d, %d, %v; want 4, 3", total, live, err)
		}
		r, err := Read(db, func(tx Tx) (*Receipt, error) { return tx.Receipt("req2") })
		if err != nil || r.GameID != 3 || r.Effect != "started" || !r.At.Equal(t0) {
			t.Errorf("Receipt = %+v, %v", r, err)
		}
		if _, err := Read(db, func(tx Tx) (*Game, error) { return tx.Game(99) }); !errors.Is(err, ErrNotFound) {
			t.Errorf("Game(99) err = %v, want ErrNotFound", err)
		}
		checkStore(t, db)
	})
}

func TestCommitRejectsBadRecords(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		long := string(make([]byte, MaxIDLen+1))
		for name, c := range map[string]*Change{
			"no black":   {Game: newGame("a", "", "c")},
			"long user":  {Game: newGame(long, "b", "c")},
			"no request": {Receipt: &Receipt{}},
			"no user id": {Users: []User{{Name: "x"}}},
		} {
			if err := db.Commit(c); err == nil {
				t.Errorf("%s: committed", name)
			}
		}
	})
}

func TestAfterHookIsAtomic(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		g := newGame("a", "b", "c")
		if err := db.Commit(&Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}
		boom := errors.New("ladder is broken")
		err := db.Commit(&Change{Game: g, Receipt: &Receipt{RequestID: "r1", At: t0}, After: func(w Tx) error {
			stored, err := w.Game(g.ID)
			if err != nil {
				return err
			}
			if stored.Live() {
				t.Error("hook does not see the change's own write")
			}
			if err := w.PutUser(User{ID: "a", Name: "rated"}); err != nil {
				return err
			}
			return boom
		}})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v, want the hook's error", err)
		}
		stored, _ := Read(db, func(tx Tx) (*Game, error) { return tx.Game(g.ID) })
		if !stored.Live() {
			t.Error("the result was committed although the hook failed")
		}
		if _, err := Read(db, func(tx Tx) (User, error) { return tx.User("a") }); !errors.Is(err, ErrNotFound) {
			t.Error("the hook's write was committed")
		}
		if _, err := Read(db, func(tx Tx) (*Receipt, error) { return tx.Receipt("r1") }); !errors.Is(err, ErrNotFound) {
			t.Error("the receipt was committed")
		}
		// And a hook that succeeds commits with the change.
		if err := db.Commit(&Change{Game: g, After: func(w Tx) error { return w.PutUser(User{ID: "a", Name: "rated"}) }}); err != nil {
			t.Fatal(err)
		}
		if u, err := Read(db, func(tx Tx) (User, error) { return tx.User("a") }); err != nil || u.Name != "rated" {
			t.Errorf("User = %+v, %v", u, err)
		}
	})
}

func TestConcurrentCommitsGetUniqueIDs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		const n = 200
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				g := newGame(fmt.Sprint("u", i), "x", "c")
				errs <- db.Commit(&Change{Game: g, Receipt: &Receipt{RequestID: fmt.Sprint("r", i), At: t0}})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		gs, err := Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("x", Query{}) })
		if err != nil || len(gs) != n {
			t.Fatalf("%d games, %v", len(gs), err)
		}
		seen := map[uint64]bool{}
		for _, g := range gs {
			if seen[g.ID] {
				t.Fatalf("id %d given twice", g.ID)
			}
			seen[g.ID] = true
		}
	})
}

func TestChallenges(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		c := &Challenge{From: Player{"a", "A"}, Control: mustTC(t, "5+3"), Color: ChooseRandom, Created: t0, ExpiresAt: t0.Add(time.Hour), Status: ChallengePending}
		r := &Receipt{RequestID: "x", At: t0}
		if err := db.Commit(&Change{Challenge: c, Receipt: r}); err != nil {
			t.Fatal(err)
		}
		if c.ID != 1 || r.ChallengeID != 1 {
			t.Fatalf("challenge id %d, receipt %d", c.ID, r.ChallengeID)
		}
		got, err := Read(db, func(tx Tx) (*Challenge, error) { return tx.Challenge(1) })
		if err != nil || !got.Control.Equal(c.Control) || !got.Open() || got.Status != ChallengePending || !got.ExpiresAt.Equal(c.ExpiresAt) {
			t.Fatalf("Challenge = %+v, %v", got, err)
		}
		pend, _ := Read(db, Tx.PendingChallenges)
		if len(pend) != 1 {
			t.Fatalf("%d pending", len(pend))
		}
		// Accepting creates a game linked to it.
		c.Status = ChallengeAccepted
		g := newGame("a", "b", "c")
		if err := db.Commit(&Change{Challenge: c, Game: g}); err != nil {
			t.Fatal(err)
		}
		got, _ = Read(db, func(tx Tx) (*Challenge, error) { return tx.Challenge(1) })
		if got.GameID != g.ID || g.ID == 0 {
			t.Errorf("challenge game %d, game %d", got.GameID, g.ID)
		}
		if pend, _ := Read(db, Tx.PendingChallenges); len(pend) != 0 {
			t.Errorf("%d pending after accept", len(pend))
		}
	})
}

func TestSettingsAndUsers(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		s, err := Read(db, func(tx Tx) (GuildSettings, error) { return tx.GuildSettings("g") })
		if err != nil || !reflect.DeepEqual(s, DefaultGuildSettings("g")) {
			t.Fatalf("default settings = %+v, %v", s, err)
		}
		s.RatingSystem = RatingGlicko2
		s.DefaultControl = mustTC(t, "3d")
		s.ChallengeRole = "role1"
		s.ThreadPerGame = false
		if err := db.Update(func(tx Tx) error { return tx.PutGuildSettings(s) }); err != nil {
			t.Fatal(err)
		}
		got, _ := Read(db, func(tx Tx) (GuildSettings, error) { return tx.GuildSettings("g") })
		if got.RatingSystem != RatingGlicko2 || got.DefaultControl.String() != "3d" || got.ChallengeRole != "role1" || got.ThreadPerGame {
			t.Errorf("settings = %+v", got)
		}
		bad := s
		bad.RatingSystem = "elo"
		if err := db.Update(func(tx Tx) error { return tx.PutGuildSettings(bad) }); err == nil {
			t.Error("stored an unknown rating system")
		}
		bad = s
		bad.StartRating = 0
		if err := db.Update(func(tx Tx) error { return tx.PutGuildSettings(bad) }); err == nil {
			t.Error("stored a start rating of 0")
		}

		if err := db.Commit(&Change{Users: []User{{ID: "u", Name: "Una", Updated: t0}}}); err != nil {
			t.Fatal(err)
		}
		if u, err := Read(db, func(tx Tx) (User, error) { return tx.User("u") }); err != nil || u.Prefs != DefaultUserPrefs() {
			t.Errorf("new user = %+v, %v; want the default preferences", u, err)
		}
		p := UserPrefs{DMOnTurn: true, ReminderBefore: time.Hour}
		if err := db.Update(func(tx Tx) error { return tx.PutUser(User{ID: "u", Name: "Una", Prefs: p, Updated: t0}) }); err != nil {
			t.Fatal(err)
		}
		negative := UserPrefs{ReminderBefore: -time.Hour}
		if err := db.Update(func(tx Tx) error { return tx.PutUser(User{ID: "u", Prefs: negative}) }); err == nil {
			t.Error("stored a negative reminder time")
		}
		if err := db.Commit(&Change{Users: []User{{ID: "u", Name: "Una B", Updated: t0}}}); err != nil {
			t.Fatal(err)
		}
		u, err := Read(db, func(tx Tx) (User, error) { return tx.User("u") })
		if err != nil || u.Name != "Una B" || u.Prefs != p {
			t.Errorf("user = %+v, %v (a name change must keep the preferences)", u, err)
		}
	})
}

func TestPruneReceipts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		for i := range 5 {
			r := &Receipt{RequestID: fmt.Sprint("r", i), At: t0.Add(time.Duration(i) * time.Hour), Effect: "moved"}
			if err := db.Commit(&Change{Receipt: r}); err != nil {
				t.Fatal(err)
			}
		}
		n, err := Write(db, func(tx Tx) (int, error) { return tx.PruneReceipts(t0.Add(150 * time.Minute)) })
		if err != nil || n != 3 {
			t.Fatalf("pruned %d, %v; want 3", n, err)
		}
		for i := range 5 {
			_, err := Read(db, func(tx Tx) (*Receipt, error) { return tx.Receipt(fmt.Sprint("r", i)) })
			if gone := errors.Is(err, ErrNotFound); gone != (i < 3) {
				t.Errorf("receipt r%d: err %v", i, err)
			}
		}
		if n, _ := Write(db, func(tx Tx) (int, error) { return tx.PruneReceipts(t0.Add(150 * time.Minute)) }); n != 0 {
			t.Errorf("second prune removed %d", n)
		}
	})
}

func TestHeartbeat(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		if hb, err := Read(db, func(tx Tx) (time.Time, error) { return tx.Heartbeat("bot") }); err != nil || !hb.IsZero() {
			t.Fatalf("first heartbeat = %v, %v", hb, err)
		}
		db.Update(func(tx Tx) error { return tx.PutHeartbeat("bot", t0) })
		db.Update(func(tx Tx) error { return tx.PutHeartbeat("play", t0.Add(time.Hour)) })
		if hb, _ := Read(db, func(tx Tx) (time.Time, error) { return tx.Heartbeat("bot") }); !hb.Equal(t0) {
			t.Errorf("heartbeat = %v", hb)
		}
	})
}

func TestSecondOpenFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	_, err = Open(path, &Options{LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("second open took %v", d)
	}
	if want := "in use by another process"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
		t.Errorf("message %q does not say %q", err, want)
	}
}

// writeV1 writes a file in schema version 1: record buckets, no indexes.
func writeV1(t *testing.T, path string, games []*Game, challenges []*Challenge) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Update(func(tx *bolt.Tx) error {
		if err := migrations[0].up(tx); err != nil {
			return err
		}
		for i, g := range games {
			g.ID = uint64(i + 1)
			if err := tx.Bucket([]byte(bucketGames)).Put(idKey(g.ID), encodeGame(g)); err != nil {
				return err
			}
		}
		tx.Bucket([]byte(bucketGames)).SetSequence(uint64(len(games)))
		for i, c := range challenges {
			c.ID = uint64(i + 1)
			v, _ := encodeJSON(c)
			tx.Bucket([]byte(bucketChallenges)).Put(idKey(c.ID), v)
		}
		tx.Bucket([]byte(bucketChallenges)).SetSequence(uint64(len(challenges)))
		r, _ := encodeJSON(&Receipt{At: t0, Effect: "moved"})
		tx.Bucket([]byte(bucketRequests)).Put([]byte("old"), r)
		return writeVersion(tx, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMigrateFromV0(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v0.db")
	b, err := bolt.Open(path, 0o600, nil) // an empty bbolt file: version 0
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, err := schemaVersion(db); err != nil || v != SchemaVersion {
		t.Fatalf("version %d, %v", v, err)
	}
	if err := db.Commit(&Change{Game: newGame("a", "b", "c")}); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	finished := newGame("a", "b", "c1")
	finished.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Checkmate}
	writeV1(t, path, []*Game{newGame("a", "b", "c1"), finished, newGame("b", "c", "c2")},
		[]*Challenge{
			{From: Player{"a", "A"}, Control: mustTC(t, "5+0"), Status: ChallengePending, Created: t0},
			{From: Player{"a", "A"}, Control: mustTC(t, "5+0"), Status: ChallengeDeclined, Created: t0},
		})

	// A read-only open refuses to run migrations.
	if _, err := Open(path, &Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only open of a version 1 file succeeded")
	}
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := schemaVersion(db); v != SchemaVersion {
		t.Fatalf("version %d after migration", v)
	}
	open, _ := Read(db, Tx.OpenGames)
	if got := ids(open); !reflect.DeepEqual(got, []uint64{1, 3}) {
		t.Errorf("open games %v, want [1 3]", got)
	}
	byA, _ := Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("a", Query{}) })
	if got := ids(byA); !reflect.DeepEqual(got, []uint64{2, 1}) {
		t.Errorf("games of a %v, want [2 1]", got)
	}
	inC2, _ := Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesInChannel("c2", Query{}) })
	if got := ids(inC2); !reflect.DeepEqual(got, []uint64{3}) {
		t.Errorf("games in c2 %v", got)
	}
	pend, _ := Read(db, Tx.PendingChallenges)
	if len(pend) != 1 || pend[0].ID != 1 {
		t.Errorf("pending challenges %+v", pend)
	}
	if n, err := Write(db, func(tx Tx) (int, error) { return tx.PruneReceipts(t0.Add(time.Second)) }); n != 1 || err != nil {
		t.Errorf("pruned %d old receipts, %v: the by-time index was not built", n, err)
	}
	// New ids continue after the old ones.
	g := newGame("a", "z", "c1")
	if err := db.Commit(&Change{Game: g}); err != nil || g.ID != 4 {
		t.Errorf("new game id %d, %v", g.ID, err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.bolt.Update(func(tx *bolt.Tx) error { return writeVersion(tx, SchemaVersion+1) })
	db.Close()
	if _, err := Open(path, nil); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("err = %v, want ErrNewerSchema", err)
	}
}

func TestBackupWhileWriting(t *testing.T) {
	dir := t.TempDir()
	db := openTemp(t, nil)
	for range 50 {
		db.Commit(&Change{Game: newGame("a", "b", "c")})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // writers go on during the backup
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				db.Commit(&Change{Game: newGame("a", "b", "c")})
			}
		}
	}()
	out := filepath.Join(dir, "backup.db")
	n, err := db.BackupFile(out)
	close(stop)
	wg.Wait()
	if err != nil || n == 0 {
		t.Fatalf("backup: %d bytes, %v", n, err)
	}
	if _, err := db.BackupFile(db.path); err == nil {
		t.Error("backed up over the database itself")
	}
	bk, err := Open(out, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if err := bk.Check(); err != nil {
		t.Fatal(err)
	}
	total, _, _ := countGames(bk)
	if total < 50 {
		t.Errorf("backup has %d games, want at least 50", total)
	}
	if err := bk.Commit(&Change{Game: newGame("a", "b", "c")}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("write to a read-only store: %v", err)
	}
}

func TestCheckFindsCorruptRecord(t *testing.T) {
	db := openTemp(t, nil)
	db.Commit(&Change{Game: newGame("a", "b", "c")})
	db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketGames)).Put(idKey(1), []byte{1, 2, 3})
	})
	if err := db.Check(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Check = %v, want ErrCorrupt", err)
	}
	if _, err := Read(db, func(tx Tx) (*Game, error) { return tx.Game(1) }); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Game = %v, want ErrCorrupt", err)
	}
}

func TestGroupCommitIsolatesFailures(t *testing.T) {
	for _, mode := range []Options{{}, {BoltBatch: true}} {
		db := openTemp(t, &mode)
		const n = 60
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := &Change{Game: newGame(fmt.Sprint("u", i), "x", "c")}
				switch i % 10 {
				case 3:
					c.After = func(Tx) error { return errors.New("refused") }
				case 7:
					c.After = func(Tx) error { panic("bad hook") }
				}
				errs[i] = db.Commit(c)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if bad := i%10 == 3 || i%10 == 7; (err != nil) != bad {
				t.Errorf("BoltBatch %v: change %d: err %v", mode.BoltBatch, i, err)
			}
		}
		gs, _ := Read(db, func(tx Tx) ([]*Game, error) { return tx.GamesByUser("x", Query{}) })
		if len(gs) != n-n/5 {
			t.Errorf("BoltBatch %v: %d games committed, want %d", mode.BoltBatch, len(gs), n-n/5)
		}
	}
}
