package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBinaryEnvFileFailsAtItsLine: a 3 MB binary .env in the gds home (the
// issue's probe, which ran for over ten minutes) stops every command with
// the configuration exit code and a FILE:LINE message that quotes none of
// the file. (It fails at once; the time is measured, not asserted:
// docs/RELIABILITY.md.)
func TestBinaryEnvFileFailsAtItsLine(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := filepath.Join(home, ".env")
	data := make([]byte, 3<<20)
	r := rand.New(rand.NewPCG(28, 1))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	if err := os.WriteFile(env, data, 0o600); err != nil {
		t.Fatal(err)
	}
	gdsBinary(t) // built before the clock starts
	where := regexp.MustCompile(regexp.QuoteMeta(env) + `:[1-9][0-9]*: `)
	for _, args := range [][]string{{"config", "show"}, {"search", "plan"}, {"crawl"}, {"db", "status"}} {
		start := time.Now()
		out, errOut, code := gdsIn(t, home, args...)
		name := strings.Join(args, " ")
		t.Logf("gds %s on a 3 MB binary .env: exit %d in %s (measured, not asserted)", name, code, time.Since(start).Round(time.Millisecond))
		if code != exitConfig {
			t.Errorf("gds %s: exit %d, want %d\n%s%s", name, code, exitConfig, out, errOut)
		}
		if !where.MatchString(errOut) {
			t.Errorf("gds %s: stderr does not name %s:LINE:\n%s", name, env, errOut)
		}
		if len(out)+len(errOut) > 4096 {
			t.Errorf("gds %s: %d bytes of output (the file quoted?)", name, len(out)+len(errOut))
		}
	}
}

// TestLargeEnvFileNamesTheLimit: a .env over 1 MiB whose lines all parse
// is refused for its size, naming the file and the limit.
func TestLargeEnvFileNamesTheLimit(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := filepath.Join(home, ".env")
	if err := os.WriteFile(env, []byte("GDS_AI_PROVIDER=offline\n"+strings.Repeat("# a comment line\n", 80_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := gdsIn(t, home, "search", "plan")
	if code != exitConfig || !strings.Contains(errOut, env+": ") || !strings.Contains(errOut, "larger than 1 MiB") {
		t.Errorf("exit %d, want %d and the file and limit named:\n%s%s", code, exitConfig, out, errOut)
	}
}
