// Package envfile reads .env files (Read, Parse: one linear pass, at most
// MaxSize bytes, errors that name the line and never a value) and edits
// them in place: it sets and comments out
// settings while keeping every other line (comments, blank lines, other
// settings) as it was and in its order, and writes the result atomically
// (a temporary file in the same directory, synced, then renamed over the
// original) with 0600 permissions, since the file may hold secrets.
// Values are never logged or put in errors.
package envfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Perm is the mode of a written .env file.
const Perm = 0o600

// Edit is a change to a .env file.
type Edit struct {
	// Set are KEY → value pairs, written in this order: an existing
	// setting is rewritten on its own line (its first occurrence; later
	// occurrences are removed), a new one is appended.
	Set []KV
	// Comment are keys whose lines are commented out, with Note after them.
	Comment []string
	Note    string
}

// KV is one setting.
type KV struct{ Key, Value string }

// Apply edits the file at path (created, with its directory, when
// missing) and reports whether it changed anything.
func Apply(path string, e Edit) (changed bool, err error) {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	out := Rewrite(old, e)
	if err := verify(out, e); err != nil {
		return false, fmt.Errorf("edit %s: %w", path, err)
	}
	if bytes.Equal(out, old) && err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := WriteAtomic(path, out); err != nil {
		return false, err
	}
	return true, nil
}

// ErrUnwritable is a value the .env parser could not read back as it is
// (a double-quoted value ending in a backslash).
var ErrUnwritable = errors.New("a value cannot be written to a .env file as it is")

// verify parses out as gds will and checks that every value set reads
// back unchanged; the error names the key, never the value.
func verify(out []byte, e Edit) error {
	vals, err := Parse(out)
	if err != nil {
		return fmt.Errorf("%w: the result does not parse", ErrUnwritable)
	}
	for _, kv := range e.Set {
		if vals[kv.Key] != kv.Value {
			return fmt.Errorf("%w (%s)", ErrUnwritable, kv.Key)
		}
	}
	return nil
}

// WriteAtomic replaces path with data: a reader sees the old file or the
// new one, never a part.
func WriteAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(Perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil { // make the rename durable
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// assignRE matches the start of an assignment: optional "export ", the
// key, "=" or ":".
var assignRE = regexp.MustCompile(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*[=:]`)

// entry is one logical line of the file: an assignment may span several
// physical lines (a quoted value with newlines).
type entry struct {
	key   string // "" for comments, blank lines and anything unparsed
	lines []string
}

// parse splits data into entries, keeping every byte: joining the lines
// of all entries gives data back.
func parse(data []byte) []entry {
	var out []entry
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i := 0; i < len(lines); i++ {
		m := assignRE.FindStringSubmatchIndex(lines[i])
		if m == nil {
			out = append(out, entry{lines: []string{lines[i]}})
			continue
		}
		e := entry{key: lines[i][m[2]:m[3]], lines: []string{lines[i]}}
		rest := strings.TrimLeft(lines[i][m[1]:], " \t")
		if q := quoteOf(rest); q != 0 && !closed(rest[1:], q) {
			for i+1 < len(lines) {
				i++
				e.lines = append(e.lines, lines[i])
				if closed(lines[i], q) {
					break
				}
			}
		}
		out = append(out, e)
	}
	return out
}

func quoteOf(v string) byte {
	if v != "" && (v[0] == '"' || v[0] == '\'') {
		return v[0]
	}
	return 0
}

// closed reports whether s holds the closing quote q (a double quote
// preceded by a backslash does not close).
func closed(s string, q byte) bool {
	for i := 0; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q:
			return true
		}
	}
	return false
}

// Rewrite returns data with e applied; see Edit.
func Rewrite(data []byte, e Edit) []byte {
	entries := parse(data)
	set := map[string]string{}
	for _, kv := range e.Set {
		set[kv.Key] = kv.Value
	}
	comment := map[string]bool{}
	for _, k := range e.Comment {
		comment[k] = true
	}
	done := map[string]bool{}
	var b strings.Builder
	b.Grow(len(data) + 64)
	for _, en := range entries {
		v, isSet := set[en.key]
		switch {
		case en.key != "" && isSet:
			if done[en.key] {
				continue // a later duplicate would override the new value
			}
			done[en.key] = true
			b.WriteString(Line(en.key, v))
			b.WriteByte('\n')
		case en.key != "" && comment[en.key]:
			for i, l := range en.lines {
				body := strings.TrimRight(l, "\r\n")
				b.WriteString("# " + body)
				if i == 0 && e.Note != "" {
					b.WriteString("  # " + e.Note)
				}
				b.WriteByte('\n')
			}
		default:
			for _, l := range en.lines {
				b.WriteString(l)
			}
		}
	}
	out := b.String()
	for _, kv := range e.Set {
		if done[kv.Key] {
			continue
		}
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		out += Line(kv.Key, kv.Value) + "\n"
		done[kv.Key] = true
	}
	return []byte(out)
}

// bareRE is a value that needs no quotes.
var bareRE = regexp.MustCompile(`^[A-Za-z0-9_./:,@+=~%-]*$`)

// Line is KEY=VALUE with the value quoted so that the .env parser reads it
// back unchanged: bare when it is plain, in single quotes (taken
// literally) when it has no single quote, backslash or newline, else in double
// quotes with \, ", $ and newlines escaped.
func Line(key, value string) string {
	switch {
	case bareRE.MatchString(value):
		return key + "=" + value
	case !strings.ContainsAny(value, "'\\\n\r"):
		return key + "='" + value + "'"
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "\n", `\n`, "\r", `\r`)
	return key + `="` + r.Replace(value) + `"`
}
