package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/testbin"
)

func TestParseInitTrace(t *testing.T) {
	in := "init internal/bytealg @0.008 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"some other line\n" +
		"init github.com/gds-cli/gds/internal/i18n @12 ms, 0.35 ms clock, 2048 bytes, 3 allocs\n" +
		"init broken @1 ms, x ms clock, 1 bytes, 1 allocs\n"
	got := parseInitTrace([]byte(in))
	if len(got) != 2 {
		t.Fatalf("parsed %d records, want 2: %+v", len(got), got)
	}
	if got[1].Package != "github.com/gds-cli/gds/internal/i18n" || got[1].MS != 0.35 || got[1].KB != 2 {
		t.Errorf("record = %+v", got[1])
	}
}

// initBudgetKB bounds what one gds package may allocate in its package
// initialisation, which every gds process (each Alfred keystroke) pays before
// main. Patterns, tables and catalogs are built on first use instead
// (sync.OnceValue). internal/ai's exported task schemas (~19 KB) are the
// largest left.
const initBudgetKB = 24

// TestGDSInitStaysSmall builds both binaries — the front (cmd/gds-front,
// installed as gds) and the full CLI (cmd/gds, gds-core) — and reads their
// package initialisation with GODEBUG=inittrace=1: allocations, not time,
// so the outcome does not depend on the machine. Before the lazy tables,
// internal/ai/offline alone allocated 520 KB (about 5 ms) in init.
func TestGDSInitStaysSmall(t *testing.T) {
	// The fewest gds packages with an init record each binary must show
	// (else inittrace is not honoured): the front links only a few — i18n's
	// catalogues are its one package with init work.
	for pkg, least := range map[string]int{"./cmd/gds": 5, "./cmd/gds-front": 1} {
		bin := testbin.Core(t)
		if pkg == "./cmd/gds-front" {
			bin = testbin.Front(t)
		}
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "GDS_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s version: %v\n%s", pkg, err, out)
		}
		recs := parseInitTrace(out)
		own := 0
		for _, r := range recs {
			if r.Package != "main" && !strings.HasPrefix(r.Package, gdsModule) {
				continue
			}
			own++
			if r.KB > initBudgetKB {
				t.Errorf("%s: package %s allocates %.1f KB in init (budget %d KB): build its tables on first use (sync.OnceValue)", pkg, r.Package, r.KB, initBudgetKB)
			}
		}
		if own < least {
			t.Fatalf("%s: found init records of only %d gds packages; is GODEBUG=inittrace=1 honoured?\n%s", pkg, own, out)
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}
