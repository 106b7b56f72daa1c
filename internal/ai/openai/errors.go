package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// Kinds of failure, for errors.Is on the errors the Provider returns.
var (
	// ErrNoAPIKey: api.openai.com without a key, a configuration problem.
	// Its message is said in the reader's language where it is shown
	// (apperr.Message), not in the one of whoever started the process.
	ErrNoAPIKey          error = apperr.L(apperr.Config, "ai.no_api_key")
	ErrUnauthorized            = errors.New("unauthorized")
	ErrRateLimited             = apperr.Mark(errors.New("rate limited"), apperr.RateLimited)
	ErrServer                  = apperr.Mark(errors.New("server error"), apperr.Unavailable)
	ErrBadRequest              = errors.New("request rejected")
	ErrModelNotFound           = errors.New("model not found")
	ErrTimeout                 = apperr.Mark(errors.New("timed out"), apperr.Unavailable)
	ErrConnection              = apperr.Mark(errors.New("connection failed"), apperr.Unavailable)
	ErrMalformedResponse error = malformedResponse{}
	ErrTruncated               = errors.New("incomplete response")
	ErrRefused                 = errors.New("the model refused")
	ErrDimension               = errors.New("embedding dimension mismatch")
	// ErrQuotaExhausted is a 429 insufficient_quota (or a call not sent
	// because one came within ratelimit.Config.QuotaHold): it is
	// ai.ErrQuotaExhausted, of kind apperr.RateLimited, never retried.
	ErrQuotaExhausted = ai.ErrQuotaExhausted
)

// malformedResponse is ErrMalformedResponse: it also matches
// ai.ErrMalformedOutput, so callers above the provider (GraphRAG's map step
// scores such a reply 0) need not know this package.
type malformedResponse struct{}

func (malformedResponse) Error() string        { return "malformed response" }
func (malformedResponse) Is(target error) bool { return target == ai.ErrMalformedOutput }

// msg picks the message for lang (i18n.Ja: jp; else en).
func msg(lang, en, jp string) string {
	if lang == i18n.Ja {
		return jp
	}
	return en
}

// Error is a failed API call. Its text names the operation, the server
// (host only), the HTTP status and the number of attempts, never the key.
type Error struct {
	Op       string // "chat completion", "chat stream" or "embeddings"
	Lang     string // the language of the text (Config.Lang; "": English)
	Host     string // server host[:port]
	Status   int    // HTTP status; 0 when no response arrived
	Code     string // OpenAI error code, e.g. "invalid_api_key"
	Message  string // server or client explanation, key redacted
	Attempts int    // HTTP attempts made, retries included
	Kind     error  // one of the Err* values, or nil
	Err      error  // underlying transport or context error, or nil
}

// Error implements error.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Lang == i18n.Ja {
		fmt.Fprintf(&b, "openai: %s の %s が失敗しました", e.Host, e.Op)
		if e.Attempts > 1 {
			fmt.Fprintf(&b, "（%d 回試行）", e.Attempts)
		}
	} else {
		fmt.Fprintf(&b, "openai: %s at %s failed", e.Op, e.Host)
		if e.Attempts > 1 {
			fmt.Fprintf(&b, " after %d attempts", e.Attempts)
		}
	}
	if e.Status != 0 && e.Status != http.StatusOK {
		fmt.Fprintf(&b, ": HTTP %d %s", e.Status, http.StatusText(e.Status))
	}
	if e.Kind != nil && (e.Status == 0 || e.Status == http.StatusOK) {
		fmt.Fprintf(&b, ": %s", e.Kind)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if h := e.hint(); h != "" {
		fmt.Fprintf(&b, " (%s)", h)
	}
	return b.String()
}

func (e *Error) hint() string {
	switch {
	case e.Kind == ErrUnauthorized:
		return msg(e.Lang, "the API key was rejected: check OPENAI_API_KEY", "API キーが拒否されました。OPENAI_API_KEY を確認してください")
	case e.Kind == ErrQuotaExhausted:
		return msg(e.Lang, "quota exhausted: check your OpenAI plan and billing", "利用枠を使い切りました。OpenAI のプランと支払い設定を確認してください")
	case e.Kind == ErrRateLimited:
		return msg(e.Lang, "rate limited: wait a minute and try again", "レート制限中です。少し待ってから再実行してください")
	case e.Kind == ErrServer:
		return msg(e.Lang, "the server is failing: try again later", "サーバー側のエラーです。時間をおいて再実行してください")
	case e.Kind == ErrModelNotFound:
		return msg(e.Lang, "check the configured model name", "設定したモデル名を確認してください")
	case e.Kind == ErrConnection || e.Kind == ErrTimeout:
		return msg(e.Lang, "check the network and OPENAI_BASE_URL, or work without network with GDS_AI_PROVIDER=offline",
			"ネットワークと OPENAI_BASE_URL を確認するか、GDS_AI_PROVIDER=offline でネットワークなしで使ってください")
	}
	return ""
}

// Hint is what the user does next (apperr.Hinter). When the server cannot
// be reached at all, it names the built-in offline provider, so a user
// without network learns gds still works; other failures keep their
// kind's hint.
func (e *Error) Hint(lang string) string {
	if e.Kind == ErrConnection || e.Kind == ErrTimeout {
		return i18n.T(lang, "ai.hint_unreachable")
	}
	if e.Kind == ErrQuotaExhausted {
		return i18n.T(lang, "ai.hint_quota")
	}
	if k := apperr.Classify(e).HintKey; k != "" {
		return i18n.T(lang, k)
	}
	return ""
}

// Unwrap exposes the kind and the underlying error to errors.Is / As.
func (e *Error) Unwrap() []error {
	var out []error
	if e.Kind != nil {
		out = append(out, e.Kind)
	}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

// attempts counts the HTTP attempts of one call (Provider.schedule sends
// them all).
type attempts struct {
	n    atomic.Int32
	cost int // the call's estimated tokens, for the lane's token pacing
}

func (a *attempts) load() int { return int(a.n.Load()) }

type attemptsKey struct{}

func withAttempts(ctx context.Context, cost int) (context.Context, *attempts) {
	a := &attempts{cost: cost}
	return context.WithValue(ctx, attemptsKey{}, a), a
}

func (p *Provider) malformed(op string, n *attempts, detail string) error {
	return &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrMalformedResponse, Message: detail}
}

// fail turns an SDK error into an *Error (or the caller's context error).
func (p *Provider) fail(ctx context.Context, op string, n *attempts, err error) error {
	e := &Error{Op: op, Host: p.host, Lang: p.lang, Attempts: n.load()}
	var apiErr *sdk.Error
	switch {
	case ctx.Err() != nil:
		// The caller gave up: report that, not a server problem.
		e.Err = ctx.Err()
	case errors.Is(err, errMarkedDown):
		if down := p.unreachable(op); down != nil {
			return down
		}
		e.Kind, e.Err = ErrConnection, err
	case errors.Is(err, ratelimit.ErrQuota):
		e.Status, e.Code, e.Kind = http.StatusTooManyRequests, ratelimit.CodeQuota, ErrQuotaExhausted
		e.Message = msg(p.lang, "not sent: the account's quota was found exhausted moments ago", "送信していません: 直前にアカウントの利用枠の超過が確認されました")
	case errors.As(err, &apiErr):
		e.Status, e.Code = apiErr.StatusCode, apiErr.Code
		e.Message = p.redact(ai.Truncate(apiErr.Message, 300))
		switch {
		case apiErr.StatusCode == http.StatusTooManyRequests && (apiErr.Code == ratelimit.CodeQuota || apiErr.Type == ratelimit.CodeQuota):
			e.Kind = ErrQuotaExhausted
		case apiErr.StatusCode == http.StatusUnauthorized || apiErr.StatusCode == http.StatusForbidden:
			e.Kind = ErrUnauthorized
		case apiErr.StatusCode == http.StatusTooManyRequests:
			e.Kind = ErrRateLimited
		case apiErr.StatusCode >= 500:
			e.Kind = ErrServer
		case apiErr.StatusCode == http.StatusNotFound && apiErr.Code == "model_not_found":
			e.Kind = ErrModelNotFound
		default:
			e.Kind = ErrBadRequest
		}
	case errors.Is(err, context.DeadlineExceeded):
		e.Kind = ErrTimeout
		e.Message = msg(p.lang, fmt.Sprintf("no answer within %s", p.timeout), fmt.Sprintf("%s 以内に応答がありません", p.timeout))
	case isDecode(err):
		e.Kind, e.Message = ErrMalformedResponse, p.redact(ai.Truncate(err.Error(), 300))
	case isTransport(err):
		e.Kind, e.Err = ErrConnection, err
	default:
		e.Kind, e.Message = ErrMalformedResponse, p.redact(ai.Truncate(err.Error(), 300))
	}
	if e.Kind == ErrConnection { // no answer at all (a slow answer is not "unreachable")
		p.markDown()
	}
	return e
}

// markDown starts the time during which calls fail at once.
func (p *Provider) markDown() {
	if p.downFor < 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.downSince = p.now()
	p.downUntil = p.downSince.Add(p.downFor)
}

// unreachable is the error of a call made while the server is marked
// down (nil otherwise): no request is sent, and the error carries the
// same hint naming GDS_AI_PROVIDER=offline.
func (p *Provider) unreachable(op string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.downUntil.IsZero() || !now.Before(p.downUntil) {
		return nil
	}
	ago := now.Sub(p.downSince).Round(time.Second)
	return &Error{Op: op, Host: p.host, Lang: p.lang, Kind: ErrConnection, Message: msg(p.lang,
		fmt.Sprintf("not tried again: the server could not be reached %s ago", ago),
		fmt.Sprintf("再試行しません: %s 前にサーバーに接続できませんでした", ago))}
}

// isDecode reports whether err is a failure to parse a response body. The
// SDK wraps body decoding errors with this fixed text and no type.
func isDecode(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te) || strings.HasPrefix(err.Error(), "error parsing response json")
}

// isTransport reports whether err is a network failure (no or cut response).
func isTransport(err error) bool {
	var ue *url.Error
	var ne net.Error
	return errors.As(err, &ue) || errors.As(err, &ne) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)
}

// Unreachable reports whether the server was found unreachable within the
// last Config.UnreachableFor (so a caller can explain a batch of failures
// with the offline hint).
func (p *Provider) Unreachable() bool { return p.unreachable("") != nil }
