// Package isolate runs file extraction in supervised child processes, so
// that no file — from Drive, a local folder or an upload — can hang or
// crash gds, whatever parser bug it finds.
//
// The design is Apache Tika's ForkParser: the parent keeps a small pool of
// workers, each the gds binary itself started in worker mode (WorkerEnv set
// in its environment; main calls Serve before anything else). A worker
// reads one request at a time from its stdin — the MIME type and the file's
// bytes — runs extract.Extract on it and writes the text back on stdout.
// Why a process and not a goroutine: a goroutine cannot be stopped from
// outside, and one that allocates without bound takes the whole process
// down (`fatal error: out of memory` is not recoverable). A process can be
// killed, and its memory is returned to the system when it ends.
//
// Limits, and who enforces each:
//
//   - Wall time (Limits.Wall): the parent. When a request runs longer, or
//     the caller's context ends first, the worker is killed (SIGKILL) and
//     reaped before Extract returns: no goroutine or process keeps
//     spinning on a file nobody waits for.
//   - Processor time (Limits.CPU): the worker's watchdog, a goroutine that
//     reads getrusage every 10 ms while a request runs and exits the
//     process with a known status on a breach. Go preempts a busy parser
//     goroutine, so the watchdog runs even while a parser loops.
//   - Memory (Limits.Memory): three layers. The worker sets Go's soft memory
//     limit below it (the collector works harder before the limit is
//     reached), the watchdog reads the resident size (/proc on Linux, the Go
//     runtime's own accounting elsewhere) and exits on a breach, and on
//     Linux RLIMIT_DATA makes an allocation past the limit fail at once.
//     macOS does not enforce RLIMIT_DATA or RLIMIT_AS on mmap'd memory,
//     which is why the watchdog, not the rlimit, is the primary guard.
//   - Output: the worker's extractor caps text at extract.MaxTextBytes; the
//     parent refuses a response frame larger than that allows.
//
// A breach makes Extract return an error matching extract.ErrTooComplex
// (and so extract.ErrMalformed) whose text names the limit; a crawl indexes
// the file by name only with that reason, an upload gets a 422. The worker
// is replaced on the next request. A worker that ends for a reason of its
// own (a runtime crash) is reported the same way.
//
// Workers get an environment with nothing of the user's (no API keys, no
// tokens) and are retired after MaxRequests requests or when a request left
// them with a large heap, so one big file does not keep its memory.
package isolate
