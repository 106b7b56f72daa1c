package redact

import (
	"strings"
	"testing"
)

func TestURLs(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"no secrets here", "no secrets here"},
		{"https://api.example.com/v1", "https://api.example.com/v1"},
		{"https://user:s3cret@host/v1", "https://user:****@host/v1"},
		{"https://tok3n@host/", "https://****@host/"},
		{"https://user:p@ss@host:8443/x?y=1", "https://user:****@host:8443/x?y=1"},
		{"postgres://gds:pw@db:5432/gds?sslmode=disable", "postgres://gds:****@db:5432/gds?sslmode=disable"},
		{"postgres://gds@db/gds", "postgres://gds@db/gds"},
		{"POSTGRESQL://role@db/gds", "POSTGRESQL://role@db/gds"},
		{"postgres://h/app?password=s3cret&sslmode=disable", "postgres://h/app?password=****&sslmode=disable"},
		{"https://h/x?key=AIzaSECRET&q=cats", "https://h/x?key=****&q=cats"},
		{"https://h/x?access_token=ya29.x#frag", "https://h/x?access_token=****#frag"},
		{"https://h/x?client_secret=abc&X-Goog-Signature=1", "https://h/x?client_secret=****&X-Goog-Signature=1"},
		{"https://h/x?keyword=cats&monkey=1", "https://h/x?keyword=cats&monkey=1"},
		{"host=db user=gds password=s3cret dbname=gds", "host=db user=gds password=**** dbname=gds"},
		{"host=db password = 's3 cr\\'et' dbname=gds", "host=db password = **** dbname=gds"},
		{"sslpassword=k3y host=db", "sslpassword=**** host=db"},
		{"user=x mypassword=visible", "user=x mypassword=visible"},
		{`DATABASE_URL="password=s3cret": bad scheme`, `DATABASE_URL="password=**** bad scheme`},
		{`Get "https://user:***@127.0.0.1:1/v1/models": refused`, `Get "https://user:****@127.0.0.1:1/v1/models": refused`},
		{"two: https://a:1@x/ and ftp://tok@y/", "two: https://a:****@x/ and ftp://****@y/"},
		{"mail me@example.com about https://x/", "mail me@example.com about https://x/"},
		{"opaque://u:pw@[::1/x", "opaque://u:****@[::1/x"},
	}
	for _, c := range cases {
		got := URLs(c.in)
		if got != c.want {
			t.Errorf("URLs(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if again := URLs(got); again != got {
			t.Errorf("URLs is not idempotent on %q: %q", got, again)
		}
		for _, secret := range []string{"s3cret", "tok3n", "p@ss", "k3y", "AIzaSECRET", "ya29", "cr\\'et"} {
			if strings.Contains(got, secret) {
				t.Errorf("URLs(%q) = %q keeps %q", c.in, got, secret)
			}
		}
	}
}

func FuzzURLs(f *testing.F) {
	for _, s := range []string{"https://u:p@h/?token=x", "host=h password='a\\'b", "password=", "x://@", "?key=", "sslpassword"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := URLs(s)
		if again := URLs(got); again != got {
			t.Errorf("not idempotent: %q → %q → %q", s, got, again)
		}
	})
}
