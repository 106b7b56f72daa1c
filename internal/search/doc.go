// Package search runs the hybrid search loop of seed §6: keyword search,
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
package search
