package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// MetaChunkBackfill is the gds_meta key of the pass that gives the chunks
// stored before chunks had full-text tokens (SQLite migration 0003,
// Postgres 0002) theirs; its value is the position reached, JSON
// [file_id, ordinal] ("" at first). It is absent for an index created
// with chunk full text, which tokenises every chunk as it is written.
const MetaChunkBackfill = "chunk_fts_backfill"

// ChunkBackfiller is what BackfillChunkFTS needs of a back end.
type ChunkBackfiller interface {
	// Meta returns the gds_meta value of key (ok false: not set).
	Meta(ctx context.Context, key string) (value string, ok bool, err error)
	// InChunkBackfillTx runs fn in one write transaction, committed when
	// fn returns nil.
	InChunkBackfillTx(ctx context.Context, fn func(ChunkBackfillTx) error) error
}

// ChunkBackfillTx is what one batch of BackfillChunkFTS does in a
// transaction.
type ChunkBackfillTx interface {
	// Meta returns the gds_meta value of key (ok false: not set), locking
	// its row against other processes running the pass where they can.
	Meta(ctx context.Context, key string) (value string, ok bool, err error)
	// SetMeta updates the gds_meta value of key.
	SetMeta(ctx context.Context, key, value string) error
	// DeleteMeta removes the gds_meta rows of keys.
	DeleteMeta(ctx context.Context, keys ...string) error
	// IndexChunks reads at most limit chunks after position after (nil:
	// from the first) in the scan order of ChunkCursor and writes the
	// full-text tokens of those that lack them (or of all: rewriting a
	// chunk's tokens is harmless). It returns the number of chunks read
	// and the position of the last one.
	IndexChunks(ctx context.Context, after *ChunkCursor, limit int) (read int, last ChunkCursor, err error)
}

// BackfillChunkFTS runs the pass that gives the chunks stored before chunk
// full text their tokens, if one is pending (MetaChunkBackfill set): in
// batches of batch chunks in ChunkCursor order, one transaction each
// holding the position's row, so concurrent processes take turns and never
// redo a batch. An interrupted pass resumes at the stored position; the
// last batch removes it.
func BackfillChunkFTS(ctx context.Context, b ChunkBackfiller, batch int) error {
	// Nearly always there is nothing to do: find out without a transaction.
	if _, pending, err := b.Meta(ctx, MetaChunkBackfill); err != nil || !pending {
		if err != nil {
			return fmt.Errorf("read the chunk full-text backfill position: %w", err)
		}
		return nil
	}
	for {
		done := false
		err := b.InChunkBackfillTx(ctx, func(tx ChunkBackfillTx) error {
			var err error
			done, err = chunkBackfillBatch(ctx, tx, batch)
			return err
		})
		if err != nil {
			return fmt.Errorf("index stored chunks for full-text search: %w", err)
		}
		if done {
			return nil
		}
	}
}

// chunkBackfillBatch indexes the batch after the stored position and
// moves the position past it; done: the pass is over (no position stored,
// or fewer chunks than batch left, the position removed).
func chunkBackfillBatch(ctx context.Context, tx ChunkBackfillTx, batch int) (done bool, err error) {
	pos, ok, err := tx.Meta(ctx, MetaChunkBackfill)
	if err != nil {
		return false, fmt.Errorf("read the backfill position: %w", err)
	}
	if !ok {
		return true, nil
	}
	after, err := parseChunkPosition(pos)
	if err != nil {
		return false, err
	}
	n, last, err := tx.IndexChunks(ctx, after, batch)
	if err != nil {
		return false, fmt.Errorf("index chunks: %w", err)
	}
	if n < batch {
		return true, tx.DeleteMeta(ctx, MetaChunkBackfill)
	}
	return false, tx.SetMeta(ctx, MetaChunkBackfill, formatChunkPosition(last))
}

// parseChunkPosition reads a stored backfill position, JSON [file_id,
// ordinal]; "" is the start (nil). Pure.
func parseChunkPosition(pos string) (*ChunkCursor, error) {
	if pos == "" {
		return nil, nil
	}
	var c ChunkCursor
	var p [2]json.RawMessage
	if err := json.Unmarshal([]byte(pos), &p); err != nil {
		return nil, fmt.Errorf("backfill position %q: %w", pos, err)
	}
	if err := json.Unmarshal(p[0], &c.FileID); err != nil {
		return nil, fmt.Errorf("backfill position %q: %w", pos, err)
	}
	if err := json.Unmarshal(p[1], &c.Ordinal); err != nil {
		return nil, fmt.Errorf("backfill position %q: %w", pos, err)
	}
	return &c, nil
}

// formatChunkPosition is the stored form of a backfill position. Pure.
func formatChunkPosition(c ChunkCursor) string {
	b, _ := json.Marshal([]any{c.FileID, c.Ordinal}) // a string and an int always marshal
	return string(b)
}
