// Tests of the version and revision read from build information.
package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	tests := []struct {
		name         string
		bi           debug.BuildInfo
		wantVersion  string
		wantRevision string
	}{
		{
			name:         "tagged clean build",
			bi:           debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.modified", Value: "false"}}},
			wantVersion:  "v1.4.0",
			wantRevision: "0123abc",
		},
		{
			name:         "checkout with local edits",
			bi:           debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, {Key: "vcs.revision", Value: "feed42"}}},
			wantVersion:  "(devel)",
			wantRevision: "feed42+dirty",
		},
		{
			name:         "no VCS information",
			bi:           debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			wantVersion:  "(devel)",
			wantRevision: "unknown",
		},
		{
			name:         "nothing recorded",
			bi:           debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}},
			wantVersion:  "unknown",
			wantRevision: "unknown",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, r := fromBuildInfo(&tt.bi)
			if v != tt.wantVersion || r != tt.wantRevision {
				t.Errorf("fromBuildInfo = (%q, %q), want (%q, %q)", v, r, tt.wantVersion, tt.wantRevision)
			}
		})
	}
}

func TestVersionOfThisBinary(t *testing.T) {
	v, r := Version()
	if v == "" || r == "" {
		t.Fatalf("Version() = (%q, %q): neither may be empty", v, r)
	}
}
