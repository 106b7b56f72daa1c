package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gds-cli/gds/internal/store"
)

var _ store.GraphStore = (*Store)(nil)

// GraphTextHashes returns chunk ID → text hash of every stored extraction.
func (s *Store) GraphTextHashes(ctx context.Context) (_ map[string]string, err error) {
	defer s.classify(&err)
	rows, err := s.read.QueryContext(ctx, `SELECT chunk_id, text_hash FROM gds_graph_extraction`)
	if err != nil {
		return nil, fmt.Errorf("read graph extractions from %s: %w", s.path, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, fmt.Errorf("read graph extractions from %s: %w", s.path, err)
		}
		out[id] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read graph extractions from %s: %w", s.path, err)
	}
	return out, nil
}

// PutGraphExtraction inserts or replaces one chunk's extraction.
func (s *Store) PutGraphExtraction(ctx context.Context, e store.GraphExtraction) (err error) {
	defer s.classify(&err)
	if e.FileID == "" {
		return errors.New("put graph extraction: empty file ID")
	}
	return s.inWriteTx(ctx, "put graph extraction", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO gds_graph_extraction (chunk_id, file_id, ordinal, text_hash, data) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (chunk_id) DO UPDATE SET text_hash = excluded.text_hash, data = excluded.data`,
			store.ChunkID(e.FileID, e.Ordinal), e.FileID, e.Ordinal, e.TextHash, e.Data)
		return err
	})
}

// DeleteGraphExtractions removes the extractions of these chunk IDs.
func (s *Store) DeleteGraphExtractions(ctx context.Context, chunkIDs []string) (err error) {
	defer s.classify(&err)
	if len(chunkIDs) == 0 {
		return nil
	}
	return s.inWriteTx(ctx, "delete graph extractions", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM gds_graph_extraction WHERE chunk_id IN (SELECT value FROM json_each(?))`, jsonIDs(chunkIDs))
		return err
	})
}

// GraphExtractions returns the stored extractions of these chunk IDs (nil: all).
func (s *Store) GraphExtractions(ctx context.Context, chunkIDs []string) (_ []store.GraphExtraction, err error) {
	defer s.classify(&err)
	q := `SELECT file_id, ordinal, text_hash, data FROM gds_graph_extraction`
	var args []any
	if chunkIDs != nil {
		q += ` WHERE chunk_id IN (SELECT value FROM json_each(?))`
		args = append(args, jsonIDs(chunkIDs))
	}
	rows, err := s.read.QueryContext(ctx, q+` ORDER BY file_id, ordinal`, args...)
	if err != nil {
		return nil, fmt.Errorf("read graph extractions from %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []store.GraphExtraction
	for rows.Next() {
		var e store.GraphExtraction
		if err := rows.Scan(&e.FileID, &e.Ordinal, &e.TextHash, &e.Data); err != nil {
			return nil, fmt.Errorf("read graph extractions from %s: %w", s.path, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read graph extractions from %s: %w", s.path, err)
	}
	return out, nil
}

// GraphReports returns the stored reports of these signatures (nil: all).
func (s *Store) GraphReports(ctx context.Context, signatures []string) (_ map[string]store.GraphReport, err error) {
	defer s.classify(&err)
	q := `SELECT signature, data FROM gds_graph_report`
	var args []any
	if signatures != nil {
		q += ` WHERE signature IN (SELECT value FROM json_each(?))`
		args = append(args, jsonIDs(signatures))
	}
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read graph reports from %s: %w", s.path, err)
	}
	defer rows.Close()
	out := map[string]store.GraphReport{}
	for rows.Next() {
		var r store.GraphReport
		if err := rows.Scan(&r.Signature, &r.Data); err != nil {
			return nil, fmt.Errorf("read graph reports from %s: %w", s.path, err)
		}
		out[r.Signature] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read graph reports from %s: %w", s.path, err)
	}
	return out, nil
}

// PutGraphReport inserts or replaces a report.
func (s *Store) PutGraphReport(ctx context.Context, r store.GraphReport) (err error) {
	defer s.classify(&err)
	if r.Signature == "" {
		return errors.New("put graph report: empty signature")
	}
	return s.inWriteTx(ctx, "put graph report", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO gds_graph_report (signature, data) VALUES (?, ?)
			ON CONFLICT (signature) DO UPDATE SET data = excluded.data`, r.Signature, r.Data)
		return err
	})
}

// ReplaceGraph replaces the entities, relationships and communities at once.
func (s *Store) ReplaceGraph(ctx context.Context, g store.Graph) (err error) {
	defer s.classify(&err)
	return s.inWriteTx(ctx, "replace the graph", func(tx *sql.Tx) error {
		for _, t := range []string{"gds_graph_entity", "gds_graph_relationship", "gds_graph_community", "gds_graph_meta"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
				return err
			}
		}
		ins := func(q string, rows int, args func(i int) []any) error {
			st, err := tx.PrepareContext(ctx, q)
			if err != nil {
				return err
			}
			defer st.Close()
			for i := range rows {
				if _, err := st.ExecContext(ctx, args(i)...); err != nil {
					return err
				}
			}
			return nil
		}
		if err := ins(`INSERT INTO gds_graph_entity (id, name, type, description, chunk_ids, degree, embedding) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			len(g.Entities), func(i int) []any {
				e := g.Entities[i]
				var emb any
				if e.Embedding != nil {
					emb = encodeVec(e.Embedding)
				}
				return []any{e.ID, e.Name, e.Type, e.Description, jsonList(e.ChunkIDs), e.Degree, emb}
			}); err != nil {
			return err
		}
		if err := ins(`INSERT INTO gds_graph_relationship (id, source, target, description, weight, chunk_ids) VALUES (?, ?, ?, ?, ?, ?)`,
			len(g.Relationships), func(i int) []any {
				r := g.Relationships[i]
				return []any{r.ID, r.Source, r.Target, r.Description, r.Weight, jsonList(r.ChunkIDs)}
			}); err != nil {
			return err
		}
		if err := ins(`INSERT INTO gds_graph_community (id, level, parent, entity_ids, relationship_ids, weight, signature) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			len(g.Communities), func(i int) []any {
				c := g.Communities[i]
				return []any{c.ID, c.Level, c.Parent, jsonList(c.EntityIDs), jsonList(c.RelationshipIDs), c.Weight, c.Signature}
			}); err != nil {
			return err
		}
		sigs := make([]string, len(g.Communities))
		for i, c := range g.Communities {
			sigs[i] = c.Signature
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM gds_graph_report WHERE signature NOT IN (SELECT value FROM json_each(?))`, jsonIDs(sigs)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO gds_graph_meta (id, built_at, provider, folder) VALUES ('graph', ?, ?, ?)`,
			formatTime(g.BuiltAt), g.Provider, g.Folder)
		return err
	})
}

func jsonStrings(s string, what string) ([]string, error) {
	var out []string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("%s %q: %w", what, s, err)
	}
	return out, nil
}

// LoadGraph returns the stored graph; a zero BuiltAt when none was built.
func (s *Store) LoadGraph(ctx context.Context) (_ store.Graph, err error) {
	defer s.classify(&err)
	var g store.Graph
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return g, fmt.Errorf("read the graph from %s: %w", s.path, err)
	}
	defer tx.Rollback()
	wrap := func(err error) error { return fmt.Errorf("read the graph from %s: %w", s.path, err) }
	var built string
	err = tx.QueryRowContext(ctx, `SELECT built_at, provider, folder FROM gds_graph_meta WHERE id = 'graph'`).Scan(&built, &g.Provider, &g.Folder)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Graph{}, nil
	}
	if err != nil {
		return g, wrap(err)
	}
	if g.BuiltAt, err = parseTime(built); err != nil {
		return g, wrap(err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, name, type, description, chunk_ids, degree, embedding FROM gds_graph_entity ORDER BY id`)
	if err != nil {
		return g, wrap(err)
	}
	for rows.Next() {
		var e store.GraphEntity
		var chunks string
		var emb []byte
		if err := rows.Scan(&e.ID, &e.Name, &e.Type, &e.Description, &chunks, &e.Degree, &emb); err != nil {
			rows.Close()
			return g, wrap(err)
		}
		if e.ChunkIDs, err = jsonStrings(chunks, "entity chunk IDs"); err != nil {
			rows.Close()
			return g, wrap(err)
		}
		if emb != nil {
			if e.Embedding, err = decodeVec(make([]float32, 0, len(emb)/4), emb); err != nil {
				rows.Close()
				return g, wrap(err)
			}
		}
		g.Entities = append(g.Entities, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return g, wrap(err)
	}
	rows, err = tx.QueryContext(ctx, `SELECT id, source, target, description, weight, chunk_ids FROM gds_graph_relationship ORDER BY id`)
	if err != nil {
		return g, wrap(err)
	}
	for rows.Next() {
		var r store.GraphRelationship
		var chunks string
		if err := rows.Scan(&r.ID, &r.Source, &r.Target, &r.Description, &r.Weight, &chunks); err != nil {
			rows.Close()
			return g, wrap(err)
		}
		if r.ChunkIDs, err = jsonStrings(chunks, "relationship chunk IDs"); err != nil {
			rows.Close()
			return g, wrap(err)
		}
		g.Relationships = append(g.Relationships, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return g, wrap(err)
	}
	rows, err = tx.QueryContext(ctx, `SELECT id, level, parent, entity_ids, relationship_ids, weight, signature FROM gds_graph_community
		ORDER BY level, length(id), id`)
	if err != nil {
		return g, wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c store.GraphCommunity
		var ents, rels string
		if err := rows.Scan(&c.ID, &c.Level, &c.Parent, &ents, &rels, &c.Weight, &c.Signature); err != nil {
			return g, wrap(err)
		}
		if c.EntityIDs, err = jsonStrings(ents, "community entity IDs"); err != nil {
			return g, wrap(err)
		}
		if c.RelationshipIDs, err = jsonStrings(rels, "community relationship IDs"); err != nil {
			return g, wrap(err)
		}
		g.Communities = append(g.Communities, c)
	}
	if err := rows.Err(); err != nil {
		return g, wrap(err)
	}
	return g, nil
}

// ResetGraph removes every graph record.
func (s *Store) ResetGraph(ctx context.Context) (err error) {
	defer s.classify(&err)
	return s.inWriteTx(ctx, "reset the graph", func(tx *sql.Tx) error {
		for _, t := range []string{"gds_graph_extraction", "gds_graph_entity", "gds_graph_relationship", "gds_graph_community", "gds_graph_report", "gds_graph_meta"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
				return err
			}
		}
		return nil
	})
}
