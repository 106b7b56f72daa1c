package openai_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
)

// ReadImage sends one chat request with the image as a data URL at detail
// high; the emulator answers from its fixture by the image's hash and
// refuses an image it has no text for (400, not retried).
func TestReadImage(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR a page")
	other := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR another page")
	srv, p := newPair(t, openai.Config{}, openaitest.WithImageTexts(map[string]string{openaitest.ImageHash(png): "見積書\nTotal 1,200"}))
	got, err := p.ReadImage(context.Background(), png, "image/png")
	if err != nil || got != "見積書\nTotal 1,200" {
		t.Fatalf("ReadImage = %q, %v", got, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || len(reqs[0].Images) != 1 || reqs[0].Images[0] != openaitest.ImageHash(png) || reqs[0].Model != openai.DefaultChatModel {
		t.Errorf("requests %+v; want one chat request with the image", reqs)
	}
	if len(reqs) == 1 && (len(reqs[0].Messages) != 2 || reqs[0].Messages[0].Content != openai.ImagePrompt || reqs[0].Messages[1].Content != openai.ImageInstruction) {
		t.Errorf("messages %+v; want the prompt and the instruction beside the image", reqs[0].Messages)
	}
	srv.Reset()
	_, err = p.ReadImage(context.Background(), other, "image/png")
	var oe *openai.Error
	if !errors.As(err, &oe) || oe.Status != 400 || len(srv.Requests()) != 1 {
		t.Errorf("an image without a fixture: %v after %d requests; want one 400", err, len(srv.Requests()))
	}
}
