// Package mcphost runs the MCP servers of servers.yaml as stdio
// subprocesses with the official Go SDK's client and adapts each one to
// federate.Service: it starts them (the real server, or its mock when
// --mock, ALLOW_REAL=0 or a missing token says so), watches them and
// restarts a server whose process died, maps tool errors (a rate-limit
// answer becomes federate.ErrRateLimited), and with --debug writes every
// JSON-RPC message to the trace, masked.
package mcphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gds-cli/gds/internal/federate"
	"github.com/gds-cli/gds/internal/i18n"
)

// Options configure a Host.
type Options struct {
	// ForceMock runs every server's mock (--mock, ALLOW_REAL=0).
	ForceMock bool
	// Self is the gds executable: the command "gds" in servers.yaml and
	// the mock servers run it. Empty: os.Executable.
	Self string
	// MockCommand builds the command of a mock server (nil: Self
	// federate mock-server KIND).
	MockCommand func(kind string) *exec.Cmd
	// Lookup reads the environment (nil: os.LookupEnv).
	Lookup func(string) (string, bool)
	// Stderr receives the servers' standard error (nil: discarded).
	Stderr func(server string) *os.File
	// Trace receives the MCP messages (--debug); nil traces nothing.
	Trace *Trace
	// MaxRestarts bounds restarts per server (0: 3).
	MaxRestarts int
	// Version is the client version sent in initialize.
	Version string
	// Lang is the language of warnings (i18n.En when empty).
	Lang string
}

// Host holds the running servers.
type Host struct {
	opts  Options
	procs []*Proc
}

// Start launches every enabled server of cfg in parallel. A server that
// cannot start is kept with its error (the others still answer).
func Start(ctx context.Context, cfg federate.Config, o Options) *Host {
	if o.Lookup == nil {
		o.Lookup = os.LookupEnv
	}
	if o.Self == "" {
		o.Self, _ = os.Executable()
	}
	if o.MaxRestarts == 0 {
		o.MaxRestarts = 3
	}
	h := &Host{opts: o}
	var wg sync.WaitGroup
	for _, s := range cfg.Enabled() {
		p := &Proc{host: h}
		l, ok := federate.DecideLaunch(s, o.ForceMock, o.Lookup)
		p.launch = l
		switch {
		case !ok:
			p.startErr = fmt.Errorf("%w: %s is not set and the server has no mock", federate.ErrUnavailable, l.Reason)
		case l.Mock && l.Reason != "mock":
			p.Warning = i18n.T(o.Lang, "federate.w.mock", l.Reason)
		}
		h.procs = append(h.procs, p)
		if p.startErr == nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.mu.Lock()
				defer p.mu.Unlock()
				p.startErr = p.startLocked(ctx)
			}()
		}
	}
	wg.Wait()
	return h
}

// Endpoints are the servers for federate.Runner.
func (h *Host) Endpoints() []federate.Endpoint {
	out := make([]federate.Endpoint, 0, len(h.procs))
	for _, p := range h.procs {
		e := federate.Endpoint{Server: p.launch.Server, Service: p, Warning: p.Warning}
		out = append(out, e)
	}
	return out
}

// Procs are the servers.
func (h *Host) Procs() []*Proc { return h.procs }

// Close stops every server.
func (h *Host) Close() error {
	var errs []error
	for _, p := range h.procs {
		errs = append(errs, p.close())
	}
	return errors.Join(errs...)
}

// Proc is one server process and its session.
type Proc struct {
	host     *Host
	launch   federate.Launch
	Warning  string
	mu       sync.Mutex
	cs       *mcp.ClientSession
	cmd      *exec.Cmd
	startErr error
	restarts int
	closing  bool
	dead     chan struct{}
}

// Name is the server's name.
func (p *Proc) Name() string { return p.launch.Server.Name }

// Mock reports whether the mock runs in place of the server.
func (p *Proc) Mock() bool { return p.launch.Mock }

// Restarts is how many times the server was restarted after dying.
func (p *Proc) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// PID is the server process's ID (0 when none runs).
func (p *Proc) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// command builds the server's command line.
func (p *Proc) command() *exec.Cmd {
	o := p.host.opts
	s := p.launch.Server
	if p.launch.Mock {
		if o.MockCommand != nil {
			return o.MockCommand(s.Mock)
		}
		return exec.Command(o.Self, "federate", "mock-server", s.Mock)
	}
	name := s.Command
	if name == "gds" {
		name = o.Self
	}
	cmd := exec.Command(name, s.Args...)
	cmd.Env = p.env(s.Command == "gds")
	return cmd
}

// baseEnv are the variables every server gets: what a process needs to
// run, never a secret.
var baseEnv = []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "LC_MESSAGES", "TMPDIR", "TMP", "TEMP",
	"SYSTEMROOT", "APPDATA", "LOCALAPPDATA", "USERPROFILE", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "npm_config_cache"}

// env is the server's environment: the base variables and the names the
// server lists (its tokens). gds itself gets the whole environment (its
// own configuration).
func (p *Proc) env(all bool) []string {
	if all {
		return os.Environ()
	}
	var out []string
	for _, name := range append(append([]string{}, baseEnv...), p.launch.Server.Env...) {
		if v, ok := p.host.opts.Lookup(name); ok {
			out = append(out, name+"="+v)
		}
	}
	return out
}

// startLocked starts the process and connects; p.mu is held.
func (p *Proc) startLocked(ctx context.Context) error {
	cmd := p.command()
	detach(cmd)
	if p.host.opts.Stderr != nil {
		cmd.Stderr = p.host.opts.Stderr(p.Name())
	}
	var t mcp.Transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	if tr := p.host.opts.Trace; tr != nil {
		t = &tracingTransport{inner: t, server: p.Name(), trace: tr}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "gds-federate", Version: p.host.opts.Version}, nil)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cs, err := c.Connect(cctx, t, nil)
	if err != nil {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
		return fmt.Errorf("%w: start %s: %w", federate.ErrUnavailable, p.Name(), err)
	}
	p.cs, p.cmd = cs, cmd
	dead := make(chan struct{})
	p.dead = dead
	go p.watch(cs, dead)
	return nil
}

// watch waits for the session to end; when the process died on its own it
// restarts it (at most MaxRestarts times), so the next question finds the
// server running (NFR-RL-01).
func (p *Proc) watch(cs *mcp.ClientSession, dead chan struct{}) {
	_ = cs.Wait()
	close(dead)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing || p.cs != cs {
		return
	}
	p.cs = nil
	if p.restarts >= p.host.opts.MaxRestarts {
		p.startErr = fmt.Errorf("%w: %s died %d times", federate.ErrUnavailable, p.Name(), p.restarts+1)
		return
	}
	p.restarts++
	if tr := p.host.opts.Trace; tr != nil {
		tr.Trace("restart", map[string]any{"server": p.Name(), "restarts": p.restarts})
	}
	// A restart belongs to no caller (the server died on its own); the
	// process it starts lives until Close.
	p.startErr = p.startLocked(context.Background())
}

// session is the live session, started again if it is gone.
func (p *Proc) session(ctx context.Context) (*mcp.ClientSession, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cs != nil {
		return p.cs, nil
	}
	if p.closing {
		return nil, fmt.Errorf("%w: %s is closed", federate.ErrUnavailable, p.Name())
	}
	if p.startErr != nil && p.cmd == nil {
		return nil, p.startErr
	}
	if p.restarts >= p.host.opts.MaxRestarts && p.startErr != nil {
		return nil, p.startErr
	}
	if err := p.startLocked(ctx); err != nil {
		p.startErr = err
		return nil, err
	}
	return p.cs, nil
}

// Search implements federate.Service.
func (p *Proc) Search(ctx context.Context, tool string, args map[string]any) (federate.ToolOutput, error) {
	return p.call(ctx, tool, args)
}

// Fetch implements federate.Service.
func (p *Proc) Fetch(ctx context.Context, call federate.FetchCall) (federate.ToolOutput, error) {
	if call.Resource != "" {
		cs, err := p.session(ctx)
		if err != nil {
			return federate.ToolOutput{}, err
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: call.Resource})
		if err != nil {
			return federate.ToolOutput{}, p.callErr(ctx, err)
		}
		var b strings.Builder
		for _, c := range res.Contents {
			b.WriteString(c.Text)
		}
		return federate.ToolOutput{Text: b.String()}, nil
	}
	return p.call(ctx, call.Tool, call.Args)
}

func (p *Proc) call(ctx context.Context, tool string, args map[string]any) (federate.ToolOutput, error) {
	cs, err := p.session(ctx)
	if err != nil {
		return federate.ToolOutput{}, err
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return federate.ToolOutput{}, p.callErr(ctx, err)
	}
	var out federate.ToolOutput
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t.Text)
		}
	}
	out.Text = b.String()
	if res.StructuredContent != nil {
		if raw, err := json.Marshal(res.StructuredContent); err == nil {
			out.Structured = raw
		}
	}
	if res.IsError {
		msg := federate.MaskSecrets(firstLine(out.Text))
		if federate.IsRateLimitText(out.Text) {
			return out, fmt.Errorf("%s %s: %w: %s", p.Name(), tool, federate.ErrRateLimited, msg)
		}
		return out, fmt.Errorf("%s %s: %s", p.Name(), tool, msg)
	}
	return out, nil
}

// callErr keeps the deadline visible: the SDK reports a cancelled call
// with its own error.
func (p *Proc) callErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%s: %w (%v)", p.Name(), ctx.Err(), err)
	}
	return fmt.Errorf("%s: %w", p.Name(), err)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

func (p *Proc) close() error {
	p.mu.Lock()
	p.closing = true
	cs := p.cs
	p.cs = nil
	p.mu.Unlock()
	if cs == nil {
		return nil
	}
	return cs.Close()
}
