// Package reliability is the harness behind gds's crash-safety, graceful-stop
// and resource-bound evidence (docs/RELIABILITY.md). It is shared by
// the reduced tests in cmd/gds (crash_test.go) and by cmd/gdsreliability,
// which runs the full forms.
//
// The pieces:
//   - WriteCorpus writes a seedable folder of text files (plus a few files gds
//     must skip) with distinct modification times, and Corpus.Expect says what
//     the index must hold for each file afterwards (ID, content hash, chunks).
//   - CheckCheckpoint, CheckGraceful and CheckComplete are the invariants: the
//     sync checkpoint never claims an uncommitted file; after a graceful stop
//     it covers what was committed; at the end every indexable file is present
//     with the right hash and chunks and nothing else is.
//   - RunCrash drives a real `gds crawl` child process, signals it (SIGKILL or
//     SIGTERM) at planned points of the crawl, checks the invariants after
//     every stop and reruns until the crawl exits 0.
//   - ServeEmulator runs the Drive API emulator on loopback in the harness
//     process, so gds reads it over HTTP as a separate process would;
//     Synthetic builds an in-memory Drive of n small text files for the
//     memory bound, which RunMemory measures as the child's peak RSS.
package reliability
