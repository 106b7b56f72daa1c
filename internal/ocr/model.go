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

// Model is a Reader that asks a model: one call per page image.
type Model struct{ M ImageModel }

// ID implements Reader: the model's name.
func (m Model) ID() string { return "model " + m.M.ChatModel() }

// Read implements Reader. Models read PNG, JPEG, GIF and WebP; another
// image (TIFF, BMP) is refused as unsupported. A failed call is not the
// image's fault: the error matches extract.ErrRead, so a crawl fails the
// file and tries it again next time rather than indexing it by name only.
func (m Model) Read(ctx context.Context, image []byte) (string, error) {
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
