// Tests of `gambit health`: 200 is healthy, anything else or no answer is not.

package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHealth(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
		w.Write([]byte(`{"status":"ok","shards_connected":[true]}`))
	}))
	defer srv.Close()
	// A port nobody listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/healthz"
	ln.Close()
	// A server that never answers in time.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { time.Sleep(time.Second) }))
	defer slow.Close()

	for _, c := range []struct {
		name   string
		status int
		args   []string
		ok     bool
		want   string
	}{
		{"healthy", 200, []string{srv.URL + "/healthz"}, true, `healthy: {"status":"ok"`},
		{"503", 503, []string{srv.URL + "/healthz"}, false, "unhealthy: 503 Service Unavailable"},
		{"wrong path", 200, []string{srv.URL + "/nothing"}, false, "404"},
		{"nobody listening", 200, []string{closed}, false, "unhealthy"},
		{"too slow", 200, []string{"--timeout", "100ms", slow.URL}, false, "unhealthy"},
		{"not this machine", 200, []string{"http://192.0.2.1:9090/healthz"}, false, "only asks this machine"},
		{"not http", 200, []string{"ftp://127.0.0.1/healthz"}, false, "want an http URL"},
		{"two URLs", 200, []string{srv.URL, srv.URL}, false, "unexpected argument"},
	} {
		status = c.status
		var out, errOut bytes.Buffer
		err := runHealth(c.args, &out, &errOut)
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok %v", c.name, err, c.ok)
			continue
		}
		got := out.String()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: %q does not say %q", c.name, got, c.want)
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "127.1.2.3": true, "::1": true, "localhost": true, "LocalHost": true,
		"0.0.0.0": false, "192.0.2.1": false, "example.org": false, "": false} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v", host, got)
		}
	}
}
