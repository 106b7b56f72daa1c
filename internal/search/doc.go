// Package search runs the hybrid search loop: keyword search,
// clarifying questions, vector narrowing, rerank, relaxation and the loop
// cap.
//
// Next is a pure state machine (State + Event → State + Action); Loop
// performs its actions over a KeywordSearcher, a LoopIndex (the store), an
// ai.Provider and an Asker (NoAnswer, Deferred, or a front end's prompt),
// and Run/Resume return an Outcome. StoreSearcher searches the index's own
// full-text index; the Drive keyword search is package search/drivesearch.
// EncodeState/DecodeState carry a paused search in a compact token.
//
// The package does no I/O of its own: everything it reads or writes goes
// through those interfaces (see "Dependency rules" in docs/ARCHITECTURE.md).
//
// # How a query flows
//
//  1. Analyse the query (ai.AnalyzeQuery): period → modifiedTime filter,
//     file type → MIME filter, 1–5 keywords (proper nouns, projects, formats
//     first; hiragana-only words too). An explicit year or month inside a
//     sentence (1910年に亡くなったのは誰) stays a keyword; it becomes a
//     file-date filter only with file-date wording (作成, 更新, created,
//     modified), a file type, a Japanese date + document noun ending the
//     query (2024年3月の請求書) or an English keyword-style query.
//  2. Keyword search (KeywordSearcher): keywords are alternatives ranked by
//     relevance; keywords added by answers are required. --folder
//     (State.Scope) keeps every search inside that folder (Scoped), and
//     --source (State.Sources → store.Filter.Sources) inside those sources.
//     An index with a Drive source uses Drive's fullText contains with the
//     filters (drivesearch, the escaping query builder), read in Drive's
//     order only until the branch is decided; CJK keywords also search the
//     store's bigram index (Drive's tokeniser misses substrings of Japanese
//     compounds), and so does every keyword when the index also holds local
//     folders (drivesearch.Searcher.MergeLocal). Local folders only: the
//     store's full-text index.
//  3. Hits = keyword-search IDs ∩ indexed IDs (FilterIndexed), which also
//     limits them to the target folders.
//  4. Branch on the hit count:
//     - ≥ 101 → ai.Clarify asks a question (its type, period and folder
//     choices counted over all hits by a FacetCounter); the answer
//     (ai.Refine) adds a keyword or a filter; loop.
//     - 11–100 → embed query + keywords; each hit's similarity is the best
//     of its file and chunk embeddings (restricted to the hits); the hits
//     are ordered by reciprocal rank fusion of that similarity, the
//     keyword-search order and the store's full-text ranking of every word
//     of the question; keep 10; this counts as a loop; branch again.
//     - 2–10 → ai.Rerank orders by intent, seeing each candidate's best
//     passage and, for the offline provider, the index's document
//     frequency of each query word (DocFreqCounter); its order is fused
//     with the retrieval order, then with the whole question's full-text
//     ranking (whose first file keeps a place); show; stop.
//     Loop.OnRanked hands each final ranking's inputs to `gds eval
//     --capture` for offline replay.
//     - 1 → show it; stop.
//     - 0 → ai.Relax drops a keyword or loosens a filter; since keywords are
//     alternatives, without required keywords the filters are loosened
//     (period first); nothing left and one compound keyword → its parts
//     (SplitCompound: フランス最大都市 → フランス 最大 都市); nothing left →
//     the full-text fallback (the question's own words, labelled), else
//     "No files found." / 「見つかりませんでした」.
//  5. At most SEARCH_MAX_LOOP_COUNT rounds; still ≥ 11 hits at the cap → the
//     loop-limit message.
//
// Every condition the search loosens without being asked (a relaxation, the
// full-text fallback, the keystroke dropping the filters it read) is a typed
// Loosening (State.Loosened, KeystrokeResult.Loosened) that every renderer
// shows ("No PDFs from 2025; showing other years").
//
// When nobody can answer (a pipe, `gds eval`), the no-answer policy keeps 100
// candidates — the keyword search's best 100 fused with the whole question's
// full-text top 100 — and narrows them.
//
// The keystroke (Keystroke, PlanKeystroke) runs no loop: its keywords OR'ed,
// TopOnly, with the filters read from the query, then the keywords alone,
// then, as a last resort, every word of the typed text (labelled).
//
// The time budget is applied outside this package (internal/resilient in
// app.SearchSession): Drive → local index, AI → offline provider, database →
// a one-line failure, with notices in Outcome.Degraded.
package search
