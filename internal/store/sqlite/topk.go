package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The keystroke's query is every keyword OR'ed (store.MatchAny) and wants
// only the best few matches, but FTS5 scores every match with bm25() before
// SQLite's sorter keeps the best: at 100,000 files a question with one
// common word ("日本") scores ~12,000 rows to return 9. topAny returns the
// same best matches while scoring only the matches that could be among
// them (MaxScore-style pruning, set at a time).
//
// Why it is exact. FTS5's bm25 of a row is a sum over the query's phrases
// of IDF(p) · f·(k1+1) / (f + k1·(1 − b + b·D/avgdl)), where f is the
// phrase's column-weighted frequency in the row (0 when absent), D the
// row's length, and IDF(p) = ln((N − n(p) + 0.5) / (n(p) + 0.5)) (1e-6
// when not positive) with N the rows in the table and n(p) the rows holding
// p. None of these depends on the other phrases of the query, and each term
// is below IDF(p)·(k1+1) (f / (f + x) < 1 for x > 0). So, splitting the
// phrases into rare ones E and common ones C, a row holding phrases of C
// only scores below U = Σ_C IDF(p)·(k1+1). The rows holding some phrase of
// E are ranked among themselves by two cheap queries (splitTop). If their
// best limit rows (by bm25, then rowid, as the full query orders them) are
// limit rows whose worst score exceeds U, no row outside them can enter the
// top limit, and they are the full query's top limit. Otherwise E takes
// the rarest phrases whose complement's bound is below the worst score
// found (once), and failing that the full query runs. IDF is bounded from
// above with an upper bound of N (the span of the rowids, read from both
// ends of the docsize table's integer primary key) and the exact n(p) (a
// count per phrase).
//
// The one difference from the full query: bm25 adds the phrases' terms in
// the order the phrases appear in the expression, and "(E) AND (C)" lists
// E first, so a row matched by both E and C may get a score a few units in
// the last place away from the full query's, and two rows whose scores
// differ by that little might swap. Rows with equal text score equally
// either way.

// bm25K1 is FTS5's default k1 (bm25() is called without it).
const bm25K1 = 1.2

// pruneMinRows is the number of rows (the rowid span) below which topAny
// leaves every query to the full one without counting anything: at 10,000
// files the keystroke's questions rarely match enough rows for the pruning
// to pay for its queries (docs/BENCHMARKS.md). A variable for tests.
var pruneMinRows int64 = 20000

// pruneMinMatches is the number of phrase matches (summed over the
// phrases) below which scoring every match costs less than the pruning's
// queries. In one process over a warm 100,000-file index pruning paid from
// ~3,000 matches; a keystroke is a new process reading cold pages (each
// scored row also reads its docsize row), and there 1,000 came out 1–2 ms
// of CPU ahead of 3,000 and of 0 at the median, in two runs of the dev
// questions (docs/BENCHMARKS.md). A variable so tests can prune small
// indexes.
var pruneMinMatches int64 = 1000

// topAnyMargin is the relative margin by which the worst kept score must
// exceed the common phrases' bound (covering rounding in either sum).
const topAnyMargin = 1e-9

// topAny returns the best limit matches of the OR of phrases, ranked as
// the full query ranks them (rank, then doc), when pruning applies; ok is
// false when the caller should run the full query (fewer than two phrases,
// or no split proved the result).
func topAny(ctx context.Context, tx *sql.Tx, phrases []string, limit int) (cands []cand, ok bool, err error) {
	if len(phrases) < 2 || limit <= 0 {
		return nil, false, nil
	}
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT ifnull((SELECT max(id) FROM drive_file_fts_docsize) - (SELECT min(id) FROM drive_file_fts_docsize) + 1, 0)`).Scan(&n); err != nil {
		return nil, false, fmt.Errorf("rowid span of the full-text index: %w", err)
	}
	if n < pruneMinRows {
		return nil, false, nil
	}
	hits, err := phraseHits(ctx, tx, phrases)
	if err != nil {
		return nil, false, err
	}
	var total int64
	for _, h := range hits {
		total += h
	}
	if total < pruneMinMatches {
		return nil, false, nil
	}
	// Rarest (highest bound) first; ties keep the query's order.
	order := make([]int, len(phrases))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return hits[order[a]] < hits[order[b]] })
	bound := make([]float64, len(phrases))
	for i, h := range hits {
		bound[i] = (bm25K1 + 1) * maxIDF(n, h)
	}
	// common[j] is the bound of the phrases order[j:], the common set when
	// E is order[:j].
	common := make([]float64, len(order)+1)
	for j := len(order) - 1; j >= 0; j-- {
		common[j] = common[j+1] + bound[order[j]]
	}
	// First split: the rarest phrases until they hold limit rows between
	// them (so the split likely finds limit rows), at least one.
	j, rows := 0, int64(0)
	for j < len(order)-1 && (j == 0 || rows < int64(limit)) {
		rows += hits[order[j]]
		j++
	}
	for round := 0; round < 2 && j < len(order); round++ {
		top, err := splitTop(ctx, tx, phrases, order[:j], order[j:], limit)
		if err != nil {
			return nil, false, err
		}
		theta := 0.0 // the worst kept score (higher is better), a lower bound of the true one
		if len(top) >= limit {
			theta = -top[limit-1].rank
		}
		if len(top) >= limit && theta > common[j]*(1+topAnyMargin) {
			return top[:limit], true, nil
		}
		// The smallest E whose common bound is below theta proves the next
		// split (its theta can only be higher); none: the full query.
		next := j + 1
		for next < len(order) && common[next]*(1+topAnyMargin) >= theta {
			next++
		}
		j = next
	}
	return nil, false, nil
}

// maxIDF is an upper bound of FTS5's IDF of a phrase held by hits rows of a
// table of at most n rows.
func maxIDF(n, hits int64) float64 {
	idf := math.Log((float64(n) - float64(hits) + 0.5) / (float64(hits) + 0.5))
	if idf <= 0 || math.IsNaN(idf) {
		return 1e-6
	}
	return idf
}

// phraseHits counts the rows holding each phrase, in one statement.
func phraseHits(ctx context.Context, tx *sql.Tx, phrases []string) ([]int64, error) {
	var b strings.Builder
	b.WriteString("SELECT ")
	args := make([]any, len(phrases))
	for i, p := range phrases {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(SELECT count(*) FROM drive_file_fts WHERE drive_file_fts MATCH ?)")
		args[i] = p
	}
	hits := make([]int64, len(phrases))
	dest := make([]any, len(phrases))
	for i := range hits {
		dest[i] = &hits[i]
	}
	if err := tx.QueryRowContext(ctx, b.String(), args...).Scan(dest...); err != nil {
		return nil, fmt.Errorf("count phrase matches: %w", err)
	}
	return hits, nil
}

// splitTop returns the best limit rows holding a phrase of rare, ranked
// by bm25 over every phrase, from two queries: "(rare) AND (common)" scores
// the rows that also hold a common phrase exactly, and "(rare)" scores
// every rare row by its rare phrases only — exact for a row without a
// common phrase, and for one with, below its true score. Such a row, when
// missing from the first query's best limit, ranks below all of them
// either way, so it never enters the merged best limit; one present in
// both keeps its exact score. Each phrase keeps its place within its group.
func splitTop(ctx context.Context, tx *sql.Tx, phrases []string, rare, common []int, limit int) ([]cand, error) {
	group := func(idx []int) string {
		sorted := append([]int(nil), idx...)
		sort.Ints(sorted)
		parts := make([]string, len(sorted))
		for i, k := range sorted {
			parts[i] = phrases[k]
		}
		return "(" + strings.Join(parts, " OR ") + ")"
	}
	e, c := group(rare), group(common)
	var out []cand
	seen := map[int64]bool{}
	for _, match := range []string{e + " AND " + c, e} {
		rows, err := tx.QueryContext(ctx, `SELECT rowid, bm25(drive_file_fts, `+bm25Weights+`)
			FROM drive_file_fts WHERE drive_file_fts MATCH ? ORDER BY 2, 1 LIMIT ?`, match, limit)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var x cand
			if err := rows.Scan(&x.doc, &x.rank); err != nil {
				rows.Close()
				return nil, err
			}
			if !seen[x.doc] {
				seen[x.doc] = true
				out = append(out, x)
			}
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	sortCands(out)
	return out[:min(limit, len(out))], nil
}

// sortCands orders matches as the full query does: rank, then doc.
func sortCands(cs []cand) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].rank != cs[j].rank {
			return cs[i].rank < cs[j].rank
		}
		return cs[i].doc < cs[j].doc
	})
}
