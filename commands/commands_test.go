package commands

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

func TestDecodeOptions(t *testing.T) {
	type opts struct {
		S     string          `option:"s"`
		B     bool            `option:"b"`
		I     int64           `option:"i"`
		N     int             `option:"n"`
		F     float64         `option:"f"`
		P     *bool           `option:"p"`
		U     *discordgo.User `option:"u"`
		Other string
	}
	r := &Request{
		Options: []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: "s", Value: "e4"}, {Name: "b", Value: true}, {Name: "i", Value: float64(42)}, {Name: "n", Value: "7"},
			{Name: "f", Value: 1.5}, {Name: "u", Value: "99"}, {Name: "unknown", Value: "ignored"},
		},
		Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{"99": {ID: "99", Username: "bob"}}},
	}
	var o opts
	if err := DecodeOptions(r, &o); err != nil {
		t.Fatal(err)
	}
	if o.S != "e4" || !o.B || o.I != 42 || o.N != 7 || o.F != 1.5 || o.P != nil || o.U == nil || o.U.Username != "bob" {
		t.Errorf("decoded %+v", o)
	}
	bad := []*discordgo.ApplicationCommandInteractionDataOption{
		{Name: "b", Value: "yes"}, {Name: "i", Value: 1.5}, {Name: "i", Value: "x"}, {Name: "u", Value: 12.0}, {Name: "s", Value: true},
	}
	for _, o := range bad {
		var dst opts
		if err := DecodeOptions(&Request{Options: []*discordgo.ApplicationCommandInteractionDataOption{o}}, &dst); err == nil {
			t.Errorf("option %s = %v (%T) accepted", o.Name, o.Value, o.Value)
		}
	}
	if err := DecodeOptions(r, opts{}); err == nil {
		t.Error("decoding into a non-pointer accepted")
	}
}

func position(t *testing.T, fen string) chesscore.Position {
	t.Helper()
	p, err := chesscore.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMoveChoices(t *testing.T) {
	start := chesscore.StartPosition()
	castle := position(t, "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 8")
	promo := position(t, "8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")
	cases := []struct {
		pos   chesscore.Position
		typed string
		want  []string
	}{
		{start, "e", []string{"e3", "e4"}},
		{start, "nf", []string{"Nf3"}},
		{start, "N", []string{"Na3", "Nc3", "Nf3", "Nh3"}},
		{start, "g1", []string{"Nf3", "Nh3"}}, // UCI prefix
		{start, "e2e4", []string{"e4"}},
		{start, "Qh5", nil},
		{castle, "O-O", []string{"O-O", "O-O-O"}},
		{castle, "0-0-0", []string{"O-O-O"}},
		{promo, "b8", []string{"b8=B", "b8=N", "b8=Q", "b8=R"}},
		{promo, "b8=q", []string{"b8=Q"}},
	}
	for _, c := range cases {
		var got []string
		for _, ch := range MoveChoices(&c.pos, c.typed) {
			got = append(got, ch.Name)
			if ch.Value != ch.Name {
				t.Errorf("choice %q has value %v", ch.Name, ch.Value)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("MoveChoices(%s, %q) = %v, want %v", c.pos.FEN(), c.typed, got, c.want)
		}
	}
	if n := len(MoveChoices(&start, "")); n != 20 {
		t.Errorf("%d choices for nothing typed at the start, want all 20", n)
	}
	many := position(t, "1k6/8/8/8/3Q4/8/8/R3K2R w KQ - 0 1")
	if n := len(MoveChoices(&many, "")); n != 25 {
		t.Errorf("%d choices in a position with more than 25 moves, want 25", n)
	}
}

func TestMoveMenus(t *testing.T) {
	start := chesscore.StartPosition()
	row := pieceMenu(7, 0, &start)
	menu := row.Components[0].(discordgo.SelectMenu)
	if len(menu.Options) != 10 || menu.CustomID != "v1/game/7/0/pick" {
		t.Fatalf("start piece menu: %d options, %q", len(menu.Options), menu.CustomID)
	}
	if menu.Options[0].Label != "Knight b1" || menu.Options[0].Description != "to a3, c3" {
		t.Errorf("first option %+v, want the knight on b1 (pieces before pawns)", menu.Options[0])
	}
	// A queen in the middle of an empty board has 27 moves: two menus.
	q := position(t, "k7/8/8/8/3Q4/8/8/7K w - - 0 1")
	rows := destinationMenus(7, 12, &q, chesscore.D4)
	if len(rows) != 2 {
		t.Fatalf("%d destination menus for 27 moves, want 2", len(rows))
	}
	seen := map[string]bool{}
	total := 0
	for _, r := range rows {
		m := r.(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
		if len(m.Options) > 25 || seen[m.CustomID] {
			t.Errorf("menu %q: %d options (duplicate id %v)", m.CustomID, len(m.Options), seen[m.CustomID])
		}
		seen[m.CustomID] = true
		total += len(m.Options)
		id, err := ParseCustomID(m.CustomID)
		if err != nil || id.Ply != 12 || id.Arg(0) != "d4" {
			t.Errorf("menu id %q: %+v %v", m.CustomID, id, err)
		}
	}
	if total != 27 {
		t.Errorf("menus list %d destinations, want 27", total)
	}
	if destinationMenus(7, 0, &start, chesscore.A1) != nil {
		t.Error("a rook that cannot move got a menu")
	}
	p := promotionButtons(7, 30, chesscore.B7, chesscore.B8)
	ids := map[string]bool{}
	for _, c := range p[0].(discordgo.ActionsRow).Components {
		ids[c.(discordgo.Button).CustomID] = true
	}
	if len(ids) != 4 || !ids["v1/game/7/30/promote/b7b8q"] || !ids["v1/game/7/30/promote/b7b8n"] {
		t.Errorf("promotion buttons %v", ids)
	}
}

func TestEscapeMarkdown(t *testing.T) {
	cases := map[string]string{
		"alice":            "alice",
		"**bold**":         `\*\*bold\*\*`,
		"@everyone":        "@\u200beveryone",
		"<@&123>":          "<@\u200b&123\\>",
		"a_b|c~d`e":        `a\_b\|c\~d\` + "`e",
		"line\nbreak":      "line break",
		"[link](http://x)": `\[link\]\(http\://x\)`,
	}
	for in, want := range cases {
		if got := EscapeMarkdown(in); got != want {
			t.Errorf("EscapeMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLichessURL(t *testing.T) {
	g := &games.Game{SAN: []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}}
	if got, want := LichessURL(g), "https://lichess.org/analysis/pgn/1.%20e4%20e5%202.%20Qh5%20Nc6%203.%20Bc4%20Nf6%204.%20Qxf7%23"; got != want {
		t.Errorf("LichessURL = %q, want %q", got, want)
	}
	long := &games.Game{Position: chesscore.StartPosition()}
	for i := 0; i < 120; i++ {
		long.SAN = append(long.SAN, "Nf3", "Nf6", "Ng1", "Ng8")
	}
	if got := LichessURL(long); got != "https://lichess.org/analysis/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1" || len(got) > maxLinkLen {
		t.Errorf("a long game's link = %q, want the final position", got)
	}
	custom := &games.Game{SAN: []string{"Kd2"}, Position: position(t, "8/8/8/8/8/8/3K4/k7 b - - 1 1")}
	custom.StartFEN = "8/8/8/8/8/8/4K3/k7 w - - 0 1"
	if got := LichessURL(custom); !strings.HasPrefix(got, "https://lichess.org/analysis/8/8/8/8/8/8/3K4/k7_b") {
		t.Errorf("a game from a set position links %q, want its FEN", got)
	}
}

func TestGameError(t *testing.T) {
	pos := chesscore.StartPosition()
	_, moveErr := pos.ParseSAN("Nf6")
	cases := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("game 3: %w", games.ErrStale), "out of date"},
		{fmt.Errorf("game 3: %w", games.ErrNotAPlayer), "Only the two players"},
		{games.ErrNotYourTurn, "It is not your turn."},
		{fmt.Errorf("%w: %w", games.ErrIllegalMove, moveErr), "/move"},
		{fmt.Errorf("%w: time control: %w", games.ErrBadRequest, errors.New(`"7x": want minutes+seconds`)), `Time control: "7x": want minutes+seconds.`},
		{fmt.Errorf("challenge: %w", &games.RoleRequiredError{Role: "5"}), "You are not allowed to challenge in this server: you need the role <@&5>."},
	}
	for _, c := range cases {
		got := UserMessage(gameError(c.err))
		if !strings.Contains(got, c.want) {
			t.Errorf("gameError(%v) shows %q, want %q", c.err, got, c.want)
		}
	}
	if msg := UserMessage(gameError(errors.New("disk full"))); !strings.Contains(msg, "Something went wrong") {
		t.Errorf("an internal error shows %q", msg)
	}
	if gameError(nil) != nil {
		t.Error("gameError(nil) != nil")
	}
}

func TestPostLedger(t *testing.T) {
	now := time.Unix(1000, 0)
	l := NewPostLedger(func() time.Time { return now })
	p, q := GamePost(1, 5, EventTurn), GamePost(1, 5, EventOver)
	release := l.Reserve(p, q)
	if !l.Consume(p) || l.Consume(p) {
		t.Error("a reservation is consumed once")
	}
	release()
	if l.Consume(q) {
		t.Error("a released reservation was consumed")
	}
	l.Reserve(GamePost(2, 1, EventTurn))
	now = now.Add(2 * reservationTTL)
	if l.Consume(GamePost(2, 1, EventTurn)) {
		t.Error("an expired reservation was consumed")
	}
	var none *PostLedger
	none.Reserve(p)()
	if none.Consume(p) {
		t.Error("the nil ledger consumed a post")
	}
}

// TestDefinitions checks every command against Discord's rules for definitions, so
// a mistake shows here and not as a 400 at start-up.
func TestDefinitions(t *testing.T) {
	d := &Deps{}
	names := map[string]bool{}
	routes := map[string]string{}
	for _, c := range All(d) {
		def := c.Definition()
		if names[def.Name] {
			t.Errorf("two commands named %q", def.Name)
		}
		names[def.Name] = true
		checkName(t, "/"+def.Name, def.Name)
		checkDescription(t, "/"+def.Name, def.Description)
		checkOptions(t, "/"+def.Name, def.Options)
		if cp, ok := c.(Componenter); ok {
			for route := range cp.Components() {
				if other, dup := routes[route]; dup {
					t.Errorf("route %q claimed by /%s and /%s", route, other, def.Name)
				}
				routes[route] = def.Name
			}
		}
	}
	for _, name := range []string{"play", "analyze"} {
		if !names[name] {
			t.Errorf("/%s is not registered (the engine exists)", name)
		}
	}
}

func checkName(t *testing.T, where, name string) {
	if name == "" || len(name) > 32 || strings.ToLower(name) != name || strings.ContainsAny(name, " .") {
		t.Errorf("%s: bad name %q", where, name)
	}
}

func checkDescription(t *testing.T, where, desc string) {
	if n := utf8.RuneCountInString(desc); n < 1 || n > 100 {
		t.Errorf("%s: description of %d characters (1 to 100): %q", where, n, desc)
	}
}

func checkOptions(t *testing.T, where string, opts []*discordgo.ApplicationCommandOption) {
	if len(opts) > 25 {
		t.Errorf("%s: %d options", where, len(opts))
	}
	optional := false
	for _, o := range opts {
		w := where + " " + o.Name
		checkName(t, w, o.Name)
		checkDescription(t, w, o.Description)
		if o.Required && optional {
			t.Errorf("%s: required after optional", w)
		}
		if !o.Required {
			optional = true
		}
		if o.Autocomplete && len(o.Choices) > 0 {
			t.Errorf("%s: autocomplete with choices", w)
		}
		if len(o.Choices) > 25 {
			t.Errorf("%s: %d choices", w, len(o.Choices))
		}
		checkOptions(t, w, o.Options)
	}
}
