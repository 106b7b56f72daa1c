package isolate

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gds-cli/gds/internal/extract"
)

// mutants derives damaged copies of a real file, the way a broken upload,
// a bad disk or a careless tool damages files: cut short, bytes flipped, a
// range zeroed, a range repeated, a range moved. The seed is fixed, so the
// set is the same on every run; nothing in it was written to beat a
// particular parser (the hostile corpus of internal/hostile is), which
// makes it held-out input for the limits.
func mutants(data []byte, seed uint64, n int) [][]byte {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out := make([][]byte, 0, n)
	for i := range n {
		b := bytes.Clone(data)
		if len(b) < 16 {
			out = append(out, b)
			continue
		}
		at := rng.IntN(len(b))
		span := 1 + rng.IntN(min(4096, len(b)-at))
		switch i % 5 {
		case 0:
			b = b[:at]
		case 1:
			for range 1 + rng.IntN(32) {
				b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
			}
		case 2:
			clear(b[at : at+span])
		case 3:
			rep := bytes.Repeat(b[at:at+span], 1+rng.IntN(64))
			b = append(b[:at:at], append(rep, data[at:]...)...)
		case 4:
			to := rng.IntN(len(b) - span + 1)
			seg := bytes.Clone(b[at : at+span])
			rest := append(b[:at:at], b[at+span:]...)
			to = min(to, len(rest))
			b = append(rest[:to:to], append(seg, rest[to:]...)...)
		}
		out = append(out, b)
	}
	return out
}

// Damaged copies of every real document go through workers under the
// default limits: each ends with text or with one of extract's errors,
// never with a failure of the pool itself.
func TestHeldOutMutants(t *testing.T) {
	p := testPool(t, "real", Limits{})
	dir := filepath.Join("..", "..", "testdata", "realdocs")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for i, e := range entries {
		if e.Name() == "MANIFEST.tsv" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		mt := extract.MimeTypeByName(e.Name())
		for j, m := range mutants(data, uint64(i), 40) {
			_, err := p.Extract(context.Background(), mt, bytes.NewReader(m), 0)
			switch {
			case err == nil:
				counts["text"]++
			case errors.Is(err, extract.ErrTooComplex):
				counts["too complex"]++
				t.Logf("%s mutant %d: %v", e.Name(), j, err)
			case errors.Is(err, extract.ErrMalformed), errors.Is(err, extract.ErrUnsupported):
				counts["refused"]++
			default:
				t.Errorf("%s mutant %d: %v (not an extraction outcome)", e.Name(), j, err)
			}
		}
	}
	t.Logf("outcomes: %v", counts)
	if counts["text"] == 0 || counts["refused"] == 0 {
		t.Errorf("outcomes %v: the mutants should include both readable and refused files", counts)
	}
}
