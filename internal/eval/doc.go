// Package eval measures search quality: it reads a query set (one JSON
// object per line with the query and the names of its relevant files),
// runs every query through a System — the hybrid search loop gds search
// uses, or a plain BM25 ranking of the store's keyword search as the
// baseline — and reports Recall@1, Recall@10, MRR@10, the zero-result rate,
// the mean number of loops, per-branch counts and per-query latency.
//
// The loop runs non-interactively: a clarifying question (≥ 101 hits) is
// never answered, so the loop applies its documented no-answer policy
// (search.NoAnswer: keep 100 candidates — the best keyword hits fused with
// the whole question's full-text ranking — and narrow them by vector search).
//
// OpenIndex builds (or reuses) an embedded index of a corpus folder with
// the local source, keyed by a fingerprint of the folder's files and the
// provider's embedding model, so repeated runs skip the crawl.
package eval
