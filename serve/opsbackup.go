// opsbackup.go: GET /backup on the ops endpoint: the live backup, behind a bearer
// token, staged in a file so that no client holds a transaction of the store.

package serve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// backupChunk is how much of a backup is written under one write deadline.
const backupChunk = 256 << 10

// serveBackup answers GET /backup: 421 for a foreign Host, 404 when no token is configured, 401 without the
// right bearer token, 503 while another backup is being sent, else the copy.
//
// The copy is first written to a temporary file beside the store (one read transaction
// of the store, at disk speed), then sent from that file: a slow or stalled client
// holds a file, never a transaction that would keep the store from growing (a bbolt
// file cannot be remapped while a read transaction is open, so every commit that needs
// room would wait for the client). Each chunk of the answer has its own write deadline
// (Stall): a client that stops reading is cut off.
func (s *opsServer) serveBackup(w http.ResponseWriter, r *http.Request) {
	if !s.hostAllowed(r.Host) {
		http.Error(w, "421 misdirected request: /backup answers only to localhost, an IP address or the host of metrics.address",
			http.StatusMisdirectedRequest)
		s.Log.Warn("backup over http refused: foreign Host header", "host", r.Host, "remote", r.RemoteAddr)
		return
	}
	if s.BackupToken == "" || s.Backup == nil {
		http.Error(w, "404 the live backup is off: set backups.endpoint_token (or GAMBIT_BACKUPS_ENDPOINT_TOKEN) "+
			"and send it as \"Authorization: Bearer <token>\"", http.StatusNotFound)
		return
	}
	if !s.authorized(r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="gambit backup"`)
		http.Error(w, "401 unauthorized: send backups.endpoint_token as \"Authorization: Bearer <token>\"", http.StatusUnauthorized)
		s.Log.Warn("backup over http refused: no or wrong token", "remote", r.RemoteAddr)
		return
	}
	if !s.sending.CompareAndSwap(false, true) {
		w.Header().Set("Retry-After", "60")
		http.Error(w, "503 another backup is being sent: try again when it is done", http.StatusServiceUnavailable)
		return
	}
	defer s.sending.Store(false)

	f, size, err := s.stage(r.Context())
	if err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			http.Error(w, "501 this store cannot be copied by the bot: back up its database with the database's own tool "+
				"(pg_dump for PostgreSQL)", http.StatusNotImplemented)
		} else {
			http.Error(w, "500 the backup failed: see the bot's log", http.StatusInternalServerError)
		}
		s.Log.Error("backup over http", "err", err)
		return
	}
	defer f.Close()

	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", `attachment; filename="gambit-backup.db"`)
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	h.Set("Cache-Control", "no-store")
	start := time.Now()
	sent, err := s.send(w, f)
	if err != nil {
		s.Log.Warn("backup over http not delivered: the client was too slow or went away",
			"err", err, "bytes", sent, "of", size, "remote", r.RemoteAddr)
		return
	}
	s.Log.Info("backup over http", "bytes", sent, "remote", r.RemoteAddr, "took", time.Since(start).Round(time.Millisecond))
}

// authorized compares a request's Authorization header with the token in constant
// time (of their hashes, so the token's length does not show either).
func (s *opsServer) authorized(header string) bool {
	scheme, tok, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(sum[:], s.tokenSum[:]) == 1
}

// stage copies the store into a temporary file (readable by the bot's user only) and
// returns it open at its start, with its size. The file is removed from its directory
// at once where the system allows (it lives until closed), else when closed.
func (s *opsServer) stage(ctx context.Context) (io.ReadCloser, int64, error) {
	f, err := os.CreateTemp(s.StageDir, ".gambit-backup-*.partial")
	if err != nil {
		return nil, 0, fmt.Errorf("stage the backup: %w", err)
	}
	name := f.Name()
	unlinked := os.Remove(name) == nil
	ok := false
	defer func() {
		if !ok {
			f.Close()
			if !unlinked {
				os.Remove(name)
			}
		}
	}()
	n, err := s.Backup(ctx, f)
	if err != nil {
		return nil, 0, fmt.Errorf("stage the backup in %s: %w", s.StageDir, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, 0, fmt.Errorf("stage the backup: %w", err)
	}
	ok = true
	if unlinked {
		return f, n, nil
	}
	return &removeOnClose{File: f}, n, nil
}

// removeOnClose is a staged file that could not be unlinked while open.
type removeOnClose struct{ *os.File }

// Close closes the file and removes it.
func (f *removeOnClose) Close() error {
	err := f.File.Close()
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	return err
}

// send writes the staged file to w chunk by chunk, each under a write deadline of
// Stall, and returns the bytes written.
func (s *opsServer) send(w http.ResponseWriter, f io.Reader) (int64, error) {
	rc := http.NewResponseController(w)
	buf := make([]byte, backupChunk)
	var sent int64
	for {
		n, rerr := io.ReadFull(f, buf)
		if n > 0 {
			if err := rc.SetWriteDeadline(time.Now().Add(s.Stall)); err != nil {
				return sent, fmt.Errorf("set the write deadline: %w", err)
			}
			m, err := w.Write(buf[:n])
			sent += int64(m)
			if err != nil {
				return sent, err
			}
		}
		switch {
		case rerr == io.EOF || rerr == io.ErrUnexpectedEOF:
			if err := rc.Flush(); err != nil {
				return sent, err
			}
			return sent, nil
		case rerr != nil:
			return sent, fmt.Errorf("read the staged backup: %w", rerr)
		}
	}
}
