package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/render"
)

// askOptions are the parsed flags and arguments of `gds ask`.
type askOptions struct {
	Question  string
	JSON      bool
	JSONL     bool // JSON lines as the answer streams (render.AskLines)
	Folder    string
	TopK      int
	Threshold float64
	Mode      string
}

func newAskCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "ask",
		Usage:       d.T("cmd.ask.usage"),
		Description: d.T("cmd.ask.desc"),
		ArgsUsage:   "[QUESTION]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: d.T("flag.ask.json")},
			&cli.BoolFlag{Name: "jsonl", Usage: d.T("flag.ask.jsonl")},
			&cli.StringFlag{Name: "folder", Usage: d.T("flag.ask.folder")},
			cliflag.IntRange(&cli.IntFlag{Name: "top-k", Value: app.DefaultTopK, Usage: d.T("flag.ask.top_k")}, 1, app.MaxAskTopK),
			cliflag.FloatRange(&cli.FloatFlag{Name: "score-threshold", Usage: d.T("flag.ask.threshold")}, 0, 1),
			&cli.StringFlag{Name: "mode", Value: app.ModeRAG, Usage: d.T("cmd.ask.mode")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runAsk(ctx, d, askOptions{
				Question:  strings.TrimSpace(strings.Join(cmd.Args().Slice(), " ")),
				JSON:      cmd.Bool("json"),
				JSONL:     cmd.Bool("jsonl"),
				Folder:    cmd.String("folder"),
				TopK:      cmd.Int("top-k"),
				Threshold: cmd.Float("score-threshold"),
				Mode:      cmd.String("mode"),
			})
		},
	}
}

// runAsk answers one question, or on a terminal without one, starts a
// prompt that keeps the conversation.
func runAsk(ctx context.Context, d *app.Deps, opts askOptions) error {
	if err := app.CheckMode(opts.Mode); err != nil {
		return usageError{err: err}
	}
	if opts.Mode == app.ModeAgentic {
		return runAgentic(ctx, d, opts)
	}
	req := func(q string) app.AskRequest {
		return app.AskRequest{RetrieveRequest: app.RetrieveRequest{Query: q, TopK: opts.TopK, ScoreThreshold: opts.Threshold, Folder: opts.Folder}}
	}
	if opts.JSONL {
		out, r := render.AskLines{W: d.Stdout, Lang: d.Lang}, req(opts.Question)
		r.OnText = out.Text
		res, err := d.Ask(ctx, r)
		if err == nil { // evidence: the cited passages, or the closest ones (res.Shown)
			err = out.Answer(askSources(res.Shown()), res.Answer, res.Provider, res.Extractive)
		}
		return out.End(err)
	}
	if opts.JSON {
		res, err := d.Ask(ctx, req(opts.Question))
		if err != nil {
			return render.FailJSON(d.Stdout, err, d.Lang)
		}
		if res.Sources == nil {
			res.Sources = []app.Source{}
		}
		return writeJSON(d, res)
	}
	if opts.Question != "" {
		_, err := askOnce(ctx, d, req(opts.Question))
		return err
	}
	if !d.StdinTTY {
		return usageError{err: errors.New(d.T("ask.no_question"))}
	}
	prov, err := d.Provider()
	if err != nil {
		return err
	}
	fmt.Fprintln(d.Stderr, d.T("ask.repl.welcome", prov.Name()))
	var history []ai.Message
	return render.RunREPL(ctx, &render.REPL{
		Lines: render.NewLines(d.Stdin), Msgs: d.Stderr, T: d.T, Prompt: "ask.repl.prompt",
		Run: func(ctx context.Context, q string) error {
			r := req(q)
			r.History = history
			res, err := askOnce(ctx, d, r)
			if err == nil {
				history = append(history, ai.Message{Role: ai.RoleUser, Content: q}, ai.Message{Role: ai.RoleAssistant, Content: res.Answer})
			}
			return err
		},
		OnError: func(err error) { printError(d, err) },
	})
}

// askOnce streams one answer to stdout and lists its sources.
func askOnce(ctx context.Context, d *app.Deps, req app.AskRequest) (app.AskResult, error) {
	prov, err := d.Provider()
	if err != nil {
		return app.AskResult{}, err
	}
	text := &render.TextStream{W: d.Stdout, Offline: prov.Name() == "offline", Intro: render.AskIntro, Lang: d.AnswerLang(req.Query)}
	req.OnText = text.Write
	res, err := d.Ask(ctx, req)
	text.End()
	if err != nil {
		return res, err
	}
	render.AskSources(d.Stdout, askSources(res.Shown()), res.NoAnswer, d.Width, d.Hyperlinks, res.Lang)
	return res, nil
}

func askSources(srcs []app.Source) []render.AskSource {
	out := make([]render.AskSource, len(srcs))
	for i, s := range srcs {
		out[i] = render.AskSource{Ref: s.Ref, FileID: s.FileID, ChunkID: s.ChunkID, Name: s.Name, Page: s.Page, Link: s.Link, Text: s.Text, Quote: s.Quote}
	}
	return out
}

// runAgentic runs `gds ask --mode agentic`: the steps and the answer in
// the terminal, or one JSON event per line with --json.
func runAgentic(ctx context.Context, d *app.Deps, opts askOptions) error {
	if opts.Question == "" {
		return usageError{err: errors.New(d.T("ask.no_question"))}
	}
	req := app.AgentRequest{Question: opts.Question, Folder: opts.Folder}
	if opts.JSON || opts.JSONL {
		out := render.AskLines{W: d.Stdout, Lang: d.Lang}
		req.Emit = out.Event
		_, err := d.Agent(ctx, req)
		return out.End(err)
	}
	prov, err := d.Provider()
	if err != nil {
		return err
	}
	v := &render.AgentView{W: d.Stdout, Lang: d.Lang, Width: d.Width, Hyperlinks: d.Hyperlinks, Offline: prov.Name() == "offline"}
	req.Emit = v.Event
	_, err = d.Agent(ctx, req)
	return err
}
