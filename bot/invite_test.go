package bot

// Tests of the invite: its permissions, its URL, and the documentation of both.

import (
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestPermissions(t *testing.T) {
	seen := int64(0)
	for _, p := range neededPermissions {
		if p.Bit == 0 || p.Bit&(p.Bit-1) != 0 || seen&p.Bit != 0 {
			t.Errorf("%s: bit %d is not a new single permission", p.Name, p.Bit)
		}
		if p.Name == "" || p.Why == "" {
			t.Errorf("permission %d has no name or reason", p.Bit)
		}
		seen |= p.Bit
	}
	if got := Permissions(); got != 317827697664 {
		t.Errorf("Permissions() = %d", got)
	}
	// Nothing that could moderate, manage or read more than the bot's own work.
	for _, bit := range []int64{discordgo.PermissionAdministrator, discordgo.PermissionManageMessages, discordgo.PermissionManageThreads,
		discordgo.PermissionManageChannels, discordgo.PermissionMentionEveryone, discordgo.PermissionManageRoles} {
		if Permissions()&bit != 0 {
			t.Errorf("the invite asks for permission %d", bit)
		}
	}
}

func TestInviteURL(t *testing.T) {
	u, err := url.Parse(InviteURL("1234567890"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if u.Scheme != "https" || u.Host != "discord.com" || u.Path != "/oauth2/authorize" {
		t.Errorf("URL %s", u)
	}
	if q.Get("client_id") != "1234567890" || q.Get("integration_type") != "0" || q.Get("scope") != "bot applications.commands" || q.Get("permissions") != strconv.FormatInt(Permissions(), 10) {
		t.Errorf("query %v", q)
	}
	u, err = url.Parse(UserInstallURL("1234567890"))
	if err != nil {
		t.Fatal(err)
	}
	q = u.Query()
	if u.Host != "discord.com" || q.Get("client_id") != "1234567890" || q.Get("integration_type") != "1" || q.Get("scope") != "applications.commands" || q.Has("permissions") {
		t.Errorf("user install URL %s", u)
	}
}

// TestInviteDocumented keeps docs/discord.md's permission table and invite URL equal to
// the code's.
func TestInviteDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/discord.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, p := range neededPermissions {
		row := "| " + p.Name + " | 1 << "
		if !strings.Contains(text, row) {
			t.Errorf("docs/discord.md has no row %q", row)
		}
	}
	if n := strings.Count(text, " | 1 << "); n != len(neededPermissions) {
		t.Errorf("docs/discord.md lists %d permissions, the code %d", n, len(neededPermissions))
	}
	if want := "permissions=" + strconv.FormatInt(Permissions(), 10); !strings.Contains(text, want) {
		t.Errorf("docs/discord.md's invite URL lacks %s", want)
	}
	for _, want := range []string{
		strings.Replace(InviteURL("1"), "client_id=1", "client_id=APPLICATION_ID", 1),
		strings.Replace(UserInstallURL("1"), "client_id=1", "client_id=APPLICATION_ID", 1),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/discord.md lacks the install link %s", want)
		}
	}
}
