package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/envfile"
)

// TestURLCredentialsNeverShown puts a password (or a token as the URL's
// user) in each setting that holds a URL or a connection string, points it
// at a closed port so that commands also fail on it, and greps everything
// doctor, config show, crawl, search and db status print, in text and
// JSON, for the secret.
func TestURLCredentialsNeverShown(t *testing.T) {
	t.Parallel()
	const secret = "Zq9SECRETpw"
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "plan.txt"), []byte("the quarterly plan"), 0o600); err != nil {
		t.Fatal(err)
	}
	local := map[string]string{"GDS_SOURCES": "local:" + docs, "GDS_AI_PROVIDER": "offline"}
	cases := []struct {
		name string
		env  map[string]string
	}{
		{"OPENAI_BASE_URL password", map[string]string{"GDS_SOURCES": "local:" + docs, "GDS_AI_PROVIDER": "openai",
			"OPENAI_API_KEY": "sk-test-not-the-secret", "OPENAI_BASE_URL": "http://user:" + secret + "@127.0.0.1:1/v1"}},
		{"OPENAI_BASE_URL token as user", map[string]string{"GDS_SOURCES": "local:" + docs, "GDS_AI_PROVIDER": "openai",
			"OPENAI_BASE_URL": "http://" + secret + "@127.0.0.1:1/v1"}},
		{"OPENAI_BASE_URL key in the query", map[string]string{"GDS_SOURCES": "local:" + docs, "GDS_AI_PROVIDER": "openai",
			"OPENAI_BASE_URL": "http://127.0.0.1:1/v1?api_key=" + secret}},
		{"DATABASE_URL URL", with(local, "DATABASE_URL", "postgres://gds:"+secret+"@127.0.0.1:1/gds?sslmode=disable&connect_timeout=2")},
		{"DATABASE_URL key=value", with(local, "DATABASE_URL", "host=127.0.0.1 port=1 user=gds password="+secret+" dbname=gds")},
		{"SUPABASE_DB_URL URL", with(local, "SUPABASE_DB_URL", "postgresql://postgres:"+secret+"@127.0.0.1:1/postgres?connect_timeout=2")},
		{"SUPABASE_DB_URL password in the query", with(local, "SUPABASE_DB_URL", "postgres://127.0.0.1:1/db?password="+secret+"&connect_timeout=2")},
		{"GDS_DRIVE_ENDPOINT token as user", map[string]string{"GDS_SOURCES": "drive", "GOOGLE_DRIVE_TARGET_FOLDER_IDS": "folderA",
			"GDS_AI_PROVIDER": "offline", "GDS_DRIVE_ENDPOINT": "http://" + secret + "@127.0.0.1:1/"}},
		{"GDS_DRIVE_ENDPOINT password", map[string]string{"GDS_SOURCES": "drive", "GOOGLE_DRIVE_TARGET_FOLDER_IDS": "folderA",
			"GDS_AI_PROVIDER": "offline", "GDS_DRIVE_ENDPOINT": "http://u:" + secret + "@127.0.0.1:1/"}},
	}
	commands := [][]string{
		{"doctor"}, {"doctor", "--json"}, {"config", "show"}, {"config", "show", "--json"},
		{"crawl"}, {"search", "quarterly plan"}, {"search", "--json", "quarterly plan"}, {"db", "status"}, {"db", "status", "--json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			var env strings.Builder
			for k, v := range c.env {
				env.WriteString(envfile.Line(k, v) + "\n")
			}
			if err := os.WriteFile(filepath.Join(home, ".env"), []byte(env.String()), 0o600); err != nil {
				t.Fatal(err)
			}
			shown := 0
			for _, args := range commands {
				out, errOut, code := gdsIn(t, home, args...)
				if strings.Contains(out+errOut, secret) {
					t.Errorf("gds %s (exit %d) shows the secret:\n%s%s", strings.Join(args, " "), code, out, errOut)
				}
				if strings.Contains(out+errOut, "****") {
					shown++
				}
			}
			// The settings were read and shown masked (the grep is not over
			// output that never mentions them).
			if shown == 0 {
				t.Errorf("no command showed the masked setting")
			}
		})
	}
}

func with(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for mk, mv := range m {
		out[mk] = mv
	}
	return out
}
