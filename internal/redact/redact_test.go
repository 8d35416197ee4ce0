package redact

import "testing"

func TestURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"http://127.0.0.1:8080/api/v10/", "http://127.0.0.1:8080/api/v10/"},
		{"http://user:pr0xy@proxy:3128/api/", "http://user:[redacted]@proxy:3128/api/"},
		{"wss://:pr0xy@gw.example/gateway", "wss://:[redacted]@gw.example/gateway"},
		{"http://user@proxy/api/", "http://user@proxy/api/"},
		{"https://h/api?password=pr0xy&v=10", "https://h/api?password=[redacted]&v=10"},
		{"https://h/api?SSLPassword=pr0xy#top", "https://h/api?SSLPassword=[redacted]#top"},
		{"https://h/api?pass%77ord=pr0xy", "https://h/api?pass%77ord=[redacted]"},
		{"not a url: password", "not a url: password"},
	}
	for _, c := range cases {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
