// health.go: `gambit health [URL]`, the health check of a container whose image has no curl.

package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// defaultHealthURL is the bot's health endpoint at the container's metrics.address.
const defaultHealthURL = "http://127.0.0.1:9090/healthz"

// runHealth implements `gambit health [--timeout D] [URL]`: it GETs the bot's /healthz on
// this machine and succeeds (exit 0) on 200, fails (exit 1) on any other answer or none.
// Only loopback addresses are accepted: it is a local check, not a fetcher.
func runHealth(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("health", stderr)
	timeout := fs.Duration("timeout", 5*time.Second, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	target := defaultHealthURL
	switch fs.NArg() {
	case 0:
	case 1:
		target = fs.Arg(0)
	default:
		return fmt.Errorf("unexpected argument %q: give one URL", strings.Join(fs.Args()[1:], " "))
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q: want an http URL such as %s", target, defaultHealthURL)
	}
	if !loopbackHost(u.Hostname()) {
		return fmt.Errorf("%q: the health check only asks this machine (127.0.0.1, ::1 or localhost)", target)
	}
	client := &http.Client{Timeout: *timeout}
	resp, err := client.Get(u.String())
	if err != nil {
		return fmt.Errorf("unhealthy: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	text := strings.TrimSpace(string(body))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unhealthy: %s: %s", resp.Status, text)
	}
	_, err = fmt.Fprintln(stdout, "healthy:", text)
	return err
}

// loopbackHost reports whether host names this machine.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
