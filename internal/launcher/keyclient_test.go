package launcher

import (
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
)

func TestKeyServerOffAndSocket(t *testing.T) {
	for v, off := range map[string]bool{"": false, "on": false, "off": true, "0": true, "FALSE": true, "no": true} {
		if got := KeyServerOff(func(string) (string, bool) { return v, v != "" }); got != off {
			t.Errorf("%s=%q: off = %v, want %v", KeyServerEnv, v, got, off)
		}
	}
	if s := KeySocket(&config.Config{DataDir: "/" + strings.Repeat("d", 120)}); s != "" {
		t.Errorf("a socket path over the limit: %q", s)
	}
	if s := KeySocket(&config.Config{DataDir: "/home/u/.gds"}); s != "/home/u/.gds/keystroke.sock" {
		t.Errorf("socket = %q", s)
	}
}
