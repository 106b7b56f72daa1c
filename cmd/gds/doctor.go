package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/alfred"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/doctor"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/migrations"
)

// doctorOptions are the flags of `gds doctor`.
type doctorOptions struct {
	JSON    bool
	Offline bool
}

// doctorError is returned when the report has failures; the report itself
// was already printed.
type doctorError struct {
	msg string
}

func (e doctorError) Error() string { return e.msg }
func (e doctorError) Unwrap() error { return doctor.ErrUnhealthy }

func newDoctorCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "doctor",
		Usage:       d.T("cmd.doctor.usage"),
		Description: d.T("cmd.doctor.desc"),
		Flags:       []cli.Flag{jsonFlag(d), &cli.BoolFlag{Name: "offline", Usage: d.T("flag.doctor.offline")}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := checkNoArgs(d, cmd); err != nil {
				return err
			}
			return runDoctor(ctx, d, doctorOptions{JSON: cmd.Bool("json"), Offline: cmd.Bool("offline")}, osScheduleEnv())
		},
	}
}

// doctorInputs gathers what the checks look at, from Deps and the OS.
func doctorInputs(d *app.Deps, opts doctorOptions, env scheduleEnv) doctor.Inputs {
	in := doctor.Inputs{
		Lang: d.Lang, Now: d.Now(), Config: d.Config, ConfigErr: d.ConfigErr, Offline: opts.Offline,
		ProgramExists: func(p string) bool { fi, err := os.Stat(p); return err == nil && !fi.IsDir() },
	}
	if b := env.backend(); b != nil {
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
		var st store.Stats
		err := withStore(ctx, d, func(s store.Store) (err error) {
			st, err = s.Stats(ctx)
			return err
		})
		return st, err
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
		em := prov.EmbeddingModel()
		in.EmbeddingModel = store.EmbeddingSpace{Model: em.Name, Dim: em.Dim}
	}
	if cfg.AIProvider == config.ProviderOpenAI {
		in.Prober = doctor.HTTPModelsProbe{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey}
	}
	in.Token = doctorTokenInspector(d, opts.Offline)
	return in
}

func runDoctor(ctx context.Context, d *app.Deps, opts doctorOptions, env scheduleEnv) error {
	r := doctor.Run(ctx, doctorInputs(d, opts, env))
	var err error
	if opts.JSON {
		err = doctor.WriteJSON(d.Stdout, r)
	} else {
		err = doctor.WriteText(d.Stdout, r, d.Lang)
	}
	if err != nil {
		return err
	}
	if !r.Healthy {
		fails, _ := r.Counts()
		return doctorError{msg: d.T("doctor.unhealthy", fails)}
	}
	return nil
}

// authInspector reads the Google sign-in for doctor through internal/auth:
// the stored record, and unless offline, one refresh/verify round trip.
type authInspector struct {
	d       *app.Deps
	offline bool
}

// InspectToken implements doctor.TokenInspector.
func (a authInspector) InspectToken(ctx context.Context) (doctor.TokenState, error) {
	ts, err := a.d.TokenStore()
	if err != nil {
		return doctor.TokenState{}, err
	}
	clientID := a.d.Config.OAuthClientID
	st, err := auth.Inspect(ctx, ts, clientID)
	if err != nil {
		return doctor.TokenState{}, errors.New(localizedError(a.d, err))
	}
	out := doctor.TokenState{LoggedIn: st.LoggedIn, Store: st.Store}
	switch {
	case !st.LoggedIn:
	case clientID != "" && !st.ClientMatches:
		out.Problem = a.d.T("doctor.auth.other_client", st.ClientID)
	case !st.HasRefreshToken:
		out.Problem = a.d.T("doctor.auth.no_refresh")
	case !a.offline && clientID != "":
		client, err := authClient(a.d)
		if err != nil {
			out.Problem = localizedError(a.d, err)
			break
		}
		vctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		s, err := auth.OpenSession(vctx, auth.SessionOptions{Client: client, Endpoints: a.d.OAuthEndpoints, Store: ts})
		if err == nil {
			err = s.Verify()
		}
		if err != nil {
			out.Problem = localizedError(a.d, err)
		}
	}
	return out, nil
}

// doctorTokenInspector returns how doctor reads the Google sign-in.
func doctorTokenInspector(d *app.Deps, offline bool) doctor.TokenInspector {
	return authInspector{d: d, offline: offline}
}
