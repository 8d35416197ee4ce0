package commands

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestOptionTags checks that every `option:` tag names an option its command declares
// where the struct is decoded, with a Go type that option's values fit.
func TestOptionTags(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range All(&Deps{}) {
		def := c.Definition()
		for _, u := range registered[def.Name].options {
			typ := reflect.TypeOf(u.decoded)
			listed[typ.Name()] = true
			where := "/" + def.Name
			declared, err := optionsUnder(def, u.subs)
			if err != nil {
				t.Errorf("%s, %s: %v", where, typ.Name(), err)
				continue
			}
			for i := range typ.NumField() {
				f := typ.Field(i)
				name := f.Tag.Get("option")
				if name == "" {
					continue
				}
				o, ok := declared[name]
				if !ok {
					t.Errorf("%s: %s.%s decodes option %q, which %s does not declare (it has %s)", where, typ.Name(), f.Name, name, describeSubs(def.Name, u.subs), strings.Join(sortedKeys(declared), ", "))
					continue
				}
				if !fits(f.Type, o.Type) {
					t.Errorf("%s: %s.%s is a %s, but option %q is of type %s", where, typ.Name(), f.Name, f.Type, name, o.Type)
				}
			}
		}
	}
	// Every options struct of the package is a named type listed above: an anonymous
	// struct in a handler would escape this test.
	for _, s := range taggedStructs(t) {
		if s.name == "" {
			t.Errorf("%s: an anonymous struct with option tags: give it a name and list it in its command's registration", s.pos)
		} else if !listed[s.name] {
			t.Errorf("%s: %s has option tags but no command's registration lists it", s.pos, s.name)
		}
	}
}

// optionsUnder returns the options declared under the subcommands subs of def (nil:
// the command's own options; "*": every subcommand's), by name.
func optionsUnder(def *discordgo.ApplicationCommand, subs []string) (map[string]*discordgo.ApplicationCommandOption, error) {
	out := map[string]*discordgo.ApplicationCommandOption{}
	leaves := map[string][]*discordgo.ApplicationCommandOption{} // subcommand path: options
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			switch o.Type {
			case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
				walk(strings.TrimSpace(path+" "+o.Name), o.Options)
			default:
				leaves[path] = append(leaves[path], o)
			}
		}
	}
	walk("", def.Options)
	pick := func(path string) error {
		opts, ok := leaves[path]
		if !ok && !hasSub(def.Options, path) {
			return errNoSub(path)
		}
		for _, o := range opts {
			out[o.Name] = o
		}
		return nil
	}
	switch {
	case subs == nil:
		for path := range leaves {
			if path != "" {
				return nil, errNoSub("")
			}
		}
		for _, o := range leaves[""] {
			out[o.Name] = o
		}
		return out, nil
	case len(subs) == 1 && subs[0] == "*":
		for path := range leaves {
			if err := pick(path); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	for _, s := range subs {
		if err := pick(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hasSub reports whether path names a subcommand (one without options, maybe).
func hasSub(opts []*discordgo.ApplicationCommandOption, path string) bool {
	first, rest, _ := strings.Cut(path, " ")
	for _, o := range opts {
		if o.Name == first && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			return rest == "" || hasSub(o.Options, rest)
		}
	}
	return false
}

type errNoSub string

func (e errNoSub) Error() string {
	if e == "" {
		return "the command has subcommands: say which"
	}
	return "no subcommand " + strconv.Quote(string(e))
}

func describeSubs(cmd string, subs []string) string {
	switch {
	case subs == nil:
		return "/" + cmd
	case len(subs) == 1 && subs[0] == "*":
		return "no subcommand of /" + cmd
	}
	return "/" + cmd + " " + strings.Join(subs, " or ")
}

// fits reports whether a field of type t can hold the values of an option of type ot,
// as DecodeOptions fills it.
func fits(t reflect.Type, ot discordgo.ApplicationCommandOptionType) bool {
	if t == userType {
		return ot == discordgo.ApplicationCommandOptionUser
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch ot {
	case discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionChannel,
		discordgo.ApplicationCommandOptionRole, discordgo.ApplicationCommandOptionMentionable,
		discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionAttachment:
		return t.Kind() == reflect.String
	case discordgo.ApplicationCommandOptionInteger:
		return t.Kind() == reflect.Int || t.Kind() == reflect.Int64
	case discordgo.ApplicationCommandOptionNumber:
		return t.Kind() == reflect.Float64
	case discordgo.ApplicationCommandOptionBoolean:
		return t.Kind() == reflect.Bool
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// taggedStruct is a struct type of the package's source with an `option:` tag.
type taggedStruct struct {
	name string // "" for an anonymous struct
	pos  string
}

// taggedStructs finds the struct types with option tags in the package's non-test
// files.
func taggedStructs(t *testing.T) []taggedStruct {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []taggedStruct
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		named := map[*ast.StructType]string{}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					named[st] = ts.Name.Name
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok || st.Fields == nil {
				return true
			}
			for _, fl := range st.Fields.List {
				if fl.Tag == nil {
					continue
				}
				tag, err := strconv.Unquote(fl.Tag.Value)
				if err == nil && reflect.StructTag(tag).Get("option") != "" {
					out = append(out, taggedStruct{name: named[st], pos: fset.Position(st.Pos()).String()})
					break
				}
			}
			return true
		})
	}
	if len(out) < 10 {
		t.Fatalf("found only %d structs with option tags: the scan is broken", len(out))
	}
	return out
}
