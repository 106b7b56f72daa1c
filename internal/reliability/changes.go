package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/store"
)

// Mutation counts what Mutate changed.
type Mutation struct {
	Modified int `json:"modified"` // new content, a newer modification time
	Moved    int `json:"moved"`    // to another folder, same time
	Renamed  int `json:"renamed"`  // same folder, same time
	Deleted  int `json:"deleted"`
	Added    int `json:"added"` // moved in from outside with a modification time older than every other file
}

// Changed is the number of files an incremental crawl must process.
func (m Mutation) Changed() int { return m.Modified + m.Moved + m.Renamed + m.Added }

// Mutate changes a crawled corpus the way time does: about 10 % of the
// files get new content, 10 % move to another folder, 5 % are renamed, 5 %
// deleted, and 10 % more files are moved in from outside with modification
// times older than every file of the corpus (which an incremental crawl by
// modification time would never see). The changes are made on disk and,
// when emu is set (the emulator serving the corpus, built by
// driveemu.FromDir), the same way in the emulator: moves and renames keep
// the Drive ID (CorpusFile.DriveKey), added files are created outside the
// target folder and then moved in. c.Files is updated to the new state.
func (c *Corpus) Mutate(seed uint64, emu *driveemu.Emulator) (Mutation, error) {
	var m Mutation
	rng := rand.New(rand.NewPCG(seed, 0xc4a9e5))
	oldest, newest := c.Files[0].ModTime, c.Files[len(c.Files)-1].ModTime
	folderID := func(dir string) string { return driveemu.StableID("dir:" + dir) }
	abs := func(rel string) string { return filepath.Join(c.Dir, filepath.FromSlash(rel)) }
	keep := c.Files[:0:0]
	for i, f := range c.Files {
		id := driveemu.StableID(f.DriveKey)
		if f.DriveKey == "" {
			id = driveemu.StableID("dir:" + f.Rel)
		}
		dir, name := path.Split(f.Rel)
		dir = strings.TrimSuffix(dir, "/")
		r := rng.IntN(100)
		switch {
		case r < 10 && f.Indexable:
			text := corpusText(rng, 500000+i)
			f.ModTime = newest.Add(time.Duration(i+1) * time.Second)
			if err := os.WriteFile(abs(f.Rel), []byte(text), 0o644); err != nil {
				return m, fmt.Errorf("mutate: %w", err)
			}
			if err := os.Chtimes(abs(f.Rel), f.ModTime, f.ModTime); err != nil {
				return m, fmt.Errorf("mutate: %w", err)
			}
			if emu != nil {
				emu.Touch(id, []byte(text), f.ModTime)
			}
			m.Modified++
		case r >= 10 && r < 20:
			var k int
			_, _ = fmt.Sscanf(dir, "d%d", &k) // the top folder (no dN) moves to d1
			to := fmt.Sprintf("d%d", (k+1)%10)
			if f.DriveKey == "" {
				f.DriveKey = "dir:" + f.Rel
			}
			rel := to + "/" + name
			if err := os.Rename(abs(f.Rel), abs(rel)); err != nil {
				return m, fmt.Errorf("mutate: %w", err)
			}
			f.Rel = rel
			if emu != nil {
				emu.Move(id, folderID(to))
			}
			m.Moved++
		case r >= 20 && r < 25:
			if f.DriveKey == "" {
				f.DriveKey = "dir:" + f.Rel
			}
			rel := dir + "/r" + name
			if err := os.Rename(abs(f.Rel), abs(rel)); err != nil {
				return m, fmt.Errorf("mutate: %w", err)
			}
			f.Rel = rel
			if emu != nil {
				emu.Rename(id, "r"+name, f.ModTime)
			}
			m.Renamed++
		case r >= 25 && r < 30:
			if err := os.Remove(abs(f.Rel)); err != nil {
				return m, fmt.Errorf("mutate: %w", err)
			}
			if emu != nil {
				emu.Delete(id)
			}
			m.Deleted++
			continue
		}
		keep = append(keep, f)
	}
	outside := c.Dir + ".outside"
	if err := os.MkdirAll(outside, 0o755); err != nil {
		return m, fmt.Errorf("mutate: %w", err)
	}
	defer os.RemoveAll(outside)
	for j := range len(c.Files) / 10 {
		name := fmt.Sprintf("n%06d.txt", j)
		dir := fmt.Sprintf("d%d", j%10)
		rel := dir + "/" + name
		text := corpusText(rng, 700000+j)
		mt := oldest.Add(-time.Duration(j+1) * time.Hour)
		tmp := filepath.Join(outside, name)
		if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
			return m, fmt.Errorf("mutate: %w", err)
		}
		if err := os.Chtimes(tmp, mt, mt); err != nil {
			return m, fmt.Errorf("mutate: %w", err)
		}
		if err := os.Rename(tmp, abs(rel)); err != nil {
			return m, fmt.Errorf("mutate: %w", err)
		}
		if emu != nil {
			id := emu.AddFile(driveemu.File{ID: driveemu.StableID("dir:" + rel), Name: name, MimeType: "text/plain",
				Parents: []string{driveemu.RootAlias}, Content: []byte(text), ModifiedTime: mt, CreatedTime: mt})
			emu.Move(id, folderID(dir))
		}
		keep = append(keep, CorpusFile{Rel: rel, ModTime: mt.UTC(), Indexable: true})
		m.Added++
	}
	sort.SliceStable(keep, func(i, j int) bool { return keep[i].ModTime.Before(keep[j].ModTime) })
	c.Files = keep
	return m, nil
}

// ChangesConfig configures RunChangesCrash.
type ChangesConfig struct {
	GDS    GDS
	Index  Opener
	Corpus *Corpus
	Kind   string             // SourceLocal or SourceDrive
	Emu    *driveemu.Emulator // the emulator serving the corpus (SourceDrive)
	// PathPrefix is what the index's paths start with before the corpus
	// folder ("" locally; the top folder's name and "/" from Drive).
	PathPrefix string
	Stops      int
	Signal     os.Signal
	Seed       uint64
	Logf       func(format string, args ...any)
}

// ChangesReport is the evidence of one RunChangesCrash.
type ChangesReport struct {
	Signal   string   `json:"signal"`
	Files    int      `json:"files"`
	Mutation Mutation `json:"mutation"`
	Stops    int      `json:"stops_survived"`
	Runs     int      `json:"runs"` // gds processes started, the first full crawl included
	// RerunsToFinish counts the runs after the last stop until one exited 0.
	RerunsToFinish int `json:"reruns_to_finish"`
	// Checks counts the invariant checks after stops (and the final one).
	Checks int `json:"checks"`
	// TokenAhead counts stops after which the committed page token had
	// moved past the one the crawl started from (the index must then be
	// complete); it must stay 0 for a stop mid-crawl.
	TokenAhead int     `json:"token_ahead"`
	FilesLost  int     `json:"files_lost"`
	WrongPaths int     `json:"wrong_paths"`
	Seconds    float64 `json:"seconds"`
	PeakRSSMB  float64 `json:"peak_rss_mb"`
}

// RunChangesCrash is the crash harness of incremental crawls:
// a first crawl indexes the corpus to the end; Mutate changes it; then the
// incremental crawl (the Drive changes feed, or the listing compared with
// the index for a local folder) is stopped with cfg.Signal at planned
// points. After every stop: no file the changes did not touch is lost (its
// row and hash are as the first crawl left them), and the page token is
// never committed ahead of the rows (a token other than the starting one
// demands a complete index). Reruns then finish the crawl, and the index
// must equal what a full scan of the changed corpus gives: every file with
// its content hash and chunks, its folder path, no extra row.
func RunChangesCrash(ctx context.Context, cfg ChangesConfig) (ChangesReport, error) {
	start := time.Now()
	rep := ChangesReport{Signal: sigName(cfg.Signal), Files: len(cfg.Corpus.Files)}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	run := func(stop *Stop) (Outcome, error) {
		o, err := Run(ctx, cfg.GDS, stop)
		rep.Runs++
		rep.PeakRSSMB = max(rep.PeakRSSMB, float64(o.PeakRSSKB)/1024)
		return o, err
	}
	o, err := run(nil)
	if err != nil {
		return rep, err
	}
	if o.ExitCode != 0 {
		return rep, fmt.Errorf("first crawl exited %d:\n%s", o.ExitCode, o.Stderr)
	}
	before, err := cfg.Corpus.Expect(ctx, cfg.Kind)
	if err != nil {
		return rep, err
	}
	token0, err := pageToken(ctx, cfg.Index)
	if err != nil {
		return rep, err
	}
	if cfg.Kind == SourceDrive && token0 == "" {
		return rep, fmt.Errorf("no page token after the first crawl")
	}
	if rep.Mutation, err = cfg.Corpus.Mutate(cfg.Seed, cfg.Emu); err != nil {
		return rep, err
	}
	after, err := cfg.Corpus.Expect(ctx, cfg.Kind)
	if err != nil {
		return rep, err
	}
	// The files the changes did not touch: same ID and hash before and after.
	untouched := untouchedFiles(before, after)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xde1a7))
	points := Plan(rep.Mutation.Changed(), cfg.Stops, cfg.Signal, cfg.Seed)
	prev, finished := 0, false
	for _, pt := range points {
		stop := &Stop{Signal: cfg.Signal, Delay: time.Duration(rng.IntN(20)) * time.Millisecond}
		if pt < 0 {
			stop.AfterEvents, stop.Delay = -1, time.Duration(20+rng.IntN(400))*time.Millisecond
		} else {
			// A rerun does not report the files the stopped runs finished.
			stop.AfterEvents = max(0, pt-prev)
			prev = pt
		}
		o, err := run(stop)
		if err != nil {
			return rep, err
		}
		logf("run %d: stop at %d (after %d events of this run): exit %d, %d events, signalled %v, %s",
			rep.Runs, pt, stop.AfterEvents, o.ExitCode, o.Events, o.Signaled, o.Wall.Round(time.Millisecond))
		switch {
		case o.ExitCode == 0:
			finished = true
		case !o.Signaled:
			return rep, fmt.Errorf("gds crawl exited %d without being stopped:\n%s", o.ExitCode, o.Stderr)
		case cfg.Signal == syscall.SIGTERM && o.ExitCode != 130:
			return rep, fmt.Errorf("gds crawl stopped by SIGTERM exited %d, want 130:\n%s", o.ExitCode, o.Stderr)
		case cfg.Signal == syscall.SIGKILL && o.ExitCode != -1:
			return rep, fmt.Errorf("gds crawl exited %d after SIGKILL was sent:\n%s", o.ExitCode, o.Stderr)
		}
		rep.Checks++
		if err := withIndex(ctx, cfg.Index, func(idx Index) error {
			if err := checkUntouched(ctx, idx, untouched); err != nil {
				return err
			}
			tok, err := stateToken(ctx, idx)
			if err != nil || tok == token0 || tok == "" {
				return err
			}
			// The token moved: every change it covers must be committed.
			if !finished {
				rep.TokenAhead++
			}
			_, err = CheckComplete(ctx, idx, after)
			return err
		}); err != nil {
			return rep, fmt.Errorf("after stop %d at %d: %w", rep.Stops+1, pt, err)
		}
		if finished {
			break
		}
		rep.Stops++
	}
	if !finished {
		if err := runToEnd(run, &rep.RerunsToFinish, func() int { return rep.Runs }, logf); err != nil {
			return rep, err
		}
	}
	rep.Checks++
	err = withIndex(ctx, cfg.Index, func(idx Index) error {
		if idx == nil {
			return fmt.Errorf("no index after a finished crawl")
		}
		comp, err := CheckComplete(ctx, idx, after)
		rep.FilesLost = comp.Lost()
		if err != nil {
			return err
		}
		rep.WrongPaths, err = checkPaths(ctx, idx, after, cfg.PathPrefix)
		if err == nil {
			var tok string
			if tok, err = stateToken(ctx, idx); err == nil && cfg.Kind == SourceDrive && (tok == "" || tok == token0) {
				err = fmt.Errorf("the page token did not move after the finished crawl (%q)", tok)
			}
		}
		return err
	})
	rep.Seconds = time.Since(start).Seconds()
	return rep, err
}

// untouchedFiles returns the expectations present with the same ID and
// hash before and after the changes.
func untouchedFiles(before, after []Expect) []Expect {
	was := map[string]string{}
	for _, e := range before {
		was[e.ID] = e.Hash
	}
	var out []Expect
	for _, e := range after {
		if h, ok := was[e.ID]; ok && h == e.Hash && e.Indexable() {
			out = append(out, e)
		}
	}
	return out
}

// checkUntouched checks that every untouched indexable file is still
// indexed with its content hash.
func checkUntouched(ctx context.Context, idx Index, files []Expect) error {
	if idx == nil {
		return fmt.Errorf("the index is gone")
	}
	lost := 0
	var first string
	for start := 0; start < len(files); start += batch {
		part := files[start:min(start+batch, len(files))]
		ids := make([]string, len(part))
		for i, f := range part {
			ids[i] = f.ID
		}
		h, err := idx.ContentHashes(ctx, ids)
		if err != nil {
			return fmt.Errorf("read content hashes: %w", err)
		}
		for _, f := range part {
			if h[f.ID] != f.Hash {
				lost++
				if first == "" {
					first = f.Rel
				}
			}
		}
	}
	if lost > 0 {
		return fmt.Errorf("%d files the changes did not touch were lost or altered (first: %s)", lost, first)
	}
	return nil
}

// checkPaths counts indexable files whose stored folder path is not the
// one of their place in the corpus.
func checkPaths(ctx context.Context, idx Index, files []Expect, prefix string) (int, error) {
	want := map[string]string{}
	var ids []string
	for _, f := range files {
		if f.Indexable() {
			want[f.ID] = prefix + path.Dir(f.Rel)
			ids = append(ids, f.ID)
		}
	}
	wrong := 0
	var first string
	for start := 0; start < len(ids); start += batch {
		rows, err := idx.GetFiles(ctx, ids[start:min(start+batch, len(ids))])
		if err != nil {
			return 0, fmt.Errorf("read files: %w", err)
		}
		for _, r := range rows {
			if r.Path != want[r.ID] {
				wrong++
				if first == "" {
					first = fmt.Sprintf("%s at %q, want %q", r.Name, r.Path, want[r.ID])
				}
			}
		}
	}
	if wrong > 0 {
		return wrong, fmt.Errorf("%d files have a stale folder path (first: %s)", wrong, first)
	}
	return 0, nil
}

func pageToken(ctx context.Context, open Opener) (string, error) {
	var tok string
	err := withIndex(ctx, open, func(idx Index) error {
		if idx == nil {
			return fmt.Errorf("no index")
		}
		var err error
		tok, err = stateToken(ctx, idx)
		return err
	})
	return tok, err
}

// stateToken is the page token of the crawled source (the harness crawls
// one source).
func stateToken(ctx context.Context, idx Index) (string, error) {
	states, err := idx.SyncStates(ctx)
	if err != nil {
		return "", fmt.Errorf("read sync state: %w", err)
	}
	return store.LatestSync(states).PageToken, nil
}
