package render

import (
	"bytes"
	"compress/lzw"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// lzwRoundTrip encodes pix with our coder and decodes it with the standard library's
// GIF-flavoured LZW reader, after removing the sub-block framing.
func lzwRoundTrip(t testing.TB, pix []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	c := lzwPool.Get().(*lzwCoder)
	defer lzwPool.Put(c)
	if err := c.encode(&buf, pix); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if len(data) < 2 || data[0] != lzwLitWidth {
		t.Fatalf("stream starts %v, want the minimum code size %d", data[:min(len(data), 2)], lzwLitWidth)
	}
	var codes []byte
	i := 1
	for {
		if i >= len(data) {
			t.Fatal("stream ends without a block terminator")
		}
		n := int(data[i])
		i++
		if n == 0 {
			break
		}
		if i+n > len(data) {
			t.Fatalf("sub-block of %d bytes overruns the stream", n)
		}
		codes = append(codes, data[i:i+n]...)
		i += n
	}
	if i != len(data) {
		t.Fatalf("%d bytes after the block terminator", len(data)-i)
	}
	r := lzw.NewReader(bytes.NewReader(codes), lzw.LSB, lzwLitWidth)
	defer r.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return out
}

func TestLZWRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n, alphabet int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(alphabet))
		}
		return b
	}
	runs := func(n int) []byte {
		var b []byte
		for len(b) < n {
			v, l := byte(rng.IntN(256)), 1+rng.IntN(300)
			b = append(b, bytes.Repeat([]byte{v}, l)...)
		}
		return b[:n]
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	cases := map[string][]byte{
		"empty":           {},
		"one":             {7},
		"two same":        {7, 7},
		"all bytes":       all,
		"long run":        bytes.Repeat([]byte{3}, 100000), // runs longer than any chain
		"random":          random(50000, 256),              // fills the dictionary many times
		"small alphabet":  random(50000, 4),
		"runs":            runs(200000),
		"width edge 255":  random(255, 256),
		"width edge 511":  random(511, 256),
		"width edge 4093": random(4093, 256),
	}
	for n := 250; n < 270; n++ {
		cases[fmt.Sprint("random ", n)] = random(n, 256)
	}
	for name, pix := range cases {
		if got := lzwRoundTrip(t, pix); !bytes.Equal(got, pix) {
			t.Errorf("%s: round trip of %d bytes gave %d different bytes", name, len(pix), len(got))
		}
	}
}

// The coder is the textbook greedy coder, so it compresses as well as the standard
// library's (which has no run shortcut), give or take the clear codes.
func TestLZWMatchesStandardSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var board []byte
	for len(board) < 1<<18 {
		v := byte(rng.IntN(8))
		board = append(board, bytes.Repeat([]byte{v}, 1+rng.IntN(64))...)
	}
	for name, pix := range map[string][]byte{
		"stripes": bytes.Repeat(append(bytes.Repeat([]byte{1}, 64), bytes.Repeat([]byte{2}, 64)...), 2048),
		"board":   board,
	} {
		var ours, std bytes.Buffer
		c := lzwPool.Get().(*lzwCoder)
		if err := c.encode(&ours, pix); err != nil {
			t.Fatal(err)
		}
		lzwPool.Put(c)
		w := lzw.NewWriter(&std, lzw.LSB, lzwLitWidth)
		w.Write(pix)
		w.Close()
		// Ours also carries one length byte per 255 and the code size and terminator.
		limit := std.Len() + std.Len()/255 + 3 + std.Len()/100
		if ours.Len() > limit {
			t.Errorf("%s: %d bytes coded in %d, the standard coder needs %d", name, len(pix), ours.Len(), std.Len())
		}
	}
}

func FuzzLZW(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"))
	f.Add(bytes.Repeat([]byte{0, 0, 0, 255, 255, 1}, 900))
	f.Fuzz(func(t *testing.T, pix []byte) {
		if got := lzwRoundTrip(t, pix); !bytes.Equal(got, pix) {
			t.Fatalf("round trip of %d bytes failed", len(pix))
		}
	})
}
