package discordfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestSnowflakes(t *testing.T) {
	var g snowflakes
	prev := int64(0)
	for i := 0; i < 10000; i++ {
		id, err := strconv.ParseInt(g.next(), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if id <= prev {
			t.Fatalf("snowflake %d not above %d", id, prev)
		}
		prev = id
	}
	ts, err := SnowflakeTime(strconv.FormatInt(prev, 10))
	if err != nil || time.Since(ts) > time.Minute || time.Since(ts) < -time.Minute {
		t.Errorf("SnowflakeTime = %v, %v; want about now", ts, err)
	}
	// Discord's documented example: 175928847299117063 is 2016-04-30 11:18:25.796 UTC.
	ts, err = SnowflakeTime("175928847299117063")
	if want := time.Date(2016, 4, 30, 11, 18, 25, 796e6, time.UTC); err != nil || !ts.Equal(want) {
		t.Errorf("SnowflakeTime(example) = %v, %v; want %v", ts, err, want)
	}
	if _, err := SnowflakeTime("x"); err == nil {
		t.Error("SnowflakeTime accepted x")
	}
}

func TestShardFor(t *testing.T) {
	tests := []struct {
		guild  string
		shards int
		want   int
	}{
		{"", 4, 0},
		{"175928847299117063", 1, 0},
		{"175928847299117063", 0, 0},
		// (175928847299117063 >> 22) = 41944705796; % 16 = 4.
		{"175928847299117063", 16, 4},
		{"not a number", 4, 0},
	}
	for _, tt := range tests {
		if got := ShardFor(tt.guild, tt.shards); got != tt.want {
			t.Errorf("ShardFor(%q, %d) = %d, want %d", tt.guild, tt.shards, got, tt.want)
		}
	}
}

func TestFailureMatch(t *testing.T) {
	tests := []struct {
		route, method, path string
		want                bool
	}{
		{"POST channels/*/messages", "POST", "channels/1/messages", true},
		{"POST channels/*/messages", "GET", "channels/1/messages", false},
		{"POST channels/*/messages", "POST", "channels/1/messages/2", false},
		{"channels/*/messages", "PATCH", "channels/1/messages", true},
		{"* channels/*/messages", "DELETE", "channels/1/messages", true},
		{"post /interactions/*/*/callback", "POST", "interactions/1/tok/callback", true},
		{"GET users/@me", "GET", "users/1", false},
	}
	for _, tt := range tests {
		f := &Fake{}
		f.rest.init()
		f.Fail(Failure{Route: tt.route, Count: 1})
		if got := f.rest.failures[0].matches(tt.method, tt.path); got != tt.want {
			t.Errorf("route %q matches %s %s = %v, want %v", tt.route, tt.method, tt.path, got, tt.want)
		}
	}
}

func TestInjectedRateLimitHeaders(t *testing.T) {
	f := &Fake{}
	f.rest.init()
	f.FailNext("GET gateway/bot", 1)
	rec := httptest.NewRecorder()
	if !f.injectFailure(rec, "GET", "gateway/bot") {
		t.Fatal("failure not injected")
	}
	if rec.Code != http.StatusTooManyRequests {
		t.Errorf("status %d", rec.Code)
	}
	var body struct {
		Message    string  `json:"message"`
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Message != "You are being rate limited." || body.RetryAfter != 0.05 || body.Global {
		t.Errorf("body %s (%v)", rec.Body, err)
	}
	h := rec.Header()
	for k, want := range map[string]string{"Retry-After": "1", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.050", "X-RateLimit-Scope": "user"} {
		if got := h.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if h.Get("X-RateLimit-Reset") == "" || h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Limit") == "" {
		t.Errorf("missing rate limit headers: %v", h)
	}
	if f.injectFailure(httptest.NewRecorder(), "GET", "gateway/bot") {
		t.Error("a failure for 1 request fired twice")
	}
}

func decodeString(t *testing.T, s string) *decoded {
	t.Helper()
	d, err := decodePayload(json.RawMessage(s), nil)
	if err != nil {
		t.Fatalf("decodePayload(%s): %v", s, err)
	}
	return d
}

func row(components ...string) string {
	return `{"type":1,"components":[` + strings.Join(components, ",") + `]}`
}

func button(id string) string {
	return `{"type":2,"style":1,"label":"L","custom_id":"` + id + `"}`
}

// texts is n text display components, comma separated.
func texts(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = `{"type":10,"content":"t"}`
	}
	return strings.Join(out, ",")
}

// A file of 10 MiB is taken, one byte more is refused.
func TestCheckMessageFileSize(t *testing.T) {
	for _, tc := range []struct {
		size int
		ok   bool
	}{{maxFileBytes, true}, {maxFileBytes + 1, false}} {
		d, err := decodePayload(json.RawMessage(`{"content":"x"}`), []upload{{filename: "board.png", data: make([]byte, tc.size)}})
		if err != nil {
			t.Fatal(err)
		}
		e := &formErrors{}
		checkMessage(d, e)
		if _, refused := e.byPath["files.0"]; refused == tc.ok {
			t.Errorf("a file of %d bytes: refused %v, want %v", tc.size, refused, !tc.ok)
		}
	}
}

func TestCheckMessage(t *testing.T) {
	sixRows := make([]string, 6)
	for i := range sixRows {
		sixRows[i] = row(button(strconv.Itoa(i)))
	}
	sixButtons := make([]string, 6)
	for i := range sixButtons {
		sixButtons[i] = button(strconv.Itoa(i))
	}
	tests := []struct {
		name, body string
		wantPath   string // "" means valid
	}{
		{"plain", `{"content":"hi"}`, ""},
		{"2000 runes", `{"content":"` + strings.Repeat("é", 2000) + `"}`, ""},
		{"2001 runes", `{"content":"` + strings.Repeat("é", 2001) + `"}`, "content"},
		{"eleven embeds", `{"embeds":[` + strings.TrimSuffix(strings.Repeat(`{"title":"t"},`, 11), ",") + `]}`, "embeds"},
		{"long embed title", `{"embeds":[{"title":"` + strings.Repeat("t", 257) + `"}]}`, "embeds.0.title"},
		{"empty field name", `{"embeds":[{"fields":[{"name":"","value":"v"}]}]}`, "embeds.0.fields.0.name"},
		{"embeds over 6000", `{"embeds":[{"description":"` + strings.Repeat("d", 4000) + `"},{"description":"` + strings.Repeat("d", 2001) + `"}]}`, "embeds"},
		{"row of buttons", `{"components":[` + row(button("a"), button("b")) + `]}`, ""},
		{"six rows", `{"components":[` + strings.Join(sixRows, ",") + `]}`, "components"},
		{"six buttons", `{"components":[` + row(sixButtons...) + `]}`, "components.0.components"},
		{"bare button", `{"components":[` + button("a") + `]}`, "components.0.type"},
		{"duplicate ids", `{"components":[` + row(button("a")) + "," + row(button("a")) + `]}`, "components"},
		{"custom id too long", `{"components":[` + row(button(strings.Repeat("x", 101))) + `]}`, "components.0.components.0.custom_id"},
		{"link with custom id", `{"components":[` + row(`{"type":2,"style":5,"label":"L","url":"https://x","custom_id":"a"}`) + `]}`, "components.0.components.0.custom_id"},
		{"link without url", `{"components":[` + row(`{"type":2,"style":5,"label":"L"}`) + `]}`, "components.0.components.0.url"},
		{"button without label", `{"components":[` + row(`{"type":2,"style":1,"custom_id":"a"}`) + `]}`, "components.0.components.0"},
		{"button with emoji", `{"components":[` + row(`{"type":2,"style":1,"custom_id":"a","emoji":{"name":"♟"}}`) + `]}`, ""},
		{"select with button", `{"components":[` + row(`{"type":3,"custom_id":"s","options":[{"label":"a","value":"a"}]}`, button("b")) + `]}`, "components.0.components"},
		{"select without options", `{"components":[` + row(`{"type":3,"custom_id":"s"}`) + `]}`, "components.0.components.0.options"},
		{"select max over options", `{"components":[` + row(`{"type":3,"custom_id":"s","max_values":2,"options":[{"label":"a","value":"a"}]}`) + `]}`, "components.0.components.0.max_values"},
		{"user select", `{"components":[` + row(`{"type":5,"custom_id":"u"}`) + `]}`, ""},
		{"v2 with content", `{"flags":32768,"content":"x","components":[{"type":10,"content":"hi"}]}`, "content"},
		{"v2 layout", `{"flags":32768,"components":[{"type":10,"content":"hi"}]}`, ""},
		{"v2 with 40 components", `{"flags":32768,"components":[` + texts(40) + `]}`, ""},
		{"v2 with 41 components", `{"flags":32768,"components":[` + texts(39) + `,{"type":17,"components":[{"type":10,"content":"a"}]}]}`, "components"},
		{"mentions exclusive", `{"content":"x","allowed_mentions":{"parse":["users"],"users":["1"]}}`, "allowed_mentions"},
		{"mentions bad parse", `{"content":"x","allowed_mentions":{"parse":["all"]}}`, "allowed_mentions.parse.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &formErrors{}
			checkMessage(decodeString(t, tt.body), e)
			if tt.wantPath == "" {
				if !e.empty() {
					t.Errorf("valid message rejected: %s", e)
				}
				return
			}
			if _, ok := e.byPath[tt.wantPath]; !ok {
				t.Errorf("want an error at %q, got %q", tt.wantPath, e)
			}
		})
	}
}

func TestCheckModalAndChoices(t *testing.T) {
	input := func(label string) string {
		return row(`{"type":4,"custom_id":"r","label":"` + label + `","style":1}`)
	}
	tests := []struct {
		name, body string
		check      func(*decoded, *formErrors)
		wantPath   string
	}{
		{"modal", `{"custom_id":"m","title":"T","components":[` + input("Why") + `]}`, checkModal, ""},
		{"modal without title", `{"custom_id":"m","components":[` + input("Why") + `]}`, checkModal, "title"},
		{"modal without rows", `{"custom_id":"m","title":"T"}`, checkModal, "components"},
		{"modal with button", `{"custom_id":"m","title":"T","components":[` + row(button("b")) + `]}`, checkModal, "components.0"},
		{"modal long label", `{"custom_id":"m","title":"T","components":[` + input(strings.Repeat("l", 46)) + `]}`, checkModal, "components.0.components.0.label"},
		{"choices", `{"choices":[{"name":"e4","value":"e4"}]}`, checkChoices, ""},
		{"too many choices", `{"choices":[` + strings.TrimSuffix(strings.Repeat(`{"name":"a","value":"a"},`, 26), ",") + `]}`, checkChoices, "choices"},
		{"empty choice name", `{"choices":[{"name":"","value":"a"}]}`, checkChoices, "choices.0.name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &formErrors{}
			tt.check(decodeString(t, tt.body), e)
			if tt.wantPath == "" && !e.empty() {
				t.Errorf("valid body rejected: %s", e)
			}
			if tt.wantPath != "" {
				if _, ok := e.byPath[tt.wantPath]; !ok {
					t.Errorf("want an error at %q, got %q", tt.wantPath, e)
				}
			}
		})
	}
}

func TestCheckCommands(t *testing.T) {
	str := func(name string, required bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: "d", Required: required}
	}
	users := func(n int) []*discordgo.ApplicationCommand {
		var out []*discordgo.ApplicationCommand
		for i := range n {
			out = append(out, &discordgo.ApplicationCommand{Name: fmt.Sprint("User ", i), Type: discordgo.UserApplicationCommand})
		}
		return out
	}
	entry := func() *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{Name: "launch", Description: "d", Type: EntryPointCommandType}
	}
	installs := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	everywhere := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	tests := []struct {
		name     string
		cmds     []*discordgo.ApplicationCommand
		wantPath string
		// handlers are the handler fields (default: none); inGuild makes it a guild's
		// overwrite.
		handlers []int
		inGuild  bool
	}{
		{"15 user commands", users(15), "", nil, false},
		{"16 user commands", users(16), "_", nil, false},
		{"entry point", []*discordgo.ApplicationCommand{entry()}, "", []int{2}, false},
		{"entry point handled by the app", []*discordgo.ApplicationCommand{entry()}, "", []int{1}, false},
		{"entry point without handler", []*discordgo.ApplicationCommand{entry()}, "0.handler", []int{0}, false},
		{"entry point with handler 3", []*discordgo.ApplicationCommand{entry()}, "0.handler", []int{3}, false},
		{"entry point in a guild", []*discordgo.ApplicationCommand{entry()}, "0.type", []int{2}, true},
		{"two entry points", []*discordgo.ApplicationCommand{entry(), {Name: "play", Description: "d", Type: EntryPointCommandType}}, "_", []int{2, 2}, false},
		{"handler on a chat command", []*discordgo.ApplicationCommand{{Name: "move", Description: "d"}}, "0.handler", []int{2}, false},
		{"user install globally", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", IntegrationTypes: installs, Contexts: everywhere}}, "", nil, false},
		{"integration types in a guild", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", IntegrationTypes: installs}}, "0.integration_types", nil, true},
		{"contexts in a guild", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", Contexts: everywhere}}, "0.contexts", nil, true},
		{"unknown context", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", Contexts: &[]discordgo.InteractionContextType{3}}}, "0.contexts.0", nil, false},
		{"unknown integration type", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", IntegrationTypes: &[]discordgo.ApplicationIntegrationType{2}}}, "0.integration_types.0", nil, false},
		{"good", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", Options: []*discordgo.ApplicationCommandOption{str("san", true), str("note", false)}}}, "", nil, false},
		{"upper case", []*discordgo.ApplicationCommand{{Name: "Move", Description: "d"}}, "0.name", nil, false},
		{"space", []*discordgo.ApplicationCommand{{Name: "my move", Description: "d"}}, "0.name", nil, false},
		{"no description", []*discordgo.ApplicationCommand{{Name: "move"}}, "0.description", nil, false},
		{"duplicate", []*discordgo.ApplicationCommand{{Name: "move", Description: "d"}, {Name: "move", Description: "d"}}, "1.name", nil, false},
		{"same name other type", []*discordgo.ApplicationCommand{{Name: "move", Description: "d"}, {Name: "move", Type: discordgo.UserApplicationCommand}}, "", nil, false},
		{"context menu description", []*discordgo.ApplicationCommand{{Name: "Challenge", Type: discordgo.UserApplicationCommand, Description: "d"}}, "0.description", nil, false},
		{"required after optional", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", Options: []*discordgo.ApplicationCommandOption{str("note", false), str("san", true)}}}, "0.options.1.required", nil, false},
		{"duplicate option", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", Options: []*discordgo.ApplicationCommandOption{str("san", false), str("san", false)}}}, "0.options.1.name", nil, false},
		{"mixed subcommands", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "d"}, str("x", false)}}}, "0.options", nil, false},
		{"choices and autocomplete", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "san", Description: "d", Autocomplete: true, Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}}}}}, "0.options.0.autocomplete", nil, false},
		{"choice of wrong type", []*discordgo.ApplicationCommand{{Name: "move", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "n", Description: "d", Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}}}}}, "0.options.0.choices.0.value", nil, false},
		{"nested group", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "d", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "g", Description: "d"}}}}}}, "0.options.0.options.0.type", nil, false},
		{"localized", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", NameLocalizations: locs("de", "partie", "ru", "партия"),
			DescriptionLocalizations: locs("de", "Eine Partie"), Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "d", NameLocalizations: *locs("de", "farbe", "uk", "колір"),
					DescriptionLocalizations: *locs("fr", "La couleur"),
					Choices:                  []*discordgo.ApplicationCommandOptionChoice{{Name: "white", Value: "white", NameLocalizations: *locs("de", "Weiß")}}}}},
			{Type: discordgo.UserApplicationCommand, Name: "Chess rating", NameLocalizations: locs("de", "Schach-Wertung mit Leerzeichen")}}, "", nil, false},
		{"localized name upper case", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", NameLocalizations: locs("de", "Partie")}}, "0.name_localizations", nil, false},
		{"localized name with a space", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", NameLocalizations: locs("fr", "ma partie")}}, "0.name_localizations", nil, false},
		{"localized name too long", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", NameLocalizations: locs("ru", strings.Repeat("я", 33))}}, "0.name_localizations", nil, false},
		{"unknown locale", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", NameLocalizations: locs("pt", "partida")}}, "0.name_localizations.pt", nil, false},
		{"English-only locale code", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", NameLocalizations: locs("en", "game")}}, "0.name_localizations.en", nil, false},
		{"localized description empty", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", DescriptionLocalizations: locs("de", "")}}, "0.description_localizations.de", nil, false},
		{"localized description too long", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", DescriptionLocalizations: locs("it", strings.Repeat("à", 101))}}, "0.description_localizations.it", nil, false},
		{"localized option name invalid", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "n", Description: "d", NameLocalizations: *locs("tr", "Oyun Adı")}}}}, "0.options.0.name_localizations.tr", nil, false},
		{"localized option names clash", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "d", NameLocalizations: *locs("pl", "czas")},
			{Type: discordgo.ApplicationCommandOptionString, Name: "clock", Description: "d", NameLocalizations: *locs("pl", "czas")}}}}, "0.options.1.name_localizations.pl", nil, false},
		{"localized option description too long", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "n", Description: "d", DescriptionLocalizations: *locs("es-ES", strings.Repeat("ñ", 101))}}}}, "0.options.0.description_localizations.es-ES", nil, false},
		{"localized choice name too long", []*discordgo.ApplicationCommand{{Name: "game", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "n", Description: "d", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "a", Value: "a", NameLocalizations: *locs("es-419", strings.Repeat("x", 101))}}}}}}, "0.options.0.choices.0.name_localizations.es-419", nil, false},
		{"context menu localized name too long", []*discordgo.ApplicationCommand{{Type: discordgo.UserApplicationCommand, Name: "Rating", NameLocalizations: locs("de", strings.Repeat("W", 33))}}, "0.name_localizations", nil, false},
		{"context menu localized description", []*discordgo.ApplicationCommand{{Type: discordgo.MessageApplicationCommand, Name: "Rating", DescriptionLocalizations: locs("de", "Wertung")}}, "0.description", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Round-trip through JSON, as the request would.
			raw, err := json.Marshal(tt.cmds)
			if err != nil {
				t.Fatal(err)
			}
			var cmds []*discordgo.ApplicationCommand
			if err := json.Unmarshal(raw, &cmds); err != nil {
				t.Fatal(err)
			}
			hs := tt.handlers
			if hs == nil {
				hs = make([]int, len(cmds))
			}
			e := checkCommands(cmds, hs, tt.inGuild)
			if tt.wantPath == "" && !e.empty() {
				t.Errorf("valid commands rejected: %s", e)
			}
			if tt.wantPath != "" {
				if _, ok := e.byPath[tt.wantPath]; !ok {
					t.Errorf("want an error at %q, got %q", tt.wantPath, e)
				}
			}
		})
	}
}

func TestFormErrorsTree(t *testing.T) {
	e := &formErrors{prefix: "data."}
	e.add("components.0.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
	got, err := json.Marshal(e.tree())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"components":{"0":{"custom_id":{"_errors":[{"code":"BASE_TYPE_REQUIRED","message":"This field is required"}]}}}}}`
	if string(got) != want {
		t.Errorf("tree = %s\nwant   %s", got, want)
	}
}

// multipartRequest builds a request the way discordgo.MultipartBodyWithJSON does.
func multipartRequest(t testing.TB, payload string, files map[string][]byte) *http.Request {
	t.Helper()
	var df []*discordgo.File
	for name, data := range files {
		df = append(df, &discordgo.File{Name: name, Reader: bytes.NewReader(data)})
	}
	ct, body, err := discordgo.MultipartBodyWithJSON(json.RawMessage(payload), df)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("POST", "/x", bytes.NewReader(body))
	r.Header.Set("Content-Type", ct)
	return r
}

func TestReadBody(t *testing.T) {
	raw, files, err := readBody(multipartRequest(t, `{"content":"hi"}`, map[string][]byte{"a.txt": []byte("A")}))
	if err != nil || string(raw) != `{"content":"hi"}` || len(files) != 1 || files[0].filename != "a.txt" || string(files[0].data) != "A" || files[0].index != 0 {
		t.Errorf("multipart: %s %+v %v", raw, files, err)
	}
	r := httptest.NewRequest("POST", "/x", strings.NewReader(`{"content":"x"}`))
	r.Header.Set("Content-Type", "application/json")
	if raw, files, err := readBody(r); err != nil || string(raw) != `{"content":"x"}` || files != nil {
		t.Errorf("json: %s %v %v", raw, files, err)
	}
	if raw, _, err := readBody(httptest.NewRequest("GET", "/x", nil)); err != nil || raw != nil {
		t.Errorf("empty body: %s %v", raw, err)
	}
	for name, r := range map[string]*http.Request{
		"text body":     withType(httptest.NewRequest("POST", "/x", strings.NewReader("x")), "text/plain"),
		"untyped body":  httptest.NewRequest("POST", "/x", strings.NewReader("x")),
		"bad boundary":  withType(httptest.NewRequest("POST", "/x", strings.NewReader("--a\r\n")), "multipart/form-data; boundary=b"),
		"bad mime type": withType(httptest.NewRequest("POST", "/x", strings.NewReader("x")), "a/b; ;"),
	} {
		if _, _, err := readBody(r); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i <= maxFiles; i++ {
		w, _ := mw.CreateFormFile("files["+strconv.Itoa(i)+"]", "f")
		w.Write([]byte("x"))
	}
	mw.Close()
	if _, _, err := readBody(withType(httptest.NewRequest("POST", "/x", &buf), mw.FormDataContentType())); err == nil {
		t.Errorf("%d files accepted", maxFiles+1)
	}
}

func withType(r *http.Request, ct string) *http.Request {
	r.Header.Set("Content-Type", ct)
	return r
}

// FuzzDecodePayload feeds arbitrary JSON to the payload decoder and every
// checker: they may reject it but must not panic, and what they accept must
// keep its content.
func FuzzDecodePayload(f *testing.F) {
	for _, s := range []string{
		`{"content":"hi","flags":64}`,
		`{"components":[{"type":1,"components":[{"type":2,"style":1,"label":"a","custom_id":"x"}]}]}`,
		`{"components":[{"type":17,"components":[{"type":9,"accessory":{"type":2,"custom_id":"a"}}]}],"flags":32768}`,
		`{"embeds":[{"title":"t","fields":[{"name":"n","value":"v"}]}],"attachments":[{"id":0,"description":"d"}]}`,
		`{"custom_id":"m","title":"t","components":[{"type":1,"components":[{"type":4,"custom_id":"r","label":"l","style":1}]}]}`,
		`{"choices":[{"name":"a","value":1.5}]}`,
		`{"components":[{"type":99}]}`,
		`null`, `[]`, `{"content":null}`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := decodePayload(json.RawMessage(s), nil)
		if err != nil {
			return
		}
		e := &formErrors{}
		checkMessage(d, e)
		checkModal(d, e)
		checkChoices(d, e)
		_ = e.String()
		if _, err := json.Marshal(e.tree()); err != nil {
			t.Fatalf("form errors do not encode: %v", err)
		}
		var probe struct {
			Content *string `json:"content"`
		}
		if json.Unmarshal([]byte(s), &probe) == nil && probe.Content != nil && *probe.Content != d.Content {
			t.Fatalf("content %q decoded as %q", *probe.Content, d.Content)
		}
		for _, id := range d.CustomIDs() {
			if findComponent(d.tree, id) == nil {
				t.Fatalf("custom id %q listed but not found", id)
			}
		}
	})
}

// FuzzReadBody feeds arbitrary bytes as a multipart body.
func FuzzReadBody(f *testing.F) {
	r := multipartRequest(f, `{"content":"hi"}`, map[string][]byte{"a.png": {0x89, 'P', 'N', 'G'}})
	seed := new(bytes.Buffer)
	seed.ReadFrom(r.Body)
	_, params, _ := strings.Cut(r.Header.Get("Content-Type"), "boundary=")
	f.Add(params, seed.Bytes())
	f.Add("b", []byte("--b\r\nContent-Disposition: form-data; name=\"files[x]\"; filename=\"f\"\r\n\r\nx\r\n--b--\r\n"))
	f.Add("b", []byte("--b\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--b--\r\n"))
	f.Fuzz(func(t *testing.T, boundary string, body []byte) {
		req := httptest.NewRequest("POST", "/x", bytes.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=\""+strings.ReplaceAll(boundary, `"`, "")+"\"")
		_, files, err := readBody(req)
		if err == nil && len(files) > maxFiles {
			t.Fatalf("%d files accepted", len(files))
		}
	})
}

// locs builds a localization map from locale, text pairs.
func locs(pairs ...string) *map[discordgo.Locale]string {
	m := map[discordgo.Locale]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[discordgo.Locale(pairs[i])] = pairs[i+1]
	}
	return &m
}
