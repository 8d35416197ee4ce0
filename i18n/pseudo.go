package i18n

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/feature/plural"
)

// pseudo.go: the pseudo-locale, English with every letter accented, widened by 40% and
// held between ⟦ and ⟧, so that a test reading an answer in it can tell catalog text
// (marked) from text that bypassed the catalog (unmarked), and sees texts overflow
// Discord's limits as long translations would.

// PseudoOpen and PseudoClose mark a pseudo-localized text.
const (
	PseudoOpen  = "⟦"
	PseudoClose = "⟧"
	// pseudoPad widens a pseudo text; a swung dash, which is no Markdown.
	pseudoPad = "⁓"
)

// accents maps ASCII letters to accented look-alikes.
var accents = map[rune]rune{
	'a': 'á', 'b': 'ƀ', 'c': 'ç', 'd': 'ð', 'e': 'é', 'f': 'ƒ', 'g': 'ĝ', 'h': 'ĥ', 'i': 'î',
	'j': 'ĵ', 'k': 'ķ', 'l': 'ļ', 'm': 'ɱ', 'n': 'ñ', 'o': 'ö', 'p': 'þ', 'q': 'ǫ', 'r': 'ŕ',
	's': 'š', 't': 'ţ', 'u': 'û', 'v': 'ṽ', 'w': 'ŵ', 'x': 'ẋ', 'y': 'ý', 'z': 'ž',
	'A': 'Å', 'B': 'Ɓ', 'C': 'Ç', 'D': 'Ð', 'E': 'É', 'F': 'Ƒ', 'G': 'Ĝ', 'H': 'Ĥ', 'I': 'Î',
	'J': 'Ĵ', 'K': 'Ķ', 'L': 'Ļ', 'M': 'Ṁ', 'N': 'Ñ', 'O': 'Ö', 'P': 'Þ', 'Q': 'Ǫ', 'R': 'Ŕ',
	'S': 'Š', 'T': 'Ţ', 'U': 'Û', 'V': 'Ṽ', 'W': 'Ŵ', 'X': 'Ẋ', 'Y': 'Ý', 'Z': 'Ž',
}

// pseudoTexts derives the pseudo-locale's messages from English.
func pseudoTexts(en map[string]message_) map[string]message_ {
	out := make(map[string]message_, len(en))
	for key, m := range en {
		p := message_{text: pseudoSegments(m.text)}
		if m.forms != nil {
			p = message_{forms: map[plural.Form][]segment{}}
			for f, segs := range m.forms {
				p.forms[f] = pseudoSegments(segs)
			}
		}
		out[key] = p
	}
	return out
}

// pseudoSegments accents the literals of a text, keeps its placeholders, and adds the
// marks and the widening.
func pseudoSegments(segs []segment) []segment {
	if segs == nil {
		return nil
	}
	size := 0
	out := []segment{{lit: PseudoOpen}}
	for _, s := range segs {
		if s.placeholder != "" {
			out = append(out, s)
			continue
		}
		size += utf8.RuneCountInString(s.lit)
		out = append(out, segment{lit: Accent(s.lit)})
	}
	pad := (size*2 + 4) / 5 // 40%, rounded up
	if pad < 1 {
		pad = 1
	}
	return append(out, segment{lit: " " + strings.Repeat(pseudoPad, pad) + PseudoClose})
}

// Accent returns s with its ASCII letters accented, except inside what must stay as it
// is: `code`, <mentions and timestamps>, URLs and /command names.
func Accent(s string) string {
	var b strings.Builder
	keep := false // inside a span kept as it is
	closer := 'x' // the rune that ends the kept span
	wordKept := false
	prev := ' '
	for i, r := range s {
		switch {
		case keep:
			b.WriteRune(r)
			if r == closer {
				keep = false
			}
			prev = r
			continue
		case r == '`':
			keep, closer = true, '`'
		case r == '<':
			keep, closer = true, '>'
		case isSpace(prev) && (r == '/' || strings.HasPrefix(s[i:], "http://") || strings.HasPrefix(s[i:], "https://")):
			wordKept = true
		}
		if isSpace(r) {
			wordKept = false
		}
		if a, ok := accents[r]; ok && !keep && !wordKept {
			b.WriteRune(a)
		} else {
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '(' }
