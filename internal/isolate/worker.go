package isolate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/extract"
)

// WorkerEnv is the environment variable that starts a process in worker
// mode; memoryEnv carries the worker's memory limit in bytes.
const (
	WorkerEnv = "GDS_PARSE_WORKER"
	memoryEnv = "GDS_PARSE_WORKER_MEMORY"
)

// IsWorker reports whether this process was started as a worker. main
// (and the TestMain of a package whose tests start workers) checks it
// first and, when true, runs Serve instead of anything else.
func IsWorker() bool { return os.Getenv(WorkerEnv) == "1" }

// ExtractFunc is the extraction a worker runs: extract.Extract.
type ExtractFunc func(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error)

// Serve runs the worker loop on the process's standard input and output
// with extract.Extract and returns the process's exit status.
func Serve() int { return ServeWith(os.Stdin, os.Stdout, extract.Extract) }

// maxRequestData bounds a request's file frame whatever the header says.
const maxRequestData = 1 << 30

// workerGCPercent is a worker's collector target (GOGC).
const workerGCPercent = 50

// watchTick is how often the watchdog looks at a running request.
const watchTick = 10 * time.Millisecond

// ServeWith answers requests from in on out with fn until in ends (status
// 0), the protocol breaks (exitProtocol), or the watchdog ends the process
// on a breach (exitMemory, exitCPU) or because the parent is gone
// (exitOrphan).
func ServeWith(in io.Reader, out io.Writer, fn ExtractFunc) int {
	memory, err := strconv.ParseInt(os.Getenv(memoryEnv), 10, 64)
	if err != nil || memory <= 0 {
		memory = DefaultMemory
	}
	// The collector aims below the limit, so a file that needs much but
	// not too much memory is read rather than ended.
	debug.SetMemoryLimit(memory * 3 / 4)
	// A worker's live heap between files is a few MB and one file's
	// parse is mostly garbage: collecting at half the live heap (Go's
	// default: all of it) keeps the worker's resident size, which every
	// worker of a crawl adds to gds's, lower at little processor cost.
	debug.SetGCPercent(workerGCPercent)
	if err := limitData(memory); err != nil {
		fmt.Fprintf(os.Stderr, "gds parse worker: %v\n", err)
		return exitSetup
	}
	wd := &watchdog{memory: memory, ppid: os.Getppid()}
	go wd.run()

	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	for {
		req, data, err := readRequest(r, maxRequestData)
		if errors.Is(err, io.EOF) {
			return 0
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "gds parse worker: %v\n", err)
			return exitProtocol
		}
		wd.begin(req.CPU)
		// The worker process is this request's whole life: its parent bounds
		// it by killing the process, and the watchdog by exiting.
		var resp response
		if req.Op == opPNG {
			resp.Image, err = toPNG(data)
		} else {
			var doc extract.Doc
			doc, err = fn(context.Background(), req.MimeType, bytes.NewReader(data), req.MaxBytes)
			resp.Pages, resp.Truncated = doc.Pages, doc.Truncated
		}
		wd.end()
		data = nil
		resp.HeapBytes = heapInUse()
		if err != nil {
			resp = response{ErrKind: kindOf(err), Err: err.Error(), HeapBytes: resp.HeapBytes}
		}
		b, err := encode(resp)
		if err == nil {
			err = writeFrame(w, b)
		}
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			// The parent has gone or stopped listening.
			return exitProtocol
		}
	}
}

// toPNG is an opPNG request: extract.ToPNG, its answer bounded by
// MaxPNGBytes.
func toPNG(data []byte) ([]byte, error) {
	b, err := extract.ToPNG(data)
	if err == nil && len(b) > MaxPNGBytes {
		return nil, extract.TooComplex(fmt.Sprintf("the image is %d MiB as PNG, over %d MiB", len(b)>>20, MaxPNGBytes>>20), false)
	}
	return b, err
}

// watchdog ends the worker when the running request goes past its
// processor time or the worker past its memory, and when the parent has
// gone (on macOS nothing else would end an orphan busy in a parser).
type watchdog struct {
	memory   int64
	ppid     int
	active   atomic.Bool
	cpuStart atomic.Int64 // processor time at the request's start, ns
	cpuLimit atomic.Int64 // ns
}

func (wd *watchdog) begin(cpu time.Duration) {
	if cpu <= 0 {
		cpu = DefaultCPU
	}
	wd.cpuLimit.Store(int64(cpu))
	wd.cpuStart.Store(int64(cpuTime()))
	wd.active.Store(true)
}

func (wd *watchdog) end() { wd.active.Store(false) }

func (wd *watchdog) run() {
	t := time.NewTicker(watchTick) // ticks until the worker exits
	for i := 0; ; i++ {
		<-t.C
		if wd.active.Load() {
			used := time.Duration(int64(cpuTime()) - wd.cpuStart.Load())
			switch verdict(residentBytes(), wd.memory, used, time.Duration(wd.cpuLimit.Load())) {
			case exitMemory:
				fmt.Fprintf(os.Stderr, "gds parse worker: over the memory limit (%d bytes)\n", wd.memory)
				os.Exit(exitMemory)
			case exitCPU:
				fmt.Fprintf(os.Stderr, "gds parse worker: over the processor time limit (%s)\n", time.Duration(wd.cpuLimit.Load()))
				os.Exit(exitCPU)
			}
		}
		if i%20 == 0 && os.Getppid() != wd.ppid {
			os.Exit(exitOrphan)
		}
	}
}

// verdict is the watchdog's pure decision: the exit status a worker with
// rss bytes resident that used cpu of its cpuLimit must end with, or 0.
func verdict(rss, memory int64, cpu, cpuLimit time.Duration) int {
	switch {
	case rss > memory:
		return exitMemory
	case cpu > cpuLimit:
		return exitCPU
	}
	return 0
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// heapInUse is the bytes of live and not yet swept heap objects.
func heapInUse() uint64 {
	s := make([]metrics.Sample, len(heapSample))
	copy(s, heapSample)
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// goMappedBytes is the memory Go's runtime has mapped and not returned:
// the resident size of a pure-Go process, less what the kernel has not
// paged in.
func goMappedBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}
