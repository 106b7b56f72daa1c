package migtest

import (
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/migrations"
)

func TestUndo(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []string
		err  bool
	}{
		{"-- a column\nALTER TABLE f ADD COLUMN ocr INTEGER NOT NULL DEFAULT 0;", []string{"ALTER TABLE f DROP COLUMN ocr"}, false},
		{"ALTER TABLE a ADD COLUMN x INT;\nALTER TABLE b ADD COLUMN y INT;", []string{"ALTER TABLE b DROP COLUMN y", "ALTER TABLE a DROP COLUMN x"}, false},
		{"CREATE TABLE t (a TEXT) WITHOUT ROWID;\nCREATE INDEX IF NOT EXISTS t_a ON t (a);", []string{"DROP INDEX IF EXISTS t_a", "DROP TABLE IF EXISTS t"}, false},
		{"CREATE VIRTUAL TABLE IF NOT EXISTS v USING fts5(x);", []string{"DROP TABLE IF EXISTS v"}, false},
		{"UPDATE f SET x = 1;", nil, true},
	} {
		got, err := Undo(migrations.Migration{Name: "t.sql", SQL: tc.sql})
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("Undo(%q) = %q, %v; want %q (error %v)", tc.sql, got, err, tc.want, tc.err)
		}
	}
}

// The latest migration is always one a test can undo: otherwise the tests
// that start from an older index (the keystroke server's and the front
// binary's) cannot run.
func TestLatestIsUndoable(t *testing.T) {
	ms, err := migrations.SQLite()
	if err != nil {
		t.Fatal(err)
	}
	undo, err := Undo(ms[len(ms)-1])
	if err != nil || len(undo) == 0 {
		t.Fatalf("latest migration %s: undo %q, %v", ms[len(ms)-1].Name, strings.Join(undo, "; "), err)
	}
}
