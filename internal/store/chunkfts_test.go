package store

import (
	"context"
	"maps"
	"testing"
)

func TestChunkPosition(t *testing.T) {
	for _, tc := range []struct {
		pos     string
		want    *ChunkCursor
		wantErr bool
	}{
		{"", nil, false},
		{`["b",0]`, &ChunkCursor{FileID: "b", Ordinal: 0}, false},
		{`["1Ab-_x",17]`, &ChunkCursor{FileID: "1Ab-_x", Ordinal: 17}, false},
		{`["",3]`, &ChunkCursor{FileID: "", Ordinal: 3}, false},
		{`["a\"b",2]`, &ChunkCursor{FileID: `a"b`, Ordinal: 2}, false},
		{`["b"]`, nil, true},
		{`[0,"b"]`, nil, true},
		{`{"b":0}`, nil, true},
		{`b,0`, nil, true},
	} {
		got, err := parseChunkPosition(tc.pos)
		if (err != nil) != tc.wantErr {
			t.Errorf("parseChunkPosition(%q) error = %v, want error %v", tc.pos, err, tc.wantErr)
			continue
		}
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("parseChunkPosition(%q) = %+v, want %+v", tc.pos, got, tc.want)
		}
		if got != nil {
			if back, err := parseChunkPosition(formatChunkPosition(*got)); err != nil || *back != *got {
				t.Errorf("position %+v does not read back from %q: %+v, %v", *got, formatChunkPosition(*got), back, err)
			}
		}
	}
}

// backfillTx is a ChunkBackfillTx over a gds_meta map and a count of
// chunks left, each IndexChunks taking its batch of them.
type backfillTx struct {
	meta  map[string]string
	left  int          // chunks IndexChunks finds
	after *ChunkCursor // what IndexChunks was asked for
}

func (f *backfillTx) Meta(_ context.Context, key string) (string, bool, error) {
	v, ok := f.meta[key]
	return v, ok, nil
}

func (f *backfillTx) SetMeta(_ context.Context, key, value string) error {
	f.meta[key] = value
	return nil
}

func (f *backfillTx) DeleteMeta(_ context.Context, keys ...string) error {
	for _, k := range keys {
		delete(f.meta, k)
	}
	return nil
}

func (f *backfillTx) IndexChunks(_ context.Context, after *ChunkCursor, limit int) (int, ChunkCursor, error) {
	f.after = after
	n := min(f.left, limit)
	f.left -= n
	return n, ChunkCursor{FileID: "z", Ordinal: 4}, nil
}

func TestChunkBackfillBatch(t *testing.T) {
	for _, tc := range []struct {
		name      string
		meta      map[string]string
		left      int
		wantDone  bool
		wantAfter *ChunkCursor
		wantMeta  map[string]string
		wantErr   bool
	}{
		{"nothing pending", map[string]string{}, 5, true, nil, map[string]string{}, false},
		{"a full batch from the start moves the position", map[string]string{MetaChunkBackfill: ""}, 5, false, nil,
			map[string]string{MetaChunkBackfill: `["z",4]`}, false},
		{"a full batch resumes after the position", map[string]string{MetaChunkBackfill: `["b",1]`}, 2, false, &ChunkCursor{"b", 1},
			map[string]string{MetaChunkBackfill: `["z",4]`}, false},
		{"a short batch ends the pass", map[string]string{MetaChunkBackfill: `["b",1]`, "other": "x"}, 1, true, &ChunkCursor{"b", 1},
			map[string]string{"other": "x"}, false},
		{"an empty batch ends the pass", map[string]string{MetaChunkBackfill: ""}, 0, true, nil, map[string]string{}, false},
		{"a broken position is an error", map[string]string{MetaChunkBackfill: "b,1"}, 5, false, nil,
			map[string]string{MetaChunkBackfill: "b,1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := &backfillTx{meta: tc.meta, left: tc.left}
			done, err := chunkBackfillBatch(context.Background(), tx, 2)
			if (err != nil) != tc.wantErr || done != tc.wantDone {
				t.Fatalf("chunkBackfillBatch = %v, %v; want done %v, error %v", done, err, tc.wantDone, tc.wantErr)
			}
			if (tx.after == nil) != (tc.wantAfter == nil) || tx.after != nil && *tx.after != *tc.wantAfter {
				t.Errorf("IndexChunks after %+v, want %+v", tx.after, tc.wantAfter)
			}
			if !maps.Equal(tx.meta, tc.wantMeta) {
				t.Errorf("gds_meta = %v, want %v", tx.meta, tc.wantMeta)
			}
		})
	}
}

// backfiller is a ChunkBackfiller over one backfillTx.
type backfiller struct {
	tx  *backfillTx
	txs int
}

func (b *backfiller) Meta(ctx context.Context, key string) (string, bool, error) {
	return b.tx.Meta(ctx, key)
}

func (b *backfiller) InChunkBackfillTx(_ context.Context, fn func(ChunkBackfillTx) error) error {
	b.txs++
	return fn(b.tx)
}

// BackfillChunkFTS opens no transaction when nothing is pending, and runs
// batches until a short one.
func TestBackfillChunkFTS(t *testing.T) {
	b := &backfiller{tx: &backfillTx{meta: map[string]string{}, left: 10}}
	if err := BackfillChunkFTS(context.Background(), b, 2); err != nil || b.txs != 0 {
		t.Errorf("with nothing pending: %d transactions, %v; want none", b.txs, err)
	}
	b.tx.meta[MetaChunkBackfill] = ""
	b.tx.left = 5
	if err := BackfillChunkFTS(context.Background(), b, 2); err != nil {
		t.Fatal(err)
	}
	if _, left := b.tx.meta[MetaChunkBackfill]; b.txs != 3 || b.tx.left != 0 || left {
		t.Errorf("5 chunks in batches of 2: %d transactions, %d chunks left, position kept %v; want 3, 0, false", b.txs, b.tx.left, left)
	}
}
