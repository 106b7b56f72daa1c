package server_test

import (
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/server"
)

// The Host decision, by bound address, --allow-host names and the Host
// header a request carries.
func TestHostPolicy(t *testing.T) {
	cases := []struct {
		addr  string
		allow []string
		host  string
		want  bool
	}{
		// The default loopback server.
		{"127.0.0.1:8000", nil, "127.0.0.1:8000", true},
		{"127.0.0.1:8000", nil, "127.0.0.1", true},
		{"127.0.0.1:8000", nil, "127.0.0.1:9999", true}, // the port is not the check
		{"127.0.0.1:8000", nil, "localhost:8000", true},
		{"127.0.0.1:8000", nil, "LOCALHOST:8000", true},
		{"127.0.0.1:8000", nil, "localhost.:8000", true},
		{"127.0.0.1:8000", nil, "localhost", true},
		{"127.0.0.1:8000", nil, "[::1]:8000", true},
		{"127.0.0.1:8000", nil, "[::1]", true},
		{"127.0.0.1:8000", nil, "attacker.example", false},
		{"127.0.0.1:8000", nil, "attacker.example:8000", false},
		{"127.0.0.1:8000", nil, "localhost.attacker.example", false},
		{"127.0.0.1:8000", nil, "attacker.localhost", false}, // *.localhost only with --allow-host
		{"127.0.0.1:8000", nil, "127.0.0.1.nip.io", false},
		{"127.0.0.1:8000", nil, "192.168.1.20:8000", false}, // any IP only on a wildcard bind
		{"127.0.0.1:8000", nil, "127.0.0.2", false},
		{"127.0.0.1:8000", nil, "", false},
		{"127.0.0.1:8000", nil, ":8000", false},
		{"127.0.0.1:8000", nil, "::1", false},                // IPv6 without brackets is no Host
		{"127.0.0.1:8000", nil, "[127.0.0.1]", false},        // brackets are for IPv6
		{"127.0.0.1:8000", nil, "localhost:80x", false},      // not a port
		{"127.0.0.1:8000", nil, "localhost:99999", false},    // not a port
		{"127.0.0.1:8000", nil, "localhost:8000:1", false},   // not host:port
		{"127.0.0.1:8000", nil, "local host", false},         // not a name
		{"127.0.0.1:8000", nil, "localhost@attacker", false}, // not a name
		{"127.0.0.1:8000", nil, "[::1", false},               // unclosed
		{"127.0.0.1:8000", nil, strings.Repeat("a", 300), false},
		// An allowed name, exact and wild.
		{"127.0.0.1:8000", []string{"gds.test"}, "gds.test:8000", true},
		{"127.0.0.1:8000", []string{"GDS.test:8000"}, "gds.test", true},
		{"127.0.0.1:8000", []string{"gds.test"}, "x.gds.test", false},
		{"127.0.0.1:8000", []string{"*.localhost"}, "app.localhost:8000", true},
		{"127.0.0.1:8000", []string{"*.localhost"}, "a.b.localhost", true},
		{"127.0.0.1:8000", []string{"*.gds.test"}, "gds.test", false},
		{"127.0.0.1:8000", []string{"*.gds.test"}, "evilgds.test", false},
		{"127.0.0.1:8000", []string{" box.lan ", "other.lan"}, "other.lan", true}, // env: "box.lan, other.lan"
		{"127.0.0.1:8000", []string{"http://gds.test/"}, "gds.test", false},       // refused by CheckAllowHosts; never matches
		{"127.0.0.1:8000", []string{"*"}, "attacker.example", false},
		{"127.0.0.1:8000", []string{"10.0.0.5"}, "10.0.0.5:8000", true},
		// localhost and IPv6 loopback binds.
		{"localhost:8000", nil, "localhost:8000", true},
		{"localhost:8000", nil, "127.0.0.1:8000", true},
		{"localhost:8000", nil, "attacker.example:8000", false},
		{"[::1]:8000", nil, "[::1]:8000", true},
		{"[::1]:8000", nil, "[0:0:0:0:0:0:0:1]:8000", true},
		{"[::1]:8000", nil, "127.0.0.1:8000", true},
		{"[::1]:8000", nil, "attacker.example", false},
		// Every interface: loopback, localhost, any IP literal; names only by flag.
		{"0.0.0.0:8000", nil, "192.168.1.20:8000", true},
		{"0.0.0.0:8000", nil, "[fe80::1]:8000", true},
		{"0.0.0.0:8000", nil, "127.0.0.1:8000", true},
		{"0.0.0.0:8000", nil, "localhost:8000", true},
		{"0.0.0.0:8000", nil, "attacker.example:8000", false},
		{"0.0.0.0:8000", nil, "mybox.local:8000", false},
		{"0.0.0.0:8000", []string{"mybox.local"}, "mybox.local:8000", true},
		{":8000", nil, "10.1.2.3:8000", true},
		{":8000", nil, "attacker.example", false},
		{"[::]:8000", nil, "10.1.2.3", true},
		{"[::]:8000", nil, "attacker.example", false},
		// A LAN address or a name as the bind.
		{"192.168.1.20:8000", nil, "192.168.1.20:8000", true},
		{"192.168.1.20:8000", nil, "192.168.1.21:8000", false},
		{"192.168.1.20:8000", nil, "127.0.0.1:8000", false},
		{"192.168.1.20:8000", nil, "localhost:8000", true},
		{"192.168.1.20:8000", nil, "attacker.example:8000", false},
		{"mybox.lan:8000", nil, "MyBox.lan:8000", true},
		{"mybox.lan:8000", nil, "127.0.0.1:8000", false},
		{"mybox.lan:8000", nil, "attacker.example:8000", false},
	}
	for _, c := range cases {
		got := server.NewHostPolicy(c.addr, c.allow).Allows(c.host)
		if got != c.want {
			t.Errorf("bound %s, allow %q: Host %q allowed = %v, want %v", c.addr, c.allow, c.host, got, c.want)
		}
	}
}

// --allow-host values that are no host name are refused with the reason.
func TestCheckAllowHosts(t *testing.T) {
	for _, ok := range [][]string{nil, {"gds.test"}, {"*.localhost"}, {"10.0.0.5"}, {"[::1]"}, {"box.lan:8000"}, {" box.lan "}} {
		if err := server.CheckAllowHosts(ok); err != nil {
			t.Errorf("CheckAllowHosts(%q) = %v", ok, err)
		}
	}
	for _, bad := range [][]string{{""}, {"*"}, {"http://gds.test"}, {"gds.test/x"}, {"a b"}, {"*.10.0.0.5"}, {"gds.test", "user@host"}} {
		err := server.CheckAllowHosts(bad)
		if err == nil || !strings.Contains(err.Error(), "--allow-host") {
			t.Errorf("CheckAllowHosts(%q) = %v, want a refusal naming --allow-host", bad, err)
		}
	}
}
