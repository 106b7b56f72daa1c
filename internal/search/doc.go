// Package search runs queries against the index. The full hybrid loop of
// seed §6 (clarifying questions, vector narrowing, rerank, relaxation, loop
// cap) is built as a pure state machine in this package; OneShot is the
// single-pass path used until then: analyse, keyword search, vector
// narrowing among the hits, rerank.
package search
