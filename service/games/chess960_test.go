package games

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// TestChess960Games plays Chess960 on both backends: a game started at a chosen number
// with both castlings (typed as the king onto its rook and as O-O-O), a challenge whose
// position is drawn when it is made, and the bad requests refused with nothing written.
func TestChess960Games(t *testing.T) {
	for _, be := range []struct {
		name string
		open func(t *testing.T) storage.Store
	}{
		{"bolt", func(t *testing.T) storage.Store {
			return storagetest.OpenFile(t, filepath.Join(t.TempDir(), "gambit.db"), &bolt.Options{NoSync: true})
		}},
		{"postgres", func(t *testing.T) storage.Store { return storagetest.OpenPostgres(t) }},
	} {
		t.Run(be.name, func(t *testing.T) {
			db := be.open(t)
			s, err := New(db, Options{Clock: timers.NewManualClock(t0), Notifier: &Recorder{}, Logger: quietLogger(),
				Rand: func() uint64 { return 960*7 + 446 }})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			res, err := s.StartGame(ctx, StartRequest{RequestID: "start", GuildID: "g", ChannelID: "c", White: alice, Black: bob,
				Control: "5+3", Variant: chesscore.Chess960, Position: 446})
			if err != nil {
				t.Fatal(err)
			}
			g := res.Game
			if g.Variant != chesscore.Chess960 || g.StartFEN != "rnnqkbbr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKBBR w KQkq - 0 1" {
				t.Fatalf("game %s from %q", g.Variant, g.StartFEN)
			}
			for i, mv := range strings.Fields("e3 Na6 Be2 Nb6 f4 d5 Bf2 Qd6 e1h1 O-O-O") {
				who := alice
				if i%2 == 1 {
					who = bob
				}
				if _, err := s.Move(ctx, MoveRequest{Action: Action{RequestID: "m" + mv, GameID: g.ID, UserID: who.ID}, Move: mv}); err != nil {
					t.Fatalf("%s: %v", mv, err)
				}
			}
			after, err := s.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if san := strings.Join(after.SAN, " "); !strings.HasSuffix(san, "O-O O-O-O") {
				t.Errorf("SAN %s", san)
			}
			if fen := after.Position.FEN(); fen != "2kr1bbr/ppp1pppp/nn1q4/3p4/5P2/4P3/PPPPBBPP/RNNQ1RK1 w - - 4 6" {
				t.Errorf("position %s", fen)
			}
			if pgn := strings.Join(strings.Fields(after.PGN()), " "); !strings.Contains(pgn, `[Variant "Chess960"]`) || !strings.Contains(pgn, "5. O-O {") || !strings.Contains(pgn, "5... O-O-O {") {
				t.Errorf("PGN:\n%s", pgn)
			}

			// A challenge draws its position when it is made (Rand: 960*7+446 is 446).
			cr, err := s.CreateChallenge(ctx, ChallengeRequest{RequestID: "ch", GuildID: "g", ChannelID: "c", From: alice, Control: "5+3",
				Variant: chesscore.Chess960, Position: RandomPosition})
			if err != nil {
				t.Fatal(err)
			}
			if c := cr.Challenge; c.Variant != chesscore.Chess960 || c.StartFEN != g.StartFEN {
				t.Errorf("challenge %s from %q", c.Variant, c.StartFEN)
			}
			acc, err := s.AcceptChallenge(ctx, ChallengeAction{RequestID: "acc", ChallengeID: cr.Challenge.ID, User: bob})
			if err != nil {
				t.Fatal(err)
			}
			if ag := acc.Game; ag.Variant != chesscore.Chess960 || ag.StartFEN != g.StartFEN {
				t.Errorf("accepted game %s from %q", ag.Variant, ag.StartFEN)
			}

			// Bad requests: a clear error, and no game.
			open, _ := storage.Read(ctx, db, storage.Tx.OpenGames)
			for _, c := range []struct {
				r    StartRequest
				want string
			}{
				{StartRequest{Variant: chesscore.Chess960, Position: 960}, "numbers its positions 0 to 959"},
				{StartRequest{Variant: chesscore.Chess960, Position: -5}, "numbers its positions 0 to 959"},
				{StartRequest{FEN: "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"}, "Chess960 position"},
				{StartRequest{Variant: chesscore.Chess960, FEN: "r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1"}, `bad letter "X"`},
				{StartRequest{Variant: 7}, "want standard or chess960"},
			} {
				c.r.RequestID, c.r.White, c.r.Black = "bad", alice, bob
				if _, err := s.StartGame(ctx, c.r); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%+v: %v, want ErrBadRequest saying %q", c.r, err, c.want)
				}
			}
			if now, _ := storage.Read(ctx, db, storage.Tx.OpenGames); len(now) != len(open) {
				t.Errorf("%d open games after the bad requests, %d before", len(now), len(open))
			}
		})
	}
}
