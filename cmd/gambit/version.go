// version.go: `gambit version`, the build's module version and VCS revision.

package main

import (
	"fmt"
	"io"

	"github.com/gambitchess/gambit/internal/buildinfo"
)

// runVersion implements `gambit version`: "gambit VERSION (revision REV)".
func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	version, revision := buildinfo.Version()
	_, err := fmt.Fprintf(stdout, "gambit %s (revision %s)\n", version, revision)
	return err
}
