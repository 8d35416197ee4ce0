// repeat.go: a large puzzle CSV made as it is read, for tests and benchmarks of imports.

// Package puzzletest helps the tests of the puzzle packages.
package puzzletest

import (
	"bytes"
	"fmt"
	"io"
)

// Repeat streams a CSV in the layout of csv (its header line, then n rows): the rows of
// csv again and again, each with its first column (the id) suffixed by the row's number,
// so every id is fresh. It makes each row as it is read, so a stream of millions of rows
// holds one row in memory.
func Repeat(csv []byte, n int) io.Reader {
	lines := bytes.Split(bytes.TrimSpace(csv), []byte("\n"))
	r := &repeater{n: n, pending: append(bytes.Clone(bytes.TrimRight(lines[0], "\r")), '\n')}
	for _, l := range lines[1:] {
		if l = bytes.TrimRight(l, "\r"); len(l) > 0 {
			r.rows = append(r.rows, l)
		}
	}
	if len(r.rows) == 0 {
		r.n = 0
	}
	return r
}

type repeater struct {
	rows    [][]byte
	n, i    int
	pending []byte
}

func (r *repeater) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.i >= r.n {
			return 0, io.EOF
		}
		row := r.rows[r.i%len(r.rows)]
		id, rest, _ := bytes.Cut(row, []byte(","))
		r.pending = fmt.Appendf(r.pending[:0], "%s%d,%s\n", id, r.i, rest)
		r.i++
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}
