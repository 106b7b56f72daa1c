// Package migtest helps tests start from an index an older gds left: it
// undoes the latest SQLite migration, statement by statement, so the next
// open finds one migration to apply.
package migtest

import (
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"github.com/gds-cli/gds/migrations"
)

var (
	addColumn   = regexp.MustCompile(`(?is)^ALTER\s+TABLE\s+(\w+)\s+ADD\s+COLUMN\s+(\w+)\b`)
	createTable = regexp.MustCompile(`(?is)^CREATE\s+(?:VIRTUAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\b`)
	createIndex = regexp.MustCompile(`(?is)^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\b`)
)

// Undo returns the statements that undo one migration's SQL, newest
// first: a dropped column for an added one, a dropped table or index for a
// created one. A statement of another kind is an error naming it, so a
// test fails clearly until this function learns to undo it.
func Undo(m migrations.Migration) ([]string, error) {
	var undo []string
	for _, stmt := range statements(m.SQL) {
		switch {
		case addColumn.MatchString(stmt):
			g := addColumn.FindStringSubmatch(stmt)
			undo = append(undo, `ALTER TABLE `+g[1]+` DROP COLUMN `+g[2])
		case createTable.MatchString(stmt):
			undo = append(undo, `DROP TABLE IF EXISTS `+createTable.FindStringSubmatch(stmt)[1])
		case createIndex.MatchString(stmt):
			undo = append(undo, `DROP INDEX IF EXISTS `+createIndex.FindStringSubmatch(stmt)[1])
		default:
			return nil, fmt.Errorf("migtest: cannot undo a statement of migration %s: %.60q", m.Name, stmt)
		}
	}
	for i, j := 0, len(undo)-1; i < j; i, j = i+1, j-1 {
		undo[i], undo[j] = undo[j], undo[i]
	}
	return undo, nil
}

// AgeSQLite makes db an index of the version before the latest, as an
// older gds left it: the latest migration undone and its record deleted.
func AgeSQLite(db *sql.DB) error {
	ms, err := migrations.SQLite()
	if err != nil {
		return err
	}
	last := ms[len(ms)-1]
	undo, err := Undo(last)
	if err != nil {
		return err
	}
	for _, q := range append(undo, fmt.Sprintf(`DELETE FROM gds_schema_migrations WHERE version = %d`, last.Version)) {
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("migtest: undo %s: %s: %w", last.Name, q, err)
		}
	}
	return nil
}

// statements splits migration SQL into its statements, without comment
// lines or empty pieces. Migrations hold no semicolons inside literals or
// trigger bodies that this would cut; Undo refuses what it does not know.
func statements(sqlText string) []string {
	var b strings.Builder
	for _, line := range strings.Split(sqlText, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			b.WriteString(line + "\n")
		}
	}
	var out []string
	for _, s := range strings.Split(b.String(), ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
