package server

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// pathRoot is a directory of this machine and what a message sent to a
// client says instead.
type pathRoot struct {
	dir  string
	name string
}

// pathRedactor replaces the machine's directories in messages bound for
// HTTP clients: a client needs to know that the upload directory is not
// writable, not where the user's home is.
type pathRedactor struct{ roots []pathRoot }

// newPathRedactor replaces each root's dir (and the directory it resolves
// to through symbolic links) by its name; the longest dir wins, so a
// GDS_HOME inside the user's home reads "<gds home>", not "~/…". Empty,
// relative and root directories are left out.
func newPathRedactor(roots ...pathRoot) pathRedactor {
	var out []pathRoot
	seen := map[string]bool{}
	add := func(dir, name string) {
		dir = filepath.Clean(dir)
		if !filepath.IsAbs(dir) || dir == string(filepath.Separator) || seen[dir] {
			return
		}
		seen[dir] = true
		out = append(out, pathRoot{dir: dir, name: name})
	}
	for _, r := range roots {
		if r.dir == "" {
			continue
		}
		add(r.dir, r.name)
		if resolved, err := filepath.EvalSymlinks(r.dir); err == nil {
			add(resolved, r.name)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].dir) > len(out[j].dir) })
	return pathRedactor{roots: out}
}

// serverPaths are the directories a server's messages may name: the gds
// home, the upload directory, the directory whose .env was read, and the
// user's home.
func serverPaths(home, uploadDir, workDir string) pathRedactor {
	userHome, _ := os.UserHomeDir()
	return newPathRedactor(
		pathRoot{home, "<gds home>"},
		pathRoot{uploadDir, "<upload dir>"},
		pathRoot{userHome, "~"},
		pathRoot{workDir, "."},
	)
}

// redact is s with every root's dir replaced where it stands as a whole
// path (not inside a longer name: /a/home2 is not /a/home).
func (p pathRedactor) redact(s string) string {
	for _, r := range p.roots {
		s = replacePath(s, r.dir, r.name)
	}
	return s
}

func replacePath(s, dir, name string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, dir)
		if i < 0 {
			break
		}
		end := i + len(dir)
		if (i > 0 && isPathByte(s[i-1])) || (end < len(s) && !pathEnds(s[end:])) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(name)
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// isPathByte: a byte that may continue a file name or a path.
func isPathByte(c byte) bool {
	return c == '/' || c == '\\' || c == '.' || c == '-' || c == '_' || c == '~' ||
		c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// pathEnds reports whether a path followed by rest ends there: rest starts
// with a separator (the path goes on inside the directory), or a byte that
// ends a name (":", a space, a quote, ...), or a sentence's full stop.
func pathEnds(rest string) bool {
	c := rest[0]
	switch {
	case c == '/' || c == filepath.Separator:
		return true
	case c == '.':
		return len(rest) == 1 || rest[1] == ' ' || rest[1] == '\n'
	}
	return !isPathByte(c)
}
