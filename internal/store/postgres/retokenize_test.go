package postgres

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
	"github.com/gds-cli/gds/migrations"
)

// The re-tokenising pass (store.Retokenize) on this back end.
func TestRetokenize(t *testing.T) {
	url := testURL(t)
	storetest.RunRetokenize(t, storetest.Retokenizing{
		New: func(t *testing.T) (store.Store, storetest.Reopen) {
			saved := retokenizeBatch
			retokenizeBatch = 2
			t.Cleanup(func() { retokenizeBatch = saved })
			schema := storetest.FreshSchema(t, url, "gds_test_")
			s := openTest(t, url, schema)
			return s, func(t *testing.T, backfill func(store.Backfill)) store.Store {
				s.Close()
				var err error
				if s, err = Open(context.Background(), url, WithSchema(schema), WithBackfill(backfill)); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
		},
		SetTokens: func(t *testing.T, st store.Store, id string, name, text []string, chunks map[int][]string) {
			s := st.(*Store)
			ctx := context.Background()
			if _, err := s.pool.Exec(ctx, s.q(`UPDATE {schema}.drive_file_index SET search_tsv = $2::tsvector WHERE file_id = $1`),
				id, tsvectorOfTokens(name, text)); err != nil {
				t.Fatal(err)
			}
			for ord, toks := range chunks {
				if _, err := s.pool.Exec(ctx, s.q(`UPDATE {schema}.drive_file_chunks SET search_tsv = $3::tsvector WHERE file_id = $1 AND ordinal = $2`),
					id, int32(ord), tsvectorOfTokens(nil, toks)); err != nil {
					t.Fatal(err)
				}
			}
		},
		Migrate: func(t *testing.T, st store.Store, suffix string) {
			s := st.(*Store)
			runMigration(t, s, s.Schema(), suffix)
		},
		Meta: func(t *testing.T, st store.Store, key string) bool {
			s := st.(*Store)
			_, ok, err := passes{s}.Meta(context.Background(), key)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		},
	})
}

// tsvectorOfTokens is the tsvector literal of tokens as given: the name's
// with weight A, then, after a one-position gap, the text's (weight D).
func tsvectorOfTokens(name, text []string) string {
	pos := map[string][]string{}
	p := 1
	for _, tok := range name {
		pos[tok] = append(pos[tok], strconv.Itoa(p)+"A")
		p++
	}
	if len(name) > 0 {
		p++
	}
	for _, tok := range text {
		pos[tok] = append(pos[tok], strconv.Itoa(p))
		p++
	}
	lexemes := make([]string, 0, len(pos))
	for l := range pos {
		lexemes = append(lexemes, l)
	}
	sort.Strings(lexemes)
	var b strings.Builder
	for i, l := range lexemes {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteLexeme(l) + ":" + strings.Join(pos[l], ","))
	}
	return b.String()
}

// runMigration runs the SQL of the migration whose name ends in suffix
// (found by name: the integrator may renumber it) in the schema.
func runMigration(t *testing.T, s *Store, schema, suffix string) {
	t.Helper()
	ctx := context.Background()
	ms, err := migrations.Postgres()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ms, func(m migrations.Migration) bool { return strings.HasSuffix(m.Name, suffix) })
	if i < 0 {
		t.Fatalf("no *%s migration", suffix)
	}
	if err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT set_config('search_path', quote_ident($1) || ', ' || current_setting('search_path'), true)", schema); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, ms[i].SQL)
		return err
	}); err != nil {
		t.Fatalf("%s: %v", ms[i].Name, err)
	}
}
