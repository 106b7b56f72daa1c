package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"syscall"
	"time"
)

// CrashConfig configures RunCrash.
type CrashConfig struct {
	GDS   GDS
	Index Opener
	Files []Expect // Corpus.Expect for the source gds crawls
	// Stops is how many times the crawl is signalled mid-way.
	Stops int
	// Signal is syscall.SIGKILL (crash) or syscall.SIGTERM (graceful stop).
	Signal os.Signal
	Seed   uint64
	// Logf, when set, receives one line per run.
	Logf func(format string, args ...any)
}

// CrashReport is the evidence of one RunCrash.
type CrashReport struct {
	Signal    string `json:"signal"`
	Files     int    `json:"files"`
	Indexable int    `json:"indexable"`
	Planned   int    `json:"stops_planned"`
	// Stops counts the signals that landed mid-crawl and were survived
	// (checks passed afterwards).
	Stops int `json:"stops_survived"`
	// Points are the progress (files finished or behind the checkpoint) at
	// which each stop was planned; -1 is "during start-up".
	Points []int `json:"points"`
	Runs   int   `json:"runs"` // gds processes started
	// RerunsToFinish counts the runs after the last stop until one exited 0.
	RerunsToFinish int `json:"reruns_to_finish"`
	// Checks counts the invariant checks made (one after every stop and
	// one at the end).
	Checks    int     `json:"checks"`
	FilesLost int     `json:"files_lost"`
	Seconds   float64 `json:"seconds"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
}

// Plan returns the stop points for a crawl of n files: with SIGKILL the
// first stop is during start-up (a fresh index: opening, migrating), then
// one right when the first files are being committed, one near the end, and
// the rest uniform over the crawl, in order. Points are progress counts;
// -1 means start-up. The same seed gives the same plan.
func Plan(n, stops int, sig os.Signal, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var pts []int
	if stops <= 0 {
		return nil
	}
	if sig == syscall.SIGKILL {
		pts = append(pts, -1)
	}
	if len(pts) < stops {
		pts = append(pts, 0)
	}
	end := max(1, n-3)
	var mid []int
	for len(pts)+len(mid) < stops-1 {
		mid = append(mid, 1+rng.IntN(end))
	}
	sort.Ints(mid)
	pts = append(pts, mid...)
	if len(pts) < stops {
		pts = append(pts, end)
	}
	return pts
}

// RunCrash crawls with gds, stopping it with cfg.Signal at the points of
// Plan and checking after every stop that the checkpoint never got ahead of
// the committed rows (and, for SIGTERM, that the stop exited 130 and saved
// its state); then it reruns gds until it exits 0 and checks that the index
// is complete. It returns an error at the first violated invariant.
func RunCrash(ctx context.Context, cfg CrashConfig) (CrashReport, error) {
	start := time.Now()
	rep := CrashReport{Signal: sigName(cfg.Signal), Files: len(cfg.Files)}
	for _, f := range cfg.Files {
		if f.Indexable() {
			rep.Indexable++
		}
	}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xde1a7))
	points := Plan(len(cfg.Files), cfg.Stops, cfg.Signal, cfg.Seed)
	rep.Planned = len(points)
	snapshot := func(prev Snapshot) (Snapshot, error) {
		var snap Snapshot
		err := withIndex(ctx, cfg.Index, func(idx Index) error {
			if idx == nil {
				return nil
			}
			var err error
			snap, err = CheckCheckpoint(ctx, idx, cfg.Files)
			if err == nil && cfg.Signal == syscall.SIGTERM {
				err = CheckGraceful(cfg.Files, prev, snap)
			}
			return err
		})
		rep.Checks++
		return snap, err
	}
	run := func(stop *Stop) (Outcome, error) {
		o, err := Run(ctx, cfg.GDS, stop)
		rep.Runs++
		rep.PeakRSSMB = max(rep.PeakRSSMB, float64(o.PeakRSSKB)/1024)
		return o, err
	}
	var snap Snapshot
	finished := false
	for _, pt := range points {
		stop := &Stop{Signal: cfg.Signal, Delay: time.Duration(rng.IntN(20)) * time.Millisecond}
		if pt < 0 {
			stop.AfterEvents, stop.Delay = -1, time.Duration(20+rng.IntN(400))*time.Millisecond
		} else {
			stop.AfterEvents = max(0, pt-snap.Behind)
		}
		o, err := run(stop)
		if err != nil {
			return rep, err
		}
		logf("run %d: stop at %d (after %d events of this run): exit %d, %d events, signalled %v, %s",
			rep.Runs, pt, stop.AfterEvents, o.ExitCode, o.Events, o.Signaled, o.Wall.Round(time.Millisecond))
		switch {
		case o.ExitCode == 0:
			finished = true // the crawl ended before the signal landed
		case !o.Signaled:
			return rep, fmt.Errorf("gds crawl exited %d without being stopped:\n%s", o.ExitCode, o.Stderr)
		case cfg.Signal == syscall.SIGTERM && o.ExitCode != 130:
			return rep, fmt.Errorf("gds crawl stopped by SIGTERM exited %d, want 130:\n%s", o.ExitCode, o.Stderr)
		case cfg.Signal == syscall.SIGKILL && o.ExitCode != -1:
			return rep, fmt.Errorf("gds crawl exited %d after SIGKILL was sent:\n%s", o.ExitCode, o.Stderr)
		}
		if snap, err = snapshot(snap); err != nil {
			return rep, fmt.Errorf("after stop %d at %d: %w", rep.Stops+1, pt, err)
		}
		if finished {
			break
		}
		rep.Stops++
		rep.Points = append(rep.Points, pt)
	}
	if !finished {
		if err := runToEnd(run, &rep.RerunsToFinish, func() int { return rep.Runs }, logf); err != nil {
			return rep, err
		}
	}
	var comp Completeness
	err := withIndex(ctx, cfg.Index, func(idx Index) error {
		if idx == nil {
			return fmt.Errorf("no index after a finished crawl")
		}
		var err error
		comp, err = CheckComplete(ctx, idx, cfg.Files)
		return err
	})
	rep.Checks++
	rep.FilesLost = comp.Lost()
	rep.Seconds = time.Since(start).Seconds()
	return rep, err
}

func sigName(s os.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case os.Interrupt:
		return "SIGINT"
	}
	return fmt.Sprint(s)
}

// runToEnd reruns the crawl once without a stop, counting the rerun, unless
// five reruns were made already; a rerun that exits non-zero is an error.
func runToEnd(run func(*Stop) (Outcome, error), reruns *int, runs func() int, logf func(string, ...any)) error {
	if *reruns == 5 {
		return fmt.Errorf("gds crawl did not finish in %d runs after the last stop", *reruns)
	}
	o, err := run(nil)
	if err != nil {
		return err
	}
	*reruns++
	logf("run %d: to the end: exit %d, %d events, %s", runs(), o.ExitCode, o.Events, o.Wall.Round(time.Millisecond))
	if o.ExitCode != 0 {
		return fmt.Errorf("gds crawl rerun exited %d:\n%s", o.ExitCode, o.Stderr)
	}
	return nil
}
