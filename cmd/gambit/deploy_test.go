// Tests that deploy/ (Dockerfile, systemd unit) and .dockerignore agree with the binary
// and the repository: what they run exists, the paths they name are there.

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/config"
)

// repoFile reads a file from the repository root.
func repoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDockerfile(t *testing.T) {
	df := repoFile(t, "deploy/Dockerfile")
	gomod := repoFile(t, "go.mod")

	// The build image is an exact Go release, at least go.mod's.
	from := regexp.MustCompile(`(?m)^FROM golang:(\d+)\.(\d+)\.(\d+)-[a-z]+ AS build$`).FindStringSubmatch(df)
	if from == nil {
		t.Fatal("the build stage is not FROM golang:X.Y.Z-<distribution> AS build")
	}
	goLine := regexp.MustCompile(`(?m)^go (\d+)\.(\d+)`).FindStringSubmatch(gomod)
	if goLine == nil || goLine[1] != from[1] || goLine[2] != from[2] {
		t.Errorf("go.mod asks for go %v, the image is golang %v", goLine, from[1:])
	}

	// The health check runs this binary's health command on the ops address the image
	// sets, which is loopback.
	addr := regexp.MustCompile(`(?m)^\s+GAMBIT_METRICS_ADDRESS=(\S+)$`).FindStringSubmatch(df)
	if addr == nil || !strings.HasPrefix(addr[1], "127.0.0.1:") {
		t.Fatalf("the image's metrics address %v is not loopback", addr)
	}
	hc := regexp.MustCompile(`(?m)^\s+CMD \["/gambit", "health"(?:, "[^"]*")*, "http://([^/"]+)/healthz"\]$`).FindStringSubmatch(df)
	if !strings.Contains(df, "HEALTHCHECK ") || hc == nil || hc[1] != addr[1] {
		t.Errorf("the HEALTHCHECK does not run /gambit health on http://%s/healthz", addr[1])
	}
	if !hasCommand(commands(), "health") {
		t.Error("the image's health check runs a command the binary lacks")
	}
	for _, env := range regexp.MustCompile(`GAMBIT_[A-Z_]+`).FindAllString(df, -1) {
		if !isConfigEnv(env) {
			t.Errorf("the Dockerfile sets %s, which no configuration key reads", env)
		}
	}

	// No port published on every interface: no EXPOSE, and every -p is bound to loopback.
	if regexp.MustCompile(`(?m)^EXPOSE`).MatchString(df) {
		t.Error("EXPOSE: docker run -P would publish the ops port on every interface")
	}
	runs := 0
	for _, doc := range []string{df, repoFile(t, "docs/discord.md")} {
		// A command continued on the next line (in a comment or not) reads as one line.
		doc = regexp.MustCompile(`\\\n#?\s*`).ReplaceAllString(doc, " ")
		for _, run := range regexp.MustCompile(`docker run -d[^\n]*`).FindAllString(doc, -1) {
			runs++
			if !strings.Contains(run, "--stop-timeout 30") {
				t.Errorf("%q: no --stop-timeout 30 for the graceful shutdown", run)
			}
			for _, p := range regexp.MustCompile(` -p (\S+)`).FindAllStringSubmatch(run, -1) {
				if !strings.HasPrefix(p[1], "127.0.0.1:") {
					t.Errorf("%q publishes %s beyond the host's loopback", run, p[1])
				}
			}
		}
	}
	if runs < 3 {
		t.Errorf("found %d docker run examples, want the Dockerfile's and docs/discord.md's", runs)
	}
}

func TestDockerignore(t *testing.T) {
	ig := repoFile(t, ".dockerignore")
	for _, want := range []string{".git", "**/*.db", "/gambit"} {
		if !strings.Contains(ig, "\n"+want+"\n") {
			t.Errorf(".dockerignore does not leave out %s", want)
		}
	}
	// What the build needs stays in: sources and embedded data.
	for _, kept := range []string{"go.mod", "go.sum", "cmd", "puzzle", "*.go", "*.csv"} {
		if regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(kept) + `$`).MatchString(ig) {
			t.Errorf(".dockerignore leaves out %s, which the build needs", kept)
		}
	}
}

// TestSystemdInstallSteps: the install steps at the top of deploy/gambit.service work
// from the repository root: every file they copy from the checkout is there, and the
// unit runs the binary and configuration they install.
func TestSystemdInstallSteps(t *testing.T) {
	unit := repoFile(t, "deploy/gambit.service")
	var steps []string
	for _, line := range strings.Split(unit, "\n") {
		if s, ok := strings.CutPrefix(line, "#   "); ok {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		t.Fatal("no install steps")
	}
	install := regexp.MustCompile(`install (?:-D )?-m \d+ (?:-o \S+ -g \S+ )?(\S+) (\S+)`)
	installed := map[string]bool{}
	for _, s := range steps {
		for _, m := range install.FindAllStringSubmatch(s, -1) {
			src, dst := m[1], m[2]
			installed[dst] = true
			if src == "/dev/stdin" || strings.HasPrefix(src, "/") {
				continue
			}
			if _, err := os.Stat(filepath.Join("..", "..", src)); err != nil && src != "gambit" {
				t.Errorf("step %q copies %s, which is not in the checkout", s, src)
			}
		}
	}
	if !strings.Contains(strings.Join(steps, "\n"), "go build -o gambit ./cmd/gambit") {
		t.Error("the steps install ./gambit without building it")
	}
	for _, used := range []string{"/usr/local/bin/gambit", "/etc/gambit/gambit.yaml", "/etc/gambit/env", "/etc/systemd/system/gambit.service"} {
		if !installed[used] {
			t.Errorf("nothing installs %s", used)
		}
	}
	for _, ref := range regexp.MustCompile(`(?m)^(?:ExecStart|EnvironmentFile)=(\S+)`).FindAllStringSubmatch(unit, -1) {
		if !installed[ref[1]] {
			t.Errorf("the unit uses %s, which the steps do not install", ref[1])
		}
	}
	if doc := regexp.MustCompile(`(?m)^Documentation=file://(\S+)`).FindStringSubmatch(unit); doc != nil && !installed[doc[1]] {
		t.Errorf("Documentation=%s, which the steps do not install", doc[1])
	}
}

func hasCommand(cmds []command, name string) bool {
	for _, c := range cmds {
		if c.name == name {
			return true
		}
	}
	return false
}

// isConfigEnv reports whether env overrides a configuration key.
func isConfigEnv(env string) bool {
	for _, k := range config.Keys() {
		if config.EnvName(k) == env {
			return true
		}
	}
	return false
}
