// Package storetest is the contract test suite every index back end
// (store.Store) must pass unchanged. A back end's test calls
//
//	storetest.Run(t, func(t *testing.T) store.Store { ... })
//
// where the factory returns a fresh, empty, migrated store and registers its
// own cleanup (Close, dropping the schema, removing the file) with t.Cleanup.
//
// Conventions the suite fixes beyond the doc comments of store.Store:
//   - Times come back as the same instant in UTC, at least to the microsecond.
//   - A query term that has no search tokens (only punctuation, say) is
//     ignored; a query without any usable term matches nothing, without error.
//   - A one-character CJK term matches text where that character stands
//     alone or starts a run of CJK characters (a prefix match on bigrams).
//   - SetSyncState with a zero UpdatedAt stores the current time; the
//     checkpoint read back is never earlier than the one written (a back
//     end that keeps microseconds rounds up).
//   - VectorSearch with a query vector of the wrong dimension is an error.
package storetest
