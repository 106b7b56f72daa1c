package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/migrations"
)

// Backend is the value of store.Stats.Backend for this store.
const Backend = "postgres"

// DefaultSchema is the schema the tables live in unless WithSchema says otherwise.
const DefaultSchema = "public"

// migrateLockKey is the pg_advisory_xact_lock key serialising migrations of
// every gds schema in a database (CREATE EXTENSION is database-wide).
const migrateLockKey int64 = 0x6764735f6d696772 // "gds_migr"

// Store is the Postgres + pgvector index. It is safe for concurrent use.
type Store struct {
	pool     *pgxpool.Pool
	schema   string // unquoted
	sql      *strings.Replacer
	location string
	backfill func(store.Backfill) // WithBackfill

	mu    sync.Mutex
	space store.EmbeddingSpace // cached recorded space; zero when unknown
}

// Option configures Open.
type Option func(*options)

type options struct {
	schema   string
	backfill func(store.Backfill)
}

// WithSchema puts the tables in the named schema instead of public. The
// schema is created when missing. Tests use it to isolate stores that share
// one server.
func WithSchema(name string) Option {
	return func(o *options) { o.schema = name }
}

// WithBackfill has Open tell fn the progress of the data pass a migration
// may start (re-tokenising stored text: seconds at 10,000 files).
func WithBackfill(fn func(store.Backfill)) Option {
	return func(o *options) { o.backfill = fn }
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string, as DATABASE_URL holds), applies pending migrations and
// returns the store.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	o := options{schema: DefaultSchema}
	for _, opt := range opts {
		opt(&o)
	}
	if o.schema == "" || len(o.schema) > 63 {
		return nil, fmt.Errorf("postgres: schema name %q must have 1 to 63 bytes", o.schema)
	}
	if strings.TrimSpace(url) == "" {
		return nil, errors.New("postgres: DATABASE_URL is empty; set it to a URL such as postgres://user:password@host:5432/dbname")
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx redacts the password in its parse errors.
		return nil, fmt.Errorf("postgres: DATABASE_URL is not a valid Postgres connection string (want postgres://user:password@host:5432/dbname?sslmode=disable): %w", err)
	}
	if !strings.Contains(url, "default_query_exec_mode") {
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	}
	applyDefaults(cfg, url)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: creating the connection pool for DATABASE_URL: %w", err)
	}
	s := &Store{
		pool:     pool,
		schema:   o.schema,
		sql:      strings.NewReplacer("{schema}", pgx.Identifier{o.schema}.Sanitize()),
		location: maskedLocation(cfg, o.schema),
		backfill: o.backfill,
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: cannot connect to %s (check DATABASE_URL and that the server is running): %w", s.location, err)
	}
	if err := s.Migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Connection defaults; each is kept when the URL sets its own.
const (
	// DefaultConnectTimeout bounds connecting (TCP and the start-up
	// exchange): a server that accepts and never answers is an error, not
	// a hang (URL: connect_timeout, in seconds).
	DefaultConnectTimeout = 10 * time.Second
	// DefaultStatementTimeout is the server-side limit of one statement
	// (URL: statement_timeout in milliseconds, or options=-c statement_timeout=…).
	// Searches are bounded much sooner by their time budget; this stops a
	// runaway statement that a client stopped waiting for.
	DefaultStatementTimeout = 5 * time.Minute
	// DefaultMaxConns is the pool size (URL: pool_max_conns): the crawl's
	// workers and a search share it.
	DefaultMaxConns = 8
)

// applyDefaults sets the connection defaults the connection string does
// not set itself.
func applyDefaults(cfg *pgxpool.Config, url string) {
	if !strings.Contains(url, "connect_timeout") {
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	rp := cfg.ConnConfig.RuntimeParams
	if _, ok := rp["statement_timeout"]; !ok && !strings.Contains(rp["options"], "statement_timeout") {
		rp["statement_timeout"] = strconv.FormatInt(DefaultStatementTimeout.Milliseconds(), 10)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
}

// maskedLocation describes the database without the password.
func maskedLocation(cfg *pgxpool.Config, schema string) string {
	c := cfg.ConnConfig
	host := c.Host
	if !strings.HasPrefix(host, "/") {
		host = net.JoinHostPort(host, strconv.Itoa(int(c.Port)))
	}
	loc := fmt.Sprintf("postgres://%s@%s/%s", c.User, host, c.Database)
	if schema != DefaultSchema {
		loc += " (schema " + schema + ")"
	}
	return loc
}

// q expands the {schema} placeholder of a query with the quoted schema name.
func (s *Store) q(sql string) string { return s.sql.Replace(sql) }

// Schema returns the schema holding the tables.
func (s *Store) Schema() string { return s.schema }

// Close closes the connection pool, waiting at most CloseWait.
func (s *Store) Close() error {
	done := make(chan struct{})
	go func() {
		s.pool.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(CloseWait):
		// A connection whose query was cancelled is closed by pgx in the
		// background: it sends the server a cancel request and waits up to
		// 15 s for it to hang up. A server that stopped answering never
		// does; the pool finishes closing on its own, without the caller.
	}
	return nil
}

// CloseWait bounds how long Close waits for the pool's connections to
// close (a server that stopped answering would otherwise hold it 15 s).
const CloseWait = 2 * time.Second

// Migrate applies the pending migrations in one transaction, holding a
// transaction-level advisory lock so concurrent processes apply each version
// once. It fails with store.ErrSchemaTooNew when the database has a version
// this gds does not know.
func (s *Store) Migrate(ctx context.Context) (err error) {
	defer s.classify(&err)
	ms, err := migrations.Postgres()
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	latest := migrations.Latest(ms)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrateLockKey); err != nil {
			return fmt.Errorf("taking the migration lock: %w", err)
		}
		// Before search_path names our schema, so the extension lands in the
		// database's usual place (public, or Supabase's extensions schema)
		// and dropping a gds schema never drops it.
		if _, err := tx.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
			return fmt.Errorf("creating the pgvector extension (install pgvector, or ask the database owner to run CREATE EXTENSION vector): %w", err)
		}
		if _, err := tx.Exec(ctx, s.q("CREATE SCHEMA IF NOT EXISTS {schema}")); err != nil {
			return fmt.Errorf("creating schema %s: %w", s.schema, err)
		}
		if _, err := tx.Exec(ctx, "SELECT set_config('search_path', quote_ident($1) || ', ' || current_setting('search_path'), true)", s.schema); err != nil {
			return fmt.Errorf("setting the search path: %w", err)
		}
		if _, err := tx.Exec(ctx, s.q(`CREATE TABLE IF NOT EXISTS {schema}.gds_schema_migrations (
			version    INTEGER PRIMARY KEY,
			name       TEXT NOT NULL,
			applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`)); err != nil {
			return fmt.Errorf("creating gds_schema_migrations: %w", err)
		}
		var current int
		if err := tx.QueryRow(ctx, s.q("SELECT COALESCE(max(version), 0) FROM {schema}.gds_schema_migrations")).Scan(&current); err != nil {
			return fmt.Errorf("reading the schema version: %w", err)
		}
		if current > latest {
			return fmt.Errorf("%w: %s is at version %d, this gds knows up to %d; upgrade gds", store.ErrSchemaTooNew, s.location, current, latest)
		}
		for _, m := range ms {
			if m.Version <= current {
				continue
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("applying %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, s.q("INSERT INTO {schema}.gds_schema_migrations (version, name) VALUES ($1, $2)"), m.Version, m.Name); err != nil {
				return fmt.Errorf("recording %s: %w", m.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, store.ErrSchemaTooNew) {
			return err
		}
		return fmt.Errorf("postgres: migrating %s: %w", s.location, err)
	}
	// Chunks stored before migration 0002 get their search tokens here, in
	// short resumable batches after the schema transaction; so are the
	// files re-tokenised that the accent-folding or stemming migration queued.
	if err := s.backfillChunkFTS(ctx); err != nil {
		return err
	}
	return s.retokenize(ctx)
}

// schemaVersion returns the highest applied migration.
func (s *Store) schemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.pool.QueryRow(ctx, s.q("SELECT COALESCE(max(version), 0) FROM {schema}.gds_schema_migrations")).Scan(&v); err != nil {
		return 0, fmt.Errorf("postgres: reading the schema version: %w", err)
	}
	return v, nil
}

// lockKey returns a per-schema advisory lock key for index-wide changes
// (recording the embedding space, Reset).
func (s *Store) lockKey() int64 {
	h := fnv.New64a()
	h.Write([]byte("gds_space:" + s.schema))
	return int64(h.Sum64())
}

// Stats summarises the index.
func (s *Store) Stats(ctx context.Context) (_ store.Stats, err error) {
	defer s.classify(&err)
	st := store.Stats{Backend: Backend, Location: s.location}
	v, err := s.schemaVersion(ctx)
	if err != nil {
		return st, err
	}
	st.SchemaVersion = v
	err = s.pool.QueryRow(ctx, s.q(`SELECT
		(SELECT count(*) FROM {schema}.drive_file_index),
		(SELECT count(*) FROM {schema}.drive_file_chunks)`)).Scan(&st.Files, &st.Chunks)
	if err != nil {
		return st, fmt.Errorf("postgres: counting files and chunks: %w", err)
	}
	sp, err := s.loadSpace(ctx, s.pool)
	if err != nil {
		return st, err
	}
	st.Space = sp
	if st.Syncs, err = s.SyncStates(ctx); err != nil {
		return st, err
	}
	st.Sync = store.LatestSync(st.Syncs)
	return st, nil
}
