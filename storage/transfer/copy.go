// copy.go: copying a whole store into another, whatever their backends (gambit
// migrate, and the PostgreSQL backend's backups), and comparing the two.

package transfer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Lister is a transaction that lists every record of each family, in key order. Each
// backend's Tx is one. fn must not use the transaction it is called from (the rows may
// still be streaming): it may write to another store.
type Lister interface {
	storage.Tx
	EachGame(fn func(*storage.Game) error) error
	EachChallenge(fn func(*storage.Challenge) error) error
	EachUser(fn func(storage.User) error) error
	EachReceipt(fn func(*storage.Receipt) error) error
	EachHeartbeat(fn func(instance string, at time.Time) error) error
	EachLadderPlayer(fn func(storage.LadderPlayer) error) error
	EachRatedResult(fn func(storage.RatedResult) error) error
	EachDaily(fn func(*storage.Daily) error) error
	EachPuzzlePlayer(fn func(storage.PuzzlePlayer) error) error
	EachAttempt(fn func(storage.PuzzleAttempt) error) error
	EachEngineGame(fn func(storage.EngineGame) error) error
	EachTournament(fn func(*storage.Tournament) error) error
	EachTournamentGame(fn func(storage.TournamentGame) error) error
	EachPlan(fn func(*storage.Plan) error) error
	EachVoteGame(fn func(*storage.VoteGame) error) error
	EachVacation(fn func(*storage.Vacation) error) error
	EachLinkedAccount(fn func(*storage.LinkedAccount) error) error
}

// Counts are the records of a store by family, in the order Copy copies them.
type Counts []FamilyCount

// FamilyCount is the number of records of one family.
type FamilyCount struct {
	Family string
	N      int
}

// String lists the counts: "games 12, challenges 3, ...".
func (c Counts) String() string {
	var b bytes.Buffer
	for i, f := range c {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", f.Family, f.N)
	}
	return b.String()
}

// family is one record family: how to list it from a source and write one record to a
// destination. Families come in an order that writes what a record refers to first
// (games before the engine's side of them).
type family struct {
	name string
	// each calls put with every record of the family in src, as a function that
	// writes it through a destination transaction.
	each func(src Lister, put func(records int, write func(tx storage.Tx) error) error) error
}

// families are every record family of the store.
var families = []family{
	{"guild settings", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		gs, err := src.Guilds()
		if err != nil {
			return err
		}
		for _, s := range gs {
			if err := put(1, func(tx storage.Tx) error { return tx.PutGuildSettings(s) }); err != nil {
				return err
			}
		}
		return nil
	}},
	{"users", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachUser(func(u storage.User) error { return put(1, func(tx storage.Tx) error { return tx.PutUser(u) }) })
	}},
	{"games", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachGame(func(g *storage.Game) error {
			return put(1, func(tx storage.Tx) error {
				c := g.Clone()
				if c.Version > 0 { // PutGame increments it back: the copy keeps the version
					c.Version--
				}
				return tx.PutGame(c)
			})
		})
	}},
	{"challenges", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachChallenge(func(c *storage.Challenge) error {
			return put(1, func(tx storage.Tx) error { return tx.PutChallenge(c.Clone()) })
		})
	}},
	{"receipts", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachReceipt(func(r *storage.Receipt) error {
			return put(1, func(tx storage.Tx) error { c := *r; return tx.PutReceipt(&c) })
		})
	}},
	{"heartbeats", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachHeartbeat(func(instance string, at time.Time) error {
			return put(1, func(tx storage.Tx) error { return tx.PutHeartbeat(instance, at) })
		})
	}},
	{"ladder players", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachLadderPlayer(func(p storage.LadderPlayer) error {
			return put(1, func(tx storage.Tx) error { return tx.PutLadderPlayer(p) })
		})
	}},
	{"rated results", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachRatedResult(func(r storage.RatedResult) error {
			return put(1, func(tx storage.Tx) error {
				added, err := tx.AddRatedResult(r)
				if err == nil && !added {
					err = fmt.Errorf("rated result of game %d: stored twice", r.GameID)
				}
				return err
			})
		})
	}},
	{"puzzles", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		// In batches: AddPuzzles writes a batch in one statement.
		var batch []*storage.Puzzle
		flush := func() error {
			b := batch
			batch = nil
			return put(len(b), func(tx storage.Tx) error {
				added, err := tx.AddPuzzles(b)
				if err == nil && added != len(b) {
					err = fmt.Errorf("%d of %d puzzles were stored already", len(b)-added, len(b))
				}
				return err
			})
		}
		err := src.EachPuzzle(func(p *storage.Puzzle) error {
			batch = append(batch, p)
			if len(batch) >= copyBatch {
				return flush()
			}
			return nil
		})
		if err == nil && len(batch) > 0 {
			err = flush()
		}
		return err
	}},
	{"daily puzzles", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachDaily(func(d *storage.Daily) error { return put(1, func(tx storage.Tx) error { return tx.PutDaily(d) }) })
	}},
	{"puzzle players", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachPuzzlePlayer(func(p storage.PuzzlePlayer) error {
			return put(1, func(tx storage.Tx) error { return tx.PutPuzzlePlayer(p) })
		})
	}},
	{"puzzle attempts", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachAttempt(func(a storage.PuzzleAttempt) error {
			return put(1, func(tx storage.Tx) error { return tx.PutPuzzleAttempt(a) })
		})
	}},
	{"engine games", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachEngineGame(func(e storage.EngineGame) error {
			return put(1, func(tx storage.Tx) error { return tx.PutEngineGame(e) })
		})
	}},
	{"tournaments", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachTournament(func(t *storage.Tournament) error {
			return put(1, func(tx storage.Tx) error {
				c := *t
				if c.Version > 0 { // PutTournament increments it back
					c.Version--
				}
				return tx.PutTournament(&c)
			})
		})
	}},
	{"tournament games", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachTournamentGame(func(tg storage.TournamentGame) error {
			return put(1, func(tx storage.Tx) error { return tx.PutTournamentGame(tg) })
		})
	}},
	{"conditional plans", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachPlan(func(p *storage.Plan) error {
			return put(1, func(tx storage.Tx) error { return tx.PutPlan(p) })
		})
	}},
	{"vote games", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachVoteGame(func(v *storage.VoteGame) error {
			return put(1, func(tx storage.Tx) error { return tx.PutVoteGame(v.Clone()) })
		})
	}},
	{"vacations", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachVacation(func(v *storage.Vacation) error {
			return put(1, func(tx storage.Tx) error { return tx.PutVacation(v.Clone()) })
		})
	}},
	{"linked accounts", func(src Lister, put func(int, func(storage.Tx) error) error) error {
		return src.EachLinkedAccount(func(a *storage.LinkedAccount) error {
			return put(1, func(tx storage.Tx) error { return tx.PutLinkedAccount(a.Clone()) })
		})
	}},
}

// copyBatch is how many records Copy writes per destination transaction.
const copyBatch = 2000

// Copy copies every record of src into dst, which must hold no games, puzzles or
// guild settings: ids, versions and encodings are kept, so dst reads as src did. src
// is read from one transaction (a snapshot: writers may go on); dst is written in
// transactions of copyBatch records, each through the ordinary writes of Tx, which
// validate every record and build dst's indexes. It returns what it copied.
func Copy(ctx context.Context, dst, src storage.Store) (Counts, error) {
	if err := mustBeEmpty(ctx, dst); err != nil {
		return nil, err
	}
	var counts Counts
	err := src.View(ctx, func(stx storage.Tx) error {
		d, ok := stx.(Lister)
		if !ok {
			return fmt.Errorf("copy: the source store (%T) cannot list its records", stx)
		}
		for _, f := range families {
			var pending []func(storage.Tx) error
			flush := func() error {
				if len(pending) == 0 {
					return nil
				}
				err := dst.Bulk(ctx, func(tx storage.Tx) error {
					for _, w := range pending {
						if err := w(tx); err != nil {
							return err
						}
					}
					return nil
				})
				pending = pending[:0]
				return err
			}
			n, records := 0, 0
			err := f.each(d, func(k int, w func(storage.Tx) error) error {
				n += k
				records += k
				pending = append(pending, w)
				if records >= copyBatch {
					records = 0
					return flush()
				}
				return nil
			})
			if err == nil {
				err = flush()
			}
			if err != nil {
				return fmt.Errorf("copy %s: %w", f.name, err)
			}
			counts = append(counts, FamilyCount{f.name, n})
		}
		return nil
	})
	return counts, err
}

// mustBeEmpty refuses a destination that holds records already.
func mustBeEmpty(ctx context.Context, st storage.Store) error {
	return st.View(ctx, func(tx storage.Tx) error {
		games, _, err := tx.CountGames()
		if err != nil {
			return err
		}
		puzzles, err := tx.CountPuzzles()
		if err != nil {
			return err
		}
		guilds, err := tx.Guilds()
		if err != nil {
			return err
		}
		if games+puzzles+len(guilds) > 0 {
			return fmt.Errorf("copy: the destination is not empty (%d games, %d puzzles, %d guilds' settings)", games, puzzles, len(guilds))
		}
		return nil
	})
}

// CountRecords counts every record of st by family.
func CountRecords(ctx context.Context, st storage.Store) (Counts, error) {
	var counts Counts
	err := st.View(ctx, func(tx storage.Tx) error {
		d, ok := tx.(Lister)
		if !ok {
			return fmt.Errorf("count: the store (%T) cannot list its records", tx)
		}
		for _, f := range families {
			n := 0
			if err := f.each(d, func(k int, _ func(storage.Tx) error) error { n += k; return nil }); err != nil {
				return fmt.Errorf("count %s: %w", f.name, err)
			}
			counts = append(counts, FamilyCount{f.name, n})
		}
		return nil
	})
	return counts, err
}

// ErrMismatch: two stores that should hold the same records do not.
var ErrMismatch = errors.New("the stores differ")

// CompareGames walks the games of a and b together, in id order, and fails with
// ErrMismatch at the first id one lacks or whose records differ (their encodings,
// versions aside); check, if set, is called with each game of b (gambit migrate replays
// it). It returns the number of games.
func CompareGames(ctx context.Context, a, b storage.Store, check func(*storage.Game) error) (int, error) {
	var ga []*storage.Game
	err := a.View(ctx, func(tx storage.Tx) error {
		d, ok := tx.(Lister)
		if !ok {
			return fmt.Errorf("compare: the store (%T) cannot list its records", tx)
		}
		return d.EachGame(func(g *storage.Game) error { ga = append(ga, g); return nil })
	})
	if err != nil {
		return 0, err
	}
	n := 0
	err = b.View(ctx, func(tx storage.Tx) error {
		d, ok := tx.(Lister)
		if !ok {
			return fmt.Errorf("compare: the store (%T) cannot list its records", tx)
		}
		return d.EachGame(func(g *storage.Game) error {
			if n >= len(ga) {
				return fmt.Errorf("%w: game %d is only in the copy", ErrMismatch, g.ID)
			}
			want := ga[n]
			n++
			if want.ID != g.ID {
				return fmt.Errorf("%w: game %d of the source is not in the copy (next there: %d)", ErrMismatch, want.ID, g.ID)
			}
			if !sameGame(want, g) {
				return fmt.Errorf("%w: game %d differs", ErrMismatch, g.ID)
			}
			if check != nil {
				if err := check(g); err != nil {
					return fmt.Errorf("game %d: %w", g.ID, err)
				}
			}
			return nil
		})
	})
	if err == nil && n < len(ga) {
		err = fmt.Errorf("%w: game %d of the source is not in the copy", ErrMismatch, ga[n].ID)
	}
	return n, err
}

// sameGame reports whether two game records encode alike, their versions aside (a
// record written before versions existed is copied as version 1).
func sameGame(a, b *storage.Game) bool {
	x, y := *a, *b
	x.Version, y.Version = 0, 0
	return bytes.Equal(codec.EncodeGame(&x), codec.EncodeGame(&y))
}

// SameCounts fails with ErrMismatch unless two counts are equal family by family.
func SameCounts(a, b Counts) error {
	if !slices.Equal(a, b) {
		return fmt.Errorf("%w: source %s; copy %s", ErrMismatch, a, b)
	}
	return nil
}
