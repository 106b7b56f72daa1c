package openaitest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // image sizes for usage
	_ "image/jpeg" // image sizes for usage
	_ "image/png"  // image sizes for usage
	"strings"
)

// WithImageTexts makes the server answer a chat whose last user message
// holds images (image_url content parts with data: URLs, as gds's OCR
// through the model sends them) from texts: the text of each image is
// texts[hex SHA-256 of the image's bytes], the answers of several images
// joined by blank lines. An image without an entry is refused with 400,
// naming its hash, so a test never reads an image it did not expect.
// The emulator has no vision of its own: the fixture is what it "sees".
func WithImageTexts(texts map[string]string) Option {
	return func(h *Handler) {
		if h.imageTexts == nil {
			h.imageTexts = map[string]string{}
		}
		for k, v := range texts {
			h.imageTexts[strings.ToLower(k)] = v
		}
	}
}

// imageTokens is what one image counts against a TPM limit: a page at
// detail "high" is six 512 px tiles, 85 + 6 × 170 tokens (the gpt-4o
// family's vision pricing; gds's scheduler estimates the same).
const imageTokens = 85 + 6*170

// imageSize is the width and height of a PNG, JPEG or GIF image; 0, 0
// for another (a WebP, which the standard library does not decode), which
// tokens.ImageTokens bills as a page.
func imageSize(b []byte) (int, int) {
	c, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return 0, 0
	}
	return c.Width, c.Height
}

// ImageHash is the fixture key of an image: the hex SHA-256 of its bytes.
func ImageHash(img []byte) string {
	s := sha256.Sum256(img)
	return hex.EncodeToString(s[:])
}

// images decodes the image parts of the message: data: URLs only (a
// remote URL is refused, as the emulator fetches nothing).
func (m chatMessage) images() ([][]byte, error) {
	if len(m.Content) == 0 || m.Content[0] != '[' {
		return nil, nil
	}
	var parts []struct {
		Type     string `json:"type"`
		ImageURL *struct {
			URL    string `json:"url"`
			Detail string `json:"detail"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		return nil, fmt.Errorf("'messages' content must be a string or an array of content parts")
	}
	var out [][]byte
	for _, p := range parts {
		if p.Type != "image_url" {
			continue
		}
		if p.ImageURL == nil || p.ImageURL.URL == "" {
			return nil, fmt.Errorf("Missing required parameter: 'messages.content.image_url.url'.")
		}
		switch p.ImageURL.Detail {
		case "", "auto", "low", "high", "original":
		default:
			return nil, fmt.Errorf("Invalid value: '%s'. Supported values are: 'auto', 'low', 'high' and 'original'.", p.ImageURL.Detail)
		}
		head, data, ok := strings.Cut(p.ImageURL.URL, ",")
		if !ok || !strings.HasPrefix(head, "data:image/") || !strings.HasSuffix(head, ";base64") {
			return nil, fmt.Errorf("openaitest: only base64 data:image/... URLs are supported (the emulator fetches nothing)")
		}
		switch strings.TrimSuffix(strings.TrimPrefix(head, "data:"), ";base64") {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
		default:
			return nil, fmt.Errorf("You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].")
		}
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return nil, fmt.Errorf("Invalid base64 image_url.")
		}
		out = append(out, b)
	}
	return out, nil
}

// lastUserImages returns the images of the last user message.
func (c *chatRequest) lastUserImages() ([][]byte, error) {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].Role == "user" {
			return c.Messages[i].images()
		}
	}
	return nil, nil
}

// imageAnswer is the fixture text of the images, or an error naming the
// first image without one.
func (h *Handler) imageAnswer(images [][]byte) (string, error) {
	texts := make([]string, 0, len(images))
	for _, img := range images {
		t, ok := h.imageTexts[ImageHash(img)]
		if !ok {
			return "", fmt.Errorf("openaitest: no text for the image with SHA-256 %s (WithImageTexts)", ImageHash(img))
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, "\n\n"), nil
}
