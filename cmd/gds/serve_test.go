package main

import (
	"strings"
	"testing"
)

// `gds serve` refuses, before it listens, a token that does not protect
// (from the flag or GDS_SERVE_TOKEN), an --allow-host that is no host name
// and a time limit that is not positive: exit 2 with the reason.
func TestServeRefusesWeakSettings(t *testing.T) {
	for _, c := range []struct {
		name string
		env  string // GDS_SERVE_TOKEN
		args []string
		want string
	}{
		{"one-character token", "", []string{"--addr", "0.0.0.0:0", "--token", "Z"}, "1 characters, fewer than 16"},
		{"white-space token", "", []string{"--addr", "0.0.0.0:0", "--token", " "}, "only white space"},
		{"short token on loopback", "", []string{"--addr", "127.0.0.1:0", "--token", "0123456789abcde"}, "15 characters"},
		{"white-space token from the environment", "   ", []string{"--addr", "0.0.0.0:0"}, "only white space"},
		{"short token from the environment", "Zq", []string{"--addr", "0.0.0.0:0"}, "2 characters"},
		{"no token on 0.0.0.0", "", []string{"--addr", "0.0.0.0:0"}, "not a loopback address"},
		{"a URL as --allow-host", "", []string{"--addr", "127.0.0.1:0", "--allow-host", "http://gds.test/"}, "--allow-host"},
		{"zero --upload-timeout", "", []string{"--addr", "127.0.0.1:0", "--upload-timeout", "0s"}, "--upload-timeout must be positive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GDS_SERVE_TOKEN", c.env)
			h := newHarness(t)
			code := h.run(append([]string{"serve"}, c.args...)...)
			if code != exitUsage || !strings.Contains(h.stderr.String(), c.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, h.stderr.String(), exitUsage, c.want)
			}
		})
	}
}
