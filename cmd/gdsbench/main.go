// Command gdsbench measures gds components outside the gds binary. Its one
// benchmark so far, "store", builds a synthetic index of N files in a store
// back end and times the query path of the hybrid search loop: a MatchAny
// keyword search (2–3 terms drawn from the corpus, limit 100) followed by a
// vector search restricted to its hits (k 10). As a same-run baseline it
// times a plain GetFiles of one ID, so figures from different machines can be
// compared as ratios. JSQUAD_PARA and SQUAD_PARA are folders of the
// retrieval benchmarks (docs/BENCHMARKS.md).
//
//	gdsbench store --backend sqlite --files 10000 --queries 300 --dim 256 \
//	    --corpus JSQUAD_PARA/docs --corpus SQUAD_PARA/docs
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/gds-cli/gds/internal/isolate"
)

func main() {
	// `gdsbench crawl --extract isolated` reads files in worker
	// processes of this binary, as gds does.
	if isolate.IsWorker() {
		os.Exit(isolate.Serve())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "gdsbench:", err)
		}
		os.Exit(2)
	}
}

const usage = `usage: gdsbench <benchmark> [flags]

benchmarks:
  store   build a synthetic index and time keyword + vector search
          (gdsbench store -h for its flags)
  crawl   crawl N corpus files (local folder or the Drive emulator) with the
          offline provider at several concurrencies; throughput and peak RSS
  loop    time whole gds processes on a synthetic index: gds alfred filter
          (the Alfred keystroke path) and gds search (the full loop, offline)
  startup time whole processes against a minimal Go binary in the same run:
          gds version and gds alfred filter on a small index of testdata/sample,
          plus the package initialisation before main (scripts/bench-startup.sh)
  ratelimit
          crawl N corpus files, then build the graph of one folder, through
          the real OpenAI client against the emulator enforcing OpenAI's rate
          limits at each --rpm with --latency; files/s and calls/s against
          the limit, 429 share, embeddings batching
  serve-load
          N concurrent chat streams and searches for a fixed time against a
          gds serve on loopback (started on an index of --data, or --url);
          requests/s, p50/p95/p99, errors and dropped streams (scripts/serve-load.sh)
  graph-answers
          gds graph build on a corpus (offline, fresh home), then every question
          of a file in every mode: answers and DRIFT follow-ups that leak the
          model's context (IDs, rows, escapes, scores, markup) or repeat a sentence
  realcorpus
          text fidelity on real documents (scripts/realcorpus.sh): a stratified
          sample of unpacked Debian documentation packages and of DOCX, XLSX and
          PPTX that LibreOffice made from real sources, crawled by gds; its stored
          text against pdftotext / w3m / iconv / LibreOffice's own export; recall,
          precision, words run together, pages cut off, RTL words reversed,
          files/s, peak RSS
  ocr-recall
          after gds crawled page images rendered from PDFs (scripts/ocrbench.sh):
          the OCR text gds kept against each PDF page's own text; word recall
          for English, character recall for Japanese
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return errors.New("no benchmark given")
		}
		return flag.ErrHelp
	}
	switch args[0] {
	case "store":
		return runStore(ctx, args[1:], stdout, stderr)
	case "crawl":
		return runCrawlBench(ctx, args[1:], stdout, stderr)
	case "loop":
		return runLoopBench(ctx, args[1:], stdout, stderr)
	case "startup":
		return runStartupBench(ctx, args[1:], stdout, stderr)
	case "serve-load":
		return runServeLoad(ctx, args[1:], stdout, stderr)
	case "ratelimit":
		return runRateBench(ctx, args[1:], stdout, stderr)
	case "graph-answers":
		return runGraphAnswers(ctx, args[1:], stdout, stderr)
	case "realcorpus":
		return runRealCorpus(ctx, args[1:], stdout, stderr)
	case "ocr-recall":
		return runOCRRecall(ctx, args[1:], stdout, stderr)
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown benchmark %q", args[0])
	}
}
