package main

import (
	"context"
	"errors"
	"net/http"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/drive"
)

// newDriveSource builds the Google Drive source of `gds crawl` and resolves
// its target folders, so a missing, non-folder or forbidden ID stops the
// crawl before the index is opened or any file is listed. With
// GDS_DRIVE_ENDPOINT set it talks to that endpoint without OAuth (the Drive
// emulator); otherwise it uses the stored OAuth token.
func newDriveSource(ctx context.Context, d *app.Deps, cfg *config.Config) (*drivesource.Source, error) {
	if err := cfg.RequireDriveFolders(); err != nil {
		return nil, err
	}
	var hc *http.Client
	if cfg.DriveEndpoint == "" {
		var err error
		if hc, err = d.GoogleHTTPClient(ctx); err != nil {
			return nil, err
		}
	}
	c, err := drive.New(ctx, drive.Options{Endpoint: cfg.DriveEndpoint, HTTPClient: hc})
	if err != nil {
		return nil, err
	}
	src := drivesource.New(c, drivesource.Options{FolderIDs: cfg.DriveFolderIDs, Lang: d.Lang})
	if _, err := src.Resolve(ctx); err != nil {
		var fe *drive.FolderError
		if errors.As(err, &fe) {
			return nil, driveFolderError{msg: fe.Message(d.Lang), err: err}
		}
		return nil, err
	}
	return src, nil
}

// driveFolderError shows msg (already in the user's language) and keeps err
// for errors.Is/As.
type driveFolderError struct {
	msg string
	err error
}

func (e driveFolderError) Error() string { return e.msg }
func (e driveFolderError) Unwrap() error { return e.err }
