package gdshome

import (
	"path/filepath"
	"testing"
)

func TestFromEnv(t *testing.T) {
	env := func(kv map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
	}
	cases := []struct {
		name     string
		env      map[string]string
		wd, home string
		goos     string
		want     string
	}{
		{"GDS_HOME absolute", map[string]string{"GDS_HOME": "/data/gds"}, "/wd", "/home/u", "linux", "/data/gds"},
		{"GDS_HOME with ~", map[string]string{"GDS_HOME": "~/gds"}, "/wd", "/home/u", "darwin", "/home/u/gds"},
		{"GDS_HOME ~ alone", map[string]string{"GDS_HOME": "~"}, "/wd", "/home/u", "linux", "/home/u"},
		{"GDS_HOME relative", map[string]string{"GDS_HOME": "./x/../y"}, "/wd", "/home/u", "linux", "/wd/y"},
		{"GDS_HOME blank", map[string]string{"GDS_HOME": "  "}, "/wd", "/home/u", "linux", "/home/u/.config/gds"},
		{"XDG absolute", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "/wd", "/home/u", "linux", "/xdg/gds"},
		{"XDG relative ignored", map[string]string{"XDG_CONFIG_HOME": "xdg"}, "/wd", "/home/u", "linux", "/home/u/.config/gds"},
		{"macOS", map[string]string{}, "/wd", "/Users/u", "darwin", "/Users/u/Library/Application Support/gds"},
		{"Windows", map[string]string{"AppData": `C:\Users\u\AppData\Roaming`}, "", "", "windows", filepath.Join(`C:\Users\u\AppData\Roaming`, "gds")},
		{"no home", map[string]string{}, "/wd", "", "linux", ""},
	}
	for _, c := range cases {
		if got := FromEnv(env(c.env), c.wd, c.home, c.goos); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
