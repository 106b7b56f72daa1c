// Command gds-drive-emulator serves the Drive API v3 emulator
// (internal/driveemu) on a local address, for demos and benchmarks:
//
//	go run ./cmd/gds-drive-emulator -addr 127.0.0.1:8088 -fixture default
//	GDS_DRIVE_ENDPOINT=http://127.0.0.1:8088 GOOGLE_DRIVE_TARGET_FOLDER_IDS=... gds crawl
//
// -fixture is "default" (the built-in demo Drive), a manifest file
// (*.json, see driveemu.Manifest) or "dir:PATH" (a local folder tree served
// as uploaded files). fullText search covers the text of PDF and Office
// files, as Drive's does. -latency and the -fault-* flags inject delays and
// errors into every request.
//
// Several users, each with a Drive of their own (files, Shared drives) and
// a bearer token that picks it, as driveemu.Users serves them in tests:
//
//	go run ./cmd/gds-drive-emulator -user home:tok-home=default -user work:tok-work=dir:./work
//
// A request without a token, or with another, is refused with Drive's 401.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/driveemu"
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gds-drive-emulator:", err)
		os.Exit(1)
	}
}

// options are the parsed flags.
type options struct {
	addr, fixture string
	latency       time.Duration
	faultRate     float64
	faultKinds    string
	retryAfter    time.Duration
	seed          uint64
	maxPageSize   int
	quiet         bool
	users         []userSpec // -user, in order
}

// userSpec is one -user NAME:TOKEN=FIXTURE.
type userSpec struct{ name, token, fixture string }

// parseUser parses a -user value, refusing a name or token given before.
func parseUser(v string, seen []userSpec) (userSpec, error) {
	who, fixture, ok := strings.Cut(v, "=")
	name, token, ok2 := strings.Cut(who, ":")
	name, token, fixture = strings.TrimSpace(name), strings.TrimSpace(token), strings.TrimSpace(fixture)
	if !ok || !ok2 || name == "" || token == "" || fixture == "" {
		return userSpec{}, fmt.Errorf("%s", msg(fmt.Sprintf("-user %q: use NAME:TOKEN=FIXTURE (e.g. work:tok-work=dir:./work)", v),
			fmt.Sprintf("-user %q: NAME:TOKEN=FIXTURE の形で指定してください（例: work:tok-work=dir:./work）", v)))
	}
	for _, u := range seen {
		if u.name == name || u.token == token {
			return userSpec{}, fmt.Errorf("%s", msg(fmt.Sprintf("-user %q: each user needs its own name and token", v),
				fmt.Sprintf("-user %q: ユーザーごとに別の名前とトークンが必要です", v)))
		}
	}
	return userSpec{name: name, token: token, fixture: fixture}, nil
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("gds-drive-emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8088", msg("address to listen on", "待ち受けるアドレス"))
	fs.StringVar(&o.fixture, "fixture", "default", msg("what to serve: default, a manifest .json file, or dir:PATH",
		"提供する内容: default、マニフェスト（.json）、または dir:PATH"))
	fs.DurationVar(&o.latency, "latency", 0, msg("delay added to every request", "すべてのリクエストに加える遅延"))
	fs.Float64Var(&o.faultRate, "fault-rate", 0, msg("probability (0-1) that a request fails with one of -fault-kinds",
		"リクエストが -fault-kinds のいずれかで失敗する確率（0〜1）"))
	fs.StringVar(&o.faultKinds, "fault-kinds", "429,403user,503", msg(
		"comma-separated faults drawn at -fault-rate: 429, 403user, 403rate, 500, 502, 503, drop, truncate",
		"-fault-rate で発生させる障害（カンマ区切り）: 429, 403user, 403rate, 500, 502, 503, drop, truncate"))
	fs.DurationVar(&o.retryAfter, "retry-after", time.Second, msg("Retry-After sent with injected 429s", "429 に付ける Retry-After"))
	fs.Uint64Var(&o.seed, "seed", 1, msg("seed of the fault random source", "障害の乱数シード"))
	fs.IntVar(&o.maxPageSize, "max-page-size", driveemu.DefaultMaxPageSize, msg("files.list page size cap", "files.list のページサイズ上限"))
	fs.BoolVar(&o.quiet, "quiet", false, msg("do not log requests", "リクエストをログに出さない"))
	fs.Func("user", msg("a user NAME:TOKEN=FIXTURE with a Drive of their own (repeat for several; instead of -fixture)",
		"独自の Drive を持つユーザー NAME:TOKEN=FIXTURE（複数なら繰り返す。-fixture の代わり）"), func(v string) error {
		u, err := parseUser(v, o.users)
		if err == nil {
			o.users = append(o.users, u)
		}
		return err
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText())
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%s", msg("unexpected arguments: "+strings.Join(fs.Args(), " "), "余分な引数: "+strings.Join(fs.Args(), " ")))
	}
	fixtureSet := false
	fs.Visit(func(f *flag.Flag) { fixtureSet = fixtureSet || f.Name == "fixture" })
	if fixtureSet && len(o.users) > 0 {
		return nil, fmt.Errorf("%s", msg("-fixture and -user exclude each other: give each user its fixture", "-fixture と -user は同時に使えません。各ユーザーにフィクスチャを指定してください"))
	}
	if o.faultRate < 0 || o.faultRate > 1 {
		return nil, fmt.Errorf("%s", msg("-fault-rate must be between 0 and 1", "-fault-rate は 0〜1 で指定してください"))
	}
	return o, nil
}

// usageText is the head of -help: what the emulator serves and indexes.
func usageText() string {
	return msg(`Usage: gds-drive-emulator [flags]

Serves the Google Drive API v3 emulator on a local address. It prints the two
variables that point gds at it (GDS_DRIVE_ENDPOINT and
GOOGLE_DRIVE_TARGET_FOLDER_IDS); set them and run gds crawl / gds search.

  -fixture dir:PATH   serve a local folder tree as uploaded files
  -fixture default    the built-in demo Drive; -fixture FILE.json a manifest

Several users, each with their own Drive (files, Shared drives from a
manifest) and token: repeat -user NAME:TOKEN=FIXTURE instead of -fixture, e.g.
  -user home:tok-home=default -user work:tok-work=dir:./work
Each request's "Authorization: Bearer TOKEN" picks the user's Drive; no
token or another is refused with Drive's 401 (authError). It prints each
user's token and target folders.

Search ("fullText contains") matches, as Drive does, the name, the
description, the export text of Google Docs/Sheets/Slides, text files and the
text extracted from PDF, Word (.docx), Excel (.xlsx) and PowerPoint (.pptx)
files (with gds's own extractors). -latency and -fault-* inject delays and
errors (429 with -retry-after, 403, 5xx, dropped or truncated responses).

Flags:
`, `使い方: gds-drive-emulator [フラグ]

Google Drive API v3 のエミュレーターをローカルのアドレスで提供します。gds を向ける
2 つの変数（GDS_DRIVE_ENDPOINT と GOOGLE_DRIVE_TARGET_FOLDER_IDS）を表示するので、
設定して gds crawl / gds search を実行してください。

  -fixture dir:PATH   ローカルのフォルダーをアップロード済みファイルとして提供
  -fixture default    組み込みのデモ用 Drive。-fixture FILE.json はマニフェスト

複数ユーザー（それぞれ独自の Drive: ファイル、マニフェストの共有ドライブ、トークン）:
-fixture の代わりに -user NAME:TOKEN=FIXTURE を繰り返します。例:
  -user home:tok-home=default -user work:tok-work=dir:./work
リクエストの「Authorization: Bearer TOKEN」でユーザーの Drive が決まり、トークンが
ない・違う場合は Drive と同じ 401（authError）で拒否します。各ユーザーのトークンと
対象フォルダーを表示します。

検索（fullText contains）は Drive と同じく、名前、説明、Google ドキュメント/
スプレッドシート/スライドの書き出しテキスト、テキストファイル、PDF・Word（.docx）・
Excel（.xlsx）・PowerPoint（.pptx）から抽出したテキスト（gds の抽出器を使用）に一致
します。-latency と -fault-* で遅延やエラー（-retry-after 付きの 429、403、5xx、
切断、途中で切れた応答）を注入します。

フラグ:
`)
}

// loadFixture resolves -fixture, or a -user's fixture (key: the user's
// name, so that folders laid out alike get IDs of their own).
func loadFixture(spec, key string) (*driveemu.Fixture, error) {
	switch {
	case spec == "default":
		return driveemu.DefaultFixture(), nil
	case strings.HasPrefix(spec, "dir:"):
		return driveemu.FromDirKeyed(strings.TrimPrefix(spec, "dir:"), key)
	case strings.HasSuffix(spec, ".json"):
		return driveemu.LoadManifest(spec)
	}
	return nil, fmt.Errorf("%s", msg(fmt.Sprintf("unknown -fixture %q: use default, a .json manifest or dir:PATH", spec),
		fmt.Sprintf("-fixture %q は不明です。default、.json マニフェスト、dir:PATH のいずれかを指定してください", spec)))
}

// faultRules turns -fault-kinds into rules sharing -fault-rate evenly.
func faultRules(kinds string, rate float64, retryAfter time.Duration) ([]driveemu.Rule, error) {
	var rules []driveemu.Rule
	for _, k := range strings.Split(kinds, ",") {
		var r driveemu.Rule
		switch strings.TrimSpace(k) {
		case "429":
			r = driveemu.TooManyRequests(retryAfter)
		case "403user":
			r = driveemu.UserRateLimitExceeded()
		case "403rate":
			r = driveemu.RateLimitExceeded()
		case "500", "502", "503":
			var code int
			if _, err := fmt.Sscan(strings.TrimSpace(k), &code); err != nil {
				return nil, fmt.Errorf("fault %q: %w", k, err)
			}
			r = driveemu.ServerError(code)
		case "drop":
			r = driveemu.DropConnection()
		case "truncate":
			r = driveemu.TruncateBody()
		case "":
			continue
		default:
			return nil, fmt.Errorf("%s", msg("unknown fault kind "+k, "不明な障害の種類: "+k))
		}
		rules = append(rules, r)
	}
	// Rules are tried in order and the first that fires wins, so rule i gets
	// the conditional probability (rate/n)/(1-i·rate/n): each kind then fires
	// on rate/n of the requests and some fault on rate of them.
	n := float64(len(rules))
	for i := range rules {
		rules[i].Probability = (rate / n) / (1 - rate*float64(i)/n)
	}
	return rules, nil
}

// run serves until ctx ends. ready, if non-nil, receives the bound address.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var rules []driveemu.Rule
	if o.faultRate > 0 {
		if rules, err = faultRules(o.faultKinds, o.faultRate, o.retryAfter); err != nil {
			return err
		}
	}
	setUp := func(emu *driveemu.Emulator) {
		emu.SetMaxPageSize(o.maxPageSize)
		emu.Faults().Seed(o.seed)
		if o.latency > 0 {
			emu.Faults().Add(driveemu.Latency(o.latency))
		}
		for _, r := range rules {
			emu.Faults().Add(r)
		}
	}
	var h http.Handler
	var drives []*driveemu.Emulator
	var banner func(base string) string
	if len(o.users) > 0 {
		var users *driveemu.Users
		users, drives, banner, err = serveUsers(o.users, setUp)
		if err != nil {
			return err
		}
		h = users
	} else {
		fx, err := loadFixture(o.fixture, "")
		if err != nil {
			return err
		}
		setUp(fx.Emu)
		h, drives = fx.Emu, []*driveemu.Emulator{fx.Emu}
		n, ids := len(fx.Emu.IDs()), strings.Join(fx.Targets, ",")
		banner = func(base string) string {
			return msg(
				fmt.Sprintf("Drive API emulator (%d items) at %s/drive/v3/\n  GDS_DRIVE_ENDPOINT=%s\n  GOOGLE_DRIVE_TARGET_FOLDER_IDS=%s\nStop with Ctrl-C.",
					n, base, base, ids),
				fmt.Sprintf("Drive API エミュレーター（%d 項目）: %s/drive/v3/\n  GDS_DRIVE_ENDPOINT=%s\n  GOOGLE_DRIVE_TARGET_FOLDER_IDS=%s\nCtrl-C で停止します。",
					n, base, base, ids))
		}
	}
	if !o.quiet {
		h = logRequests(h, log.New(stderr, "", log.LstdFlags))
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.addr, err)
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintln(stdout, banner(base))
	if ready != nil {
		ready <- base
	}

	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	total, faults := 0, map[driveemu.FaultKind]int{}
	for _, emu := range drives {
		st := emu.Stats()
		total += st.Total()
		for k, n := range st.Faults {
			faults[k] += n
		}
	}
	fmt.Fprintln(stderr, msg(fmt.Sprintf("served %d requests, injected faults: %v", total, faults),
		fmt.Sprintf("%d 件のリクエストを処理、注入した障害: %v", total, faults)))
	return nil
}

// serveUsers builds the Drive of each -user behind one endpoint, each set
// up by setUp, and the banner that names each user's token and targets.
func serveUsers(specs []userSpec, setUp func(*driveemu.Emulator)) (*driveemu.Users, []*driveemu.Emulator, func(string) string, error) {
	tokens := map[string]string{}
	users := driveemu.NewUsers(driveemu.StaticTokens(tokens))
	var drives []*driveemu.Emulator
	var b strings.Builder
	head := func(base string) string {
		return msg(fmt.Sprintf("Drive API emulator for %d users at %s/drive/v3/: the bearer token picks the user's Drive\n", len(specs), base),
			fmt.Sprintf("Drive API エミュレーター（%d ユーザー）: %s/drive/v3/（Bearer トークンでユーザーの Drive が決まります）\n", len(specs), base))
	}
	for _, u := range specs {
		fx, err := loadFixture(u.fixture, u.name+"/")
		if err != nil {
			return nil, nil, nil, fmt.Errorf("-user %s: %w", u.name, err)
		}
		if !strings.HasSuffix(u.fixture, ".json") { // a manifest names its own user
			fx.Emu.SetUser(driveemu.User{DisplayName: u.name, EmailAddress: u.name + "@example.com", PermissionID: driveemu.StableID("user/" + u.name)})
		}
		setUp(fx.Emu)
		tokens[u.token] = u.name
		users.Put(u.name, fx.Emu)
		drives = append(drives, fx.Emu)
		fmt.Fprintf(&b, msg("  %s: token %s, %d items, target folders %s\n", "  %s: トークン %s、%d 項目、対象フォルダー %s\n"),
			u.name, u.token, len(fx.Emu.IDs()), strings.Join(fx.Targets, ","))
	}
	b.WriteString(msg("Stop with Ctrl-C.", "Ctrl-C で停止します。"))
	return users, drives, func(base string) string { return head(base) + b.String() }, nil
}

// statusWriter remembers the status of a response; it passes Hijack
// through so dropped-connection faults work behind the logger.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests logs method, path, query, status and duration.
func logRequests(next http.Handler, l *log.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			l.Printf("%s %s?%s %d %s", r.Method, r.URL.Path, r.URL.RawQuery, sw.status, time.Since(start).Round(time.Millisecond))
		}()
		next.ServeHTTP(sw, r)
	})
}
