package mcphost

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gds-cli/gds/internal/federate"
)

// Trace writes JSON Lines (--debug): one object per MCP message or LLM
// exchange, with tokens, e-mail addresses and user IDs masked
// (federate.MaskSecrets). Nothing is traced without --debug.
type Trace struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// NewTrace writes to w.
func NewTrace(w io.Writer, now func() time.Time) *Trace {
	if now == nil {
		now = time.Now
	}
	return &Trace{w: w, now: now}
}

// Trace implements federate.Tracer.
func (t *Trace) Trace(kind string, v any) {
	if t == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(err.Error())
	}
	line, _ := json.Marshal(struct {
		Time string          `json:"time"`
		Kind string          `json:"kind"`
		Data json.RawMessage `json:"data"`
	}{t.now().UTC().Format(time.RFC3339Nano), kind, json.RawMessage(federate.MaskSecrets(string(b)))})
	if !json.Valid(line) { // masking never breaks JSON, but stay safe
		line, _ = json.Marshal(map[string]string{"kind": kind, "error": "unencodable"})
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.w.Write(append(line, '\n'))
}

type tracingTransport struct {
	inner  mcp.Transport
	server string
	trace  *Trace
}

func (t *tracingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tracingConn{Connection: c, server: t.server, trace: t.trace}, nil
}

type tracingConn struct {
	mcp.Connection
	server string
	trace  *Trace
}

func (c *tracingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		c.log("recv", m)
	}
	return m, err
}

func (c *tracingConn) Write(ctx context.Context, m jsonrpc.Message) error {
	c.log("send", m)
	return c.Connection.Write(ctx, m)
}

func (c *tracingConn) log(dir string, m jsonrpc.Message) {
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return
	}
	c.trace.Trace("mcp", map[string]any{"server": c.server, "dir": dir, "message": json.RawMessage(b)})
}
