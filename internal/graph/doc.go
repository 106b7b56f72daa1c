// Package graph is gds's GraphRAG: an entity graph built from the indexed
// chunks by the AI provider, grouped into a hierarchy of communities, each
// summarised in a report, and three ways to answer from it — global
// (map-reduce over the community reports), local (entities nearest the
// question, their relationships, chunks and reports) and DRIFT (a primer
// over the top reports, follow-up local searches, a final reduce). It
// follows microsoft/graphrag's published method and defaults
// (docs/ARCHITECTURE.md), with gonum's Louvain and recursive splitting in
// place of hierarchical Leiden.
//
// The package does no I/O: the index, the graph storage and the AI provider
// come in through interfaces (store.GraphStore and the narrow ones declared
// here, ai.Provider), token counts through Counter. The decision parts —
// name normalisation and merging (merge.go), communities (community.go),
// context building, batching, map-point parsing and reduce packing
// (context.go) — are plain functions with table tests; build.go and
// query.go drive them.
package graph

// Counter counts tokens (ai/tokens.O200k in gds; tests may pass another).
type Counter interface {
	Count(text string) int
}
