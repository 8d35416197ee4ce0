// pngenc.go: a paletted PNG writer with a deflate coder made for boards.
//
// A board is runs of one colour and rows that repeat the row above, so the coder
// looks for exactly two matches at each byte: the byte before (a run) and the byte one
// row up. The longer one wins; otherwise the byte is a literal. The tokens are then
// coded in one dynamic-Huffman block. This is several times faster than a general
// deflate at its fastest level and about as small on boards.

package render

import (
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"math/bits"
	"slices"
	"sync"
)

const (
	minMatch   = 3
	maxMatch   = 258
	numLitLen  = 286 // literals, end of block, length codes
	numDist    = 30
	endOfBlock = 256
	matchFlag  = 1 << 31
)

// Length code tables, by match length.
var (
	lenSym   [maxMatch + 1]uint16
	lenExtra [maxMatch + 1]uint8 // number of extra bits
	lenBase  [maxMatch + 1]uint16
)

func init() {
	for l := minMatch; l <= maxMatch; l++ {
		x := l - minMatch
		switch {
		case l == maxMatch:
			lenSym[l], lenExtra[l], lenBase[l] = 285, 0, maxMatch
		case x < 8:
			lenSym[l], lenExtra[l], lenBase[l] = uint16(257+x), 0, uint16(l)
		default:
			n := bits.Len(uint(x)) - 1
			hi := (x >> (n - 2)) & 3
			lenSym[l] = uint16(257 + 4*(n-1) + hi)
			lenExtra[l] = uint8(n - 2)
			lenBase[l] = uint16(minMatch + (4+hi)<<(n-2))
		}
	}
}

// distCode returns the deflate distance symbol, its number of extra bits and its base.
func distCode(d int) (sym, extra, base int) {
	if d <= 4 {
		return d - 1, 0, d
	}
	x := d - 1
	n := bits.Len(uint(x)) - 1
	hi := (x >> (n - 1)) & 1
	return 2*n + hi, n - 1, (2+hi)<<(n-1) + 1
}

// pngCoder holds the buffers of one encoding; pooled.
type pngCoder struct {
	raw    []byte   // scanlines, each a filter byte (0, none) and the row
	tokens []uint32 // a literal byte, or matchFlag | distance<<9 | length
	out    []byte
	acc    uint64 // pending bits, least significant first
	nacc   uint
}

var pngCoders = sync.Pool{New: func() any { return new(pngCoder) }}

// writePalettedPNG encodes img as an 8-bit paletted PNG.
func writePalettedPNG(w io.Writer, img *image.Paletted) error {
	b := img.Bounds()
	if err := checkPNG(b.Dx(), b.Dy(), img.Palette); err != nil {
		return err
	}
	c := pngCoders.Get().(*pngCoder)
	defer pngCoders.Put(c)
	dst := c.canvas(b.Dx(), b.Dy(), img.Palette)
	for y := 0; y < b.Dy(); y++ {
		copy(dst.Pix[dst.PixOffset(0, y):dst.PixOffset(0, y)+b.Dx()], img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):])
	}
	return c.encode(w, dst)
}

func checkPNG(width, height int, pal color.Palette) error {
	if width == 0 || height == 0 || len(pal) == 0 || len(pal) > 256 {
		return fmt.Errorf("encode png: %dx%d image with %d colours", width, height, len(pal))
	}
	return nil
}

// canvas returns a paletted image whose rows are the coder's scanlines, so that a
// picture drawn into it is encoded without another copy.
func (c *pngCoder) canvas(width, height int, pal color.Palette) *image.Paletted {
	stride := width + 1
	c.raw = slices.Grow(c.raw[:0], stride*height)[:stride*height]
	for y := 0; y < height; y++ {
		c.raw[y*stride] = 0 // filter: none
	}
	return &image.Paletted{Pix: c.raw[1:], Stride: stride, Rect: image.Rect(0, 0, width, height), Palette: pal}
}

// encode writes the picture in the coder's scanlines (see canvas) as a PNG.
func (c *pngCoder) encode(w io.Writer, img *image.Paletted) error {
	width, height := img.Rect.Dx(), img.Rect.Dy()
	stride := width + 1
	c.out = append(c.out[:0], "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, colour type 3 (palette)
	c.chunk("IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(img.Palette))
	var trns []byte
	for i, col := range img.Palette {
		r, g, bl, a := col.RGBA()
		if a != 0xffff {
			// PNG palettes are not premultiplied.
			if a != 0 {
				r, g, bl = r*0xffff/a, g*0xffff/a, bl*0xffff/a
			}
			for len(trns) < i {
				trns = append(trns, 0xff)
			}
			trns = append(trns, byte(a>>8))
		}
		plte = append(plte, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	c.chunk("PLTE", plte)
	if trns != nil {
		c.chunk("tRNS", trns)
	}
	start := len(c.out)
	c.out = append(c.out, 0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x78, 0x01) // zlib header, fastest
	c.deflate(stride)
	c.out = binary.BigEndian.AppendUint32(c.out, adler32.Checksum(c.raw))
	binary.BigEndian.PutUint32(c.out[start:], uint32(len(c.out)-start-8))
	c.out = binary.BigEndian.AppendUint32(c.out, crc32.ChecksumIEEE(c.out[start+4:]))
	c.chunk("IEND", nil)
	if _, err := w.Write(c.out); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	return nil
}

// chunk appends a PNG chunk.
func (c *pngCoder) chunk(kind string, data []byte) {
	start := len(c.out)
	c.out = binary.BigEndian.AppendUint32(c.out, uint32(len(data)))
	c.out = append(c.out, kind...)
	c.out = append(c.out, data...)
	c.out = binary.BigEndian.AppendUint32(c.out, crc32.ChecksumIEEE(c.out[start+4:]))
}

// matchLen returns how many bytes from i equal those from j, up to limit.
func matchLen(p []byte, i, j, limit int) int {
	n := 0
	for n+8 <= limit {
		if x := binary.LittleEndian.Uint64(p[i+n:]) ^ binary.LittleEndian.Uint64(p[j+n:]); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for n < limit && p[i+n] == p[j+n] {
		n++
	}
	return n
}

// deflate appends c.raw as one final dynamic-Huffman deflate block.
func (c *pngCoder) deflate(stride int) {
	p := c.raw
	n := len(p)
	c.tokens = c.tokens[:0]
	var litFreq [numLitLen]int
	var distFreq [numDist]int
	// Only two distances occur: 1 (a run) and stride (the row above).
	upSym, upExtra, upBase := distCode(stride)
	for i := 0; i < n; {
		limit := min(maxMatch, n-i)
		best, dist := 0, 0
		if i >= stride && p[i] == p[i-stride] {
			best, dist = matchLen(p, i, i-stride, limit), stride
		}
		if best < limit && i >= 1 && p[i] == p[i-1] {
			if l := matchLen(p, i, i-1, limit); l > best {
				best, dist = l, 1
			}
		}
		if best >= minMatch {
			c.tokens = append(c.tokens, matchFlag|uint32(dist)<<9|uint32(best))
			litFreq[lenSym[best]]++
			if dist == 1 {
				distFreq[0]++
			} else {
				distFreq[upSym]++
			}
			i += best
			continue
		}
		c.tokens = append(c.tokens, uint32(p[i]))
		litFreq[p[i]]++
		i++
	}
	litFreq[endOfBlock]++

	litLen := huffmanLengths(litFreq[:], 15)
	distLen := huffmanLengths(distFreq[:], 15)
	litCodes, distCodes := canonicalCodes(litLen), canonicalCodes(distLen)

	c.acc, c.nacc = 0, 0
	c.bits(1, 1) // final block
	c.bits(2, 2) // dynamic Huffman
	c.writeTrees(litLen, distLen)
	for _, t := range c.tokens {
		if t&matchFlag == 0 {
			c.bits(uint64(litCodes[t]), uint(litLen[t]))
			continue
		}
		l, d := int(t&0x1ff), int(t>>9&0xffff)
		s := lenSym[l]
		c.bits(uint64(litCodes[s]), uint(litLen[s]))
		if e := lenExtra[l]; e > 0 {
			c.bits(uint64(l-int(lenBase[l])), uint(e))
		}
		if d == 1 {
			c.bits(uint64(distCodes[0]), uint(distLen[0]))
			continue
		}
		c.bits(uint64(distCodes[upSym]), uint(distLen[upSym]))
		if upExtra > 0 {
			c.bits(uint64(d-upBase), uint(upExtra))
		}
	}
	c.bits(uint64(litCodes[endOfBlock]), uint(litLen[endOfBlock]))
	c.flushBits()
}

// codeLengthOrder is the order in which the code-length code's lengths are sent.
var codeLengthOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// writeTrees writes the header of a dynamic block: the two code length tables, run-length
// coded with the code-length alphabet.
func (c *pngCoder) writeTrees(litLen, distLen []uint8) {
	nlit := numLitLen
	for nlit > 257 && litLen[nlit-1] == 0 {
		nlit--
	}
	ndist := numDist
	for ndist > 1 && distLen[ndist-1] == 0 {
		ndist--
	}
	lengths := append(append(make([]uint8, 0, nlit+ndist), litLen[:nlit]...), distLen[:ndist]...)
	// Run-length code the lengths: symbols 0-15 are lengths, 16 repeats the previous
	// 3-6 times, 17 and 18 are runs of 3-10 and 11-138 zeros.
	type clSym struct{ sym, extra, nextra uint8 }
	var syms []clSym
	var freq [19]int
	add := func(s, extra, nextra uint8) {
		syms = append(syms, clSym{s, extra, nextra})
		freq[s]++
	}
	for i := 0; i < len(lengths); {
		v := lengths[i]
		r := 1
		for i+r < len(lengths) && lengths[i+r] == v {
			r++
		}
		i += r
		if v == 0 {
			for r >= 11 {
				k := min(r, 138)
				add(18, uint8(k-11), 7)
				r -= k
			}
			if r >= 3 {
				add(17, uint8(r-3), 3)
				r = 0
			}
		} else {
			add(v, 0, 0)
			r--
			for r >= 3 {
				k := min(r, 6)
				add(16, uint8(k-3), 2)
				r -= k
			}
		}
		for ; r > 0; r-- {
			add(v, 0, 0)
		}
	}
	clLen := huffmanLengths(freq[:], 7)
	clCode := canonicalCodes(clLen)
	nclen := 19
	for nclen > 4 && clLen[codeLengthOrder[nclen-1]] == 0 {
		nclen--
	}
	c.bits(uint64(nlit-257), 5)
	c.bits(uint64(ndist-1), 5)
	c.bits(uint64(nclen-4), 4)
	for _, s := range codeLengthOrder[:nclen] {
		c.bits(uint64(clLen[s]), 3)
	}
	for _, s := range syms {
		c.bits(uint64(clCode[s.sym]), uint(clLen[s.sym]))
		if s.nextra > 0 {
			c.bits(uint64(s.extra), uint(s.nextra))
		}
	}
}

// bits appends the low n bits of v, least significant first.
func (c *pngCoder) bits(v uint64, n uint) {
	c.acc |= v << c.nacc
	c.nacc += n
	if c.nacc >= 32 {
		c.out = binary.LittleEndian.AppendUint32(c.out, uint32(c.acc))
		c.acc >>= 32
		c.nacc -= 32
	}
}

// flushBits writes the pending bits, padding the last byte with zeros.
func (c *pngCoder) flushBits() {
	for c.nacc > 0 {
		c.out = append(c.out, byte(c.acc))
		c.acc >>= 8
		c.nacc -= min(c.nacc, 8)
	}
}

// huffmanLengths returns code lengths, at most maxBits, for symbols with the given
// frequencies (0 means unused). At least two symbols always get a code, so that every
// code is complete as decoders want.
func huffmanLengths(freq []int, maxBits int) []uint8 {
	f := slices.Clone(freq)
	used := 0
	for _, x := range f {
		if x > 0 {
			used++
		}
	}
	for i := 0; used < 2 && i < len(f); i++ {
		if f[i] == 0 {
			f[i] = 1
			used++
		}
	}
	for {
		lengths := huffmanTree(f)
		if slices.Max(lengths) <= uint8(maxBits) {
			return lengths
		}
		// Too deep: flatten the frequencies and try again.
		for i, x := range f {
			if x > 0 {
				f[i] = max(1, x/2)
			}
		}
	}
}

// huffmanTree returns the depth of each used symbol in a Huffman tree of freq.
func huffmanTree(freq []int) []uint8 {
	type node struct {
		freq        int
		left, right int // children; -1 for leaves
		sym         int
	}
	var nodes []node
	for s, x := range freq {
		if x > 0 {
			nodes = append(nodes, node{freq: x, left: -1, right: -1, sym: s})
		}
	}
	slices.SortStableFunc(nodes, func(a, b node) int { return a.freq - b.freq })
	// Two queues: the sorted leaves and the internal nodes, made in increasing order.
	leaves := len(nodes)
	li, ii := 0, leaves
	pick := func() int {
		if li < leaves && (ii >= len(nodes) || nodes[li].freq <= nodes[ii].freq) {
			li++
			return li - 1
		}
		ii++
		return ii - 1
	}
	for len(nodes)-leaves < leaves-1 {
		a := pick()
		b := pick()
		nodes = append(nodes, node{freq: nodes[a].freq + nodes[b].freq, left: a, right: b, sym: -1})
	}
	lengths := make([]uint8, len(freq))
	var walk func(i int, depth uint8)
	walk = func(i int, depth uint8) {
		if nodes[i].left < 0 {
			lengths[nodes[i].sym] = max(depth, 1)
			return
		}
		walk(nodes[i].left, depth+1)
		walk(nodes[i].right, depth+1)
	}
	walk(len(nodes)-1, 0)
	return lengths
}

// canonicalCodes returns the canonical deflate codes for the lengths, bit-reversed
// so that they can be written least significant bit first.
func canonicalCodes(lengths []uint8) []uint16 {
	var count [16]int
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [16]int
	code := 0
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	codes := make([]uint16, len(lengths))
	for s, l := range lengths {
		if l == 0 {
			continue
		}
		codes[s] = bits.Reverse16(uint16(next[l])) >> (16 - l)
		next[l]++
	}
	return codes
}
