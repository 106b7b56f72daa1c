package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// FreshSchema returns a new Postgres schema name starting with prefix and
// drops the schema, with everything in it, when the test ends. Tests on one
// shared server (PGlite) isolate each other this way.
func FreshSchema(t testing.TB, url, prefix string) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	schema := prefix + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx := context.Background()
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		conn, err := pgx.Connect(ctx, url+sep+"default_query_exec_mode=simple_protocol")
		if err != nil {
			t.Errorf("cleanup: connect to drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("cleanup: drop schema %s: %v", schema, err)
		}
	})
	return schema
}
