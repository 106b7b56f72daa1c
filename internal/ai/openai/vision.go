package openai

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

// ImagePrompt is the system prompt of ReadImage.
const ImagePrompt = "You transcribe the text of a scanned page or a photo exactly as it is written, in reading order " +
	"(Japanese set in vertical columns: top to bottom, right to left), keeping line breaks. Output only the text: " +
	"no commentary, no description of the image, no Markdown. Output nothing when the image holds no text."

// ImageInstruction is the text sent with the image.
const ImageInstruction = "Transcribe the text in this image."

// imageMaxTokens bounds the transcription of one page (a dense page is
// about 1,000 tokens of English, 2,000 of Japanese).
const imageMaxTokens = 4096

// ImageTokens estimates the input tokens of one page image at detail
// "high": a page scaled to 768 px on its short side is six 512 px tiles,
// 85 + 6 × 170 tokens (OpenAI's vision pricing for the gpt-4o family).
const ImageTokens = 85 + 6*170

// ReadImage returns the text the chat model reads in image (a PNG, JPEG,
// GIF or WebP; mimeType names it): one chat request with the image as a
// data URL at detail "high", paced and retried like every call.
func (p *Provider) ReadImage(ctx context.Context, image []byte, mimeType string) (string, error) {
	const op = "image reading"
	url := "data:" + mimeType + ";base64," + base64.StdEncoding.EncodeToString(image)
	params := sdk.ChatCompletionNewParams{Model: p.chatModel, Messages: []sdk.ChatCompletionMessageParamUnion{
		sdk.SystemMessage(ImagePrompt),
		sdk.UserMessage([]sdk.ChatCompletionContentPartUnionParam{
			sdk.TextContentPart(ImageInstruction),
			sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{URL: url, Detail: "high"}),
		}),
	}}
	if p.official {
		params.MaxCompletionTokens = sdk.Int(imageMaxTokens)
	} else {
		params.MaxTokens = sdk.Int(imageMaxTokens)
	}
	if err := p.unreachable(op); err != nil {
		return "", err
	}
	cost := ratelimit.EstimateTokens(ImagePrompt) + ratelimit.EstimateTokens(ImageInstruction) + ImageTokens + imageMaxTokens
	ctx, n := withAttempts(ctx, cost)
	resp, err := p.chat.New(ctx, params)
	if err != nil {
		return "", p.fail(ctx, op, n, err)
	}
	p.meter.Add(ai.CallVision, int(resp.Usage.PromptTokens), int(resp.Usage.CompletionTokens))
	if len(resp.Choices) == 0 {
		return "", p.malformed(op, n, "the reply has no choices")
	}
	c := resp.Choices[0]
	if c.Message.Refusal != "" {
		return "", &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrRefused,
			Message: p.redact(ai.Truncate(c.Message.Refusal, 200))}
	}
	if c.FinishReason == "length" {
		return "", &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrTruncated,
			Message: "the transcription was cut at the token limit"}
	}
	return strings.TrimSpace(c.Message.Content), nil
}
