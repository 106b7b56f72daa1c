// Package postgres is the Postgres + pgvector back end of the gds index
// (store.Store), for a local Postgres, Supabase, or PGlite in tests.
//
// Schema. Open applies the versioned migrations of package migrations
// (migrations/postgres/*.sql) in one transaction under a transaction-level
// advisory lock, so several processes may start at once; the applied versions
// are recorded in gds_schema_migrations. Tables live in one schema (public by
// default, WithSchema to choose); every query names it explicitly, so the store
// never depends on per-connection state such as a session search_path.
//
// Vectors. Embedding columns are dimension-free VECTOR. When
// EnsureEmbeddingSpace first records a dimension D it creates HNSW cosine
// indexes on the expression embedding::vector(D); unrestricted vector queries
// order by that same expression so the planner uses the index (with
// pgvector 0.8's iterative scan for filtered queries), and queries restricted
// to a list of file IDs scan those rows exactly.
//
// Keyword search. Name, keywords, summary and text are tokenised in Go with
// package tokenize (the same tokens as the embedded store) and stored as a
// tsvector with positions and weights (name and keywords A, summary B, text D);
// queries become a tsquery in which each term is a phrase of adjacent tokens.
// Both literals are built in Go with every lexeme quoted and escaped and sent
// as parameters, so user text never reaches SQL or query syntax. Ranking is
// ts_rank_cd with length normalisation. Positions beyond 16,383 share the last
// position (a Postgres limit), so in very long texts a multi-token term is
// matched as a phrase only in the first ~16,000 tokens.
//
// Chunks. Each chunk's tokens (text only, positions, no weights) are stored
// in drive_file_chunks.search_tsv the same way and ranked by ts_rank_cd.
// Chunks stored before that column existed (schema 0002) are tokenised after
// migrating, in short transactions that keep their position in gds_meta, so
// an interrupted backfill resumes and concurrent processes take turns. The
// paged scan of every chunk is by key on (file_id COLLATE "C", ordinal),
// backed by an index, so each page costs the same wherever it starts.
//
// Protocol. Unless the URL sets default_query_exec_mode, the store uses pgx's
// simple protocol (parameters are still passed separately and escaped by pgx):
// one round trip per query, and it works through transaction poolers (Supabase
// port 6543) and PGlite, whose single shared session cannot interleave the
// extended protocol of several connections.
package postgres
