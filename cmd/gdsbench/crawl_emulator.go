package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/driveemu"
)

// The Drive source of the crawl benchmark: dir served by the in-process
// Drive API emulator with latency added to every call, read by drivesource.Source
// through the real drive/v3 client over loopback HTTP.
func init() {
	emulatorSource = func(ctx context.Context, dir string, latency time.Duration) (crawl.Source, func(), error) {
		fx, err := driveemu.FromDir(dir)
		if err != nil {
			return nil, nil, err
		}
		if latency > 0 {
			fx.Emu.Faults().Add(driveemu.Latency(latency))
		}
		srv := httptest.NewServer(fx.Emu)
		c, err := drive.New(ctx, drive.Options{Endpoint: srv.URL})
		if err != nil {
			srv.Close()
			return nil, nil, fmt.Errorf("drive client: %w", err)
		}
		return drivesource.New(c, drivesource.Options{FolderIDs: fx.Targets}), srv.Close, nil
	}
}
