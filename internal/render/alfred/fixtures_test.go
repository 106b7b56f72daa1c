package alfred

import (
	"flag"
	"testing"

	"github.com/gds-cli/gds/internal/render/rendertest"
)

// The fixtures of internal/render's JSON tests, so that the Alfred goldens
// render the same outcomes as the --json goldens.

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	rendertest.Golden(t, "./internal/render/alfred", name, got, *updateGolden)
}

// The shared fixtures (internal/render/rendertest).
var (
	fQ3       = rendertest.FQ3
	fMinutes  = rendertest.FMinutes
	outcomes  = rendertest.Outcomes
	fakeToken = rendertest.FakeToken
)
