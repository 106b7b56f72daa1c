package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// Only the SQLSTATEs of damaged storage are damage; the code decides, not
// the text.
func TestCorruptionCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "XX001", Message: "invalid page in block 7"}, true},
		{fmt.Errorf("get files: %w", &pgconn.PgError{Code: "XX002", Message: "index is corrupted"}), true},
		{&pgconn.PgError{Code: "XX000", Message: "internal error"}, false},
		{&pgconn.PgError{Code: "23505", Message: "data corrupted"}, false},
		{errors.New("ERROR: invalid page in block 7 (SQLSTATE XX001)"), false},
	} {
		if got := corruption(tc.err) != nil; got != tc.want {
			t.Errorf("corruption(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// A statement that Postgres fails with data_corrupted or index_corrupted
// (raised here by a trigger, as the server raises them on a damaged page)
// is a damaged index: exit 5, and a hint that sends the user to the
// database's administrator, not to `gds db rebuild`.
func TestCorruptionIsDamage(t *testing.T) {
	url := testURL(t)
	for _, code := range []string{"data_corrupted", "index_corrupted"} {
		t.Run(code, func(t *testing.T) {
			schema := storetest.FreshSchema(t, url, "gds_test_")
			s := openTest(t, url, schema)
			ctx := context.Background()
			if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
				t.Fatal(err)
			}
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			q := pgx.Identifier{schema}.Sanitize()
			for _, stmt := range []string{
				`CREATE FUNCTION ` + q + `.damaged() RETURNS trigger LANGUAGE plpgsql AS $$
					BEGIN RAISE EXCEPTION 'simulated damage' USING ERRCODE = '` + code + `'; END $$`,
				`CREATE TRIGGER damaged BEFORE INSERT OR UPDATE ON ` + q + `.drive_file_index
					FOR EACH ROW EXECUTE FUNCTION ` + q + `.damaged()`,
			} {
				if _, err := conn.Exec(ctx, stmt); err != nil {
					t.Fatal(err)
				}
			}
			f := store.File{ID: "a", Name: "a.txt", Text: "alpha", Embedding: []float32{1, 0, 0, 0},
				ModifiedAt: time.Now(), IndexedAt: time.Now()}
			err = s.UpsertFile(ctx, f, nil)
			var de *store.DamagedError
			if !errors.As(err, &de) || de.Backend != Backend || !errors.Is(err, store.ErrDamaged) {
				t.Fatalf("UpsertFile: %v (%T), want a store.DamagedError", err, err)
			}
			r := apperr.Describe(err, i18n.En)
			if r.Exit != apperr.ExitIndex || !strings.Contains(r.Hint, "administrator") || strings.Contains(r.Hint, "db rebuild") ||
				strings.Contains(r.Message, "postgres:postgres@") {
				t.Errorf("reported as %+v", r)
			}
		})
	}
}

// Every exported method classifies damage.
func TestEveryMethodClassifies(t *testing.T) { storetest.CheckClassified(t, ".") }
