// Package migrations embeds the versioned SQL schema files of gds's index
// back ends and is the one place that reads and validates them.
//
// Files are named NNNN_description.sql (four digits, then lower-case
// letters, digits and underscores); versions start at 0001 and have no
// gaps. Each back end applies each file once, in version order, in one
// transaction, and records it in its gds_schema_migrations table.
//
// The Postgres files use unqualified names: the store applies them with the
// target schema first on the search_path, after creating the vector
// extension (which therefore lives outside that schema, normally in public).
package migrations

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

//go:embed sqlite/*.sql
var sqliteFS embed.FS

//go:embed postgres/*.sql
var postgresFS embed.FS

// Migration is one schema file.
type Migration struct {
	Version int    // NNNN of the file name, from 1
	Name    string // the file name, e.g. "0002_chunk_fts.sql"
	SQL     string
}

var (
	sqliteOnce   = sync.OnceValues(func() ([]Migration, error) { return Load(sqliteFS, "sqlite") })
	postgresOnce = sync.OnceValues(func() ([]Migration, error) { return Load(postgresFS, "postgres") })
)

// SQLite returns the embedded SQLite migrations in version order.
func SQLite() ([]Migration, error) { return sqliteOnce() }

// SQLiteLatest is Latest(SQLite()) read from the file names alone: no file
// is read or validated (Load does that; the tests check both agree). The
// read-only keystroke path checks an index's schema version with it in
// every process.
func SQLiteLatest() (int, error) { return latestByName(sqliteFS, "sqlite") }

// latestByName is the version of the last NNNN_….sql file of dir.
func latestByName(fsys fs.FS, dir string) (int, error) {
	entries, err := fs.ReadDir(fsys, dir) // sorted by name, so by version
	if err != nil {
		return 0, fmt.Errorf("read %s migrations: %w", dir, err)
	}
	if len(entries) == 0 {
		return 0, nil
	}
	name := entries[len(entries)-1].Name()
	v, err := strconv.Atoi(name[:min(4, len(name))])
	if err != nil {
		return 0, fmt.Errorf("%s migration %q: want a file named NNNN_description.sql", dir, name)
	}
	return v, nil
}

// Postgres returns the embedded Postgres + pgvector migrations in version order.
func Postgres() ([]Migration, error) { return postgresOnce() }

// Latest is the highest version in ms (0 for none): the schema version a
// store migrated with ms has.
func Latest(ms []Migration) int {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].Version
}

// fileName is compiled on first use: every gds process links this package
// (the front binary's keystroke path too) and most never load a migration.
var fileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`) })

// Load reads and validates the migrations in directory dir of fsys: every
// entry must be a file named NNNN_description.sql with non-blank SQL, and
// the versions must run 1, 2, 3, … without gaps or repeats. The result is in
// version order.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read %s migrations: %w", dir, err)
	}
	out := make([]Migration, 0, len(entries))
	for _, e := range entries { // ReadDir sorts by name, so by version
		name := e.Name()
		m := fileName().FindStringSubmatch(name)
		if m == nil || e.IsDir() {
			return nil, fmt.Errorf("%s migration %q: want a file named NNNN_description.sql (lower case)", dir, name)
		}
		v, _ := strconv.Atoi(m[1]) // four digits always parse
		if want := len(out) + 1; v != want {
			return nil, fmt.Errorf("%s migration %s: version %d, want %d (versions start at 0001 and have no gaps or repeats)", dir, name, v, want)
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("read %s migration %s: %w", dir, name, err)
		}
		if strings.TrimSpace(string(b)) == "" {
			return nil, fmt.Errorf("%s migration %s is empty", dir, name)
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(b)})
	}
	if len(out) == 0 {
		return nil, errors.New("no " + dir + " migrations")
	}
	return out, nil
}
