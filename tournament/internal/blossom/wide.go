package blossom

// MaxWords is the largest weight width, in 64-bit words, that a Graph accepts.
const MaxWords = 8

// Wide is an unsigned integer of up to MaxWords 64-bit words, least significant
// word first. Edge weights are built as bit fields of a Wide so that one
// maximum-weight matching optimises several criteria lexicographically.
type Wide [MaxWords]uint64

// SetBits ORs v into w starting at bit position pos. v must fit in 64 bits and
// the result must stay below MaxWords*64 bits.
func (w *Wide) SetBits(pos int, v uint64) {
	if v == 0 {
		return
	}
	word, off := pos/64, uint(pos%64)
	w[word] |= v << off
	if off != 0 && word+1 < MaxWords {
		w[word+1] |= v >> (64 - off)
	}
}

// AddBits adds v<<pos to w.
func (w *Wide) AddBits(pos int, v uint64) {
	var x Wide
	x.SetBits(pos, v)
	*w = add(*w, x, MaxWords)
}

// Bits extracts width bits (at most 64) starting at pos.
func (w Wide) Bits(pos, width int) uint64 {
	word, off := pos/64, uint(pos%64)
	v := w[word] >> off
	if off != 0 && word+1 < MaxWords {
		v |= w[word+1] << (64 - off)
	}
	if width < 64 {
		v &= (1 << uint(width)) - 1
	}
	return v
}

func add(a, b Wide, n int) Wide {
	var c uint64
	for i := 0; i < n; i++ {
		s := a[i] + b[i]
		c1 := uint64(0)
		if s < a[i] {
			c1 = 1
		}
		s2 := s + c
		if s2 < s {
			c1 = 1
		}
		a[i] = s2
		c = c1
	}
	return a
}

func sub(a, b Wide, n int) Wide {
	var br uint64
	for i := 0; i < n; i++ {
		d := a[i] - b[i]
		b1 := uint64(0)
		if a[i] < b[i] {
			b1 = 1
		}
		d2 := d - br
		if d < br {
			b1 = 1
		}
		a[i] = d2
		br = b1
	}
	return a
}

// cmp compares a and b as unsigned numbers: -1, 0 or 1.
func cmp(a, b Wide, n int) int {
	for i := n - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func half(a Wide, n int) Wide {
	for i := 0; i < n; i++ {
		a[i] >>= 1
		if i+1 < n {
			a[i] |= a[i+1] << 63
		}
	}
	return a
}

func isZero(a Wide, n int) bool {
	for i := 0; i < n; i++ {
		if a[i] != 0 {
			return false
		}
	}
	return true
}
