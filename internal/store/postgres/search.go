package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/gds-cli/gds/internal/store"
)

// defaultLimit is the KeywordQuery limit when none is given.
const defaultLimit = 100

// where builds the WHERE conditions of a filter on the file table aliased f,
// appending the values to args; every value is a bind parameter. none reports
// a filter that cannot match (an empty, non-nil ID list).
func where(flt store.Filter, args []any) (conds []string, outArgs []any, none bool) {
	if flt.IDs != nil && len(flt.IDs) == 0 {
		return nil, args, true
	}
	param := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if !flt.ModifiedAfter.IsZero() {
		conds = append(conds, "f.drive_modified_at >= "+param(flt.ModifiedAfter.UTC()))
	}
	if !flt.ModifiedBefore.IsZero() {
		conds = append(conds, "f.drive_modified_at < "+param(flt.ModifiedBefore.UTC()))
	}
	if len(flt.MimeTypes) > 0 {
		conds = append(conds, "f.mime_type = ANY("+param(flt.MimeTypes)+"::text[])")
	}
	if len(flt.IDs) > 0 {
		conds = append(conds, "f.file_id = ANY("+param(flt.IDs)+"::text[])")
	}
	if folder := store.CleanFolder(flt.Folder); folder != "" {
		// starts_with takes the prefix literally (no LIKE wildcards to
		// escape) and, like =, case-sensitively.
		conds = append(conds, "(f.path = "+param(folder)+" OR starts_with(f.path, "+param(folder+"/")+"))")
	}
	if len(flt.Sources) > 0 {
		// store.InSources: the key itself, or for a bare kind every key
		// starting with kind+":".
		var or []string
		for _, src := range flt.Sources {
			if strings.Contains(src, ":") {
				or = append(or, "f.source = "+param(src))
			} else {
				or = append(or, "(f.source = "+param(src)+" OR starts_with(f.source, "+param(src+":")+"))")
			}
		}
		conds = append(conds, "("+strings.Join(or, " OR ")+")")
	}
	return conds, args, false
}

func and(conds []string) string {
	if len(conds) == 0 {
		return "TRUE"
	}
	return strings.Join(conds, " AND ")
}

// KeywordSearch runs a full-text query: every term a phrase of its tokens,
// combined by q.Match, ranked by ts_rank_cd (name and keywords weigh most),
// Total counting every match.
func (s *Store) KeywordSearch(ctx context.Context, q store.KeywordQuery) (_ store.KeywordResult, err error) {
	defer s.classify(&err)
	res := store.KeywordResult{}
	tsq := buildTSQuery(q.Terms, q.Match)
	f := q.Filter
	if tsq == "" && !f.FilterOnly() {
		return res, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	if tsq == "" {
		return s.filterSearch(ctx, f, limit)
	}
	args := []any{tsq}
	conds, args, none := where(q.Filter, args)
	if none {
		return res, nil
	}
	conds = append([]string{"f.search_tsv @@ query"}, conds...)
	args = append(args, limit)
	sql := s.q(`SELECT f.file_id, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', f.search_tsv, query, 1) AS score, count(*) OVER () AS total
		FROM {schema}.drive_file_index f, CAST($1 AS tsquery) AS query
		WHERE ` + and(conds) + `
		ORDER BY score DESC, f.file_id COLLATE "C"
		LIMIT $` + strconv.Itoa(len(args)))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return res, fmt.Errorf("postgres: keyword search for %q: %w", q.Terms, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			h     store.Hit
			score float32
			total int
		)
		if err := rows.Scan(&h.ID, &score, &total); err != nil {
			return res, fmt.Errorf("postgres: reading keyword hits: %w", err)
		}
		h.Score = float64(score)
		res.Total = total
		res.Hits = append(res.Hits, h)
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("postgres: keyword search for %q: %w", q.Terms, err)
	}
	return res, nil
}

// DocFreqs returns how many indexed files each term matches (the Total of
// KeywordSearch with that term alone, MatchAny, no filter) and how many
// files are indexed, in one query: each term's count is a subquery over
// the full-text index, with no ranking and no file IDs
// (search.DocFreqCounter: the reranker's document frequencies, the words
// a search checks). A term without a searchable token counts 0.
func (s *Store) DocFreqs(ctx context.Context, terms []string) (_ map[string]int, _ int, err error) {
	defer s.classify(&err)
	df := make(map[string]int, len(terms))
	var queries []string
	var asked []string
	for _, t := range terms {
		tsq := buildTSQuery([]string{t}, store.MatchAny)
		if tsq == "" {
			df[t] = 0
			continue
		}
		queries, asked = append(queries, tsq), append(asked, t)
	}
	rows, err := s.pool.Query(ctx, s.q(`SELECT 0::bigint, (SELECT count(*) FROM {schema}.drive_file_index)
		UNION ALL
		SELECT t.i, (SELECT count(*) FROM {schema}.drive_file_index f WHERE f.search_tsv @@ CAST(t.q AS tsquery))
		FROM unnest($1::text[]) WITH ORDINALITY AS t(q, i)`), queries)
	if err != nil {
		return nil, 0, fmt.Errorf("postgres: document frequencies: %w", err)
	}
	defer rows.Close()
	files := 0
	for rows.Next() {
		var i, n int64
		if err := rows.Scan(&i, &n); err != nil {
			return nil, 0, fmt.Errorf("postgres: reading document frequencies: %w", err)
		}
		switch {
		case i == 0:
			files = int(n)
		case int(i) <= len(asked):
			df[asked[i-1]] = int(n)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("postgres: document frequencies: %w", err)
	}
	return df, files, nil
}

// KeywordFacets counts the files KeywordSearch would match by folder
// path, MIME type and month (UTC) in one grouped query.
func (s *Store) KeywordFacets(ctx context.Context, q store.KeywordQuery) (_ []store.FacetCount, err error) {
	defer s.classify(&err)
	out := []store.FacetCount{}
	tsq := buildTSQuery(q.Terms, q.Match)
	if tsq == "" && !q.Filter.FilterOnly() {
		return out, nil
	}
	var args []any
	var conds []string
	if tsq != "" {
		args = []any{tsq}
		conds = []string{"f.search_tsv @@ CAST($1 AS tsquery)"}
	}
	more, args, none := where(q.Filter, args)
	if none {
		return out, nil
	}
	conds = append(conds, more...)
	rows, err := s.pool.Query(ctx, s.q(`SELECT f.path, f.mime_type, to_char(f.drive_modified_at AT TIME ZONE 'UTC', 'YYYY-MM'), count(*)
		FROM {schema}.drive_file_index f
		WHERE `+and(conds)+`
		GROUP BY 1, 2, 3`), args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: keyword facets for %q: %w", q.Terms, err)
	}
	defer rows.Close()
	for rows.Next() {
		var c store.FacetCount
		if err := rows.Scan(&c.Path, &c.MimeType, &c.Month, &c.N); err != nil {
			return nil, fmt.Errorf("postgres: reading keyword facets: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: keyword facets for %q: %w", q.Terms, err)
	}
	return out, nil
}

// filterSearch returns every file passing the filter, newest first (the
// score is the modification time in Unix seconds), with Total counting them.
func (s *Store) filterSearch(ctx context.Context, flt store.Filter, limit int) (store.KeywordResult, error) {
	res := store.KeywordResult{}
	conds, args, none := where(flt, nil)
	if none {
		return res, nil
	}
	args = append(args, limit)
	sql := s.q(`SELECT f.file_id, extract(epoch FROM f.drive_modified_at)::float8 AS score, count(*) OVER () AS total
		FROM {schema}.drive_file_index f
		WHERE ` + and(conds) + `
		ORDER BY f.drive_modified_at DESC, f.file_id COLLATE "C"
		LIMIT $` + strconv.Itoa(len(args)))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return res, fmt.Errorf("postgres: filter search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h store.Hit
		if err := rows.Scan(&h.ID, &h.Score, &res.Total); err != nil {
			return res, fmt.Errorf("postgres: reading filter hits: %w", err)
		}
		res.Hits = append(res.Hits, h)
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("postgres: filter search: %w", err)
	}
	return res, nil
}

// checkQueryVector validates vec against the recorded space. ok is false
// when nothing is recorded (so nothing can be indexed).
func (s *Store) checkQueryVector(ctx context.Context, vec []float32) (dim int, ok bool, err error) {
	sp, err := s.cachedSpace(ctx, false)
	if err != nil {
		return 0, false, err
	}
	if sp.Dim != len(vec) {
		// Another process may have reset the index and recorded another space.
		if sp, err = s.cachedSpace(ctx, true); err != nil {
			return 0, false, err
		}
	}
	if sp.Dim == 0 {
		return 0, false, nil
	}
	if sp.Dim != len(vec) {
		return 0, false, fmt.Errorf("postgres: the query vector has %d dimensions, the index holds %d (%s): %w", len(vec), sp.Dim, sp.Model, store.ErrEmbeddingMismatch)
	}
	return sp.Dim, true, nil
}

// vectorPlan returns the distance expression for column col and, for
// searches that may use the HNSW index, the statements that tune it. Searches
// restricted to a list of IDs compare exactly, without the index.
func vectorPlan(col string, dim int, flt store.Filter, k int) (dist string, settings []string) {
	if len(flt.IDs) > 0 || dim > hnswMaxDim {
		return col + " <=> $1::vector", nil
	}
	d := strconv.Itoa(dim)
	ef := max(40, k)
	return col + "::vector(" + d + ") <=> $1::vector(" + d + ")", []string{
		"SELECT set_config('hnsw.ef_search', '" + strconv.Itoa(min(ef, 1000)) + "', true)",
		"SELECT set_config('hnsw.iterative_scan', 'strict_order', true)",
	}
}

// runVector sends the tuning statements and the query in one batch (one
// implicit transaction, so the settings are local to it) and returns the rows
// of the query.
func (s *Store) runVector(ctx context.Context, settings []string, sql string, args []any, scan func(pgx.Rows) error) error {
	b := &pgx.Batch{}
	for _, st := range settings {
		b.Queue(st)
	}
	b.Queue(sql, args...)
	br := s.pool.SendBatch(ctx, b)
	defer br.Close()
	for range settings {
		if _, err := br.Exec(); err != nil {
			return err
		}
	}
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return br.Close()
}

// VectorSearch returns the k files most similar (cosine) to vec among those
// passing the filter, best first.
func (s *Store) VectorSearch(ctx context.Context, vec []float32, flt store.Filter, k int) (_ []store.Hit, err error) {
	defer s.classify(&err)
	dim, ok, err := s.checkQueryVector(ctx, vec)
	if err != nil || !ok || k <= 0 {
		return nil, err
	}
	args := []any{pgvector.NewVector(vec).String()}
	conds, args, none := where(flt, args)
	if none {
		return nil, nil
	}
	dist, settings := vectorPlan("f.embedding", dim, flt, k)
	conds = append(conds, "f.skip_reason = ''") // name-only entries have no embedding
	args = append(args, k)
	sql := s.q(`SELECT f.file_id, 1 - (` + dist + `) AS score
		FROM {schema}.drive_file_index f
		WHERE ` + and(conds) + `
		ORDER BY ` + dist + `
		LIMIT $` + strconv.Itoa(len(args)))
	var hits []store.Hit
	err = s.runVector(ctx, settings, sql, args, func(rows pgx.Rows) error {
		var h store.Hit
		if err := rows.Scan(&h.ID, &h.Score); err != nil {
			return err
		}
		hits = append(hits, h)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: vector search: %w", err)
	}
	return hits, nil
}

// ChunkSearch returns the k chunks most similar (cosine) to vec among the
// chunks of the files passing the filter, best first.
func (s *Store) ChunkSearch(ctx context.Context, vec []float32, flt store.Filter, k int) (_ []store.ChunkHit, err error) {
	defer s.classify(&err)
	dim, ok, err := s.checkQueryVector(ctx, vec)
	if err != nil || !ok || k <= 0 {
		return nil, err
	}
	args := []any{pgvector.NewVector(vec).String()}
	conds, args, none := where(flt, args)
	if none {
		return nil, nil
	}
	dist, settings := vectorPlan("c.embedding", dim, flt, k)
	args = append(args, k)
	sql := s.q(`SELECT c.file_id, c.ordinal, c.page, c.content, c.embedding, 1 - (` + dist + `) AS score
		FROM {schema}.drive_file_chunks c JOIN {schema}.drive_file_index f ON f.file_id = c.file_id
		WHERE ` + and(conds) + `
		ORDER BY ` + dist + `
		LIMIT $` + strconv.Itoa(len(args)))
	var hits []store.ChunkHit
	err = s.runVector(ctx, settings, sql, args, func(rows pgx.Rows) error {
		var (
			h   store.ChunkHit
			emb pgvector.Vector
		)
		if err := rows.Scan(&h.FileID, &h.Ordinal, &h.Page, &h.Text, &emb, &h.Score); err != nil {
			return err
		}
		h.Embedding = emb.Slice()
		hits = append(hits, h)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: chunk search: %w", err)
	}
	return hits, nil
}
