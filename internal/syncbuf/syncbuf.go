// Package syncbuf is a bytes.Buffer that goroutines may share: the log sink that a test
// reads while the servers, sessions and engines it started are still writing to it.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer collects what is written to it; its methods may be called from any goroutine.
// The zero value is an empty buffer ready to use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p to the buffer; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
