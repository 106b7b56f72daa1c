// Package gdshome locates the gds home directory from the environment
// alone: GDS_HOME, else the OS user config directory + "/gds". The
// configuration (internal/config) resolves the home the same way — it
// also reads GDS_HOME from the current directory's .env — and the front
// binary, which reads no configuration, finds the keystroke server's
// socket there. It depends on nothing but the standard library's path
// handling, so that linking it costs a process nothing.
package gdshome

import (
	"path/filepath"
	"strings"
)

// Env is the environment variable naming the gds home.
const Env = "GDS_HOME"

// FromEnv returns the gds home the environment names: GDS_HOME (resolved
// against workDir and homeDir), else Default; "" when neither can be
// found.
func FromEnv(lookup func(string) (string, bool), workDir, homeDir, goos string) string {
	if v, ok := lookup(Env); ok && strings.TrimSpace(v) != "" {
		return Resolve(strings.TrimSpace(v), workDir, homeDir)
	}
	return Default(lookup, homeDir, goos)
}

// Default is the gds home when GDS_HOME is not set: the OS user config
// directory + "/gds", or "" when there is none.
func Default(lookup func(string) (string, bool), homeDir, goos string) string {
	base := UserConfigDir(goos, lookup, homeDir)
	if base == "" {
		return ""
	}
	return filepath.Join(base, "gds")
}

// UserConfigDir mirrors os.UserConfigDir on an injected environment:
// %AppData% on Windows, ~/Library/Application Support on macOS,
// $XDG_CONFIG_HOME (when absolute) or ~/.config elsewhere.
func UserConfigDir(goos string, lookup func(string) (string, bool), homeDir string) string {
	switch goos {
	case "windows":
		v, _ := lookup("AppData")
		return v
	case "darwin", "ios":
		if homeDir == "" {
			return ""
		}
		return filepath.Join(homeDir, "Library", "Application Support")
	default:
		if v, ok := lookup("XDG_CONFIG_HOME"); ok && filepath.IsAbs(v) {
			return v
		}
		if homeDir == "" {
			return ""
		}
		return filepath.Join(homeDir, ".config")
	}
}

// Resolve expands "~" and "~/" against homeDir and makes p absolute
// against workDir.
func Resolve(p, workDir, homeDir string) string {
	if p == "~" && homeDir != "" {
		return homeDir
	}
	if strings.HasPrefix(p, "~/") && homeDir != "" {
		p = filepath.Join(homeDir, p[2:])
	}
	if !filepath.IsAbs(p) && workDir != "" {
		p = filepath.Join(workDir, p)
	}
	return filepath.Clean(p)
}
