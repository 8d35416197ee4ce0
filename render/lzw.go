// lzw.go: the variable-width LZW coder of GIF image data, tuned for board frames.
//
// A board frame is long runs of a few colours, so the coder keeps its dictionary as a
// dense table indexed by (prefix code, next byte) instead of a hash: one load per input
// byte. Entries carry the epoch of the dictionary they belong to, so clearing the
// dictionary is one increment, not a 4 MiB wipe.

package render

import (
	"io"
	"sync"
)

const (
	lzwLitWidth = 8                     // bits per literal: palette indices
	lzwClear    = 1 << lzwLitWidth      // the clear code
	lzwEnd      = lzwClear + 1          // the end-of-information code
	lzwMaxCode  = 1<<12 - 1             // GIF codes are at most 12 bits wide
	lzwTable    = (lzwMaxCode + 1) << 8 // one slot per (prefix, byte)
)

// lzwCoder compresses one stream at a time. It is not safe for concurrent use; take
// one from lzwPool.
type lzwCoder struct {
	table []uint32 // epoch<<12 | code for (prefix<<8 | byte); other epochs are empty
	epoch uint32

	w     io.Writer
	err   error
	bits  uint64 // pending output bits, least significant first
	nbits uint
	block [256]byte // block[0] is the length of the sub-block being filled
	width uint      // current code width in bits
	next  uint32    // next code to assign

	// chain[b] holds the codes of bb, bbb, ... in this dictionary; runLen[b] is the
	// length of the longest run of b with a code (1: only the literal).
	chain  [256][]uint16
	runLen [256]int
}

var lzwPool = sync.Pool{New: func() any { return &lzwCoder{table: make([]uint32, lzwTable)} }}

// reset starts an empty dictionary.
func (c *lzwCoder) reset() {
	c.epoch++
	if c.epoch >= 1<<20 { // epoch<<12 must fit in 32 bits
		clear(c.table)
		c.epoch = 1
	}
	c.width = lzwLitWidth + 1
	c.next = lzwEnd + 1
	for b := range c.chain {
		c.chain[b] = c.chain[b][:0]
		c.runLen[b] = 1
	}
}

// emit writes one code at the current width.
func (c *lzwCoder) emit(code uint32) {
	c.bits |= uint64(code) << c.nbits
	c.nbits += c.width
	for c.nbits >= 8 {
		n := c.block[0] + 1
		c.block[n] = byte(c.bits)
		c.block[0] = n
		if n == 255 {
			c.flushBlock()
		}
		c.bits >>= 8
		c.nbits -= 8
	}
}

// flushBlock writes the pending sub-block, if any.
func (c *lzwCoder) flushBlock() {
	n := int(c.block[0])
	if n == 0 {
		return
	}
	if c.err == nil {
		_, c.err = c.w.Write(c.block[:n+1])
	}
	c.block[0] = 0
}

// runCode returns the code of t copies of byte b; the dictionary must hold it.
func (c *lzwCoder) runCode(b byte, t int) uint32 {
	if t == 1 {
		return uint32(b)
	}
	return uint32(c.chain[b][t-2])
}

// add assigns the next code to prefix followed by b, emitting a clear code and starting
// over when the dictionary is full.
func (c *lzwCoder) add(prefix uint32, b byte) {
	if prefix == c.runCode(b, c.runLen[b]) {
		// prefix is the longest run of b known: this entry makes it one longer.
		c.chain[b] = append(c.chain[b], uint16(c.next))
		c.runLen[b]++
	}
	c.table[prefix<<8|uint32(b)] = c.epoch<<12 | c.next
	c.next++
	if c.next > 1<<c.width && c.width < 12 {
		c.width++
	}
	if c.next > lzwMaxCode {
		c.emit(lzwClear)
		c.reset()
	}
}

// encode writes pix as GIF image data: the minimum code size, the LZW codes in
// sub-blocks, and the block terminator.
//
// The output is what the textbook greedy coder gives. Runs of one byte, which make up
// most of a board, are matched in one step: the codes of b, bb, bbb, ... that the
// dictionary holds are kept in order in chain[b], so a run jumps straight to the
// longest one that fits instead of walking the dictionary byte by byte.
func (c *lzwCoder) encode(w io.Writer, pix []byte) error {
	c.w, c.err, c.bits, c.nbits, c.block[0] = w, nil, 0, 0, 0
	if _, err := w.Write([]byte{lzwLitWidth}); err != nil {
		return err
	}
	c.reset()
	c.emit(lzwClear)
	n := len(pix)
	for i := 0; i < n; {
		// A new match starts at i.
		b := pix[i]
		limit := min(n-i, c.runLen[b])
		t := 1
		for t < limit && pix[i+t] == b {
			t++
		}
		prefix := c.runCode(b, t)
		i += t
		// Extend it through the dictionary.
		tag := c.epoch << 12
		for i < n {
			e := c.table[prefix<<8|uint32(pix[i])]
			if e&^lzwMaxCode != tag {
				break
			}
			prefix = e & lzwMaxCode
			i++
		}
		c.emit(prefix)
		if i < n {
			c.add(prefix, pix[i])
		} else if c.next == 1<<c.width && c.width < 12 {
			// The decoder adds one more entry before it reads the end code.
			c.width++
		}
	}
	c.emit(lzwEnd)
	if c.nbits > 0 {
		// Pad the last byte with zero bits.
		save := c.width
		c.width = 8 - c.nbits
		c.emit(0)
		c.width = save
	}
	c.flushBlock()
	if c.err == nil {
		_, c.err = w.Write([]byte{0})
	}
	return c.err
}
