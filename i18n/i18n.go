// Package i18n is Gambit's catalog of user-visible text: every message a person reads
// (answers, errors, embeds, buttons, command names and descriptions, posts) has a key,
// an English text and a translation per shipped language, and is written out for one
// reader by a Localizer.
//
// # Using it
//
// Pick the reader's language from a Discord locale and write a message:
//
//	l := i18n.For(interaction.Locale)          // "de", "pt-BR", "" (English) ...
//	l.T("move.illegal", "san", "Nf3")          // "Der Zug Nf3 ist nicht erlaubt."
//	l.T("game.moves", "n", 3)                  // CLDR plural: "3 Züge"
//	l.Duration(51 * time.Hour)                 // "2 Tage 3 Stunden"
//	l.Number(12345)                            // "12.345"
//
// Arguments come in name, value pairs and fill the message's {name} placeholders.
// Numbers are written the reader's way (ints with grouping, floats with one decimal),
// durations as Duration writes them, anything else with fmt's %v. A message whose
// English text is an object of plural forms ({"one": ..., "other": ...}) chooses its
// form by the argument named n with the CLDR cardinal rules of the reader's language.
//
// # Adding a message
//
// Add the key and its English text to locales/en-US.json (keys are dotted, grouped by
// the command or concept: "move.illegal", "cmd.board.desc"), then the translation to
// every other file in locales/. TestCatalogComplete fails until every language has the
// key with the same placeholders and every plural form its language needs. A message
// missing from a language at run time falls back to English and is logged once (and
// listed by Missing), never shown as its key.
//
// # Adding a language
//
// Add its file locales/<discord-code>.json with every key, and a line to the languages
// table below (its Discord locale codes, its own name); docs/i18n.md walks through it.
//
// # The pseudo-locale
//
// Pseudo is a language made from English at load time: every letter accented and each
// text widened by 40% inside ⟦ ⟧ marks. A test that answers in it sees at once any text
// that did not come from the catalog (it has no marks) and any text that no longer fits
// Discord's limits once translated.
package i18n

import (
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Language is one shipped language.
type Language struct {
	// Code is the Discord locale code that names its catalog file (locales/<Code>.json).
	Code string
	// Discord lists every Discord locale code it answers, Code first.
	Discord []string
	// Name is the language's name in itself, for /settings language.
	Name string
	// Tag is the BCP 47 tag whose CLDR rules (plurals, numbers) it follows.
	Tag language.Tag
}

// English is the code of the source language, the fallback of every other.
const English = "en-US"

// PseudoCode is the locale code of the pseudo-locale, never sent by Discord: tests set it
// on an interaction to see every text through the catalog.
const PseudoCode = "en-XA"

// languages are the shipped languages, English first.
var languages = []Language{
	{Code: English, Discord: []string{"en-US", "en-GB"}, Name: "English", Tag: language.AmericanEnglish},
	{Code: "es-ES", Discord: []string{"es-ES", "es-419"}, Name: "Español", Tag: language.EuropeanSpanish},
	{Code: "pt-BR", Discord: []string{"pt-BR"}, Name: "Português do Brasil", Tag: language.BrazilianPortuguese},
	{Code: "fr", Discord: []string{"fr"}, Name: "Français", Tag: language.French},
	{Code: "de", Discord: []string{"de"}, Name: "Deutsch", Tag: language.German},
	{Code: "ru", Discord: []string{"ru"}, Name: "Русский", Tag: language.Russian},
	{Code: "tr", Discord: []string{"tr"}, Name: "Türkçe", Tag: language.Turkish},
	{Code: "pl", Discord: []string{"pl"}, Name: "Polski", Tag: language.Polish},
	{Code: "it", Discord: []string{"it"}, Name: "Italiano", Tag: language.Italian},
	{Code: "uk", Discord: []string{"uk"}, Name: "Українська", Tag: language.Ukrainian},
}

// Languages returns the shipped languages, English first (the pseudo-locale is not one).
func Languages() []Language {
	out := make([]Language, len(languages))
	for i, l := range languages {
		l.Discord = slices.Clone(l.Discord)
		out[i] = l
	}
	return out
}

// Supported reports whether code is a shipped language's code (Language.Code), the
// values /settings language stores.
func Supported(code string) bool {
	for _, l := range languages {
		if l.Code == code {
			return true
		}
	}
	return false
}

// Localizer writes messages in one language. The zero value is not usable; For returns
// one, and a Localizer is safe for concurrent use.
type Localizer struct {
	lang    *Language
	texts   map[string]message_
	printer *message.Printer
}

// byDiscord maps every Discord locale code (and a bare language subtag) to its Localizer.
var (
	loadOnce  sync.Once
	byDiscord map[string]*Localizer
	english   *Localizer
	pseudo    *Localizer
)

func load() {
	loadOnce.Do(func() {
		cat := mustCatalog()
		byDiscord = map[string]*Localizer{}
		for i := range languages {
			lang := &languages[i]
			l := &Localizer{lang: lang, texts: cat.texts[lang.Code], printer: message.NewPrinter(lang.Tag)}
			for _, c := range lang.Discord {
				byDiscord[strings.ToLower(c)] = l
			}
			base, _ := lang.Tag.Base()
			if _, taken := byDiscord[base.String()]; !taken {
				byDiscord[base.String()] = l
			}
		}
		english = byDiscord[strings.ToLower(English)]
		pseudoLang := &Language{Code: PseudoCode, Discord: []string{PseudoCode}, Name: "Pseudo", Tag: language.AmericanEnglish}
		pseudo = &Localizer{lang: pseudoLang, texts: pseudoTexts(english.texts), printer: english.printer}
		byDiscord[strings.ToLower(PseudoCode)] = pseudo
	})
}

// For returns the Localizer of a Discord locale code ("de", "pt-BR", "es-419"): the shipped
// language of that code, else of its language subtag ("en-AU" is English, "pt-PT" is
// Portuguese), else English. An empty or unknown code is English.
func For(locale string) *Localizer {
	load()
	key := strings.ToLower(strings.TrimSpace(locale))
	if l, ok := byDiscord[key]; ok {
		return l
	}
	if base, _, ok := strings.Cut(key, "-"); ok {
		if l, ok := byDiscord[base]; ok {
			return l
		}
	}
	return english
}

// Default is the English Localizer, for text written before anyone's language is known
// (the log, the command-line tools).
func Default() *Localizer { return For(English) }

// Pseudo is the pseudo-locale's Localizer (For(PseudoCode)).
func Pseudo() *Localizer { return For(PseudoCode) }

// Code is the language's code (Language.Code, or PseudoCode).
func (l *Localizer) Code() string { return l.lang.Code }

// Language is the language l writes.
func (l *Localizer) Language() Language { return *l.lang }

// Has reports whether key is a message of the catalog (in English, so in every language).
func Has(key string) bool {
	load()
	_, ok := english.texts[key]
	return ok
}

// T writes the message key with its placeholders filled from args, name-value pairs. A
// message this language lacks is written in English (and reported once); a key the
// catalog lacks altogether, a programming error that TestCatalogKeysUsed keeps out, is
// logged and written as a neutral apology rather than as the key.
func (l *Localizer) T(key string, args ...any) string {
	m, ok := l.texts[key]
	if !ok {
		if m, ok = english.texts[key]; !ok {
			reportUnknown(key)
			return l.T("error.text_missing")
		}
		reportMissing(l.lang.Code, key)
		return m.write(english, args)
	}
	return m.write(l, args)
}

// Number writes an integer the language's way ("12,345", "12.345", "12 345").
func (l *Localizer) Number(n int) string { return l.printer.Sprint(number.Decimal(n)) }

// Decimal writes f with the given number of decimals the language's way ("1,5").
func (l *Localizer) Decimal(f float64, decimals int) string {
	return l.printer.Sprint(number.Decimal(f, number.Scale(decimals)))
}

// pluralForm is the CLDR cardinal form of n in l's language.
func (l *Localizer) pluralForm(n int) plural.Form {
	if n < 0 {
		n = -n
	}
	return plural.Cardinal.MatchPlural(l.lang.Tag, n, 0, 0, 0, 0)
}

// Duration writes d in its two largest whole units, in words: "2 days 3 hours",
// "5 minutes", "40 seconds"; under a second it is "0 seconds". A negative duration is
// written as its size.
func (l *Localizer) Duration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	units := []struct {
		key  string
		size time.Duration
	}{
		{"duration.days", 24 * time.Hour},
		{"duration.hours", time.Hour},
		{"duration.minutes", time.Minute},
		{"duration.seconds", time.Second},
	}
	var parts []string
	for _, u := range units {
		if len(parts) == 2 {
			break
		}
		n := int(d / u.size)
		d -= time.Duration(n) * u.size
		if n == 0 {
			if len(parts) > 0 {
				break // "2 days 3 hours", never "2 days 0 hours 5 minutes" nor "2 days 5 minutes"
			}
			continue
		}
		parts = append(parts, l.T(u.key, "n", n))
	}
	switch len(parts) {
	case 0:
		return l.T("duration.seconds", "n", 0)
	case 1:
		return parts[0]
	}
	return l.T("duration.join", "a", parts[0], "b", parts[1])
}

// Date writes the calendar day of t (in t's location) the language's way:
// "December 7, 2026", "7. Dezember 2026", "7 декабря 2026 г.".
func (l *Localizer) Date(t time.Time) string {
	month := l.T(fmt.Sprintf("date.month.%d", int(t.Month())))
	return l.T("date.format", "day", t.Day(), "month", month, "year", fmt.Sprint(t.Year()))
}

// formatArg writes one argument's value in l's language.
func (l *Localizer) formatArg(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return l.Number(x)
	case int64:
		return l.Number(int(x))
	case int32:
		return l.Number(int(x))
	case uint:
		return l.Number(int(x))
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return l.Number(int(x))
		}
		return l.Decimal(x, 1)
	case time.Duration:
		return l.Duration(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// The reports of missing text, each logged once per process.
var (
	reportedMu sync.Mutex
	reported   = map[string]bool{}
)

func reportMissing(code, key string) {
	if code == PseudoCode {
		return
	}
	reportedMu.Lock()
	first := !reported[code+"\x00"+key]
	reported[code+"\x00"+key] = true
	reportedMu.Unlock()
	if first {
		slog.Warn("i18n: message not translated, written in English", "lang", code, "key", key)
	}
}

func reportUnknown(key string) {
	reportedMu.Lock()
	first := !reported["\x00"+key]
	reported["\x00"+key] = true
	reportedMu.Unlock()
	if first {
		slog.Error("i18n: message not in the catalog", "key", key)
	}
}

// Missing lists the messages written in English so far for want of a translation, as
// "lang key", and the keys asked for that the catalog lacks, as " key"; sorted.
func Missing() []string {
	reportedMu.Lock()
	defer reportedMu.Unlock()
	out := make([]string, 0, len(reported))
	for k := range reported {
		out = append(out, strings.Replace(k, "\x00", " ", 1))
	}
	slices.Sort(out)
	return out
}
