package alfred

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"
)

// drawIcon renders the workflow icon: a magnifying glass over a Drive-blue
// rounded square. icon.png is this image; GDS_UPDATE_ICON=1 rewrites it.
func drawIcon() *image.NRGBA {
	const n = 256
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	blue := color.NRGBA{0x1a, 0x73, 0xe8, 0xff}
	white := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	const r = 48.0 // corner radius
	inRounded := func(x, y float64) bool {
		cx := math.Max(r, math.Min(n-r, x))
		cy := math.Max(r, math.Min(n-r, y))
		return math.Hypot(x-cx, y-cy) <= r
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			if !inRounded(fx, fy) {
				continue
			}
			img.SetNRGBA(x, y, blue)
			// lens ring centred at (108,108), handle towards the lower right
			d := math.Hypot(fx-108, fy-108)
			if d >= 50 && d <= 70 {
				img.SetNRGBA(x, y, white)
			}
			// handle: distance to the segment (158,158)-(200,200)
			t := math.Max(0, math.Min(1, ((fx-158)*42+(fy-158)*42)/(42*42*2)))
			px, py := 158+42*t, 158+42*t
			if math.Hypot(fx-px, fy-py) <= 14 {
				img.SetNRGBA(x, y, white)
			}
		}
	}
	return img
}

func TestIconMatchesGenerator(t *testing.T) {
	want := drawIcon()
	if os.Getenv("GDS_UPDATE_ICON") == "1" {
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("icon.png", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := Source.Open("icon.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil {
		t.Fatalf("icon.png does not decode: %v", err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("icon is %v, want %v", got.Bounds(), want.Bounds())
	}
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			if color.NRGBAModel.Convert(got.At(x, y)) != want.At(x, y) {
				t.Fatalf("icon.png differs from drawIcon at (%d,%d); regenerate with GDS_UPDATE_ICON=1 go test ./alfred", x, y)
			}
		}
	}
}
