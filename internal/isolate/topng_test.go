package isolate

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/png"
	"testing"

	"golang.org/x/image/bmp"

	"github.com/gds-cli/gds/internal/extract"
)

// A worker converts a BMP to PNG (as extract.ToPNG does in process), and
// refuses an image over the pixel limit as too complex; the worker
// answers text extractions after either.
func TestWorkerToPNG(t *testing.T) {
	p := testPool(t, "real", Limits{})
	ctx := context.Background()
	var bb bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xff // opaque: a 24-bit BMP, its header 54 bytes
	}
	if err := bmp.Encode(&bb, img); err != nil {
		t.Fatal(err)
	}
	out, err := p.ToPNG(ctx, bb.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := extract.ToPNG(bb.Bytes())
	if !bytes.Equal(out, want) {
		t.Errorf("the worker's PNG (%d bytes) differs from extract.ToPNG's (%d bytes)", len(out), len(want))
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(out)); err != nil || cfg.Width != 64 || cfg.Height != 48 {
		t.Errorf("PNG config %+v, %v", cfg, err)
	}
	bomb := append([]byte(nil), bb.Bytes()[:54]...)
	binary.LittleEndian.PutUint32(bomb[18:], 100_000) // width
	binary.LittleEndian.PutUint32(bomb[22:], 100_000) // height
	if _, err := p.ToPNG(ctx, bomb); !errors.Is(err, extract.ErrTooComplex) {
		t.Errorf("a 100,000 × 100,000 BMP: %v; want too complex", err)
	}
	if doc, err := p.Extract(ctx, "text/plain", bytes.NewReader([]byte("still here")), 0); err != nil || doc.Text() != "still here" {
		t.Errorf("extract after conversions: %q, %v", doc.Text(), err)
	}
}
