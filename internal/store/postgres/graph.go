package postgres

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
)

var _ store.GraphStore = (*Store)(nil)

// encodeVec stores v as little-endian float32 (graph embeddings are BYTEA).
func encodeVec(v []float32) []byte {
	if v == nil {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVec(b []byte) ([]float32, error) {
	if b == nil {
		return nil, nil
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("stored embedding has %d bytes, not a whole number of float32", len(b))
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

func nonNilIDs(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}

// GraphTextHashes returns chunk ID → text hash of every stored extraction.
func (s *Store) GraphTextHashes(ctx context.Context) (_ map[string]string, err error) {
	defer s.classify(&err)
	rows, err := s.pool.Query(ctx, s.q(`SELECT chunk_id, text_hash FROM {schema}.gds_graph_extraction`))
	if err != nil {
		return nil, fmt.Errorf("postgres: reading graph extractions: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, fmt.Errorf("postgres: reading graph extractions: %w", err)
		}
		out[id] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading graph extractions: %w", err)
	}
	return out, nil
}

// PutGraphExtraction inserts or replaces one chunk's extraction.
func (s *Store) PutGraphExtraction(ctx context.Context, e store.GraphExtraction) (err error) {
	defer s.classify(&err)
	if e.FileID == "" {
		return errors.New("put graph extraction: empty file ID")
	}
	_, err = s.pool.Exec(ctx, s.q(`INSERT INTO {schema}.gds_graph_extraction (chunk_id, file_id, ordinal, text_hash, data)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (chunk_id) DO UPDATE SET text_hash = excluded.text_hash, data = excluded.data`),
		store.ChunkID(e.FileID, e.Ordinal), e.FileID, e.Ordinal, e.TextHash, e.Data)
	if err != nil {
		return fmt.Errorf("postgres: writing the graph extraction of %s: %w", store.ChunkID(e.FileID, e.Ordinal), err)
	}
	return nil
}

// DeleteGraphExtractions removes the extractions of these chunk IDs.
func (s *Store) DeleteGraphExtractions(ctx context.Context, chunkIDs []string) (err error) {
	defer s.classify(&err)
	if len(chunkIDs) == 0 {
		return nil
	}
	if _, err := s.pool.Exec(ctx, s.q(`DELETE FROM {schema}.gds_graph_extraction WHERE chunk_id = ANY($1::text[])`), chunkIDs); err != nil {
		return fmt.Errorf("postgres: deleting graph extractions: %w", err)
	}
	return nil
}

// GraphExtractions returns the stored extractions of these chunk IDs (nil: all).
func (s *Store) GraphExtractions(ctx context.Context, chunkIDs []string) (_ []store.GraphExtraction, err error) {
	defer s.classify(&err)
	q := `SELECT file_id, ordinal, text_hash, data FROM {schema}.gds_graph_extraction WHERE ($1::text[] IS NULL OR chunk_id = ANY($1::text[]))
		ORDER BY file_id COLLATE "C", ordinal`
	var arg any
	if chunkIDs != nil {
		arg = chunkIDs
	}
	rows, err := s.pool.Query(ctx, s.q(q), arg)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading graph extractions: %w", err)
	}
	defer rows.Close()
	var out []store.GraphExtraction
	for rows.Next() {
		var e store.GraphExtraction
		if err := rows.Scan(&e.FileID, &e.Ordinal, &e.TextHash, &e.Data); err != nil {
			return nil, fmt.Errorf("postgres: reading graph extractions: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading graph extractions: %w", err)
	}
	return out, nil
}

// GraphReports returns the stored reports of these signatures (nil: all).
func (s *Store) GraphReports(ctx context.Context, signatures []string) (_ map[string]store.GraphReport, err error) {
	defer s.classify(&err)
	var arg any
	if signatures != nil {
		arg = signatures
	}
	rows, err := s.pool.Query(ctx, s.q(`SELECT signature, data FROM {schema}.gds_graph_report
		WHERE ($1::text[] IS NULL OR signature = ANY($1::text[]))`), arg)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading graph reports: %w", err)
	}
	defer rows.Close()
	out := map[string]store.GraphReport{}
	for rows.Next() {
		var r store.GraphReport
		if err := rows.Scan(&r.Signature, &r.Data); err != nil {
			return nil, fmt.Errorf("postgres: reading graph reports: %w", err)
		}
		out[r.Signature] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading graph reports: %w", err)
	}
	return out, nil
}

// PutGraphReport inserts or replaces a report.
func (s *Store) PutGraphReport(ctx context.Context, r store.GraphReport) (err error) {
	defer s.classify(&err)
	if r.Signature == "" {
		return errors.New("put graph report: empty signature")
	}
	_, err = s.pool.Exec(ctx, s.q(`INSERT INTO {schema}.gds_graph_report (signature, data) VALUES ($1, $2)
		ON CONFLICT (signature) DO UPDATE SET data = excluded.data`), r.Signature, r.Data)
	if err != nil {
		return fmt.Errorf("postgres: writing a graph report: %w", err)
	}
	return nil
}

// ReplaceGraph replaces the entities, relationships and communities at once.
func (s *Store) ReplaceGraph(ctx context.Context, g store.Graph) (err error) {
	defer s.classify(&err)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, s.q(`TRUNCATE {schema}.gds_graph_entity, {schema}.gds_graph_relationship, {schema}.gds_graph_community, {schema}.gds_graph_meta`)); err != nil {
			return err
		}
		// Row by row in one batch: PGlite, which the tests run on, does not
		// speak the COPY protocol.
		b := &pgx.Batch{}
		for _, e := range g.Entities {
			b.Queue(s.q(`INSERT INTO {schema}.gds_graph_entity (id, name, type, description, chunk_ids, degree, embedding)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`), e.ID, e.Name, e.Type, e.Description, nonNilIDs(e.ChunkIDs), e.Degree, encodeVec(e.Embedding))
		}
		for _, r := range g.Relationships {
			b.Queue(s.q(`INSERT INTO {schema}.gds_graph_relationship (id, source, target, description, weight, chunk_ids)
				VALUES ($1, $2, $3, $4, $5, $6)`), r.ID, r.Source, r.Target, r.Description, r.Weight, nonNilIDs(r.ChunkIDs))
		}
		sigs := make([]string, len(g.Communities))
		for i, c := range g.Communities {
			b.Queue(s.q(`INSERT INTO {schema}.gds_graph_community (id, level, parent, entity_ids, relationship_ids, weight, signature)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`), c.ID, c.Level, c.Parent, nonNilIDs(c.EntityIDs), nonNilIDs(c.RelationshipIDs), c.Weight, c.Signature)
			sigs[i] = c.Signature
		}
		if b.Len() > 0 {
			if err := tx.SendBatch(ctx, b).Close(); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, s.q(`DELETE FROM {schema}.gds_graph_report WHERE NOT (signature = ANY($1::text[]))`), sigs); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.gds_graph_meta (id, built_at, provider, folder) VALUES ('graph', $1, $2, $3)`),
			g.BuiltAt.UTC(), g.Provider, g.Folder)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: replacing the graph: %w", err)
	}
	return nil
}

// LoadGraph returns the stored graph; a zero BuiltAt when none was built.
func (s *Store) LoadGraph(ctx context.Context) (_ store.Graph, err error) {
	defer s.classify(&err)
	var g store.Graph
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, s.q(`SELECT built_at, provider, folder FROM {schema}.gds_graph_meta WHERE id = 'graph'`)).Scan(&g.BuiltAt, &g.Provider, &g.Folder)
		if errors.Is(err, pgx.ErrNoRows) {
			g = store.Graph{}
			return nil
		}
		if err != nil {
			return err
		}
		g.BuiltAt = g.BuiltAt.UTC()
		rows, err := tx.Query(ctx, s.q(`SELECT id, name, type, description, chunk_ids, degree, embedding FROM {schema}.gds_graph_entity ORDER BY id COLLATE "C"`))
		if err != nil {
			return err
		}
		for rows.Next() {
			var e store.GraphEntity
			var emb []byte
			if err := rows.Scan(&e.ID, &e.Name, &e.Type, &e.Description, &e.ChunkIDs, &e.Degree, &emb); err != nil {
				rows.Close()
				return err
			}
			if e.Embedding, err = decodeVec(emb); err != nil {
				rows.Close()
				return err
			}
			g.Entities = append(g.Entities, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, s.q(`SELECT id, source, target, description, weight, chunk_ids FROM {schema}.gds_graph_relationship ORDER BY id COLLATE "C"`))
		if err != nil {
			return err
		}
		for rows.Next() {
			var r store.GraphRelationship
			if err := rows.Scan(&r.ID, &r.Source, &r.Target, &r.Description, &r.Weight, &r.ChunkIDs); err != nil {
				rows.Close()
				return err
			}
			g.Relationships = append(g.Relationships, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, s.q(`SELECT id, level, parent, entity_ids, relationship_ids, weight, signature FROM {schema}.gds_graph_community
			ORDER BY level, length(id), id COLLATE "C"`))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c store.GraphCommunity
			if err := rows.Scan(&c.ID, &c.Level, &c.Parent, &c.EntityIDs, &c.RelationshipIDs, &c.Weight, &c.Signature); err != nil {
				return err
			}
			g.Communities = append(g.Communities, c)
		}
		return rows.Err()
	})
	if err != nil {
		return store.Graph{}, fmt.Errorf("postgres: reading the graph: %w", err)
	}
	return g, nil
}

// ResetGraph removes every graph record.
func (s *Store) ResetGraph(ctx context.Context) (err error) {
	defer s.classify(&err)
	_, err = s.pool.Exec(ctx, s.q(`TRUNCATE {schema}.gds_graph_extraction, {schema}.gds_graph_entity, {schema}.gds_graph_relationship,
		{schema}.gds_graph_community, {schema}.gds_graph_report, {schema}.gds_graph_meta`))
	if err != nil {
		return fmt.Errorf("postgres: resetting the graph: %w", err)
	}
	return nil
}
