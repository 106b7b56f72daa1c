package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/envfile"
	"github.com/gds-cli/gds/internal/federate"
	"github.com/gds-cli/gds/internal/federate/mcphost"
	"github.com/gds-cli/gds/internal/federate/mockserver"
)

// FederateConfigName is servers.yaml's name in the gds home.
const FederateConfigName = "servers.yaml"

// FederateTraceName is the --debug trace's name in the gds home.
const FederateTraceName = "federate-trace.jsonl"

// FederateOptions open a federation.
type FederateOptions struct {
	ConfigPath string // "" : servers.yaml in the gds home (the defaults when it is missing)
	Mock       bool   // --mock
	Debug      bool   // write the JSON Lines trace
	Version    string
	// OnEvent receives progress (may be nil).
	OnEvent func(federate.Event)
	// Host lets tests replace how servers are started (nil: defaults).
	Host *mcphost.Options
}

// Federation is gds federate's running servers and its runner; a REPL
// keeps one open between questions.
type Federation struct {
	Runner    *federate.Runner
	Host      *mcphost.Host
	TracePath string // "" without --debug
	trace     *os.File
}

// FederateConfigPath is where servers.yaml is read from.
func (d *Deps) FederateConfigPath(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	cfg, err := d.RequireConfig()
	if err != nil {
		return "", err
	}
	return filepath.Join(cfg.Home, FederateConfigName), nil
}

// InitFederateConfig writes the commented default servers.yaml; an
// existing file is kept (apperr.Usage) unless force.
func (d *Deps) InitFederateConfig(path string, force bool) (string, error) {
	p, err := d.FederateConfigPath(path)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err == nil && !force {
		return p, apperr.L(apperr.Usage, "federate.config_exists", p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return p, homeWriteError(filepath.Dir(p), err)
	}
	return p, homeWriteError(filepath.Dir(p), os.WriteFile(p, []byte(federate.DefaultConfigYAML), 0o600))
}

// LoadFederateConfig reads servers.yaml, or the defaults when the file in
// the gds home does not exist.
func (d *Deps) LoadFederateConfig(path string) (federate.Config, error) {
	p, err := d.FederateConfigPath(path)
	if err != nil {
		return federate.Config{}, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) && path == "" {
		data = []byte(federate.DefaultConfigYAML)
	} else if err != nil {
		return federate.Config{}, apperr.L(apperr.Config, "federate.config_unreadable", p, err).Wrap(err)
	}
	c, err := federate.ParseConfig(data)
	if err != nil {
		return c, apperr.L(apperr.Config, "federate.config_bad", err).Wrap(err)
	}
	return c, nil
}

// envLookup reads a variable from the environment, then the gds home's
// .env (tokens live there or in the environment, never in servers.yaml).
func (d *Deps) envLookup() func(string) (string, bool) {
	var file map[string]string
	if cfg, err := d.RequireConfig(); err == nil {
		file, _ = envfile.Read(cfg.EnvFilePath())
	}
	return func(k string) (string, bool) {
		if v, ok := os.LookupEnv(k); ok {
			return v, true
		}
		v, ok := file[k]
		return v, ok
	}
}

// OpenFederation reads servers.yaml, starts the servers (in parallel;
// mocks per --mock, ALLOW_REAL=0 or a missing token) and builds the
// runner with the configured AI provider. The caller closes it.
func (d *Deps) OpenFederation(ctx context.Context, o FederateOptions) (*Federation, error) {
	c, err := d.LoadFederateConfig(o.ConfigPath)
	if err != nil {
		return nil, err
	}
	prov, err := d.Provider()
	if err != nil {
		return nil, err
	}
	lookup := d.envLookup()
	hopts := mcphost.Options{}
	if o.Host != nil {
		hopts = *o.Host
	}
	allow, _ := lookup("ALLOW_REAL")
	hopts.ForceMock = hopts.ForceMock || federate.ForceMock(o.Mock, allow)
	if hopts.Lookup == nil {
		hopts.Lookup = lookup
	}
	hopts.Version = o.Version
	hopts.Lang = d.Lang
	if hopts.Version == "" {
		hopts.Version = "dev"
	}
	f := &Federation{}
	if o.Debug {
		cfg, err := d.RequireConfig()
		if err != nil {
			return nil, err
		}
		f.TracePath = filepath.Join(cfg.Home, FederateTraceName)
		if err := os.MkdirAll(cfg.Home, 0o700); err != nil {
			return nil, homeWriteError(cfg.Home, err)
		}
		tf, err := os.OpenFile(f.TracePath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, homeWriteError(cfg.Home, fmt.Errorf("open the trace %s: %w", f.TracePath, err))
		}
		f.trace = tf
		hopts.Trace = mcphost.NewTrace(tf, d.Now)
	}
	f.Host = mcphost.Start(ctx, c, hopts)
	f.Runner = &federate.Runner{Endpoints: f.Host.Endpoints(), AI: prov, Lang: d.Lang, Now: d.Now, OnEvent: o.OnEvent}
	if hopts.Trace != nil {
		f.Runner.Trace = hopts.Trace
	}
	return f, nil
}

// Ask answers one question across the services.
func (f *Federation) Ask(ctx context.Context, question string) (federate.Result, error) {
	if question == "" {
		return federate.Result{}, apperr.L(apperr.Usage, "federate.no_question")
	}
	res, err := f.Runner.Run(ctx, question)
	for i, e := range f.Runner.Endpoints {
		if p, ok := e.Service.(*mcphost.Proc); ok && i < len(res.Services) {
			res.Services[i].Mock = p.Mock()
		}
	}
	return res, err
}

// FederateRequest is one federated question outside the REPL (gds mcp's
// federate tool).
type FederateRequest struct {
	Question string
	Mock     bool // the built-in mock services, as --mock
}

// FederateConfigError is a servers.yaml that cannot be read or parsed; Err
// is the typed error (apperr.Config).
type FederateConfigError struct {
	Path string
	Err  error
}

func (e *FederateConfigError) Error() string { return e.Err.Error() }
func (e *FederateConfigError) Unwrap() error { return e.Err }

// Federate answers one question across the configured services: it starts
// the servers, asks, and stops them. A bad servers.yaml is a
// *FederateConfigError.
func (d *Deps) Federate(ctx context.Context, req FederateRequest) (federate.Result, error) {
	if strings.TrimSpace(req.Question) == "" {
		return federate.Result{}, apperr.L(apperr.Usage, "federate.no_question")
	}
	if _, err := d.LoadFederateConfig(""); err != nil {
		p, _ := d.FederateConfigPath("")
		return federate.Result{}, &FederateConfigError{Path: p, Err: err}
	}
	f, err := d.OpenFederation(ctx, FederateOptions{Mock: req.Mock})
	if err != nil {
		return federate.Result{}, err
	}
	defer f.Close() // as gds federate: the servers' exit is not the question's failure
	return f.Ask(ctx, strings.TrimSpace(req.Question))
}

// Close stops the servers and closes the trace.
func (f *Federation) Close() error {
	err := f.Host.Close()
	if f.trace != nil {
		err = errors.Join(err, f.trace.Close())
	}
	return err
}

// RunMockServer serves a mock MCP server on stdio (gds federate
// mock-server KIND).
func (d *Deps) RunMockServer(ctx context.Context, kind string) error {
	if err := mockserver.Check(kind); err != nil {
		return apperr.Mark(err, apperr.Usage)
	}
	// The session ends when the client closes the pipe: not a failure.
	_ = mockserver.Run(ctx, kind)
	return nil
}
