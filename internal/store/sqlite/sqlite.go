// Package sqlite is gds's embedded index: a single SQLite file (pure Go,
// modernc.org/sqlite, no cgo) implementing store.Store.
//
// The file is in WAL mode so one writer (a crawl) and many readers (searches,
// possibly in other processes) work at once; writes take the write lock up
// front (BEGIN IMMEDIATE) and wait on a busy timeout instead of failing with
// "database is locked". Full-text search is an FTS5 table over the
// tokenize.IndexJoin form of name, keywords, summary and text, ranked by bm25 with
// the name weighted highest; every query term becomes one quoted FTS5 phrase,
// so user text can never change the query syntax. Chunks have their own FTS5
// table (rowid = doc_id << 24 | ordinal), kept in step by UpsertFile,
// DeleteFiles and Reset; chunks stored before it existed (schema 0003) are
// tokenised after migrating, by a read-write open, in short resumable
// batches (a read-only open until then finds only newer chunks by full
// text). Vector and chunk search are
// exact cosine similarity computed in Go; file vectors are cached in process
// and the cache is validated by a generation counter every write bumps.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" database/sql driver

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/migrations"
)

// Backend is the value of store.Stats.Backend for this store.
const Backend = "sqlite"

// ErrReadOnly is returned by write methods of a store opened read-only.
var ErrReadOnly = errors.New("the index is open read-only")

// busyTimeout is how long a connection waits for another writer before a
// statement fails. Crawl transactions are short (one file each), so waits are
// far below this.
const busyTimeout = 30 * time.Second

// Options configure Open.
type Options struct {
	// ReadOnly opens the index without ever writing to it: no migration, no
	// journal-mode change, and every write method returns ErrReadOnly. Used
	// on the per-keystroke Alfred path, where opening must be fast.
	ReadOnly bool
	// Backfill, when set, is told the progress of the data pass a
	// migration may start on a read-write open (re-tokenising stored text:
	// seconds at 10,000 files).
	Backfill func(store.Backfill)
}

// Store is the embedded SQLite index. It is safe for concurrent use.
type Store struct {
	path     string
	readOnly bool
	backfill func(store.Backfill) // Options.Backfill
	read     *sql.DB              // pool for queries (deferred transactions)
	write    *sql.DB              // one connection, BEGIN IMMEDIATE; nil when read-only

	cacheMu sync.Mutex
	cache   *vecCache
	ranked  rankedCache // full-text rankings (search.go)

	// The WAL index read by walStamp (resident.go), kept open until Close.
	shmMu   sync.Mutex
	shm     *os.File
	shmInfo os.FileInfo
}

var _ store.Store = (*Store)(nil)

// Open opens (creating and migrating when needed) the index file at path.
// With opts.ReadOnly the file must exist and be fully migrated.
// A damaged file is a *store.DamagedError (store.ErrDamaged).
func Open(ctx context.Context, path string, opts Options) (_ *Store, err error) {
	defer func() { err = damaged(err, path) }()
	if path == "" {
		return nil, errors.New("open sqlite index: empty path")
	}
	s := &Store{path: path, readOnly: opts.ReadOnly, backfill: opts.Backfill}
	u := "file:" + (&url.URL{Path: path}).EscapedPath()
	timeout := strconv.FormatInt(busyTimeout.Milliseconds(), 10)
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("open sqlite index %s read-only: no index there yet; run `gds crawl` first: %w", path, err)
			}
			return nil, fmt.Errorf("open sqlite index %s read-only: %w", path, err)
		}
		db, err := sql.Open("sqlite", u+"?mode=ro&_busy_timeout="+timeout+"&_query_only=1")
		if err != nil {
			return nil, fmt.Errorf("open sqlite index %s read-only: %w", path, err)
		}
		db.SetMaxOpenConns(runtime.GOMAXPROCS(0) + 2)
		s.read = db
		err = s.checkVersion(ctx)
		if isHotJournal(err) {
			// A writer was killed inside a rollback-journal transaction
			// (the first migration of a new file): only a read-write
			// connection may roll the journal back, which any writer
			// would do on its next open. Do it now, then read again.
			if rerr := rollBackHotJournal(ctx, u, timeout); rerr == nil {
				err = s.checkVersion(ctx)
			}
		}
		if err != nil {
			db.Close()
			return nil, err
		}
		return s, nil
	}

	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("open sqlite index %s: create its directory: %w", path, err)
		}
	}
	w, err := sql.Open("sqlite", u+"?_busy_timeout="+timeout+"&_journal_mode=WAL&_synchronous=NORMAL&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open sqlite index %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	s.write = w
	if err := s.Migrate(ctx); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", u+"?_busy_timeout="+timeout+"&_synchronous=NORMAL")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite index %s: %w", path, err)
	}
	r.SetMaxOpenConns(runtime.GOMAXPROCS(0) + 2)
	s.read = r
	return s, nil
}

// Close closes the database handles.
func (s *Store) Close() error {
	var errs []error
	if s.read != nil {
		errs = append(errs, s.read.Close())
	}
	if s.write != nil {
		errs = append(errs, s.write.Close())
	}
	// After SQLite's connections: closing this descriptor drops the
	// process's locks on the WAL index (see walStamp).
	s.shmMu.Lock()
	if s.shm != nil {
		s.shm.Close()
		s.shm, s.shmInfo = nil, nil
	}
	s.shmMu.Unlock()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close sqlite index %s: %w", s.path, err)
	}
	return nil
}

// Path returns the index file's path.
func (s *Store) Path() string { return s.path }

func (s *Store) refuseWrite(op string) error {
	if s.readOnly {
		return fmt.Errorf("%s in %s: %w; open it read-write to change it", op, s.path, ErrReadOnly)
	}
	return nil
}

// latestVersion is the schema version this build of gds writes.
func latestVersion() (int, error) {
	ms, err := migrations.SQLite()
	if err != nil {
		return 0, err
	}
	return migrations.Latest(ms), nil
}

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS gds_schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
)`

// Migrate applies pending migrations in one IMMEDIATE transaction, so a
// second process opening the same new file waits and then finds them applied.
// Then it finishes any pending chunk full-text backfill (backfillChunkFTS).
func (s *Store) Migrate(ctx context.Context) (err error) {
	defer s.classify(&err)
	if s.readOnly {
		// Nothing to write when the schema is current; otherwise refuse.
		if err := s.checkVersion(ctx); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		return nil
	}
	ms, err := migrations.SQLite()
	if err != nil {
		return err
	}
	tx, err := beginRetryingBusy(ctx, s.write, migrateBusyWait)
	if err != nil {
		return fmt.Errorf("migrate sqlite index %s: begin: %w", s.path, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, createMigrationsTable); err != nil {
		return fmt.Errorf("migrate sqlite index %s: create gds_schema_migrations: %w", s.path, err)
	}
	applied := map[int]bool{}
	maxApplied := 0
	rows, err := tx.QueryContext(ctx, `SELECT version FROM gds_schema_migrations`)
	if err != nil {
		return fmt.Errorf("migrate sqlite index %s: read applied versions: %w", s.path, err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("migrate sqlite index %s: read applied versions: %w", s.path, err)
		}
		applied[v] = true
		maxApplied = max(maxApplied, v)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("migrate sqlite index %s: read applied versions: %w", s.path, err)
	}
	if latest := migrations.Latest(ms); maxApplied > latest {
		if err := checkNewerRecord(ctx, tx, s.path, maxApplied); err != nil {
			return err
		}
		return fmt.Errorf("sqlite index %s has schema version %d, this gds knows up to %d; upgrade gds: %w",
			s.path, maxApplied, latest, store.ErrSchemaTooNew)
	}
	now := formatTime(time.Now())
	for _, m := range ms {
		if applied[m.Version] {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return fmt.Errorf("migrate sqlite index %s: apply %s: %w", s.path, m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO gds_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
			m.Version, m.Name, now); err != nil {
			return fmt.Errorf("migrate sqlite index %s: record %s: %w", s.path, m.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate sqlite index %s: commit: %w", s.path, err)
	}
	// Chunks stored before migration 0003 get their full-text rows here, in
	// short resumable batches after the schema transaction; so are the
	// files re-tokenised that the accent-folding or stemming migration queued.
	if err := s.backfillChunkFTS(ctx); err != nil {
		return err
	}
	return s.retokenize(ctx)
}

// schemaVersion returns the highest applied migration, 0 when none.
func schemaVersion(ctx context.Context, q querier) (int, error) {
	var exists int
	if err := q.QueryRowContext(ctx,
		`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'gds_schema_migrations'`).Scan(&exists); err != nil {
		return 0, err
	}
	if exists == 0 {
		return 0, nil
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(version) FROM gds_schema_migrations`).Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

// checkNewerRecord tells a newer gds's schema from a damaged record: a
// migration's record is named after its version (0012_ocr.sql), so a
// version whose name does not say it was garbled on disk.
func checkNewerRecord(ctx context.Context, q querier, path string, v int) error {
	var name string
	err := q.QueryRowContext(ctx, `SELECT name FROM gds_schema_migrations WHERE version = ?`, v).Scan(&name)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// max(version) saw it, the lookup by version does not: the
		// table and its key disagree.
		return &store.DamagedError{Backend: "sqlite", Location: path,
			Err: fmt.Errorf("schema version record %d is not found by its version", v)}
	case err != nil:
		return fmt.Errorf("sqlite index %s: read schema version %d: %w", path, v, err)
	}
	if !strings.HasPrefix(name, fmt.Sprintf("%04d_", v)) {
		return &store.DamagedError{Backend: "sqlite", Location: path,
			Err: fmt.Errorf("schema version record %d is named %q", v, name)}
	}
	return nil
}

// checkVersion verifies, without writing, that the schema is current.
func (s *Store) checkVersion(ctx context.Context) error {
	latest, err := migrations.SQLiteLatest() // the names only: no migration is read on a keystroke
	if err != nil {
		return err
	}
	v, err := schemaVersion(ctx, s.read)
	if err != nil {
		return fmt.Errorf("open sqlite index %s: read schema version: %w", s.path, err)
	}
	switch {
	case v == 0:
		return notInitialised{s.path}
	case v < latest:
		return fmt.Errorf("sqlite index %s has schema version %d, this gds needs %d; run `gds db migrate`: %w", s.path, v, latest, store.ErrSchemaOld)
	case v > latest:
		if err := checkNewerRecord(ctx, s.read, s.path, v); err != nil {
			return err
		}
		return fmt.Errorf("sqlite index %s has schema version %d, this gds knows up to %d; upgrade gds: %w",
			s.path, v, latest, store.ErrSchemaTooNew)
	}
	return nil
}

// notInitialised is the error of a read-only open of a file without a
// schema (a first crawl that has not committed its migration yet, or was
// killed before). Like a missing file it is "no index there yet", so it
// matches fs.ErrNotExist.
type notInitialised struct{ path string }

func (e notInitialised) Error() string {
	return "sqlite index " + e.path + " is not initialised; run `gds crawl` (or `gds db migrate`) first"
}

func (notInitialised) Is(target error) bool { return target == fs.ErrNotExist }

// querier is what *sql.DB, *sql.Tx and *sql.Conn share.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// timeLayout is fixed width so that text order is time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		// Accept any RFC 3339 text a human may have written with the sqlite3 shell.
		t, err = time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, fmt.Errorf("parse stored time %q: %w", s, err)
		}
	}
	return t.UTC(), nil
}

// Stats summarises the index.
func (s *Store) Stats(ctx context.Context) (_ store.Stats, err error) {
	defer s.classify(&err)
	return s.stats(ctx, true)
}

// Summary is Stats without the chunk count (Chunks is 0): what a search
// needs (the file count and the sources' states) at a fraction of the cost,
// since counting chunks reads the whole chunk table (text and embeddings,
// most of the file) where the file count reads a small index.
func (s *Store) Summary(ctx context.Context) (_ store.Stats, err error) {
	defer s.classify(&err)
	return s.stats(ctx, false)
}

func (s *Store) stats(ctx context.Context, chunks bool) (store.Stats, error) {
	st := store.Stats{Backend: Backend, Location: s.path}
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("stats of sqlite index %s: begin: %w", s.path, err)
	}
	defer tx.Rollback()
	if st.SchemaVersion, err = schemaVersion(ctx, tx); err != nil {
		return st, fmt.Errorf("stats of sqlite index %s: schema version: %w", s.path, err)
	}
	count := `SELECT (SELECT count(*) FROM drive_file_index), 0`
	if chunks {
		count = `SELECT (SELECT count(*) FROM drive_file_index), (SELECT count(*) FROM drive_file_chunk)`
	}
	if err := tx.QueryRowContext(ctx, count).Scan(&st.Files, &st.Chunks); err != nil {
		return st, fmt.Errorf("stats of sqlite index %s: count files: %w", s.path, err)
	}
	m, err := readMeta(ctx, tx)
	if err != nil {
		return st, fmt.Errorf("stats of sqlite index %s: %w", s.path, err)
	}
	st.Space = m.space
	if st.Syncs, err = syncStates(ctx, tx); err != nil {
		return st, fmt.Errorf("stats of sqlite index %s: %w", s.path, err)
	}
	st.Sync = store.LatestSync(st.Syncs)
	return st, nil
}

// migrateBusyWait bounds how long Migrate retries a busy database.
const migrateBusyWait = 30 * time.Second

// beginRetryingBusy begins a transaction, retrying while SQLite reports
// SQLITE_BUSY without waiting on its busy handler. That happens when several
// processes open a brand-new file at once: the first connection switches it
// to WAL, and SQLite does not invoke the busy handler for the others'
// journal-mode change or WAL open, so they fail at once instead of waiting.
func beginRetryingBusy(ctx context.Context, db *sql.DB, wait time.Duration) (*sql.Tx, error) {
	deadline := time.Now().Add(wait)
	delay := 5 * time.Millisecond
	for {
		tx, err := db.BeginTx(ctx, nil)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return tx, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, 200*time.Millisecond)
	}
}

// isHotJournal reports whether err is SQLITE_READONLY_ROLLBACK (776): a
// read-only connection met a hot journal it may not roll back.
func isHotJournal(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == 776
}

// rollBackHotJournal opens the file read-write just long enough for SQLite
// to roll back a hot journal (it does so on the first read), changing
// nothing else: no migration, no journal-mode change.
func rollBackHotJournal(ctx context.Context, u, timeout string) error {
	db, err := sql.Open("sqlite", u+"?_busy_timeout="+timeout)
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	return db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n)
}

// isBusy reports whether err is SQLITE_BUSY (5) or SQLITE_LOCKED (6).
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff // primary result code
		return code == 5 || code == 6
	}
	return false
}

// maxTextSegments is how many segments the file full-text index may hold
// before OptimizeText merges them: each costs every query term one more
// seek, which matters with the 13–16 that writing file by file leaves
// (1–8 ms of CPU per keystroke, docs/BENCHMARKS.md) but not with a few,
// while merging rewrites the whole index (4.4 s at 100,000 files) — too
// much for every crawl that changed one file.
const maxTextSegments = 4

// OptimizeText merges the file full-text index (drive_file_fts) into one
// segment when it holds more than maxTextSegments. Written file by file,
// FTS5 keeps a stack of segments and a query seeks every term in every one
// of them; each Alfred keystroke is a new process that pays those seeks
// cold. A crawl that changed files calls it at its end (app.Crawl). The
// chunk index is left as it is: the keystroke never reads it, and merging
// it costs a crawl more. merged reports whether it merged.
func (s *Store) OptimizeText(ctx context.Context) (merged bool, err error) {
	defer s.classify(&err)
	if err := s.refuseWrite("optimize the full-text index"); err != nil {
		return false, err
	}
	var n int
	if err := s.write.QueryRowContext(ctx, `SELECT count(DISTINCT segid) FROM drive_file_fts_idx`).Scan(&n); err != nil {
		return false, fmt.Errorf("optimize sqlite index %s: count segments: %w", s.path, err)
	}
	if n <= maxTextSegments {
		return false, nil
	}
	if _, err := s.write.ExecContext(ctx, `INSERT INTO drive_file_fts (drive_file_fts) VALUES ('optimize')`); err != nil {
		return false, fmt.Errorf("optimize sqlite index %s: %w", s.path, err)
	}
	return true, nil
}
