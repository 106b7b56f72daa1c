package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/store"
)

// dbOptions are the flags of `gds db migrate` and `gds db status`.
type dbOptions struct{ JSON bool }

func newDBCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "db",
		Usage:       d.T("cmd.db.usage"),
		Description: d.T("cmd.db.desc"),
		Commands: []*cli.Command{
			{
				Name:  "migrate",
				Usage: d.T("cmd.db.migrate.usage"),
				Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := checkNoArgs(d, cmd); err != nil {
						return err
					}
					return runDBMigrate(ctx, d, dbOptions{JSON: cmd.Bool("json")})
				},
			},
			{
				Name:  "status",
				Usage: d.T("cmd.db.status.usage"),
				Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := checkNoArgs(d, cmd); err != nil {
						return err
					}
					return runDBStatus(ctx, d, dbOptions{JSON: cmd.Bool("json")})
				},
			},
		},
	}
}

// dbStatusJSON is the --json output of the db commands.
type dbStatusJSON struct {
	Backend        string     `json:"backend"`
	Location       string     `json:"location"`
	SchemaVersion  int        `json:"schema_version"`
	Files          int        `json:"files"`
	Chunks         int        `json:"chunks"`
	EmbeddingModel string     `json:"embedding_model,omitempty"`
	EmbeddingDim   int        `json:"embedding_dim,omitempty"`
	LastSync       *time.Time `json:"last_sync,omitempty"`
}

func statusJSON(st store.Stats) dbStatusJSON {
	out := dbStatusJSON{
		Backend: st.Backend, Location: config.MaskURL(st.Location), SchemaVersion: st.SchemaVersion,
		Files: st.Files, Chunks: st.Chunks, EmbeddingModel: st.Space.Model, EmbeddingDim: st.Space.Dim,
	}
	if !st.Sync.ModifiedAt.IsZero() {
		t := st.Sync.ModifiedAt.UTC()
		out.LastSync = &t
	}
	return out
}

// withStore opens the index, calls fn and closes it.
func withStore(ctx context.Context, d *app.Deps, fn func(store.Store) error) (err error) {
	s, err := d.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := s.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close the index: %w", cerr)
		}
	}()
	return fn(s)
}

func runDBMigrate(ctx context.Context, d *app.Deps, opts dbOptions) error {
	return withStore(ctx, d, func(s store.Store) error {
		if err := s.Migrate(ctx); err != nil {
			return fmt.Errorf("migrate the index: %w", err)
		}
		st, err := s.Stats(ctx)
		if err != nil {
			return fmt.Errorf("read the index status: %w", err)
		}
		if opts.JSON {
			return writeJSON(d, statusJSON(st))
		}
		fmt.Fprintln(d.Stdout, d.T("out.db.migrated", st.Backend, config.MaskURL(st.Location), st.SchemaVersion))
		return nil
	})
}

func runDBStatus(ctx context.Context, d *app.Deps, opts dbOptions) error {
	return withStore(ctx, d, func(s store.Store) error {
		st, err := s.Stats(ctx)
		if err != nil {
			return fmt.Errorf("read the index status: %w", err)
		}
		if opts.JSON {
			return writeJSON(d, statusJSON(st))
		}
		j := statusJSON(st)
		emb := d.T("out.db.no_embedding")
		if j.EmbeddingModel != "" {
			emb = fmt.Sprintf("%s (%d)", j.EmbeddingModel, j.EmbeddingDim)
		}
		sync := d.T("out.db.never")
		if j.LastSync != nil {
			sync = j.LastSync.Format(time.RFC3339)
		}
		tw := tabwriter.NewWriter(d.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\t%s\n", d.T("out.db.backend"), j.Backend)
		fmt.Fprintf(tw, "%s\t%s\n", d.T("out.db.location"), j.Location)
		fmt.Fprintf(tw, "%s\t%d\n", d.T("out.db.schema"), j.SchemaVersion)
		fmt.Fprintf(tw, "%s\t%d\n", d.T("out.db.files"), j.Files)
		fmt.Fprintf(tw, "%s\t%d\n", d.T("out.db.chunks"), j.Chunks)
		fmt.Fprintf(tw, "%s\t%s\n", d.T("out.db.embedding"), emb)
		fmt.Fprintf(tw, "%s\t%s\n", d.T("out.db.last_sync"), sync)
		return tw.Flush()
	})
}
