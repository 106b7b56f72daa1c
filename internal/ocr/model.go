package ocr

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gds-cli/gds/internal/extract"
)

// ImageModel reads the text in an image through a model's vision input
// (*openai.Provider).
type ImageModel interface {
	ReadImage(ctx context.Context, image []byte, mimeType string) (string, error)
	ChatModel() string
}

// PNGConverter converts a TIFF or BMP image to PNG under the limits of
// hostile input (*isolate.Pool: in a parse worker).
type PNGConverter interface {
	ToPNG(ctx context.Context, image []byte) ([]byte, error)
}

// Model is a Reader that asks a model: one call per page image.
type Model struct {
	M ImageModel
	// Convert turns a TIFF or BMP image, which models do not read, into
	// PNG before the call; nil: such an image is refused as unsupported.
	Convert PNGConverter
}

// ID implements Reader: the model's name.
func (m Model) ID() string { return "model " + m.M.ChatModel() }

// Read implements Reader. Models read PNG, JPEG, GIF and WebP; a TIFF or
// BMP image is sent as PNG (Convert), another image is refused as
// unsupported. An image that cannot be converted is the image's fault
// (the converter's error: too large, damaged). A failed call is not: the
// error matches extract.ErrRead, so a crawl fails the file and tries it
// again next time rather than indexing it by name only.
func (m Model) Read(ctx context.Context, image []byte) (string, error) {
	if m.Convert != nil && (extract.IsTIFF(image) || extract.IsBMP(image)) {
		png, err := m.Convert.ToPNG(ctx, image)
		if err != nil {
			return "", fmt.Errorf("convert the image to PNG for the model: %w", err)
		}
		image = png
	}
	mt := http.DetectContentType(image[:min(len(image), 512)])
	switch mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return "", fmt.Errorf("%w: the model reads PNG, JPEG, GIF and WebP images, not %s (tesseract reads it: GDS_OCR=tesseract)", extract.ErrUnsupported, mt)
	}
	text, err := m.M.ReadImage(ctx, image, mt)
	if err != nil {
		return "", fmt.Errorf("%w: the model could not read the image: %w", extract.ErrRead, err)
	}
	return Tidy(text), nil
}
