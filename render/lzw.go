// lzw.go: the variable-width LZW coder of GIF image data, tuned for board frames.
//
// A board frame is mostly long runs of one colour. The coder keeps, for each byte value,
// the codes of its runs in order, so a run is matched in one step instead of byte by
// byte; everything else goes through a small open-addressing hash of the dictionary that
// stays in cache.

package render

import (
	"encoding/binary"
	"io"
	"math/bits"
	"sync"
)

const (
	lzwLitWidth = 8                // bits per literal: palette indices
	lzwClear    = 1 << lzwLitWidth // the clear code
	lzwEnd      = lzwClear + 1     // the end-of-information code
	lzwMaxCode  = 1<<12 - 1        // GIF codes are at most 12 bits wide
	lzwHashBits = 13               // dictionary slots: twice as many as codes
)

// lzwCoder compresses one stream at a time. It is not safe for concurrent use; take
// one from lzwPool.
type lzwCoder struct {
	// table maps key = prefix<<8 | byte to a code: each slot is (key+1)<<12 | code, or 0.
	table [1 << lzwHashBits]uint64

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

var lzwPool = sync.Pool{New: func() any { return new(lzwCoder) }}

// reset starts an empty dictionary.
func (c *lzwCoder) reset() {
	clear(c.table[:])
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

// slot returns the table slot of key: the one holding it, or the empty one where it
// would go.
func (c *lzwCoder) slot(key uint32) *uint64 {
	want := uint64(key+1) << 12
	for h := key * 0x9e3779b1 >> (32 - lzwHashBits); ; h = (h + 1) & (1<<lzwHashBits - 1) {
		e := &c.table[h]
		if *e == 0 || *e&^lzwMaxCode == want {
			return e
		}
	}
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
	key := prefix<<8 | uint32(b)
	*c.slot(key) = uint64(key+1)<<12 | uint64(c.next)
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
		t := runLength(pix[i:], b, min(n-i, c.runLen[b]))
		prefix := c.runCode(b, t)
		i += t
		// Extend it through the dictionary.
		for i < n {
			e := *c.slot(prefix<<8 | uint32(pix[i]))
			if e == 0 {
				break
			}
			prefix = uint32(e & lzwMaxCode)
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

// runLength returns how many of the first limit bytes of p (limit ≥ 1, p[0] == b) are b.
func runLength(p []byte, b byte, limit int) int {
	pat := uint64(b) * 0x0101010101010101
	t := 1
	for t+8 <= limit {
		if x := binary.LittleEndian.Uint64(p[t:]) ^ pat; x != 0 {
			return t + bits.TrailingZeros64(x)/8
		}
		t += 8
	}
	for t < limit && p[t] == b {
		t++
	}
	return t
}
