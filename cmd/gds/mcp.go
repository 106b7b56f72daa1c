package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/mcpserver"
)

// newMCPCommand is `gds mcp`: gds as an MCP server on stdio. Standard
// output carries only the protocol (the SDK's stdio transport); the one
// line gds prints goes to standard error.
func newMCPCommand(d *app.Deps, info buildInfo) *cli.Command {
	return &cli.Command{
		Name:        "mcp",
		Usage:       d.T("cmd.mcp.usage"),
		Description: d.T("cmd.mcp.desc"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			fmt.Fprintln(d.Stderr, d.T("mcp.ready"))
			s := mcpserver.New(d, mcpserver.Options{Version: info.Version, Lang: d.Lang})
			return s.Run(ctx, &mcp.StdioTransport{})
		},
	}
}
