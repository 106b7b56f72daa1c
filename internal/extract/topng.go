package extract

import (
	"bytes"
	"fmt"
	"image"
	"image/png"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// MaxImagePixels bounds the pixels of an image ToPNG decodes: 40
// megapixels is an A4 page scanned at 600 dpi (35 MP), and at most 160 MB
// of decoded pixels, within a parse worker's memory.
const MaxImagePixels = 40_000_000

// IsTIFF reports whether data starts as a TIFF image.
func IsTIFF(data []byte) bool {
	return bytes.HasPrefix(data, []byte("II*\x00")) || bytes.HasPrefix(data, []byte("MM\x00*"))
}

// IsBMP reports whether data starts as a BMP image.
func IsBMP(data []byte) bool { return bytes.HasPrefix(data, []byte("BM")) }

// ToPNG converts a TIFF (its first image) or BMP image to PNG, for a
// reader that takes PNG but not these (a model's vision input). It is
// hostile input: the size in the image's header is read first, and an
// image over MaxImagePixels is refused with ErrTooComplex before a pixel
// is decoded; a damaged image is ErrMalformed, another format
// ErrUnsupported. gds runs it in a parse worker (isolate.Pool.ToPNG),
// under the worker's time and memory limits. x/image's decoders: the
// standard library has none for either format.
func ToPNG(data []byte) ([]byte, error) {
	var decodeConfig func([]byte) (image.Config, error)
	var decode func([]byte) (image.Image, error)
	switch {
	case IsTIFF(data):
		decodeConfig = func(b []byte) (image.Config, error) { return tiff.DecodeConfig(bytes.NewReader(b)) }
		decode = func(b []byte) (image.Image, error) { return tiff.Decode(bytes.NewReader(b)) }
	case IsBMP(data):
		decodeConfig = func(b []byte) (image.Config, error) { return bmp.DecodeConfig(bytes.NewReader(b)) }
		decode = func(b []byte) (image.Image, error) { return bmp.Decode(bytes.NewReader(b)) }
	default:
		return nil, fmt.Errorf("%w: only TIFF and BMP images are converted to PNG", ErrUnsupported)
	}
	cfg, err := decodeConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%w: the image's header: %w", ErrMalformed, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("%w: the image is %d×%d pixels", ErrMalformed, cfg.Width, cfg.Height)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > MaxImagePixels {
		return nil, TooComplex(fmt.Sprintf("the image is %d×%d pixels, over the %d megapixels gds converts", cfg.Width, cfg.Height, MaxImagePixels/1_000_000), false)
	}
	img, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: the image: %w", ErrMalformed, err)
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&out, img); err != nil {
		return nil, fmt.Errorf("%w: encode as PNG: %w", ErrMalformed, err)
	}
	return out.Bytes(), nil
}
