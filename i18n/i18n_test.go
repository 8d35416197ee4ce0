package i18n

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/feature/plural"
)

// TestCatalogComplete checks every language has every English message, with the same
// placeholders, every plural form its language's CLDR rules use for whole numbers (and
// plural forms exactly where English has them), and no key English lacks.
func TestCatalogComplete(t *testing.T) {
	cat := mustCatalog()
	en := cat.texts[English]
	if len(en) == 0 {
		t.Fatal("the English catalog is empty")
	}
	for _, lang := range languages {
		texts := cat.texts[lang.Code]
		needed := neededForms(lang)
		for key, m := range en {
			tr, ok := texts[key]
			if !ok {
				t.Errorf("%s: %q is not translated", lang.Code, key)
				continue
			}
			if got, want := tr.placeholders(), m.placeholders(); !slices.Equal(got, want) {
				t.Errorf("%s: %q has placeholders %v, English %v", lang.Code, key, got, want)
			}
			if (tr.forms == nil) != (m.forms == nil) {
				t.Errorf("%s: %q: plural forms in one language and not the other", lang.Code, key)
				continue
			}
			for _, f := range needed {
				if _, ok := tr.forms[f]; tr.forms != nil && !ok {
					t.Errorf("%s: %q lacks the plural form %d its language uses", lang.Code, key, f)
				}
			}
		}
		for key := range texts {
			if _, ok := en[key]; !ok {
				t.Errorf("%s: %q is not an English message", lang.Code, key)
			}
		}
	}
}

// neededForms are the plural forms a language's cardinal rules give whole numbers up
// to 1000.
func neededForms(lang Language) []plural.Form {
	var out []plural.Form
	for n := 0; n <= 1000; n++ {
		f := plural.Cardinal.MatchPlural(lang.Tag, n, 0, 0, 0, 0)
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// TestCatalogTextsClean checks texts for stray whitespace and unbalanced Markdown, which
// translations pick up easily.
func TestCatalogTextsClean(t *testing.T) {
	cat := mustCatalog()
	for code, texts := range cat.texts {
		for key, m := range texts {
			all := [][]segment{m.text}
			for _, segs := range m.forms {
				all = append(all, segs)
			}
			for _, segs := range all {
				s := render(segs)
				if s != strings.TrimSpace(s) {
					t.Errorf("%s: %q starts or ends with whitespace: %q", code, key, s)
				}
				if strings.Count(s, "`")%2 != 0 {
					t.Errorf("%s: %q has an unclosed code span: %q", code, key, s)
				}
				if strings.Count(s, "**")%2 != 0 {
					t.Errorf("%s: %q has unclosed bold: %q", code, key, s)
				}
			}
		}
	}
}

func render(segs []segment) string {
	var b strings.Builder
	for _, s := range segs {
		if s.placeholder != "" {
			b.WriteString("{" + s.placeholder + "}")
		} else {
			b.WriteString(s.lit)
		}
	}
	return b.String()
}

func TestFor(t *testing.T) {
	for _, tc := range []struct{ locale, want string }{
		{"", English},
		{"en-US", English},
		{"en-GB", English},
		{"de", "de"},
		{"DE", "de"},
		{"pt-BR", "pt-BR"},
		{"pt-PT", "pt-BR"},
		{"es-ES", "es-ES"},
		{"es-419", "es-ES"},
		{"uk", "uk"},
		{"ja", English},
		{"zh-CN", English},
		{"x\x00y", English},
		{PseudoCode, PseudoCode},
	} {
		if got := For(tc.locale).Code(); got != tc.want {
			t.Errorf("For(%q) = %s, want %s", tc.locale, got, tc.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		locale string
		d      time.Duration
		want   string
	}{
		{"en-US", 51 * time.Hour, "2 days 3 hours"},
		{"en-US", 24*time.Hour + 30*time.Second, "1 day"},
		{"en-US", 90 * time.Second, "1 minute 30 seconds"},
		{"en-US", 0, "0 seconds"},
		{"en-US", 400 * time.Millisecond, "0 seconds"},
		{"en-US", -5 * time.Minute, "5 minutes"},
		{"de", 51 * time.Hour, "2 Tage und 3 Stunden"},
		{"ru", 51 * time.Hour, "2 дня 3 часа"},
		{"ru", 5*24*time.Hour + 21*time.Hour, "5 дней 21 час"},
		{"ru", 22 * time.Minute, "22 минуты"},
		{"uk", 11 * time.Minute, "11 хвилин"},
		{"pl", 22*time.Hour + 25*time.Minute, "22 godziny 25 minut"},
		{"pl", time.Hour, "1 godzina"},
		{"fr", 0, "0 seconde"},
		{"fr", 2 * time.Hour, "2 heures"},
		{"tr", 3 * time.Hour, "3 saat"},
		{"es-ES", 25 * time.Hour, "1 día y 1 hora"},
		{"it", 61 * time.Minute, "1 ora e 1 minuto"},
		{"pt-BR", 2 * time.Minute, "2 minutos"},
	} {
		if got := For(tc.locale).Duration(tc.d); got != tc.want {
			t.Errorf("%s: Duration(%v) = %q, want %q", tc.locale, tc.d, got, tc.want)
		}
	}
}

func TestNumbersAndDates(t *testing.T) {
	day := time.Date(2026, time.December, 7, 21, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		locale       string
		number, date string
		decimal      string
	}{
		{"en-US", "12,345", "December 7, 2026", "1.5"},
		{"de", "12.345", "7. Dezember 2026", "1,5"},
		{"fr", "12\u00a0345", "7 décembre 2026", "1,5"},
		{"ru", "12\u00a0345", "7 декабря 2026 г.", "1,5"},
		{"pt-BR", "12.345", "7 de dezembro de 2026", "1,5"},
		{"uk", "12\u00a0345", "7 грудня 2026 р.", "1,5"},
	} {
		l := For(tc.locale)
		if got := l.Number(12345); got != tc.number {
			t.Errorf("%s: Number = %q, want %q", tc.locale, got, tc.number)
		}
		if got := l.Date(day); got != tc.date {
			t.Errorf("%s: Date = %q, want %q", tc.locale, got, tc.date)
		}
		if got := l.Decimal(1.5, 1); got != tc.decimal {
			t.Errorf("%s: Decimal = %q, want %q", tc.locale, got, tc.decimal)
		}
	}
}

// TestFallbackToEnglish checks a message a language lacks is written in English and
// reported, and a key the catalog lacks is never shown.
func TestFallbackToEnglish(t *testing.T) {
	load()
	partial := &Localizer{lang: &Language{Code: "test-partial", Tag: languages[0].Tag}, texts: map[string]message_{}, printer: english.printer}
	got := partial.T("duration.join", "a", "x", "b", "y")
	if got != "x y" {
		t.Errorf("missing translation = %q, want the English %q", got, "x y")
	}
	if !slices.Contains(Missing(), "test-partial duration.join") {
		t.Errorf("Missing() = %v, want it to report test-partial duration.join", Missing())
	}
	unknown := For("de").T("no.such.key")
	if strings.Contains(unknown, "no.such.key") || unknown == "" {
		t.Errorf("an unknown key was written as %q", unknown)
	}
	if !slices.Contains(Missing(), " no.such.key") {
		t.Errorf("Missing() = %v, want it to report the unknown key", Missing())
	}
}

func TestPlaceholders(t *testing.T) {
	m := message_{text: parseText("{who} played {san} {not a name} {}")}
	got := m.write(For("en-US"), []any{"who", "Ann", "san", "Nf3"})
	if want := "Ann played Nf3 {not a name} {}"; got != want {
		t.Errorf("write = %q, want %q", got, want)
	}
	if got := m.write(For("en-US"), []any{"who"}); got != "{who} played {san} {not a name} {}" {
		t.Errorf("write without values = %q", got)
	}
}

func TestPseudo(t *testing.T) {
	p := Pseudo()
	got := p.T("duration.join", "a", "x", "b", "y")
	if !strings.HasPrefix(got, PseudoOpen) || !strings.HasSuffix(got, PseudoClose) {
		t.Errorf("pseudo text %q is not marked", got)
	}
	en := Default().T("error.text_missing")
	ps := p.T("error.text_missing")
	if utf8.RuneCountInString(ps) < utf8.RuneCountInString(en)*14/10 {
		t.Errorf("pseudo text %q is not 40%% wider than %q", ps, en)
	}
	if a := Accent("Use `/move e4` or /board, see <@123> and https://example.test/a"); a != "Ûšé `/move e4` öŕ /board, šéé <@123> áñð https://example.test/a" {
		t.Errorf("Accent = %q", a)
	}
}

func FuzzParseText(f *testing.F) {
	for _, s := range []string{"", "{n}", "a {b} c", "{", "}", "{{x}}", "{a b}", "{é}", "x{y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs := parseText(s)
		if got := render(segs); got != s {
			t.Fatalf("parseText(%q) renders back as %q", s, got)
		}
		for _, seg := range segs {
			if seg.placeholder != "" && !isName(seg.placeholder) {
				t.Fatalf("placeholder %q is no name", seg.placeholder)
			}
		}
	})
}

func FuzzParseFile(f *testing.F) {
	data, _ := files.ReadFile("locales/en-US.json")
	f.Add(data)
	f.Add([]byte(`{"a": {"one": "x", "other": "y"}}`))
	f.Add([]byte(`{"a": {"one": "x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		texts, err := parseFile(data)
		if err != nil {
			return
		}
		for key, m := range texts {
			if m.forms != nil {
				if _, ok := m.forms[plural.Other]; !ok {
					t.Fatalf("%q accepted without its other form", key)
				}
			}
			_ = m.write(For("ru"), []any{"n", 3})
		}
	})
}

// TestCommandFiles: every language but English has a command file, read without error,
// and a malformed one is refused with the key at fault.
func TestCommandFiles(t *testing.T) {
	langs := CommandLanguages()
	if len(langs) != len(languages)-1 || slices.ContainsFunc(langs, func(l Language) bool { return l.Code == English }) {
		t.Fatalf("CommandLanguages = %v, want every language but English", langs)
	}
	for _, l := range langs {
		if len(CommandKeys(l.Code)) == 0 {
			t.Errorf("%s: no command texts", l.Code)
		}
	}
	if s, ok := CommandText("de", "board.name"); !ok || s != "brett" {
		t.Errorf("CommandText(de, board.name) = %q, %v; want brett", s, ok)
	}
	if _, ok := CommandText(English, "board.name"); ok {
		t.Error("English has command texts; its texts are the definitions")
	}
	for _, bad := range []string{`{"a.name": ""}`, `{"a.name": " x"}`, `{" a": "x"}`, `{"a": {"one": "x"}}`, `[`} {
		if _, err := parseCommandFile([]byte(bad)); err == nil {
			t.Errorf("parseCommandFile(%s) accepted", bad)
		}
	}
}
