package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/redact"
	"github.com/gds-cli/gds/internal/store"
)

type checker struct {
	in Inputs
	// idx holds the index stats once read (for the freshness check).
	stats    store.Stats
	statsErr error
}

func (c *checker) t(key i18n.Key, args ...any) string { return i18n.T(c.in.Lang, key, args...) }

func (c *checker) check(id string, lvl Level, detail, fix string) Check {
	// Details quote settings and errors: no URL's credentials in them.
	return Check{ID: id, Level: lvl, Title: c.t(i18n.Key("doctor." + id + ".title")), Detail: redact.URLs(detail), Fix: fix}
}

// envLine is the command that appends a setting to the gds home's .env.
func (c *checker) envLine(name, value string) string {
	return fmt.Sprintf("echo '%s=%s' >> %s", name, value, shellArg(c.in.Config.EnvFilePath()))
}

func (c *checker) config() Check {
	if c.in.Config == nil {
		msg := fmt.Sprint(c.in.ConfigErr)
		var ce *config.Error
		if errors.As(c.in.ConfigErr, &ce) {
			msg = ce.Message(c.in.Lang)
		}
		return c.check("config", Fail, msg, "gds config show")
	}
	cfg := c.in.Config
	files := c.t("doctor.none")
	if len(cfg.EnvFiles) > 0 {
		files = strings.Join(cfg.EnvFiles, ", ")
	}
	return c.check("config", OK, c.t("doctor.config.ok", cfg.Home, files), "")
}

func (c *checker) skipped(id string) Check {
	return c.check(id, Skip, c.t("doctor.skip.config"), "")
}

// unread is a check that needs the index, which could not be read.
func (c *checker) unread(id string) Check {
	return c.check(id, Skip, c.t("doctor.skip.index"), "")
}

// source checks what the crawl of the configured sources (GDS_SOURCES)
// needs: a local folder that exists, and for Drive sources the target
// folders and the OAuth client. A local-only setup needs nothing of Drive.
func (c *checker) source() []Check {
	cfg := c.in.Config
	if cfg == nil {
		return []Check{c.skipped("source")}
	}
	if c.in.NoSource {
		return []Check{c.check("source", Fail, c.t("doctor.source.none"), "gds init   # or: gds init --source local:PATH --no-input")}
	}
	var out []Check
	if len(cfg.Sources) > 1 {
		out = append(out, c.check("source", OK, c.t("doctor.source.sources", len(cfg.Sources), config.FormatSources(cfg.Sources)), ""))
	}
	for _, s := range cfg.Sources {
		if s.Kind != config.SourceLocal {
			continue
		}
		if fi, err := os.Stat(s.Path); err != nil || !fi.IsDir() {
			out = append(out, c.check("source", Warn, c.t("doctor.source.local_missing", s.Path), "gds config show"))
		} else if len(cfg.Sources) == 1 {
			out = append(out, c.check("source", OK, c.t("doctor.source.local", s.Path), ""))
		}
	}
	if !config.HasKind(cfg.Sources, config.SourceDrive) {
		return out
	}
	switch {
	case config.NeedsDriveFolders(cfg.Sources) && len(cfg.DriveFolderIDs) == 0:
		out = append(out, c.check("source", Fail, c.t("doctor.source.no_folders", config.EnvDriveFolderIDs),
			c.envLine(config.EnvDriveFolderIDs, "<folder-id>")))
	case config.NeedsDriveFolders(cfg.Sources):
		out = append(out, c.check("source", OK, c.t("doctor.source.drive", len(cfg.DriveFolderIDs)), ""))
	case len(cfg.Sources) == 1:
		out = append(out, c.check("source", OK, c.t("doctor.source.drive", 1), ""))
	}
	if cfg.OAuthClientID == "" || cfg.OAuthClientSecret == "" {
		missing := config.EnvOAuthClientID
		fix := c.envLine(config.EnvOAuthClientID, "<client-id>") + " && " + c.envLine(config.EnvOAuthClientSecret, "<client-secret>")
		if cfg.OAuthClientID != "" {
			missing = config.EnvOAuthClientSecret
			fix = c.envLine(config.EnvOAuthClientSecret, "<client-secret>")
		}
		out = append(out, c.check("oauth_client", Fail, c.t("doctor.oauth_client.missing", missing), fix))
	} else {
		out = append(out, c.check("oauth_client", OK, c.t("doctor.oauth_client.ok"), ""))
	}
	return out
}

// index checks the store, its schema, its embedding space and freshness.
func (c *checker) index(ctx context.Context) []Check {
	if c.in.Config == nil || c.in.Stats == nil {
		return []Check{c.skipped("index"), c.skipped("integrity"), c.skipped("embedding"), c.skipped("freshness")}
	}
	c.stats, c.statsErr = c.in.Stats(ctx)
	st := c.stats
	var damaged *store.DamagedError
	switch {
	case errors.Is(c.statsErr, ErrNoIndex) && c.in.NoSource:
		return []Check{
			c.check("index", Skip, c.t("doctor.index.none", c.in.Config.IndexPath()), ""),
			c.check("embedding", Skip, c.t("doctor.embedding.none"), ""),
			c.check("freshness", Skip, c.t("doctor.freshness.never"), ""),
		}
	case errors.Is(c.statsErr, ErrNoIndex):
		return []Check{
			c.check("index", Fail, c.t("doctor.index.none", c.in.Config.IndexPath()), "gds crawl"),
			c.check("integrity", Skip, c.t("doctor.integrity.none"), ""),
			c.check("embedding", Skip, c.t("doctor.embedding.none"), ""),
			c.check("freshness", Skip, c.t("doctor.freshness.never"), ""),
		}
	case errors.Is(c.statsErr, store.ErrSchemaTooNew):
		return []Check{
			c.check("index", Fail, c.t("doctor.index.too_new", c.statsErr), "brew upgrade --cask gds"),
			c.unread("integrity"), c.unread("embedding"), c.unread("freshness"),
		}
	case errors.As(c.statsErr, &damaged):
		return []Check{
			c.damaged("index", damaged),
			c.unread("integrity"), c.unread("embedding"), c.unread("freshness"),
		}
	case c.statsErr != nil:
		// Not damage (that is named above, with its fix): a database
		// that does not answer, a file SQLite cannot open. The error says
		// what failed; there is no one command that mends every such
		// case, and pointing at `gds db status` only shows it again.
		fix := ""
		if c.in.Config.UsesPostgres() {
			fix = "gds config show   # check " + c.in.Config.DatabaseURLVar
		}
		msg := c.t("doctor.index.error", c.statsErr)
		var f *budget.Failure
		if errors.As(c.statsErr, &f) {
			// Tells "cannot connect" from "connects but does not answer".
			msg = f.Message(c.in.Lang)
		}
		return []Check{
			c.check("index", Fail, msg, fix),
			c.unread("integrity"), c.unread("embedding"), c.unread("freshness"),
		}
	}
	out := make([]Check, 0, 4)
	loc := config.MaskURL(st.Location)
	if c.in.LatestSchema > 0 && st.SchemaVersion < c.in.LatestSchema {
		out = append(out, c.check("index", Warn, c.t("doctor.index.old_schema", st.Backend, loc, st.SchemaVersion, c.in.LatestSchema), "gds db migrate"))
	} else {
		out = append(out, c.check("index", OK, c.t("doctor.index.ok", st.Backend, loc, st.SchemaVersion), ""))
	}
	out = append(out, c.integrity(ctx))

	want := c.in.EmbeddingModel
	switch {
	case st.Space.Model == "":
		out = append(out, c.check("embedding", Skip, c.t("doctor.embedding.none"), ""))
	case want.Model != "" && (want.Model != st.Space.Model || (want.Dim > 0 && want.Dim != st.Space.Dim)):
		out = append(out, c.check("embedding", Fail, c.t("doctor.embedding.mismatch", st.Space.Model, st.Space.Dim, want.Model, want.Dim), "gds crawl --full"))
	default:
		out = append(out, c.check("embedding", OK, c.t("doctor.embedding.ok", st.Space.Model, st.Space.Dim), ""))
	}

	last := st.Sync.UpdatedAt
	switch {
	case st.Files == 0 && last.IsZero() && c.in.NoSource:
		out = append(out, c.check("freshness", Skip, c.t("doctor.freshness.never"), ""))
	case st.Files == 0 && last.IsZero():
		out = append(out, c.check("freshness", Fail, c.t("doctor.freshness.never"), "gds crawl"))
	case st.Files == 0:
		out = append(out, c.check("freshness", Fail, c.t("doctor.freshness.empty", last.Local().Format(time.DateTime)), "gds crawl"))
	case last.IsZero():
		out = append(out, c.check("freshness", Warn, c.t("doctor.freshness.no_checkpoint", st.Files), "gds crawl"))
	case c.in.Now.Sub(last) > c.in.StaleAfter:
		out = append(out, c.check("freshness", Warn, c.t("doctor.freshness.stale", st.Files, last.Local().Format(time.DateTime), ageString(c.in.Now.Sub(last))), "gds crawl"))
	default:
		out = append(out, c.check("freshness", OK, c.t("doctor.freshness.ok", st.Files, st.Chunks, last.Local().Format(time.DateTime), ageString(c.in.Now.Sub(last))), ""))
	}
	return out
}

// damaged is the failed check of a damaged index, with its one fix.
func (c *checker) damaged(id string, err *store.DamagedError) Check {
	fix := "gds db rebuild"
	if err.Backend == "postgres" {
		fix = "gds crawl --full   # " + c.t("doctor.integrity.postgres_fix")
	}
	return c.check(id, Fail, err.Message(c.in.Lang), fix)
}

// integrity runs the index's consistency check within its time limit.
func (c *checker) integrity(ctx context.Context) Check {
	switch {
	case c.in.Config.UsesPostgres():
		return c.check("integrity", Skip, c.t("doctor.integrity.postgres"), "")
	case c.in.Integrity == nil:
		return c.check("integrity", Skip, c.t("doctor.integrity.unavailable"), "")
	}
	limit := c.in.IntegrityLimit
	cctx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	start := time.Now()
	complete, err := c.in.Integrity(cctx)
	took := time.Since(start).Round(time.Millisecond)
	var damaged *store.DamagedError
	switch {
	case errors.As(err, &damaged):
		return c.damaged("integrity", damaged)
	case err != nil:
		return c.check("integrity", Warn, c.t("doctor.integrity.error", err), "")
	case !complete:
		return c.check("integrity", OK, c.t("doctor.integrity.partial", limit), "")
	}
	return c.check("integrity", OK, c.t("doctor.integrity.ok", took), "")
}

// ageString renders an age coarsely: minutes, hours or days.
func ageString(d time.Duration) string {
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	default:
		return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
	}
}

// auth checks the sign-in of every Google account the Drive sources use
// (config.Accounts): one line per account, each failure with that
// account's own login command, so a revoked work account does not hide
// behind a healthy default one.
func (c *checker) auth(ctx context.Context) []Check {
	cfg := c.in.Config
	switch {
	case cfg == nil:
		return []Check{c.skipped("auth")}
	case c.in.NoSource:
		return []Check{c.check("auth", Skip, c.t("doctor.auth.no_source"), "")}
	case !config.HasKind(cfg.Sources, config.SourceDrive):
		return []Check{c.check("auth", Skip, c.t("doctor.auth.not_needed"), "")}
	case c.in.Token == nil:
		return []Check{c.check("auth", Warn, c.t("doctor.auth.unavailable"), "")}
	}
	accounts := config.Accounts(cfg.Sources)
	named := len(accounts) > 1 || accounts[0] != ""
	out := make([]Check, 0, len(accounts))
	for _, a := range accounts {
		ch := c.accountAuth(ctx, a)
		if named {
			ch.Account = config.AccountLabel(a)
			ch.Title = c.t("doctor.auth.title_account", ch.Account)
		}
		out = append(out, ch)
	}
	return out
}

// LoginCommand is the command that signs account ("" is the default
// account) in again.
func LoginCommand(account string) string {
	if account == "" {
		return "gds auth login"
	}
	return "gds auth login --account " + account
}

// accountAuth is the "auth" check of one account.
func (c *checker) accountAuth(ctx context.Context, account string) Check {
	fix := LoginCommand(account)
	ts, err := c.in.Token.InspectToken(ctx, account)
	switch {
	case err != nil:
		return c.check("auth", Fail, c.t("doctor.auth.error", err), fix)
	case !ts.LoggedIn:
		return c.check("auth", Fail, c.t("doctor.auth.none"), fix)
	case ts.Problem != "":
		return c.check("auth", Fail, c.t("doctor.auth.problem", ts.Problem), fix)
	case !ts.TestingExpiry.IsZero():
		when := ts.TestingExpiry.In(c.in.Now.Location()).Format("2006-01-02 15:04")
		return c.check("auth", Warn, c.t("doctor.auth.testing_soon", ts.AgeDays, when), c.t("doctor.auth.testing_fix", fix))
	}
	return c.check("auth", OK, c.t("doctor.auth.ok", ts.Store), "")
}

func (c *checker) ai(ctx context.Context) Check {
	cfg := c.in.Config
	switch {
	case cfg == nil:
		return c.skipped("ai")
	case c.in.ProviderErr != nil:
		return c.check("ai", Fail, c.t("doctor.ai.error", c.in.ProviderErr), "gds config show")
	case cfg.AIProvider == config.ProviderOffline:
		return c.check("ai", OK, c.t("doctor.ai.offline"), "")
	}
	where := config.MaskURL(cfg.OpenAIBaseURL)
	if where == "" {
		where = "api.openai.com"
	}
	name := fmt.Sprintf("openai (%s, %s)", where, cfg.OpenAIModel)
	if c.in.Offline || c.in.Prober == nil {
		return c.check("ai", Skip, c.t("doctor.ai.not_probed", name), "")
	}
	if err := c.in.Prober.ProbeModels(ctx); err != nil {
		fix := "gds config show   # check " + config.EnvOpenAIAPIKey + " / " + config.EnvOpenAIBaseURL
		return c.check("ai", Fail, c.t("doctor.ai.unreachable", name, err), fix)
	}
	return c.check("ai", OK, c.t("doctor.ai.ok", name), "")
}

func (c *checker) schedule(ctx context.Context) Check {
	if c.in.Schedule == nil {
		return c.check("schedule", Skip, c.t("doctor.schedule.unsupported"), "")
	}
	st, err := c.in.Schedule.Status(ctx)
	fix := c.in.ScheduleFix
	switch {
	case err != nil:
		return c.check("schedule", Warn, c.t("doctor.schedule.error", err), "gds schedule status")
	case !st.Installed:
		return c.check("schedule", Warn, c.t("doctor.schedule.none"), fix)
	case st.Program != "" && c.in.ProgramExists != nil && !c.in.ProgramExists(st.Program):
		return c.check("schedule", Fail, c.t("doctor.schedule.missing_program", st.Program), fix)
	case !st.Loaded:
		return c.check("schedule", Warn, c.t("doctor.schedule.not_loaded", st.Path), fix)
	case st.LastExitCode != nil && *st.LastExitCode != 0:
		log := st.ErrLogPath
		if log == "" {
			return c.check("schedule", Warn, c.t("doctor.schedule.last_failed", *st.LastExitCode), "journalctl --user -u gds-crawl -n 50")
		}
		return c.check("schedule", Warn, c.t("doctor.schedule.last_failed", *st.LastExitCode), "tail -n 50 "+shellArg(log))
	}
	return c.check("schedule", OK, c.t("doctor.schedule.ok", st.Backend, st.Interval), "")
}

func (c *checker) alfred() Check {
	if c.in.Alfred == nil {
		return c.check("alfred", Skip, c.t("doctor.alfred.unsupported"), "")
	}
	dir, err := c.in.Alfred()
	switch {
	case err != nil:
		return c.check("alfred", Warn, c.t("doctor.alfred.error", err), "gds alfred install")
	case dir == "":
		return c.check("alfred", Warn, c.t("doctor.alfred.none"), "gds alfred install")
	}
	return c.check("alfred", OK, c.t("doctor.alfred.ok", dir), "")
}

// keyServer reports the Alfred keystroke server: never a failure — without
// it a keystroke still works, started as gds-core.
func (c *checker) keyServer() Check {
	switch {
	case c.in.KeyServer == nil: // the server answers Alfred, on macOS
		return c.check("keyserver", Skip, c.t("doctor.alfred.unsupported"), "")
	case c.in.Config == nil:
		return c.skipped("keyserver")
	case c.in.Config.UsesPostgres():
		return c.check("keyserver", Skip, c.t("doctor.keyserver.postgres"), "")
	}
	st := c.in.KeyServer()
	switch {
	case st.Off:
		return c.check("keyserver", OK, c.t("doctor.keyserver.off"), "")
	case st.Socket == "":
		return c.check("keyserver", Warn, c.t("doctor.keyserver.no_socket", c.in.Config.Home), c.t("doctor.keyserver.no_socket.fix"))
	case st.Running:
		return c.check("keyserver", OK, c.t("doctor.keyserver.running", st.Socket), "")
	}
	return c.check("keyserver", OK, c.t("doctor.keyserver.idle"), "")
}

// shellArg quotes p for a command the user copies into a shell.
func shellArg(p string) string {
	if !strings.ContainsAny(p, " '\"$`\\!&;|<>()*?[]{}~#") {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
