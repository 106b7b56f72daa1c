// Command gds-openai-emulator serves the OpenAI-compatible test server
// (internal/ai/openaitest) on a local address, answered by gds's offline
// provider, so that gds's OpenAI code path can be tried without a key or a
// network:
//
//	go run ./cmd/gds-openai-emulator -addr 127.0.0.1:8089
//	OPENAI_BASE_URL=http://127.0.0.1:8089/v1 gds search ...
//
// It implements POST /v1/chat/completions (json_schema structured output,
// SSE streaming with usage, and validation of tools and tool messages),
// POST /v1/embeddings and GET /v1/models. With -backend offline (the
// default) it plays the model gds expects (internal/ai/openaitest/gdsmodel):
// the offline provider's answers to every structured task gds sends,
// federate's query writing, and a tool-using model for gds ask --mode
// agentic (the offline planner's tool calls, then an answer from the tool
// results).
//
// It enforces OpenAI's rate limits when given them, per model, embeddings
// separately, with the x-ratelimit-* headers on every response and 429
// rate_limit_exceeded (retry-after-ms, Retry-After) over a limit; latency
// may be a spread; --quota-exhausted answers insufficient_quota; -images
// FILE answers images sent to the model (OCR) from a JSON map of image
// SHA-256 to text:
//
//	go run ./cmd/gds-openai-emulator -rpm 600 -tpm 200000 -embed-rpm 3000 -latency 1s±300ms
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/openaitest/gdsmodel"
	"github.com/gds-cli/gds/internal/i18n"
)

// ja reports whether messages are in Japanese, by gds's locale rules
// (i18n.Detect), read for each message.
func ja() bool { return i18n.Detect(os.LookupEnv) == i18n.Ja }

func msg(en, jp string) string {
	if ja() {
		return jp
	}
	return en
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gds-openai-emulator:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gds-openai-emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8089", msg("address to listen on", "待ち受けるアドレス"))
	backend := fs.String("backend", "offline", msg("what answers requests: offline (gds's offline provider) or simple (a tiny deterministic one)",
		"応答に使うもの: offline（gds のオフラインプロバイダー）または simple（小さな決定的実装）"))
	keyEnv := fs.String("key-env", "", msg("name of an environment variable holding the API key clients must send (default: no authentication)",
		"クライアントが送るべき API キーを入れた環境変数名（既定: 認証なし）"))
	latency := fs.String("latency", "0", msg("delay added to every served request: a duration (1s) or a spread (1s±300ms, uniform)",
		"応答する各リクエストに加える遅延: 期間 (1s) または幅 (1s±300ms、一様分布)"))
	rpm := fs.Int("rpm", 0, msg("requests per minute allowed per chat model (0: no limit)", "チャットモデルごとの毎分リクエスト上限（0: 無制限）"))
	tpm := fs.Int("tpm", 0, msg("tokens per minute allowed per chat model (0: no limit)", "チャットモデルごとの毎分トークン上限（0: 無制限）"))
	embedRPM := fs.Int("embed-rpm", 0, msg("requests per minute allowed per embedding model (0: no limit)", "埋め込みモデルごとの毎分リクエスト上限（0: 無制限）"))
	embedTPM := fs.Int("embed-tpm", 0, msg("tokens per minute allowed per embedding model (0: no limit)", "埋め込みモデルごとの毎分トークン上限（0: 無制限）"))
	period := fs.Duration("enforce-period", openaitest.DefaultEnforcementPeriod, msg("period over which the per-minute limits are enforced",
		"毎分の上限を適用する期間"))
	quota := fs.Bool("quota-exhausted", false, msg("answer every model request with 429 insufficient_quota", "すべてのモデルリクエストに 429 insufficient_quota で応答する"))
	images := fs.String("images", "", msg("a JSON file mapping the hex SHA-256 of an image to its text: what the emulated model reads in images sent to it (OCR through the model)",
		"画像の SHA-256（16 進）からその本文への JSON ファイル: モデルに送られた画像から読み取る内容（モデルによる OCR）"))
	quiet := fs.Bool("quiet", false, msg("do not log requests", "リクエストをログに出さない"))
	if err := fs.Parse(args); err != nil {
		return err
	}

	var p ai.Provider
	var opts []openaitest.Option
	switch *backend {
	case "offline":
		p = gdsmodel.New()
		opts = gdsmodel.Options()
	case "simple":
		p = openaitest.NewSimpleBackend(openaitest.DefaultSimpleDim)
		opts = []openaitest.Option{openaitest.WithBackend(p)}
	default:
		return fmt.Errorf("%s", msg(fmt.Sprintf("unknown -backend %q: use offline or simple", *backend),
			fmt.Sprintf("-backend %q は不明です。offline か simple を指定してください", *backend)))
	}
	delay, jitter, err := openaitest.ParseLatency(*latency)
	if err != nil {
		return err
	}
	if *rpm < 0 || *tpm < 0 || *embedRPM < 0 || *embedTPM < 0 || *period <= 0 {
		return fmt.Errorf("%s", msg("-rpm, -tpm, -embed-rpm and -embed-tpm must be 0 or more, -enforce-period positive",
			"-rpm・-tpm・-embed-rpm・-embed-tpm は 0 以上、-enforce-period は正の値にしてください"))
	}
	opts = append(opts, openaitest.WithLatencyRange(delay, jitter),
		openaitest.WithRateLimits(openaitest.RateLimit{RPM: *rpm, TPM: *tpm}, openaitest.RateLimit{RPM: *embedRPM, TPM: *embedTPM}),
		openaitest.WithEnforcementPeriod(*period))
	if *quota {
		opts = append(opts, openaitest.WithQuotaExhausted())
	}
	if *images != "" {
		b, err := os.ReadFile(*images)
		if err != nil {
			return err
		}
		var texts map[string]string
		if err := json.Unmarshal(b, &texts); err != nil {
			return fmt.Errorf("-images %s: %w", *images, err)
		}
		opts = append(opts, openaitest.WithImageTexts(texts))
	}
	if *keyEnv != "" {
		key := os.Getenv(*keyEnv)
		if key == "" {
			return fmt.Errorf("%s", msg(fmt.Sprintf("environment variable %s is empty", *keyEnv),
				fmt.Sprintf("環境変数 %s が空です", *keyEnv)))
		}
		opts = append(opts, openaitest.WithAPIKey(key))
	}
	var h http.Handler = openaitest.NewHandler(opts...)
	if !*quiet {
		h = logRequests(h, log.New(stderr, "", log.LstdFlags))
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	base := "http://" + ln.Addr().String() + "/v1"
	fmt.Fprintln(stdout, msg(
		fmt.Sprintf("OpenAI-compatible emulator (backend: %s) at %s\nTry it:  OPENAI_BASE_URL=%s gds search \"...\"\nStop with Ctrl-C.", p.Name(), base, base),
		fmt.Sprintf("OpenAI 互換エミュレーター（バックエンド: %s）: %s\n使い方:  OPENAI_BASE_URL=%s gds search \"...\"\nCtrl-C で停止します。", p.Name(), base, base)))

	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// statusWriter remembers the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

// Flush keeps streaming working through the wrapper.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// logRequests logs method, path, status and duration; never headers.
func logRequests(next http.Handler, l *log.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			l.Printf("%s %s %d %s", r.Method, r.URL.Path, sw.status, time.Since(start).Round(time.Millisecond))
		}()
		next.ServeHTTP(sw, r)
	})
}
