package reliability

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/driveemu"
)

// Synthetic returns an in-memory Drive of n small text files (200–400
// bytes each, distinct content and modification times) in folders of 1,000
// under one target folder, and the target folder's ID. Nothing touches disk.
func Synthetic(n int) (*driveemu.Emulator, string) {
	emu := driveemu.New()
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	top := emu.AddFile(driveemu.File{ID: driveemu.StableID("synthetic"), Name: "Synthetic", MimeType: driveemu.MimeFolder,
		Parents: []string{driveemu.RootAlias}, ModifiedTime: base})
	var folder string
	for i := range n {
		if i%1000 == 0 {
			folder = emu.AddFile(driveemu.File{ID: driveemu.StableID(fmt.Sprintf("synthetic/%d", i/1000)),
				Name: fmt.Sprintf("batch-%03d", i/1000), MimeType: driveemu.MimeFolder, Parents: []string{top}, ModifiedTime: base})
		}
		var b strings.Builder
		fmt.Fprintf(&b, "note %d.", i)
		for j := 0; b.Len() < 200+i%200; j++ {
			b.WriteString(" ")
			b.WriteString(enWords[(i*7+j*13)%len(enWords)])
		}
		mt := base.Add(time.Duration(i) * time.Second)
		emu.AddFile(driveemu.File{ID: driveemu.StableID(fmt.Sprintf("synthetic/f%d", i)), Name: fmt.Sprintf("note-%06d.txt", i),
			MimeType: "text/plain", Parents: []string{folder}, ModifiedTime: mt, CreatedTime: mt, Content: []byte(b.String())})
	}
	return emu, top
}

// MemoryReport is the evidence of one RunMemory.
type MemoryReport struct {
	Files     int     `json:"files"`
	Indexed   int     `json:"indexed"`
	Seconds   float64 `json:"seconds"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
	ExitCode  int     `json:"exit_code"`
}

// RunMemory serves Synthetic(n) from this process and has a gds child
// crawl it into a fresh SQLite index under home, then reports the child's
// peak RSS (rusage) and how many files the index holds.
func RunMemory(ctx context.Context, bin, home string, n int) (MemoryReport, error) {
	rep := MemoryReport{Files: n}
	emu, top := Synthetic(n)
	url, stop, err := ServeEmulator(emu)
	if err != nil {
		return rep, err
	}
	defer stop()
	g := GDS{Bin: bin, Dir: home, Args: []string{"crawl"}, Env: []string{"GDS_HOME=" + home, "GDS_AI_PROVIDER=offline",
		"GDS_SOURCE=drive", "GDS_DRIVE_ENDPOINT=" + url, "GOOGLE_DRIVE_TARGET_FOLDER_IDS=" + top}}
	o, err := Run(ctx, g, nil)
	if err != nil {
		return rep, err
	}
	rep.Seconds, rep.PeakRSSMB, rep.ExitCode = o.Wall.Seconds(), float64(o.PeakRSSKB)/1024, o.ExitCode
	if o.ExitCode != 0 {
		return rep, fmt.Errorf("gds crawl of %d synthetic files exited %d:\n%s", n, o.ExitCode, o.Stderr)
	}
	err = withIndex(ctx, SQLiteIndex(filepath.Join(home, "index.db")), func(idx Index) error {
		if idx == nil {
			return fmt.Errorf("no index after the crawl")
		}
		st, err := idx.Stats(ctx)
		if err != nil {
			return fmt.Errorf("read index stats: %w", err)
		}
		rep.Indexed = st.Files
		if want := base(n); !st.Sync.ModifiedAt.Equal(want) {
			return fmt.Errorf("checkpoint %v after a complete crawl, want the newest file's %v", st.Sync.ModifiedAt, want)
		}
		return nil
	})
	if err == nil && rep.Indexed != n {
		err = fmt.Errorf("%d of %d synthetic files indexed", rep.Indexed, n)
	}
	return rep, err
}

// base is the modification time of the newest of n synthetic files.
func base(n int) time.Time {
	return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n-1) * time.Second)
}
