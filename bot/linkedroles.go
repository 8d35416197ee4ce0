// linkedroles.go: the application's role-connection metadata (Linked Roles): the records
// a server's admin can gate a role on, registered at start-up. Each rating record holds
// the player's best rating in the category across the servers they play in (a role
// connection belongs to the user, not to a server); games counts their rated games.

package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/linkedroles"
)

// RoleMetadata returns the records Gambit registers (the keys service/linkedroles
// pushes): "at least" comparisons of the
// ratings per category and of the rated games played.
func RoleMetadata() []*discordgo.ApplicationRoleConnectionMetadata {
	ge := discordgo.ApplicationRoleConnectionMetadataIntegerGreaterThanOrEqual
	return []*discordgo.ApplicationRoleConnectionMetadata{
		{Type: ge, Key: linkedroles.KeyBullet, Name: "Bullet rating", Description: "Best bullet rating on a Gambit ladder at least"},
		{Type: ge, Key: linkedroles.KeyBlitz, Name: "Blitz rating", Description: "Best blitz rating on a Gambit ladder at least"},
		{Type: ge, Key: linkedroles.KeyRapid, Name: "Rapid rating", Description: "Best rapid rating on a Gambit ladder at least"},
		{Type: ge, Key: linkedroles.KeyClassical, Name: "Classical rating", Description: "Best classical rating on a Gambit ladder at least"},
		{Type: ge, Key: linkedroles.KeyGames, Name: "Rated games", Description: "Rated games played on Gambit at least"},
	}
}

// RegisterRoleMetadata replaces the application's role-connection metadata with
// RoleMetadata (one request).
func (c *REST) RegisterRoleMetadata(ctx context.Context, appID string) error {
	return c.call(ctx, "register role metadata", "register role-connection metadata", func(opts ...discordgo.RequestOption) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, err := c.s.ApplicationRoleConnectionMetadataUpdate(appID, RoleMetadata())
		return err
	})
}
