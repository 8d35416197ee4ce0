package bot

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/commands"
)

// TestRouterLocalizesDefinitions: the definitions the router registers carry the
// catalog's localizations under the English name; a command the catalog lacks is
// registered in English and its missing keys are logged, naming each language.
func TestRouterLocalizesDefinitions(t *testing.T) {
	var logs bytes.Buffer
	all := commands.All(&commands.Deps{})
	var cmds []commands.Command
	for _, c := range all {
		if c.Definition().Name == "board" {
			cmds = append(cmds, c)
		}
	}
	cmds = append(cmds, &stub{name: "simul"})
	r, err := NewRouter(cmds, RouterOptions{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defs := r.Definitions()
	if len(defs) != 2 || defs[0].Name != "board" || defs[1].Name != "simul" {
		t.Fatalf("definitions %v", defs)
	}
	if n := defs[0].NameLocalizations; n == nil || (*n)["de"] != "brett" || (*n)["uk"] != "дошка" || (*n)["es-419"] != "tablero" {
		t.Errorf("/board registered with names %v", n)
	}
	if n := defs[1].NameLocalizations; n == nil || len(*n) != 0 {
		t.Errorf("/simul, untranslated, registered with names %v", n)
	}
	out := logs.String()
	if strings.Contains(out, "command=board") || !strings.Contains(out, "command=simul") || !strings.Contains(out, "de simul.name") || !strings.Contains(out, "uk simul.desc") {
		t.Errorf("log %q: want the missing texts of /simul (and none of /board)", out)
	}
}
