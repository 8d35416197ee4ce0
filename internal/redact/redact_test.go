package redact

import (
	"strings"
	"testing"
)

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

// TestRedactDSN: every form of a PostgreSQL connection string libpq reads keeps its
// database and loses its password.
func TestRedactDSN(t *testing.T) {
	const r = "[redacted]"
	cases := []struct{ name, in, want string }{
		{"URL, no password", "postgres://gambit@db:5432/gambit?sslmode=disable", "postgres://gambit@db:5432/gambit?sslmode=disable"},
		{"URL, no user", "postgresql://db/gambit", "postgresql://db/gambit"},
		{"URL, user and password", "postgres://gambit:s3cret@db:5432/gambit", "postgres://gambit:" + r + "@db:5432/gambit"},
		{"URL, postgresql scheme in capitals", "POSTGRESQL://gambit:s3cret@db/gambit", "POSTGRESQL://gambit:" + r + "@db/gambit"},
		{"URL, password only", "postgres://:s3cret@db/gambit", "postgres://:" + r + "@db/gambit"},
		{"URL, empty password", "postgres://gambit:@db/gambit", "postgres://gambit:" + r + "@db/gambit"},
		{"URL, password with @ / ? unescaped", "postgres://gambit:p@ss/w?rd@db/gambit", "postgres://gambit:" + r + "@db/gambit"},
		{"URL, password percent-encoded", "postgres://gambit:p%40ss@db/gambit", "postgres://gambit:" + r + "@db/gambit"},
		{"URL, several hosts", "postgres://gambit:s3cret@db1:5432,db2:5432/gambit?target_session_attrs=read-write",
			"postgres://gambit:" + r + "@db1:5432,db2:5432/gambit?target_session_attrs=read-write"},
		{"URL, ?password=", "postgres://gambit@db/gambit?password=s3cret", "postgres://gambit@db/gambit?password=" + r},
		{"URL, &password= among others", "postgres://db/gambit?sslmode=require&password=s3cret&application_name=gambit",
			"postgres://db/gambit?sslmode=require&password=" + r + "&application_name=gambit"},
		{"URL, percent-encoded key", "postgres://db/gambit?pass%77ord=s3cret", "postgres://db/gambit?pass%77ord=" + r},
		{"URL, sslpassword", "postgres://db/gambit?sslkey=k.pem&sslpassword=s3cret", "postgres://db/gambit?sslkey=k.pem&sslpassword=" + r},
		{"URL, both places", "postgres://u:s3cret@db/gambit?password=s3cret#frag", "postgres://u:" + r + "@db/gambit?password=" + r + "#frag"},
		{"keywords, no password", "host=db dbname=gambit user=gambit", "host=db dbname=gambit user=gambit"},
		{"keywords, password", "host=db password=s3cret dbname=gambit", "host=db password=" + r + " dbname=gambit"},
		{"keywords, password last", "host=db dbname=gambit password=s3cret", "host=db dbname=gambit password=" + r},
		{"keywords, spaces around =", "host=db password = s3cret dbname=gambit", "host=db password = " + r + " dbname=gambit"},
		{"keywords, quoted with spaces", "host=db password='s3 cr et' dbname=gambit", "host=db password=" + r + " dbname=gambit"},
		{"keywords, quoted with escapes", `host=db password='it\'s a \\ s3cret' dbname=gambit`, "host=db password=" + r + " dbname=gambit"},
		{"keywords, unquoted with an escaped space", `host=db password=s3\ cret dbname=gambit`, "host=db password=" + r + " dbname=gambit"},
		{"keywords, empty quoted", "host=db password='' dbname=gambit", "host=db password=" + r + " dbname=gambit"},
		{"keywords, unterminated quote", "host=db password='s3cret dbname=gambit", "host=db password=" + r},
		{"keywords, tabs and newlines", "host=db\tpassword=s3cret\ndbname=gambit", "host=db\tpassword=" + r + "\ndbname=gambit"},
		{"keywords, sslpassword", "host=db sslpassword=s3cret", "host=db sslpassword=" + r},
		{"keywords, a quoted value holding password=", "host=db application_name='password=x' dbname=gambit", "host=db application_name='password=x' dbname=gambit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := DSN(c.in)
			if got != c.want {
				t.Errorf("DSN(%q)\n= %q\nwant %q", c.in, got, c.want)
			}
			if strings.Contains(got, "s3") || strings.Contains(got, "cret") || strings.Contains(got, "p@ss") {
				t.Errorf("DSN(%q) = %q keeps part of the secret", c.in, got)
			}
		})
	}
}
