// tt.go: the transposition table: a cache of search results keyed by Zobrist hash.

package engine

import cc "github.com/gambitchess/gambit/chesscore"

// Bound says how a stored score relates to the true value of the position.
type bound uint8

const (
	boundNone  bound = iota
	boundUpper       // the score is at most this (every move failed low)
	boundLower       // the score is at least this (a move failed high)
	boundExact       // the score is exact (a principal variation node)
)

// ttEntry is one slot: the full key and the packed data.
//
//	data bits  0-15  move
//	          16-31  score (int16, mate distances counted from the node)
//	          32-47  static evaluation (int16)
//	          48-55  depth (int8, 0 for quiescence)
//	          56-57  bound
//	          58-63  generation (search number, modulo 64)
type ttEntry struct {
	key  uint64
	data uint64
}

// ttBucket holds two entries that share an index: the first prefers depth, the second
// takes whatever the first rejects.
type ttBucket [2]ttEntry

// ttHit is what a probe found.
type ttHit struct {
	move  cc.Move
	score Score
	eval  Score
	depth int
	bound bound
}

// table is the transposition table. Its size is a power of two buckets.
type table struct {
	buckets []ttBucket
	mask    uint64
	gen     uint8
}

// bucketBytes is the size of one bucket in bytes.
const bucketBytes = 32

// newTable returns a table of about mb megabytes (at least one bucket).
func newTable(mb int) *table {
	n := uint64(max(mb, 1)) << 20 / bucketBytes
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	return &table{buckets: make([]ttBucket, size), mask: size - 1}
}

// clear empties the table.
func (t *table) clear() {
	clear(t.buckets)
	t.gen = 0
}

// newSearch starts a new generation so old entries are replaced first.
func (t *table) newSearch() { t.gen = (t.gen + 1) & 63 }

func (t *table) bucket(key uint64) *ttBucket { return &t.buckets[key&t.mask] }

// probe looks key up.
func (t *table) probe(key uint64) (ttHit, bool) {
	b := t.bucket(key)
	for i := range b {
		if b[i].key == key && b[i].data != 0 {
			d := b[i].data
			return ttHit{
				move:  cc.Move(d),
				score: Score(int16(d >> 16)),
				eval:  Score(int16(d >> 32)),
				depth: int(int8(d >> 48)),
				bound: bound(d >> 56 & 3),
			}, true
		}
	}
	return ttHit{}, false
}

// store records a result. A missing move keeps the move already stored for the key.
func (t *table) store(key uint64, m cc.Move, score, eval Score, depth int, bd bound) {
	b := t.bucket(key)
	slot := &b[0]
	switch {
	case b[0].key == key:
	case b[1].key == key:
		slot = &b[1]
	default:
		// Replace the first slot if it is shallower or stale, else the second.
		old := b[0].data
		oldGen := uint8(old >> 58)
		if int(int8(old>>48)) > depth && oldGen == t.gen {
			slot = &b[1]
		}
	}
	if m == cc.NullMove && slot.key == key {
		m = cc.Move(slot.data)
	}
	slot.key = key
	slot.data = uint64(m) | uint64(uint16(int16(score)))<<16 | uint64(uint16(int16(eval)))<<32 |
		uint64(uint8(int8(depth)))<<48 | uint64(bd)<<56 | uint64(t.gen)<<58
}

// hashfull returns how full the table is in permille, sampling the first thousand buckets
// for entries of the current search.
func (t *table) hashfull() int {
	n := min(len(t.buckets), 500)
	used := 0
	for i := 0; i < n; i++ {
		for j := range t.buckets[i] {
			if d := t.buckets[i][j].data; d != 0 && uint8(d>>58) == t.gen {
				used++
			}
		}
	}
	return used * 1000 / (2 * n)
}
