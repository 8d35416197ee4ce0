// games.go: the conformance suite's commits (games and their indexes, bad records
// refused, the After hook atomic, unique ids under concurrency), challenges, settings
// and users, receipts and heartbeats.

package storagetest

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testCommitAndIndexes(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		var games []*storage.Game
		for i, p := range [][3]string{{"a", "b", "c1"}, {"b", "c", "c1"}, {"a", "c", "c2"}, {"ab", "b", "c1"}} {
			g := testrecords.NewGame(p[0], p[1], p[2])
			r := &storage.Receipt{RequestID: fmt.Sprint("req", i), At: testrecords.T0, Effect: "started"}
			if err := db.Commit(t.Context(), &storage.Change{Game: g, Receipt: r}); err != nil {
				t.Fatal(err)
			}
			if g.ID != uint64(i+1) || r.GameID != g.ID {
				t.Fatalf("game %d got id %d, receipt %d", i, g.ID, r.GameID)
			}
			games = append(games, g)
		}
		// Finish game 2.
		games[1].Outcome = chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Agreement}
		if err := db.Commit(t.Context(), &storage.Change{Game: games[1]}); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			got  func() ([]*storage.Game, error)
			want []uint64
		}{
			{"user a", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("a", storage.Query{}) })
			}, []uint64{3, 1}},
			{"user b", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("b", storage.Query{}) })
			}, []uint64{4, 2, 1}},
			{"user b live", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) {
					return tx.GamesByUser("b", storage.Query{LiveOnly: true})
				})
			}, []uint64{4, 1}},
			{"user b limit", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("b", storage.Query{Limit: 1}) })
			}, []uint64{4}},
			{"user b page", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("b", storage.Query{BeforeID: 4}) })
			}, []uint64{2, 1}},
			{"user ab", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("ab", storage.Query{}) })
			}, []uint64{4}},
			{"user z", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("z", storage.Query{}) })
			}, nil},
			{"channel c1", func() ([]*storage.Game, error) {
				return storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesInChannel("c1", storage.Query{}) })
			}, []uint64{4, 2, 1}},
			{"open", func() ([]*storage.Game, error) { return storage.Read(t.Context(), db, storage.Tx.OpenGames) }, []uint64{1, 3, 4}},
		}
		for _, tt := range tests {
			gs, err := tt.got()
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got := testrecords.IDs(gs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
			}
		}
		total, live, err := testrecords.CountGames(t.Context(), db)
		if err != nil || total != 4 || live != 3 {
			t.Errorf("CountGames = %d, %d, %v; want 4, 3", total, live, err)
		}
		r, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Receipt, error) { return tx.Receipt("req2") })
		if err != nil || r.GameID != 3 || r.Effect != "started" || !r.At.Equal(testrecords.T0) {
			t.Errorf("Receipt = %+v, %v", r, err)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(99) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("Game(99) err = %v, want ErrNotFound", err)
		}
		testrecords.CheckStore(t, db)
	})
}

func testCommitRejectsBadRecords(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		long := string(make([]byte, storage.MaxIDLen+1))
		for name, c := range map[string]*storage.Change{
			"no black":   {Game: testrecords.NewGame("a", "", "c")},
			"long user":  {Game: testrecords.NewGame(long, "b", "c")},
			"no request": {Receipt: &storage.Receipt{}},
			"no user id": {Users: []storage.User{{Name: "x"}}},
		} {
			if err := db.Commit(t.Context(), c); err == nil {
				t.Errorf("%s: committed", name)
			}
		}
	})
}

func testAfterHookIsAtomic(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := testrecords.NewGame("a", "b", "c")
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}
		boom := errors.New("ladder is broken")
		err := db.Commit(t.Context(), &storage.Change{Game: g, Receipt: &storage.Receipt{RequestID: "r1", At: testrecords.T0}, After: func(w storage.Tx) error {
			stored, err := w.Game(g.ID)
			if err != nil {
				return err
			}
			if stored.Live() {
				t.Error("hook does not see the change's own write")
			}
			if err := w.PutUser(storage.User{ID: "a", Name: "rated"}); err != nil {
				return err
			}
			return boom
		}})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v, want the hook's error", err)
		}
		stored, _ := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
		if !stored.Live() {
			t.Error("the result was committed although the hook failed")
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.User, error) { return tx.User("a") }); !errors.Is(err, storage.ErrNotFound) {
			t.Error("the hook's write was committed")
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Receipt, error) { return tx.Receipt("r1") }); !errors.Is(err, storage.ErrNotFound) {
			t.Error("the receipt was committed")
		}
		// And a hook that succeeds commits with the change.
		if err := db.Commit(t.Context(), &storage.Change{Game: g, After: func(w storage.Tx) error { return w.PutUser(storage.User{ID: "a", Name: "rated"}) }}); err != nil {
			t.Fatal(err)
		}
		if u, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.User, error) { return tx.User("a") }); err != nil || u.Name != "rated" {
			t.Errorf("User = %+v, %v", u, err)
		}
	})
}

func testConcurrentCommitsGetUniqueIDs(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		const n = 200
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				g := testrecords.NewGame(fmt.Sprint("u", i), "x", "c")
				errs <- db.Commit(t.Context(), &storage.Change{Game: g, Receipt: &storage.Receipt{RequestID: fmt.Sprint("r", i), At: testrecords.T0}})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		gs, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("x", storage.Query{}) })
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

func testChallenges(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		c := &storage.Challenge{From: storage.Player{ID: "a", Name: "A"}, Control: testrecords.MustTC(t, "5+3"), Color: storage.ChooseRandom, Created: testrecords.T0, ExpiresAt: testrecords.T0.Add(time.Hour), Status: storage.ChallengePending}
		r := &storage.Receipt{RequestID: "x", At: testrecords.T0}
		if err := db.Commit(t.Context(), &storage.Change{Challenge: c, Receipt: r}); err != nil {
			t.Fatal(err)
		}
		if c.ID != 1 || r.ChallengeID != 1 {
			t.Fatalf("challenge id %d, receipt %d", c.ID, r.ChallengeID)
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(1) })
		if err != nil || !got.Control.Equal(c.Control) || !got.Open() || got.Status != storage.ChallengePending || !got.ExpiresAt.Equal(c.ExpiresAt) {
			t.Fatalf("Challenge = %+v, %v", got, err)
		}
		pend, _ := storage.Read(t.Context(), db, storage.Tx.PendingChallenges)
		if len(pend) != 1 {
			t.Fatalf("%d pending", len(pend))
		}
		// Accepting creates a game linked to it.
		c.Status = storage.ChallengeAccepted
		g := testrecords.NewGame("a", "b", "c")
		if err := db.Commit(t.Context(), &storage.Change{Challenge: c, Game: g}); err != nil {
			t.Fatal(err)
		}
		got, _ = storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(1) })
		if got.GameID != g.ID || g.ID == 0 {
			t.Errorf("challenge game %d, game %d", got.GameID, g.ID)
		}
		if pend, _ := storage.Read(t.Context(), db, storage.Tx.PendingChallenges); len(pend) != 0 {
			t.Errorf("%d pending after accept", len(pend))
		}
	})
}

func testSettingsAndUsers(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		s, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") })
		if err != nil || !reflect.DeepEqual(s, storage.DefaultGuildSettings("g")) {
			t.Fatalf("default settings = %+v, %v", s, err)
		}
		s.RatingSystem = storage.RatingGlicko2
		s.DefaultControl = testrecords.MustTC(t, "3d")
		s.ChallengeRole = "role1"
		s.ThreadPerGame = false
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(s) }); err != nil {
			t.Fatal(err)
		}
		got, _ := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") })
		if got.RatingSystem != storage.RatingGlicko2 || got.DefaultControl.String() != "3d" || got.ChallengeRole != "role1" || got.ThreadPerGame {
			t.Errorf("settings = %+v", got)
		}
		bad := s
		bad.RatingSystem = "elo"
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(bad) }); err == nil {
			t.Error("stored an unknown rating system")
		}
		bad = s
		bad.StartRating = 0
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(bad) }); err == nil {
			t.Error("stored a start rating of 0")
		}

		if err := db.Commit(t.Context(), &storage.Change{Users: []storage.User{{ID: "u", Name: "Una", Updated: testrecords.T0}}}); err != nil {
			t.Fatal(err)
		}
		if u, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.User, error) { return tx.User("u") }); err != nil || u.Prefs != storage.DefaultUserPrefs() {
			t.Errorf("new user = %+v, %v; want the default preferences", u, err)
		}
		p := storage.UserPrefs{DMOnTurn: true, ReminderBefore: time.Hour}
		if err := db.Update(t.Context(), func(tx storage.Tx) error {
			return tx.PutUser(storage.User{ID: "u", Name: "Una", Prefs: p, Updated: testrecords.T0})
		}); err != nil {
			t.Fatal(err)
		}
		negative := storage.UserPrefs{ReminderBefore: -time.Hour}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutUser(storage.User{ID: "u", Prefs: negative}) }); err == nil {
			t.Error("stored a negative reminder time")
		}
		if err := db.Commit(t.Context(), &storage.Change{Users: []storage.User{{ID: "u", Name: "Una B", Updated: testrecords.T0}}}); err != nil {
			t.Fatal(err)
		}
		u, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.User, error) { return tx.User("u") })
		if err != nil || u.Name != "Una B" || u.Prefs != p {
			t.Errorf("user = %+v, %v (a name change must keep the preferences)", u, err)
		}
	})
}

func testPruneReceipts(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		for i := range 5 {
			r := &storage.Receipt{RequestID: fmt.Sprint("r", i), At: testrecords.T0.Add(time.Duration(i) * time.Hour), Effect: "moved"}
			if err := db.Commit(t.Context(), &storage.Change{Receipt: r}); err != nil {
				t.Fatal(err)
			}
		}
		n, err := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) { return tx.PruneReceipts(testrecords.T0.Add(150 * time.Minute)) })
		if err != nil || n != 3 {
			t.Fatalf("pruned %d, %v; want 3", n, err)
		}
		for i := range 5 {
			_, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Receipt, error) { return tx.Receipt(fmt.Sprint("r", i)) })
			if gone := errors.Is(err, storage.ErrNotFound); gone != (i < 3) {
				t.Errorf("receipt r%d: err %v", i, err)
			}
		}
		if n, _ := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) { return tx.PruneReceipts(testrecords.T0.Add(150 * time.Minute)) }); n != 0 {
			t.Errorf("second prune removed %d", n)
		}
	})
}

func testHeartbeat(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		if hb, err := storage.Read(t.Context(), db, func(tx storage.Tx) (time.Time, error) { return tx.Heartbeat("bot") }); err != nil || !hb.IsZero() {
			t.Fatalf("first heartbeat = %v, %v", hb, err)
		}
		db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutHeartbeat("bot", testrecords.T0) })
		db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutHeartbeat("play", testrecords.T0.Add(time.Hour)) })
		if hb, _ := storage.Read(t.Context(), db, func(tx storage.Tx) (time.Time, error) { return tx.Heartbeat("bot") }); !hb.Equal(testrecords.T0) {
			t.Errorf("heartbeat = %v", hb)
		}
	})
}
