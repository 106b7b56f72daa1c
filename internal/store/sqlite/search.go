package sqlite

import (
	"cmp"
	"container/heap"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// defaultLimit is KeywordQuery's limit when none is given.
const defaultLimit = 100

// bm25 column weights: name, keywords, summary, body. The keywords and
// summary are drawn from the body (by the offline provider, word for
// word), so weighing them far above it counts the same words twice:
// 10 : 6 : 3 : 1 → 10 : 2 : 2 : 1 raised the loop's R@1 / R@10 on the
// English dev split from 0.7875 / 0.9462 to 0.7903 / 0.9486 and left the
// Japanese one level (0.9139 / 0.9805 → 0.9147 / 0.9797); 10 : 1 : 1 : 1
// gained more in English (0.7935 / 0.9489) but cost Japanese R@10 (0.9782)
// (docs/BENCHMARKS.md, "Search quality").
const bm25Weights = "10.0, 2.0, 2.0, 1.0"

// ftsQuery turns the terms into an FTS5 query: each term one quoted phrase
// of its tokenize tokens (so no user text is ever FTS5 syntax), joined with
// AND or OR. A term ending in a lone CJK character matches it as a prefix, so
// a one-character term finds the bigrams that start with it. Terms without
// tokens are dropped; "" means no usable term.
func ftsQuery(terms []string, mode store.MatchMode) string {
	op := " AND "
	if mode == store.MatchAny {
		op = " OR "
	}
	return strings.Join(ftsPhrases(terms), op)
}

// ftsPhrases is the FTS5 phrase of each term with tokens, in order (see
// ftsQuery).
func ftsPhrases(terms []string) []string {
	var phrases []string
	for _, term := range terms {
		toks := tokenize.IndexTokens(term)
		if len(toks) == 0 {
			continue
		}
		var b strings.Builder
		b.WriteByte('"')
		for i, t := range toks {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		}
		b.WriteByte('"')
		if last := toks[len(toks)-1]; utf8.RuneCountInString(last) == 1 {
			if r, _ := utf8.DecodeRuneInString(last); tokenize.IsCJK(r) {
				b.WriteByte('*')
			}
		}
		phrases = append(phrases, b.String())
	}
	return phrases
}

// filterSQL returns " AND ..." conditions on the drive_file_index alias a.
// none reports a filter that can match nothing (an empty, non-nil ID list).
func filterSQL(f store.Filter, a string) (where string, args []any, none bool) {
	if f.IDs != nil && len(f.IDs) == 0 {
		return "", nil, true
	}
	var b strings.Builder
	if !f.ModifiedAfter.IsZero() {
		b.WriteString(" AND " + a + ".drive_modified_at >= ?")
		args = append(args, formatTime(f.ModifiedAfter))
	}
	if !f.ModifiedBefore.IsZero() {
		b.WriteString(" AND " + a + ".drive_modified_at < ?")
		args = append(args, formatTime(f.ModifiedBefore))
	}
	if len(f.MimeTypes) > 0 {
		b.WriteString(" AND " + a + ".mime_type IN (SELECT value FROM json_each(?))")
		args = append(args, jsonIDs(f.MimeTypes))
	}
	if f.IDs != nil {
		b.WriteString(" AND " + a + ".file_id IN (SELECT value FROM json_each(?))")
		args = append(args, jsonIDs(f.IDs))
	}
	if folder := store.CleanFolder(f.Folder); folder != "" {
		// The folder itself, or a path in [folder+"/", folder+"0"): with the
		// BINARY collation that range is exactly the paths starting with
		// folder+"/" ('0' follows '/'). LIKE would be case-insensitive in
		// SQLite and need escaping; a range compares bytes.
		b.WriteString(" AND (" + a + ".path = ? OR (" + a + ".path >= ? AND " + a + ".path < ?))")
		args = append(args, folder, folder+"/", folder+"0")
	}
	if len(f.Sources) > 0 {
		// store.InSources: the key itself, or for a bare kind every key
		// starting with kind+":" (compared by bytes, no LIKE to escape).
		var or []string
		for _, src := range f.Sources {
			if strings.Contains(src, ":") {
				or = append(or, a+".source = ?")
				args = append(args, src)
			} else {
				or = append(or, "("+a+".source = ? OR substr("+a+".source, 1, ?) = ?)")
				args = append(args, src, len(src)+1, src+":")
			}
		}
		b.WriteString(" AND (" + strings.Join(or, " OR ") + ")")
	}
	return b.String(), args, false
}

// KeywordSearch runs a full-text query ranked by weighted bm25.
//
// The FTS5 table is queried on its own (every match with its bm25 score) and
// the filter is applied afterwards by doc_id: SQLite may otherwise drive a
// join or an IN restriction from the file table and re-run MATCH per row,
// which is orders of magnitude slower. A query without terms is a filter
// search (filterSearch); a TopOnly query reads no more than it returns
// where it can (topMatches without a filter, topFilteredMatches with one);
// any other ranks every match (allMatches). Matches of equal score come
// in file ID order (byFileID), also where the limit cuts among them,
// whatever order a crawl wrote their files in.
func (s *Store) KeywordSearch(ctx context.Context, q store.KeywordQuery) (_ store.KeywordResult, err error) {
	defer s.classify(&err)
	match := ftsQuery(q.Terms, q.Match)
	where, args, none := filterSQL(q.Filter, "f")
	if none || match == "" && !q.Filter.FilterOnly() {
		return store.KeywordResult{Hits: []store.Hit{}}, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	if match == "" {
		return s.filterSearch(ctx, where, args, limit, q.TopOnly)
	}
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return store.KeywordResult{Hits: []store.Hit{}}, fmt.Errorf("keyword search in %s: begin: %w", s.path, err)
	}
	defer tx.Rollback()
	var res store.KeywordResult
	switch {
	case q.TopOnly && where == "":
		res, err = s.topMatches(ctx, tx, q, match, limit)
	case q.TopOnly:
		res, err = s.topFilteredMatches(ctx, tx, match, where, args, limit)
	default:
		res, err = s.allMatches(ctx, tx, match, where, args, limit)
	}
	if err != nil {
		return store.KeywordResult{Hits: []store.Hit{}}, fmt.Errorf("keyword search in %s: %w", s.path, err)
	}
	return res, nil
}

// matchQuery selects every full-text match of a MATCH expression with its
// weighted bm25 score.
const matchQuery = `SELECT rowid, bm25(drive_file_fts, ` + bm25Weights + `)
		FROM drive_file_fts WHERE drive_file_fts MATCH ?`

// topMatches answers a TopOnly query without a filter: the best limit
// matches, found by topAny for alternatives where it can, else by SQLite's
// sorter, which keeps the top limit (and the matches tied with the last
// of them, topTiedMatches) instead of every match crossing into Go.
// topAny is asked for one match more than the limit: when that one ties
// with the last kept, which of the tied make the cut is left to the full
// query. Nothing is cached.
func (s *Store) topMatches(ctx context.Context, tx *sql.Tx, q store.KeywordQuery, match string, limit int) (store.KeywordResult, error) {
	if q.Match == store.MatchAny {
		cands, ok, err := topAny(ctx, tx, ftsPhrases(q.Terms), limit+1)
		if err != nil {
			return store.KeywordResult{}, err
		}
		if ok && (len(cands) <= limit || cands[limit].rank != cands[limit-1].rank) {
			return s.resolveTop(ctx, tx, cands, limit)
		}
	}
	cands, err := topTiedMatches(ctx, tx, matchQuery, match, limit)
	if err != nil {
		return store.KeywordResult{}, err
	}
	res, err := resolveHits(ctx, tx, cands, limit)
	res.Total = len(res.Hits)
	return res, err
}

// topFilteredMatches answers a TopOnly query with a filter: over every
// match (rankedMatches), the filter is checked a batch at a time in rank
// order when there are many (topFiltered), else at once.
func (s *Store) topFilteredMatches(ctx context.Context, tx *sql.Tx, match, where string, args []any, limit int) (store.KeywordResult, error) {
	cands, err := s.rankedMatches(ctx, tx, match)
	if err != nil || len(cands) == 0 {
		return store.KeywordResult{Hits: []store.Hit{}}, err
	}
	if len(cands) > resolveByList {
		return topFiltered(ctx, tx, cands, where, args, limit)
	}
	return filteredHits(ctx, tx, cands, where, args, limit)
}

// allMatches answers a query that counts every match (Total): over every
// match (rankedMatches), the filter if any, then the best limit.
func (s *Store) allMatches(ctx context.Context, tx *sql.Tx, match, where string, args []any, limit int) (store.KeywordResult, error) {
	cands, err := s.rankedMatches(ctx, tx, match)
	if err != nil || len(cands) == 0 {
		return store.KeywordResult{Hits: []store.Hit{}}, err
	}
	if where == "" {
		return resolveHits(ctx, tx, cands, limit)
	}
	return filteredHits(ctx, tx, cands, where, args, limit)
}

// rankedMatches is every match of match, ranked (rankMatches), from the
// cache of rankings when this generation of the index ranked it already.
func (s *Store) rankedMatches(ctx context.Context, tx *sql.Tx, match string) ([]cand, error) {
	gen, err := readGeneration(ctx, tx)
	if err != nil {
		return nil, err
	}
	if cands := s.ranked.get(match, gen); cands != nil {
		return cands, nil
	}
	cands, err := rankMatches(ctx, tx, matchQuery, []any{match})
	if err != nil {
		return nil, err
	}
	s.ranked.put(match, gen, cands)
	return cands, nil
}

// filteredHits keeps the ranked matches cands that pass the filter where
// and returns the best limit, Total counting them all. Up to
// resolveByList matches, the matches are looked up with the filter;
// above, the files passing the filter are read (an index range or ID
// lookups) and intersected: restricting that query by the matched doc_ids
// makes SQLite's plans far slower.
func filteredHits(ctx context.Context, tx *sql.Tx, cands []cand, where string, args []any, limit int) (store.KeywordResult, error) {
	var ids map[int64]string
	var err error
	if len(cands) <= resolveByList {
		ids, err = docIDs(ctx, tx, " AND f.doc_id IN (SELECT value FROM json_each(?))"+where, append([]any{docList(cands)}, args...))
	} else {
		ids, err = docIDs(ctx, tx, where, args)
	}
	if err != nil {
		return store.KeywordResult{}, fmt.Errorf("apply filter: %w", err)
	}
	kept := cands[:0]
	for _, c := range cands {
		if _, ok := ids[c.doc]; ok {
			kept = append(kept, c)
		}
	}
	return hits(kept, ids, limit), nil
}

// resolveHits returns the best limit of the ranked matches cands with
// their file IDs, looked up at once (those of the matches tied with the
// last kept too); Total is the number of matches.
func resolveHits(ctx context.Context, tx *sql.Tx, cands []cand, limit int) (store.KeywordResult, error) {
	if len(cands) == 0 {
		return store.KeywordResult{Hits: []store.Hit{}}, nil
	}
	ids, err := docIDs(ctx, tx, " AND f.doc_id IN (SELECT value FROM json_each(?))", []any{docList(cands[:tiedCut(cands, limit)])})
	if err != nil {
		return store.KeywordResult{}, fmt.Errorf("resolve file IDs: %w", err)
	}
	return hits(cands, ids, limit), nil
}

// hits is the result of the ranked matches cands whose file IDs ids
// holds (at least those of the best limit and the matches tied with the
// last of them): the best limit, equal scores in file ID order, Total
// counting every match. It reorders cands.
func hits(cands []cand, ids map[int64]string, limit int) store.KeywordResult {
	res := store.KeywordResult{Hits: []store.Hit{}, Total: len(cands)}
	head := cands[:tiedCut(cands, limit)]
	byFileID(head, ids)
	for _, c := range head[:min(limit, len(head))] {
		id, ok := ids[c.doc]
		if !ok {
			continue // cannot happen in one transaction; never report a file that is gone
		}
		res.Hits = append(res.Hits, store.Hit{ID: id, Score: -c.rank})
	}
	return res
}

// tiedCut is how many of the ranked matches cands hold the best n and
// every match tied with the last of them.
func tiedCut(cands []cand, n int) int {
	n = min(n, len(cands))
	for n > 0 && n < len(cands) && cands[n].rank == cands[n-1].rank {
		n++
	}
	return n
}

// byFileID orders matches best first, equal scores by file ID (ids maps
// doc_id to it): doc_ids follow the order a crawl wrote the files in,
// which its concurrent workers vary from run to run.
func byFileID(cands []cand, ids map[int64]string) {
	slices.SortStableFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return strings.Compare(ids[a.doc], ids[b.doc])
	})
}

// rankMatches runs a full-text query of (rowid, bm25) rows and returns
// them best first (rank, then doc; hits puts equal ranks in file ID
// order).
func rankMatches(ctx context.Context, tx *sql.Tx, query string, args []any) ([]cand, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	cands := []cand{}
	for rows.Next() {
		var c cand
		if err := rows.Scan(&c.doc, &c.rank); err != nil {
			rows.Close()
			return nil, err
		}
		cands = append(cands, c)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].rank != cands[j].rank {
			return cands[i].rank < cands[j].rank
		}
		return cands[i].doc < cands[j].doc
	})
	return cands, nil
}

// readGeneration is the index generation (gds_meta), 0 when none.
func readGeneration(ctx context.Context, tx *sql.Tx) (int64, error) {
	var v string
	err := tx.QueryRowContext(ctx, `SELECT value FROM gds_meta WHERE key = 'generation'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the index generation: %w", err)
	}
	return strconv.ParseInt(v, 10, 64)
}

// rankedCache keeps the full rankings of the last few full-text queries,
// valid for one index generation (every write that changes the full-text
// index bumps it). A search asks the same question's words several times
// — the no-answer policy's top 100, the narrowing's ranking of the
// candidates, the final complement's top 10 — with different filters and
// limits over the same ranking; FTS5 scores every match each time.
type rankedCache struct {
	mu      sync.Mutex
	entries []rankedEntry // most recent last
}

type rankedEntry struct {
	match string
	gen   int64
	cands []cand
}

// rankedCacheSize is how many rankings are kept.
const rankedCacheSize = 4

// get returns a copy of the ranking of match at generation gen (the
// caller filters it in place), or nil.
func (c *rankedCache) get(match string, gen int64) []cand {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.match == match && e.gen == gen {
			return append([]cand{}, e.cands...)
		}
	}
	return nil
}

// put keeps a copy of cands as the ranking of match at generation gen.
func (c *rankedCache) put(match string, gen int64, cands []cand) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.entries[:0]
	for _, e := range c.entries {
		if e.gen == gen && e.match != match {
			kept = append(kept, e)
		}
	}
	if len(kept) >= rankedCacheSize {
		kept = append(kept[:0], kept[1:]...)
	}
	c.entries = append(kept, rankedEntry{match: match, gen: gen, cands: append([]cand{}, cands...)})
}

// DocFreqs returns how many indexed files each term matches (the Total of
// KeywordSearch with that term alone, MatchAny, no filter) and how many
// files are indexed, in one read transaction: the reranker's document
// frequencies. Only the matches are counted — no bm25() per match, no
// ranking, no file IDs. A term without a searchable token counts 0.
func (s *Store) DocFreqs(ctx context.Context, terms []string) (_ map[string]int, _ int, err error) {
	defer s.classify(&err)
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("document frequencies in %s: begin: %w", s.path, err)
	}
	defer tx.Rollback()
	var files int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM drive_file_index`).Scan(&files); err != nil {
		return nil, 0, fmt.Errorf("document frequencies in %s: count files: %w", s.path, err)
	}
	df := make(map[string]int, len(terms))
	var count *sql.Stmt
	for _, t := range terms {
		match := ftsQuery([]string{t}, store.MatchAny)
		if match == "" {
			df[t] = 0
			continue
		}
		if count == nil {
			if count, err = tx.PrepareContext(ctx, `SELECT count(*) FROM drive_file_fts WHERE drive_file_fts MATCH ?`); err != nil {
				return nil, 0, fmt.Errorf("document frequencies in %s: %w", s.path, err)
			}
			defer count.Close()
		}
		var n int
		if err := count.QueryRowContext(ctx, match).Scan(&n); err != nil {
			return nil, 0, fmt.Errorf("document frequency of %q in %s: %w", t, s.path, err)
		}
		df[t] = n
	}
	return df, files, nil
}

// HasTerms reports for each term (a phrase of its tokens, as KeywordSearch
// searches it) whether any indexed file holds it: one full-text match per
// term stopped at its first row — no bm25, no ranking, no count — in one
// read transaction (search.TermChecker: the words a keystroke checks).
// A term without a searchable token is held by none. ok is always true.
func (s *Store) HasTerms(ctx context.Context, terms []string) (_ map[string]bool, ok bool, err error) {
	defer s.classify(&err)
	has := make(map[string]bool, len(terms))
	if len(terms) == 0 {
		return has, true, nil
	}
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, fmt.Errorf("look words up in %s: begin: %w", s.path, err)
	}
	defer tx.Rollback()
	var first *sql.Stmt
	for _, t := range terms {
		match := ftsQuery([]string{t}, store.MatchAny)
		if match == "" {
			has[t] = false
			continue
		}
		if first == nil {
			if first, err = tx.PrepareContext(ctx, `SELECT 1 FROM drive_file_fts WHERE drive_file_fts MATCH ? LIMIT 1`); err != nil {
				return nil, false, fmt.Errorf("look words up in %s: %w", s.path, err)
			}
			defer first.Close()
		}
		var one int
		switch err := first.QueryRowContext(ctx, match).Scan(&one); {
		case errors.Is(err, sql.ErrNoRows):
			has[t] = false
		case err != nil:
			return nil, false, fmt.Errorf("look %q up in %s: %w", t, s.path, err)
		default:
			has[t] = true
		}
	}
	return has, true, nil
}

// resolveTop returns the hits of the best limit matches cands (ranked;
// none beyond the limit ties with the last kept): their file IDs, looked
// up at once, equal scores in file ID order. Total is the number of hits.
func (s *Store) resolveTop(ctx context.Context, tx *sql.Tx, cands []cand, limit int) (store.KeywordResult, error) {
	res := store.KeywordResult{Hits: []store.Hit{}}
	cands = cands[:min(limit, len(cands))]
	ids, err := docIDs(ctx, tx, " AND f.doc_id IN (SELECT value FROM json_each(?))", []any{docList(cands)})
	if err != nil {
		return res, fmt.Errorf("resolve file IDs: %w", err)
	}
	byFileID(cands, ids)
	for _, c := range cands {
		if id, ok := ids[c.doc]; ok {
			res.Hits = append(res.Hits, store.Hit{ID: id, Score: -c.rank})
		}
	}
	res.Total = len(res.Hits)
	return res, nil
}

// KeywordFacets counts the files KeywordSearch would match by folder
// path, MIME type and month in one grouped query.
func (s *Store) KeywordFacets(ctx context.Context, q store.KeywordQuery) (_ []store.FacetCount, err error) {
	defer s.classify(&err)
	out := []store.FacetCount{}
	match := ftsQuery(q.Terms, q.Match)
	where, args, none := filterSQL(q.Filter, "f")
	if none || match == "" && !q.Filter.FilterOnly() {
		return out, nil
	}
	if match != "" {
		where = " AND f.doc_id IN (SELECT rowid FROM drive_file_fts WHERE drive_file_fts MATCH ?)" + where
		args = append([]any{match}, args...)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT f.path, f.mime_type, substr(f.drive_modified_at, 1, 7), count(*)
		FROM drive_file_index f WHERE 1`+where+` GROUP BY 1, 2, 3`, args...)
	if err != nil {
		return nil, fmt.Errorf("keyword facets in %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var c store.FacetCount
		if err := rows.Scan(&c.Path, &c.MimeType, &c.Month, &c.N); err != nil {
			return nil, fmt.Errorf("keyword facets in %s: %w", s.path, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("keyword facets in %s: %w", s.path, err)
	}
	return out, nil
}

// filterSearch returns every file passing where, newest first. The score
// is the modification time in Unix seconds, so newer ranks higher.
func (s *Store) filterSearch(ctx context.Context, where string, args []any, limit int, topOnly bool) (store.KeywordResult, error) {
	res := store.KeywordResult{Hits: []store.Hit{}}
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("filter search in %s: begin: %w", s.path, err)
	}
	defer tx.Rollback()
	if !topOnly {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM drive_file_index f WHERE 1`+where, args...).Scan(&res.Total); err != nil {
			return res, fmt.Errorf("filter search in %s: count: %w", s.path, err)
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT f.file_id, f.drive_modified_at FROM drive_file_index f WHERE 1`+where+`
		ORDER BY f.drive_modified_at DESC, f.file_id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return res, fmt.Errorf("filter search in %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, mod string
		if err := rows.Scan(&id, &mod); err != nil {
			return res, fmt.Errorf("filter search in %s: %w", s.path, err)
		}
		t, err := parseTime(mod)
		if err != nil {
			return res, fmt.Errorf("filter search in %s: file %q: %w", s.path, id, err)
		}
		res.Hits = append(res.Hits, store.Hit{ID: id, Score: float64(t.UnixNano()) / 1e9})
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("filter search in %s: %w", s.path, err)
	}
	if topOnly {
		res.Total = len(res.Hits)
	}
	return res, nil
}

// topFiltered keeps the best limit of the ranked matches cands that pass
// the filter where, checking them in rank order a batch at a time until
// it has limit and has passed the matches tied with the last of them: a
// TopOnly query (the keystroke) reads neither every file passing the filter
// nor every match's file. Total is the number of hits.
func topFiltered(ctx context.Context, tx *sql.Tx, cands []cand, where string, args []any, limit int) (store.KeywordResult, error) {
	var kept []cand
	ids := map[int64]string{}
	batch := max(4*limit, 64)
	for start := 0; start < len(cands); start += batch {
		if len(kept) >= limit && cands[start-1].rank != kept[limit-1].rank {
			break
		}
		part := cands[start:min(start+batch, len(cands))]
		passed, err := docIDs(ctx, tx, " AND f.doc_id IN (SELECT value FROM json_each(?))"+where, append([]any{docList(part)}, args...))
		if err != nil {
			return store.KeywordResult{Hits: []store.Hit{}}, fmt.Errorf("apply filter: %w", err)
		}
		for _, c := range part {
			if id, ok := passed[c.doc]; ok {
				ids[c.doc] = id
				kept = append(kept, c)
			}
		}
	}
	res := hits(kept, ids, limit)
	res.Total = len(res.Hits)
	return res, nil
}

// resolveByList is the number of full-text matches up to which the filter is
// checked by looking the matches up; above it, the files passing the filter
// are read from the covering indexes and intersected.
var resolveByList = 300

// cand is a full-text match.
type cand struct {
	doc  int64
	rank float64 // bm25: lower is better
}

// docList is the doc_ids of cs as a JSON array.
func docList(cs []cand) string {
	b := make([]byte, 0, 8*len(cs)+2)
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, c.doc, 10)
	}
	return string(append(b, ']'))
}

// docIDs maps doc_id → file_id for the files passing where.
func docIDs(ctx context.Context, tx *sql.Tx, where string, args []any) (map[int64]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT f.doc_id, f.file_id FROM drive_file_index f WHERE 1`+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var doc int64
		var id string
		if err := rows.Scan(&doc, &id); err != nil {
			return nil, err
		}
		out[doc] = id
	}
	return out, rows.Err()
}

// normalize returns v scaled to unit length (all zeros for a zero vector).
func normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	inv := 1 / math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// cosBytes is the cosine between the unit vector qn and the little-endian
// float32 vector in b; ok is false when the dimensions differ.
func cosBytes(qn []float32, b []byte) (score float64, ok bool) {
	if len(b) != 4*len(qn) {
		return 0, false
	}
	var dot, nn float32
	for i, q := range qn {
		x := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		dot += q * x
		nn += x * x
	}
	if nn == 0 {
		return 0, true
	}
	return float64(dot) / math.Sqrt(float64(nn)), true
}

func dot(a, b []float32) float64 {
	var d float32
	for i := range a {
		d += a[i] * b[i]
	}
	return float64(d)
}

// scored is a candidate of a top-k selection.
type scored struct {
	id    string
	ord   int
	score float64
}

// better orders by score, then ID and ordinal for stable results.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.id != b.id {
		return a.id < b.id
	}
	return a.ord < b.ord
}

// topK keeps the k best candidates; its root is the worst kept.
type topK struct {
	k     int
	items []scored
}

func (t *topK) Len() int           { return len(t.items) }
func (t *topK) Less(i, j int) bool { return better(t.items[j], t.items[i]) }
func (t *topK) Swap(i, j int)      { t.items[i], t.items[j] = t.items[j], t.items[i] }
func (t *topK) Push(x any)         { t.items = append(t.items, x.(scored)) }
func (t *topK) Pop() any {
	x := t.items[len(t.items)-1]
	t.items = t.items[:len(t.items)-1]
	return x
}

func (t *topK) offer(c scored) {
	if len(t.items) < t.k {
		heap.Push(t, c)
		return
	}
	if better(c, t.items[0]) {
		t.items[0] = c
		heap.Fix(t, 0)
	}
}

// sorted returns the kept candidates best first.
func (t *topK) sorted() []scored {
	out := make([]scored, len(t.items))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(t).(scored)
	}
	return out
}

// vecCache holds every file's unit vector and filter columns, valid while the
// index generation is unchanged.
type vecCache struct {
	gen   int64
	dim   int
	ids   []string
	mod   []string
	mime  []string
	path  []string  // cleaned (store.CleanFolder) folder path of each file
	src   []string  // source key of each file
	vecs  []float32 // n × dim unit vectors; zeros for a vector of another dimension
	index map[string]int
}

func (s *Store) loadCache(ctx context.Context, tx *sql.Tx, gen int64, dim int) (*vecCache, error) {
	rows, err := tx.QueryContext(ctx, `SELECT file_id, drive_modified_at, mime_type, path, source, embedding FROM drive_file_index`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	c := &vecCache{gen: gen, dim: dim, index: map[string]int{}}
	buf := make([]float32, 0, dim)
	for rows.Next() {
		var id, mod, mime, path, src string
		var b sql.RawBytes
		if err := rows.Scan(&id, &mod, &mime, &path, &src, &b); err != nil {
			return nil, err
		}
		if len(b) == 0 {
			continue // a name-only entry: no embedding, never a vector hit
		}
		buf, err = decodeVec(buf[:0], b)
		if err != nil {
			return nil, fmt.Errorf("file %q: %w", id, err)
		}
		c.index[id] = len(c.ids)
		c.ids = append(c.ids, id)
		c.mod = append(c.mod, mod)
		c.mime = append(c.mime, mime)
		c.path = append(c.path, store.CleanFolder(path))
		c.src = append(c.src, src)
		if len(buf) == dim {
			c.vecs = append(c.vecs, normalize(buf)...)
		} else {
			c.vecs = append(c.vecs, make([]float32, dim)...)
		}
	}
	return c, rows.Err()
}

func (c *vecCache) search(qn []float32, f store.Filter, k int) []store.Hit {
	after, before := "", ""
	if !f.ModifiedAfter.IsZero() {
		after = formatTime(f.ModifiedAfter)
	}
	if !f.ModifiedBefore.IsZero() {
		before = formatTime(f.ModifiedBefore)
	}
	var mimes map[string]bool
	if len(f.MimeTypes) > 0 {
		mimes = make(map[string]bool, len(f.MimeTypes))
		for _, m := range f.MimeTypes {
			mimes[m] = true
		}
	}
	// store.InFolder on the paths cleaned at load, without cleaning per row.
	folder := store.CleanFolder(f.Folder)
	below := folder + "/"
	top := &topK{k: k}
	consider := func(i int) {
		if after != "" && c.mod[i] < after || before != "" && c.mod[i] >= before || mimes != nil && !mimes[c.mime[i]] {
			return
		}
		if folder != "" && c.path[i] != folder && !strings.HasPrefix(c.path[i], below) {
			return
		}
		if !store.InSources(c.src[i], f.Sources) {
			return
		}
		top.offer(scored{id: c.ids[i], score: dot(qn, c.vecs[i*c.dim:(i+1)*c.dim])})
	}
	if f.IDs != nil {
		seen := make(map[int]bool, len(f.IDs))
		for _, id := range f.IDs {
			if i, ok := c.index[id]; ok && !seen[i] {
				seen[i] = true
				consider(i)
			}
		}
	} else {
		for i := range c.ids {
			consider(i)
		}
	}
	return toHits(top.sorted())
}

func toHits(cs []scored) []store.Hit {
	out := make([]store.Hit, len(cs))
	for i, c := range cs {
		out[i] = store.Hit{ID: c.id, Score: c.score}
	}
	return out
}

// beginSearch opens a read transaction and checks the query's dimension.
func (s *Store) beginSearch(ctx context.Context, vec []float32) (*sql.Tx, meta, error) {
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, meta{}, fmt.Errorf("begin: %w", err)
	}
	m, err := readMeta(ctx, tx)
	if err != nil {
		tx.Rollback()
		return nil, m, err
	}
	if m.space.Dim != 0 && len(vec) != m.space.Dim {
		tx.Rollback()
		return nil, m, fmt.Errorf("query vector has %d dimensions but the index holds %d-dimensional %q embeddings",
			len(vec), m.space.Dim, m.space.Model)
	}
	return tx, m, nil
}

// VectorSearch returns the k files most similar to vec among those passing f.
// Unrestricted searches use (and fill) the in-process vector cache; searches
// restricted to IDs read just those rows unless the cache is current.
func (s *Store) VectorSearch(ctx context.Context, vec []float32, f store.Filter, k int) (_ []store.Hit, err error) {
	defer s.classify(&err)
	if k <= 0 || f.IDs != nil && len(f.IDs) == 0 {
		return []store.Hit{}, nil
	}
	tx, m, err := s.beginSearch(ctx, vec)
	if err != nil {
		return nil, fmt.Errorf("vector search in %s: %w", s.path, err)
	}
	defer tx.Rollback()
	qn := normalize(vec)

	s.cacheMu.Lock()
	c := s.cache
	s.cacheMu.Unlock()
	if c != nil && (c.gen != m.generation || c.dim != len(vec)) {
		c = nil
	}
	if c == nil && f.IDs == nil {
		if c, err = s.loadCache(ctx, tx, m.generation, len(vec)); err != nil {
			return nil, fmt.Errorf("vector search in %s: load vectors: %w", s.path, err)
		}
		s.cacheMu.Lock()
		s.cache = c
		s.cacheMu.Unlock()
	}
	if c != nil {
		return c.search(qn, f, k), nil
	}

	where, args, _ := filterSQL(f, "f")
	rows, err := tx.QueryContext(ctx, `SELECT f.file_id, f.embedding FROM drive_file_index f WHERE 1`+where, args...)
	if err != nil {
		return nil, fmt.Errorf("vector search in %s: %w", s.path, err)
	}
	defer rows.Close()
	top := &topK{k: k}
	for rows.Next() {
		var id string
		var b sql.RawBytes
		if err := rows.Scan(&id, &b); err != nil {
			return nil, fmt.Errorf("vector search in %s: %w", s.path, err)
		}
		if score, ok := cosBytes(qn, b); ok {
			top.offer(scored{id: id, score: score})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("vector search in %s: %w", s.path, err)
	}
	return toHits(top.sorted()), nil
}

// ChunkSearch returns the k chunks most similar to vec among the files passing f.
func (s *Store) ChunkSearch(ctx context.Context, vec []float32, f store.Filter, k int) (_ []store.ChunkHit, err error) {
	defer s.classify(&err)
	where, args, none := filterSQL(f, "f")
	if k <= 0 || none {
		return []store.ChunkHit{}, nil
	}
	tx, _, err := s.beginSearch(ctx, vec)
	if err != nil {
		return nil, fmt.Errorf("chunk search in %s: %w", s.path, err)
	}
	defer tx.Rollback()
	qn := normalize(vec)
	query := `SELECT c.file_id, c.ordinal, c.embedding FROM drive_file_chunk c`
	if where != "" {
		query += ` JOIN drive_file_index f ON f.file_id = c.file_id WHERE 1` + where
	}
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("chunk search in %s: %w", s.path, err)
	}
	top := &topK{k: k}
	for rows.Next() {
		var id string
		var ord int
		var b sql.RawBytes
		if err := rows.Scan(&id, &ord, &b); err != nil {
			rows.Close()
			return nil, fmt.Errorf("chunk search in %s: %w", s.path, err)
		}
		if score, ok := cosBytes(qn, b); ok {
			top.offer(scored{id: id, ord: ord, score: score})
		}
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("chunk search in %s: %w", s.path, err)
	}
	best := top.sorted()
	out := make([]store.ChunkHit, 0, len(best))
	for _, c := range best {
		h := store.ChunkHit{FileID: c.id, Score: c.score}
		var emb []byte
		if err := tx.QueryRowContext(ctx, `SELECT ordinal, page, text, embedding FROM drive_file_chunk WHERE file_id = ? AND ordinal = ?`,
			c.id, c.ord).Scan(&h.Ordinal, &h.Page, &h.Text, &emb); err != nil {
			return nil, fmt.Errorf("chunk search in %s: read chunk %d of %q: %w", s.path, c.ord, c.id, err)
		}
		if h.Embedding, err = decodeVec(nil, emb); err != nil {
			return nil, fmt.Errorf("chunk search in %s: chunk %d of %q: %w", s.path, c.ord, c.id, err)
		}
		out = append(out, h)
	}
	return out, nil
}
