package extract

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// bmpHeader is the start of a BMP (BITMAPINFOHEADER, 24 bits) claiming
// w×h pixels, with no pixel data.
func bmpHeader(w, h int32) []byte {
	var b bytes.Buffer
	b.WriteString("BM")
	for _, v := range []any{uint32(54), uint16(0), uint16(0), uint32(54),
		uint32(40), w, h, uint16(1), uint16(24), uint32(0), uint32(0), int32(2835), int32(2835), uint32(0), uint32(0)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// TIFF and BMP become PNG with the same pixels; an image whose header
// claims more than MaxImagePixels is refused as too complex before it is
// decoded; a damaged one is malformed, another format unsupported.
func TestToPNG(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 40, 30))
	for i := range src.Pix {
		src.Pix[i] = uint8(i * 7)
	}
	var tb, bb, pb bytes.Buffer
	if err := tiff.Encode(&tb, src, &tiff.Options{Compression: tiff.Deflate}); err != nil {
		t.Fatal(err)
	}
	if err := bmp.Encode(&bb, src); err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(&pb, src); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want error // nil: converted
	}{
		{"tiff", tb.Bytes(), nil},
		{"bmp", bb.Bytes(), nil},
		{"bomb: 100,000 × 100,000 pixels claimed", bmpHeader(100_000, 100_000), ErrTooComplex},
		{"just over the limit", bmpHeader(MaxImagePixels/1000+1, 1000), ErrTooComplex},
		{"damaged tiff", tb.Bytes()[:12], ErrMalformed},
		{"bmp without its pixels", bmpHeader(40, 30), ErrMalformed},
		{"png", pb.Bytes(), ErrUnsupported},
	} {
		out, err := ToPNG(c.data)
		if c.want != nil {
			if !errors.Is(err, c.want) || out != nil {
				t.Errorf("%s: %v; want %v", c.name, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		img, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", c.name, err)
		}
		if img.Bounds() != src.Bounds() {
			t.Fatalf("%s: bounds %v", c.name, img.Bounds())
		}
		for _, p := range []image.Point{{0, 0}, {39, 29}, {17, 11}} {
			if g := color.GrayModel.Convert(img.At(p.X, p.Y)).(color.Gray); g != src.GrayAt(p.X, p.Y) {
				t.Errorf("%s: pixel %v = %v, want %v", c.name, p, g, src.GrayAt(p.X, p.Y))
			}
		}
	}
}

// FuzzToPNG: whatever the bytes, ToPNG answers a valid PNG or an error
// matching one of its sentinels, and never panics.
func FuzzToPNG(f *testing.F) {
	src := image.NewGray(image.Rect(0, 0, 8, 6))
	var tb, bb bytes.Buffer
	if err := tiff.Encode(&tb, src, nil); err != nil {
		f.Fatal(err)
	}
	if err := bmp.Encode(&bb, src); err != nil {
		f.Fatal(err)
	}
	f.Add(tb.Bytes())
	f.Add(bb.Bytes())
	f.Add(bmpHeader(100_000, 100_000))
	f.Add([]byte("II*\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ToPNG(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooComplex) {
				t.Fatalf("error matching no sentinel: %v", err)
			}
			return
		}
		if _, err := png.DecodeConfig(bytes.NewReader(out)); err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
	})
}
