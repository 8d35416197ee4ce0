package games

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

var crashRounds = flag.Int("crash.rounds", 4, "rounds of the crash test (each kills a child process with SIGKILL)")

// crashChildEnv names the store a re-executed test binary plays into as a crash child.
const crashChildEnv = "GAMBIT_CRASH_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	os.Exit(m.Run())
}

// crashChild plays random games in the store at path with concurrent movers, printing
// "ack GAME PLY UCI" for every move the service acknowledged, until it is killed.
func crashChild(path string) int {
	db, err := bolt.Open(path, &bolt.Options{LockTimeout: 5 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		return 1
	}
	s, err := New(db, Options{Instance: "crash"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		return 1
	}
	go s.Run(context.Background())
	var out sync.Mutex
	say := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		out.Lock()
		os.Stdout.WriteString(line) // unbuffered: written before the next move is tried
		out.Unlock()
	}
	live, _ := s.OpenGames(ctx)
	const movers = 8
	say("ready\n")
	var wg sync.WaitGroup
	for i := range movers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(i)))
			var id uint64
			if i < len(live) {
				id = live[i].ID
			}
			for {
				if id == 0 {
					res, err := s.StartGame(ctx, StartRequest{RequestID: fmt.Sprintf("start-%d-%d-%d", os.Getpid(), i, r.Uint64()),
						White: storage.Player{ID: "w" + strconv.Itoa(i), Name: "W"}, Black: storage.Player{ID: "b" + strconv.Itoa(i), Name: "B"},
						Control: "180+2"})
					if err != nil {
						fmt.Fprintln(os.Stderr, "crash child: start:", err)
						return
					}
					id = res.Game.ID
				}
				g, err := s.Game(ctx, id)
				if err != nil {
					fmt.Fprintln(os.Stderr, "crash child:", err)
					return
				}
				if !g.Live() {
					id = 0
					continue
				}
				user := g.Player(g.Turn()).ID
				if r.IntN(200) == 0 {
					s.Resign(ctx, Action{RequestID: fmt.Sprintf("resign-%d-%d", id, g.Ply()), GameID: id, UserID: user})
					continue
				}
				var ml chesscore.MoveList
				g.Position.LegalMoves(&ml)
				m := ml.Moves[r.IntN(ml.N)]
				res, err := s.Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprintf("move-%d-%d", id, g.Ply()), GameID: id, UserID: user, Expect: AtPly(g.Ply())}, Move: m.UCI()})
				if err != nil {
					fmt.Fprintln(os.Stderr, "crash child: move:", err)
					return
				}
				say("ack %d %d %s\n", id, res.Ply, m.UCI())
			}
		}()
	}
	wg.Wait()
	return 2 // the movers only stop on an error
}

// TestCrashLosesNoAcknowledgedMove kills a child process that plays concurrent games with
// SIGKILL at random moments, then checks that every move it acknowledged is in the store
// and that every stored game replays legally. -crash.rounds sets the number of kills.
func TestCrashLosesNoAcknowledgedMove(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test in -short mode")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	acked := map[uint64]map[int]string{} // game → ply → move
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	total := 0
	for round := range *crashRounds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		var readErr error
		go func() {
			defer close(lines)
			br := bufio.NewReader(stdout)
			for {
				line, err := br.ReadString('\n')
				if err != nil { // a partial last line was cut by the kill: not an ack
					if err != io.EOF {
						readErr = err
					}
					return
				}
				lines <- line
			}
		}()
		select {
		case l, ok := <-lines:
			if !ok || l != "ready\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("round %d: child did not start: %q %s", round, l, stderr.String())
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("round %d: child did not start: %s", round, stderr.String())
		}
		if round == 0 { // the running child holds the file: a second process fails fast
			start := time.Now()
			_, err := bolt.Open(path, &bolt.Options{LockTimeout: 200 * time.Millisecond})
			if !errors.Is(err, storage.ErrLocked) || time.Since(start) > 5*time.Second {
				t.Errorf("open while the child runs: %v after %v, want ErrLocked at once", err, time.Since(start))
			}
		}
		kill := time.After(time.Duration(150+r.IntN(600)) * time.Millisecond)
		n := 0
	collect:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break collect
				}
				recordAck(t, acked, l)
				n++
			case <-kill:
				cmd.Process.Kill() // SIGKILL
				kill = nil
			}
		}
		cmd.Wait()
		if readErr != nil {
			t.Fatal(readErr)
		}
		if n == 0 {
			t.Fatalf("round %d: no move acknowledged before the kill; child said: %s", round, stderr.String())
		}
		total += n
		verifyStore(t, path, acked)
		t.Logf("round %d: %d moves acknowledged before SIGKILL, all present", round, n)
	}
	t.Logf("%d rounds, %d acknowledged moves in %d games", *crashRounds, total, len(acked))
}

func recordAck(t *testing.T, acked map[uint64]map[int]string, line string) {
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != "ack" {
		t.Fatalf("child printed %q", line)
	}
	id, err1 := strconv.ParseUint(f[1], 10, 64)
	ply, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		t.Fatalf("child printed %q", line)
	}
	if acked[id] == nil {
		acked[id] = map[int]string{}
	}
	acked[id][ply] = f[3]
}

// verifyStore checks the store after a crash: its structure, every acknowledged move,
// and the replay of every game.
func verifyStore(t *testing.T, path string, acked map[uint64]map[int]string) {
	t.Helper()
	db := storagetest.OpenFile(t, path, nil)
	defer db.Close() // the next round's child opens the file
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	for id, plies := range acked {
		g, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
		if err != nil {
			t.Fatalf("game %d had acknowledged moves: %v", id, err)
		}
		for ply, mv := range plies {
			if ply > len(g.Moves) {
				t.Fatalf("game %d: acknowledged ply %d (%s) is missing; the store has %d plies", id, ply, mv, len(g.Moves))
			}
			if got := g.Moves[ply-1].UCI(); got != mv {
				t.Fatalf("game %d ply %d: store has %s, %s was acknowledged", id, ply, got, mv)
			}
		}
	}
	total, _ := storagetest.CountGames(t, db)
	for id := uint64(1); id <= uint64(total); id++ {
		g, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
		if err != nil {
			t.Fatalf("game %d: %v", id, err)
		}
		if _, err := Replay(g); err != nil {
			t.Fatal(err)
		}
	}
}
