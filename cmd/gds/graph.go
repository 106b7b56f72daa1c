package main

import (
	"context"
	"errors"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/render"
)

// maxGraphConcurrency is the most model calls `gds graph build` makes at once.
const maxGraphConcurrency = 64

func newGraphCommand(d *app.Deps) *cli.Command {
	def := graph.DefaultParams()
	return &cli.Command{
		Name:  "graph",
		Usage: d.T("cmd.graph.usage"),
		Commands: []*cli.Command{
			{
				Name:        "build",
				Usage:       d.T("cmd.graph.build.usage"),
				Description: d.T("cmd.graph.build.desc"),
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "folder", Usage: d.T("flag.graph.folder")},
					&cli.BoolFlag{Name: "full", Usage: d.T("flag.graph.full")},
					&cli.BoolFlag{Name: "json", Usage: d.T("flag.graph.json")},
					cliflag.IntRange(&cli.IntFlag{Name: "concurrency", Aliases: []string{"j"}, HideDefault: true, Usage: d.T("flag.graph.concurrency")}, 1, maxGraphConcurrency),
					cliflag.IntRange(&cli.IntFlag{Name: "max-rpm", HideDefault: true, Usage: d.T("flag.max_rpm")}, 1, cliflag.NoMax),
					&cli.BoolFlag{Name: "estimate", Usage: d.T("flag.graph.estimate")},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					req := app.GraphBuildRequest{BuildOptions: graph.BuildOptions{Folder: cmd.String("folder"), Full: cmd.Bool("full")},
						Concurrency: cmd.Int("concurrency"), MaxRPM: cmd.Int("max-rpm")}
					if cmd.Bool("estimate") {
						req.OnProgress = render.GraphProgressRates(d.IOStreams, nil)
						return render.EstimateOut(d.Stdout, cmd.Bool("json"), d.Lang)(d.EstimateGraph(ctx, req))
					}
					return runGraphBuild(ctx, d, req, cmd.Bool("json"))
				},
			},
			{
				Name:        "query",
				Usage:       d.T("cmd.graph.query.usage"),
				Description: d.T("cmd.graph.query.desc"),
				ArgsUsage:   "QUESTION",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "mode", Value: graph.ModeGlobal, Usage: d.T("flag.graph.mode")},
					cliflag.IntRange(&cli.IntFlag{Name: "community-level", Value: def.CommunityLevel, Usage: d.T("flag.graph.level")}, 0, cliflag.NoMax),
					cliflag.FloatRange(&cli.FloatFlag{Name: "min-community-rank", Value: def.MinCommunityRank, Usage: d.T("flag.graph.min_rank")}, 0, 10), // reports are ranked 0–10
					cliflag.IntRange(&cli.IntFlag{Name: "max-context-tokens", Value: def.MaxContextTokens, Usage: d.T("flag.graph.max_tokens")},
						graph.MinContextTokens, cliflag.NoMax),
					&cli.StringFlag{Name: "response-type", Value: def.ResponseType, Usage: d.T("flag.graph.response_type")},
					&cli.StringFlag{Name: "output-format", Value: "markdown", Usage: d.T("flag.graph.format")},
					&cli.BoolFlag{Name: "no-normalize-weight", Usage: d.T("flag.graph.no_normalize")},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					format := strings.ToLower(cmd.String("output-format"))
					if format != "markdown" && format != "json" {
						return usageError{err: errors.New(d.T("graph.bad_format", format))}
					}
					return runGraphQuery(ctx, d, graph.Query{
						Question: strings.TrimSpace(strings.Join(cmd.Args().Slice(), " ")),
						Mode:     strings.ToLower(cmd.String("mode")),
						Params: graph.Params{
							CommunityLevel:   cmd.Int("community-level"),
							MinCommunityRank: cmd.Float("min-community-rank"),
							MaxContextTokens: cmd.Int("max-context-tokens"),
							ResponseType:     cmd.String("response-type"),
							NormalizeWeight:  !cmd.Bool("no-normalize-weight"),
						},
					}, format == "json")
				},
			},
		},
	}
}

// runGraphBuild builds the graph with progress on stderr and prints the
// summary.
func runGraphBuild(ctx context.Context, d *app.Deps, req app.GraphBuildRequest, asJSON bool) error {
	req.OnProgress = render.GraphProgressRates(d.IOStreams, d.PaceModelCalls(req.MaxRPM))
	stats, err := d.GraphBuild(ctx, req)
	if err != nil {
		if asJSON {
			return render.FailJSON(d.Stdout, err, d.Lang)
		}
		return err
	}
	if asJSON {
		return writeJSON(d, stats)
	}
	render.GraphBuildSummary(d.Stdout, stats.BuildStats, d.Lang)
	render.ModelUsage(d.Stdout, stats.Usage, stats.Estimated, d.Lang)
	return nil
}

// runGraphQuery answers one question: Markdown streamed to stdout and
// ending with the sources, or one JSON document.
func runGraphQuery(ctx context.Context, d *app.Deps, q graph.Query, asJSON bool) error {
	if asJSON {
		res, err := d.GraphQuery(ctx, q)
		if err != nil {
			return render.FailJSON(d.Stdout, err, d.Lang)
		}
		return writeJSON(d, res)
	}
	prov, err := d.Provider()
	if err != nil {
		return err
	}
	text := &render.TextStream{W: d.Stdout, Offline: prov.Name() == "offline", Intro: render.GraphIntro, Lang: d.AnswerLang(q.Question)}
	q.OnText = text.Write
	res, err := d.GraphQuery(ctx, q)
	if err != nil {
		text.End()
		return err
	}
	render.GraphSources(d.Stdout, res, res.Lang)
	return nil
}
