// webpages.go: the web server gives the commands the links of a server's pages too.

package serve

import (
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/web"
)

// The web server makes both kinds of links the commands give: a game's and a server's.
var (
	_ commands.WebLinks = (*web.Server)(nil)
	_ commands.WebPages = (*web.Server)(nil)
)
