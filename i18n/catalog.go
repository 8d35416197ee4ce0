package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/feature/plural"
)

// catalog.go: the data files and their reading. A file locales/<code>.json is one JSON
// object from keys to messages; a message is a string, or an object of CLDR plural forms
// ("zero", "one", "two", "few", "many", "other"; "other" required) chosen by the
// argument n. Texts hold {name} placeholders; a brace that opens no placeholder is
// written as it is.

//go:embed locales/*.json
var files embed.FS

// pluralForms names the CLDR plural categories as the data files spell them.
var pluralForms = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two,
	"few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// message_ is one message in one language: a text, or texts by plural form.
type message_ struct {
	text  []segment
	forms map[plural.Form][]segment
}

// segment is a run of literal text or one placeholder.
type segment struct {
	lit         string
	placeholder string // "" for a literal
}

// catalog is every language's messages, by code and key.
type catalog struct {
	texts map[string]map[string]message_
}

// mustCatalog reads the embedded files; a malformed file is a build error that the
// package's tests catch, so it panics.
func mustCatalog() *catalog {
	c := &catalog{texts: map[string]map[string]message_{}}
	for _, lang := range languages {
		data, err := files.ReadFile("locales/" + lang.Code + ".json")
		if err != nil {
			panic(fmt.Sprintf("i18n: %s: %v", lang.Code, err))
		}
		texts, err := parseFile(data)
		if err != nil {
			panic(fmt.Sprintf("i18n: locales/%s.json: %v", lang.Code, err))
		}
		c.texts[lang.Code] = texts
	}
	return c
}

// parseFile reads one data file.
func parseFile(data []byte) (map[string]message_, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("reading the messages: %w", err)
	}
	out := make(map[string]message_, len(raw))
	for key, v := range raw {
		if key == "" || strings.TrimSpace(key) != key {
			return nil, fmt.Errorf("key %q: a key is a non-empty dotted name", key)
		}
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			if s == "" {
				return nil, fmt.Errorf("key %q: the text is empty", key)
			}
			out[key] = message_{text: parseText(s)}
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			return nil, fmt.Errorf("key %q: a message is a string or an object of plural forms", key)
		}
		m := message_{forms: map[plural.Form][]segment{}}
		for name, text := range forms {
			f, ok := pluralForms[name]
			if !ok {
				return nil, fmt.Errorf("key %q: %q is no CLDR plural form (zero, one, two, few, many, other)", key, name)
			}
			if text == "" {
				return nil, fmt.Errorf("key %q: the %s form is empty", key, name)
			}
			m.forms[f] = parseText(text)
		}
		if _, ok := m.forms[plural.Other]; !ok {
			return nil, fmt.Errorf("key %q: a plural message needs its \"other\" form", key)
		}
		out[key] = m
	}
	return out, nil
}

// parseText splits a text into literals and {name} placeholders, a name being ASCII
// letters, digits and underscores. Anything else in braces is literal text.
func parseText(s string) []segment {
	var out []segment
	lit := strings.Builder{}
	for i := 0; i < len(s); {
		if s[i] == '{' {
			if j := strings.IndexByte(s[i+1:], '}'); j > 0 && isName(s[i+1:i+1+j]) {
				if lit.Len() > 0 {
					out = append(out, segment{lit: lit.String()})
					lit.Reset()
				}
				out = append(out, segment{placeholder: s[i+1 : i+1+j]})
				i += j + 2
				continue
			}
		}
		lit.WriteByte(s[i])
		i++
	}
	if lit.Len() > 0 {
		out = append(out, segment{lit: lit.String()})
	}
	return out
}

func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return s != ""
}

// placeholders returns the sorted, distinct placeholder names of every text of m.
func (m message_) placeholders() []string {
	var names []string
	add := func(segs []segment) {
		for _, s := range segs {
			if s.placeholder != "" && !slices.Contains(names, s.placeholder) {
				names = append(names, s.placeholder)
			}
		}
	}
	add(m.text)
	for _, segs := range m.forms {
		add(segs)
	}
	slices.Sort(names)
	return names
}

// write fills m's placeholders from args (name, value pairs) in l's language. A
// placeholder without an argument is left as {name}, which the tests catch.
func (m message_) write(l *Localizer, args []any) string {
	segs := m.text
	if m.forms != nil {
		segs = m.forms[plural.Other]
		if n, ok := intArg(args, "n"); ok {
			if f, ok := m.forms[l.pluralForm(n)]; ok {
				segs = f
			}
		}
	}
	var b strings.Builder
	for _, s := range segs {
		if s.placeholder == "" {
			b.WriteString(s.lit)
			continue
		}
		v, ok := arg(args, s.placeholder)
		if !ok {
			b.WriteString("{" + s.placeholder + "}")
			continue
		}
		b.WriteString(l.formatArg(v))
	}
	return b.String()
}

// arg finds the value of name among name-value pairs.
func arg(args []any, name string) (any, bool) {
	for i := 0; i+1 < len(args); i += 2 {
		if k, ok := args[i].(string); ok && k == name {
			return args[i+1], true
		}
	}
	return nil, false
}

// intArg is the integer value of the argument name, for choosing a plural form.
func intArg(args []any, name string) (int, bool) {
	v, ok := arg(args, name)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case int32:
		return int(x), true
	case uint:
		return int(x), true
	case float64:
		return int(x), x == float64(int(x))
	}
	return 0, false
}
