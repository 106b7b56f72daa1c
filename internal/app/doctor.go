package app

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"time"

	"github.com/gds-cli/gds/alfred"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/coverage"
	"github.com/gds-cli/gds/internal/doctor"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/schedule"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/migrations"
)

// DoctorDBTimeout bounds connecting to the database and reading its
// statistics in `gds doctor`.
const DoctorDBTimeout = 10 * time.Second

// IntegrityLimit bounds the embedded index's consistency check in `gds
// doctor` and `gds db status`: SQLite's quick_check reads the whole file
// (0.3 s for the 118 MB of a 10,000-file index on the 2-core VM), so on a
// very large index it stops here, having checked what it read.
const IntegrityLimit = 3 * time.Second

// DoctorInputs gathers what `gds doctor` checks look at, from Deps and the
// OS. offline skips checks that need the network.
func (d *Deps) DoctorInputs(ctx context.Context, offline bool, env schedule.Env) doctor.Inputs {
	in := doctor.Inputs{
		Lang: d.Lang, Now: d.Now(), Config: d.Config, ConfigErr: d.ConfigErr, Offline: offline, NoSource: d.NeedsInit(),
		ProgramExists: func(p string) bool { fi, err := os.Stat(p); return err == nil && !fi.IsDir() },
	}
	if b := env.Backend(); b != nil {
		in.Schedule = b
		in.ScheduleFix = "gds schedule install"
		if env.GOOS == "linux" {
			in.ScheduleFix = "gds schedule install --write   # or: gds schedule install --cron"
		}
	}
	if env.GOOS == "darwin" {
		in.Alfred = func() (string, error) {
			return doctor.FindAlfredWorkflow(doctor.AlfredPrefsDirs(env.UserHome), alfred.BundleID)
		}
	}
	cfg := d.Config
	if cfg == nil {
		return in
	}
	in.Stats = func(ctx context.Context) (store.Stats, error) {
		// Doctor does not create an embedded index that is not there yet.
		if !cfg.UsesPostgres() {
			if _, err := os.Stat(cfg.IndexPath()); errors.Is(err, fs.ErrNotExist) {
				return store.Stats{}, doctor.ErrNoIndex
			}
		}
		s, err := d.openStoreWithin(ctx, cfg, DoctorDBTimeout)
		if err != nil {
			return store.Stats{}, err
		}
		defer s.Close()
		sctx, cancel := context.WithTimeout(ctx, DoctorDBTimeout)
		defer cancel()
		st, err := s.Stats(sctx)
		if err != nil && sctx.Err() != nil && ctx.Err() == nil {
			err = &budget.Failure{Service: budget.DB, Cause: budget.CauseTimeout, Where: dbLocation(cfg.DatabaseURL), Limit: DoctorDBTimeout, Err: err}
		}
		return st, err
	}
	if !cfg.UsesPostgres() {
		in.IntegrityLimit = IntegrityLimit
		in.Integrity = func(ctx context.Context) (bool, error) { return checkIntegrity(ctx, cfg.IndexPath()) }
	}
	if env.GOOS == "darwin" { // Alfred's keystrokes start it
		in.KeyServer = func() doctor.KeyServerState {
			st := doctor.KeyServerState{Off: launcher.KeyServerOff(os.LookupEnv), Socket: launcher.OSKeySocket()}
			if st.Socket != "" {
				if conn, err := net.DialTimeout("unix", st.Socket, time.Second); err == nil {
					conn.Close()
					st.Running = true
				}
			}
			return st
		}
	}
	load := migrations.SQLite
	if cfg.UsesPostgres() {
		load = migrations.Postgres
	}
	if ms, err := load(); err == nil { // the embedded files are checked by tests
		in.LatestSchema = migrations.Latest(ms)
	}
	if prov, err := d.Provider(); err != nil {
		in.ProviderErr = err
	} else {
		em := prov.EmbeddingModel(ctx)
		in.EmbeddingModel = store.EmbeddingSpace{Model: em.Name, Dim: em.Dim}
	}
	if cfg.AIProvider == config.ProviderOpenAI {
		in.Prober = doctor.HTTPModelsProbe{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey}
	}
	in.Token = authInspector{d: d, offline: offline}
	in.Coverage = func(ctx context.Context) ([]coverage.Source, error) {
		return d.Coverage(ctx, CoverageRequest{Offline: offline, Progress: true})
	}
	return in
}

// checkIntegrity runs the consistency check of the embedded index at path
// (sqlite.Store.CheckIntegrity) through a read-only open, under ctx's
// deadline.
func checkIntegrity(ctx context.Context, path string) (complete bool, err error) {
	s, err := sqlite.Open(ctx, path, sqlite.Options{ReadOnly: true})
	if err != nil {
		return false, err
	}
	defer s.Close()
	return s.CheckIntegrity(ctx)
}

// authInspector reads the Google sign-in for doctor through internal/auth:
// the stored record, and unless offline, one refresh/verify round trip.
type authInspector struct {
	d       *Deps
	offline bool
}

// InspectToken implements doctor.TokenInspector.
func (a authInspector) InspectToken(ctx context.Context, account string) (doctor.TokenState, error) {
	ts, err := a.d.TokenStore(account)
	if err != nil {
		return doctor.TokenState{}, err
	}
	clientID := a.d.Config.OAuthClientID
	st, err := auth.Inspect(ctx, ts, clientID)
	if err != nil {
		return doctor.TokenState{}, errors.New(apperr.Message(err, a.d.Lang))
	}
	out := doctor.TokenState{LoggedIn: st.LoggedIn, Store: st.Store}
	switch {
	case !st.LoggedIn:
	case clientID != "" && !st.ClientMatches:
		out.Problem = a.d.T("doctor.auth.other_client", st.ClientID)
	case !st.HasRefreshToken:
		out.Problem = a.d.T("doctor.auth.no_refresh")
	case !a.offline && clientID != "":
		client := auth.Client{ID: a.d.Config.OAuthClientID, Secret: a.d.Config.OAuthClientSecret}
		vctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		s, err := auth.OpenSession(vctx, auth.SessionOptions{Client: client, Endpoints: a.d.OAuthEndpoints, Store: ts,
			Account: account, HTTPClient: a.d.GoogleBaseClient, Now: a.d.Now})
		if err == nil {
			err = s.Verify()
		}
		if err != nil {
			out.Problem = apperr.Message(auth.ForAccount(err, account), a.d.Lang)
			return out, nil
		}
		// The verify may have refreshed (and proven the app published).
		if st, err = auth.Inspect(ctx, ts, clientID); err != nil {
			return doctor.TokenState{}, errors.New(apperr.Message(err, a.d.Lang))
		}
	}
	if st.LoggedIn && out.Problem == "" && st.ObtainedAt != nil {
		var refreshed time.Time
		if st.RefreshedAt != nil {
			refreshed = *st.RefreshedAt
		}
		if risk := auth.TestingRisk(*st.ObtainedAt, refreshed, a.d.Now()); risk.Likely {
			out.TestingExpiry, out.AgeDays = risk.Expires, risk.Days()
		}
	}
	return out, nil
}
