// Package buildinfo reports the module version and VCS revision the running binary was built from.
package buildinfo

import "runtime/debug"

// unknown stands for a version or revision the binary does not record (a test binary, or a
// build outside a VCS checkout with -buildvcs=false).
const unknown = "unknown"

// Version returns the main module's version (a tag such as v1.2.3, or "(devel)" for a build
// from a checkout) and the VCS revision it was built from, suffixed "+dirty" when the checkout
// had uncommitted changes. Either is "unknown" when the binary does not record it.
func Version() (version, revision string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return unknown, unknown
	}
	return fromBuildInfo(bi)
}

// fromBuildInfo extracts the version and revision from build information.
func fromBuildInfo(bi *debug.BuildInfo) (version, revision string) {
	version, revision = bi.Main.Version, unknown
	if version == "" {
		version = unknown
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if s.Value != "" {
				revision = s.Value
			}
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && revision != unknown {
		revision += "+dirty"
	}
	return version, revision
}
