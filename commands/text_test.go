package commands

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

func TestTruncate(t *testing.T) {
	for _, tt := range []struct {
		s    string
		max  int
		u    Unit
		want string
	}{
		{"", 5, UTF16, ""},
		{"abc", 3, UTF16, "abc"},
		{"abcd", 3, UTF16, "abc"},
		{"abc", 0, UTF16, ""},
		{"abc", -1, Bytes, ""},
		{"héllo", 2, Bytes, "h"},        // é is two bytes: not split
		{"héllo", 3, Bytes, "hé"},       // ...and kept whole when it fits
		{"héllo", 2, UTF16, "hé"},       // one UTF-16 unit
		{"a♞b", 3, Bytes, "a"},          // ♞ is three bytes
		{"a♞b", 2, UTF16, "a♞"},         // one unit
		{"a😀b", 2, UTF16, "a"},          // an emoji is two units (a surrogate pair)
		{"a😀b", 3, UTF16, "a😀"},         // ...
		{"a😀b", 2, Runes, "a😀"},         // one code point
		{"a😀b", 4, Bytes, "a"},          // four bytes
		{"a\xffb", 2, UTF16, "a\uFFFD"}, // invalid UTF-8 becomes U+FFFD
		{"a\xffb", 10, Bytes, "a\uFFFDb"},
	} {
		if got := Truncate(tt.s, tt.max, tt.u); got != tt.want {
			t.Errorf("Truncate(%q, %d, %d) = %q, want %q", tt.s, tt.max, tt.u, got, tt.want)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, tt := range []struct {
		s    string
		max  int
		u    Unit
		want string
	}{
		{"abc", 3, UTF16, "abc"},
		{"abcd", 3, UTF16, "ab…"},
		{"abcd", 3, Bytes, "abc"}, // the ellipsis takes three bytes: no room left
		{"abcdef", 5, Bytes, "ab…"},
		{"Magnus Carlsen the Great", 20, Runes, "Magnus Carlsen the …"},
		{"😀😀😀", 4, UTF16, "😀…"},
		{"a\xffbcd", 3, Runes, "a\uFFFD…"},
	} {
		got := Shorten(tt.s, tt.max, tt.u)
		if got != tt.want {
			t.Errorf("Shorten(%q, %d, %d) = %q, want %q", tt.s, tt.max, tt.u, got, tt.want)
		}
	}
}

func TestLength(t *testing.T) {
	for _, tt := range []struct {
		s              string
		utf16, r, byts int
	}{
		{"", 0, 0, 0}, {"abc", 3, 3, 3}, {"é", 1, 1, 2}, {"😀", 2, 1, 4}, {"\xff", 1, 1, 3},
	} {
		if got := [3]int{Length(tt.s, UTF16), Length(tt.s, Runes), Length(tt.s, Bytes)}; got != [3]int{tt.utf16, tt.r, tt.byts} {
			t.Errorf("Length(%q) = %v (UTF-16, runes, bytes), want %v", tt.s, got, [3]int{tt.utf16, tt.r, tt.byts})
		}
	}
}

func TestCapitalize(t *testing.T) {
	for in, want := range map[string]string{"": "", "game over": "Game over", "élan": "Élan", "1-0": "1-0", "\xffx": "\xffx", "Ok": "Ok"} {
		if got := capitalize(in); got != want {
			t.Errorf("capitalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzTruncate: Truncate and Shorten never yield invalid UTF-8, never exceed the
// limit, keep a prefix of the (valid) input, and cut only what does not fit.
func FuzzTruncate(f *testing.F) {
	for _, s := range []string{"", "hello", "héllo wörld", "a😀b😀c", "\xff\xfe", "♔♕♖♗♘♙", "e\u0301"} {
		for _, max := range []int{0, 1, 2, 3, 5, 100} {
			f.Add(s, max, uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, s string, max int, unit uint8) {
		u := Unit(unit % 3)
		if max > 1<<16 || max < -1<<16 {
			max %= 1 << 16
		}
		valid := strings.ToValidUTF8(s, "\uFFFD")
		got := Truncate(s, max, u)
		if !utf8.ValidString(got) {
			t.Fatalf("Truncate(%q, %d, %d) = %q: invalid UTF-8", s, max, u, got)
		}
		if n := Length(got, u); n > max && got != "" {
			t.Fatalf("Truncate(%q, %d, %d) = %q: length %d over the limit", s, max, u, got, n)
		}
		if !strings.HasPrefix(valid, got) {
			t.Fatalf("Truncate(%q, %d, %d) = %q: not a prefix", s, max, u, got)
		}
		if rest := valid[len(got):]; rest != "" {
			// Cut only what does not fit: the next character would go over.
			r, _ := utf8.DecodeRuneInString(rest)
			if Length(got, u)+u.width(r) <= max {
				t.Fatalf("Truncate(%q, %d, %d) = %q: %q would still fit", s, max, u, got, r)
			}
		}
		short := Shorten(s, max, u)
		if !utf8.ValidString(short) {
			t.Fatalf("Shorten(%q, %d, %d) = %q: invalid UTF-8", s, max, u, short)
		}
		if n := Length(short, u); n > max && short != "" {
			t.Fatalf("Shorten(%q, %d, %d) = %q: length %d over the limit", s, max, u, short, n)
		}
		kept := strings.TrimSuffix(short, ellipsis)
		if short == valid {
			kept = short
		}
		if !strings.HasPrefix(valid, kept) {
			t.Fatalf("Shorten(%q, %d, %d) = %q: does not keep a prefix", s, max, u, short)
		}
		if Length(valid, u) <= max && short != valid {
			t.Fatalf("Shorten(%q, %d, %d) = %q: cut what fits", s, max, u, short)
		}
	})
}

// A long display name of two-byte letters is cut for the store between two letters.
func TestStoragePlayerCutsNamesAtCharacters(t *testing.T) {
	for _, name := range []string{strings.Repeat("é", 200), "a" + strings.Repeat("😀", 100)} {
		p := storagePlayer(&discordgo.User{ID: "1", GlobalName: name})
		if !utf8.ValidString(p.Name) || len(p.Name) > storage.MaxNameLen || !strings.HasPrefix(name, p.Name) || len(p.Name) < storage.MaxNameLen-3 {
			t.Errorf("name of %d bytes stored as %q (%d bytes)", len(name), p.Name, len(p.Name))
		}
	}
}

func TestColorName(t *testing.T) {
	if w, b := colorName(chesscore.White), colorName(chesscore.Black); w != "White" || b != "Black" {
		t.Errorf("colorName = %q, %q; want White, Black", w, b)
	}
}
