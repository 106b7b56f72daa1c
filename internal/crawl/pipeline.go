package crawl

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

// result is the outcome of one entry of a crawl (its index in entries).
type result struct {
	i      int
	status Status
	detail string
	// err is why a failed file failed (recorded as its store.Failure);
	// nil for any other status and for a file the crawl's interruption
	// stopped.
	err error
}

// failed is the result of a file that failed with err.
func failed(err error) result { return result{status: StatusFailed, detail: err.Error(), err: err} }

// interrupted is the result of a file the crawl's interruption stopped.
var interrupted = result{status: StatusFailed, detail: "interrupted"}

// Embedding batches of a paced provider: inputs per batch (one request at
// OpenAI's default batch size), estimated tokens per batch (OpenAI allows
// 300,000 per request), and how long a batch waits for more files.
const (
	embedBatchInputs = 128
	embedBatchTokens = 200_000
	embedLinger      = 500 * time.Millisecond
)

// EmbedBatchInputs and EmbedBatchTokens are the limits of an embedding
// batch, for an estimate that counts the batches a crawl makes.
const (
	EmbedBatchInputs = embedBatchInputs
	EmbedBatchTokens = embedBatchTokens
)

// pipeline runs a crawl's files through three stages, so the slowest
// resource bounds the crawl and nothing waits on a file it does not need:
//
//  1. read: Options.Concurrency workers download and extract each file
//     and compare its text with the index (readFile); most outcomes end
//     here (unchanged, skipped, name-only, failed).
//  2. summarize: one model call per file, as many at once as the chat
//     model's lane advises (ratelimit.Lane.Concurrency: its window plus
//     what waits at its pacer), or Options.Concurrency for a provider that
//     is not paced.
//  3. embed and commit: the inputs of several files (summary, then
//     chunks) go in one embeddings request, up to embedBatchInputs inputs
//     and embedBatchTokens estimated tokens, after waiting at most
//     embedLinger for more files; as many batches at once as the
//     embedding lane advises. Each file is then committed on its own. A
//     batch that fails is retried file by file, so one bad file fails
//     alone and a failed batch never loses a file: every file entering
//     the pipeline yields exactly one result, and only a committed file
//     moves the checkpoint (Run's watermark).
//
// An unpaced provider (the offline one) embeds each file alone, as before.
// When the account's quota runs out (ai.ErrQuotaExhausted) the feed stops,
// the files in flight fail (they are retried by the next crawl) and Run
// returns the error.
type pipeline struct {
	ctx      context.Context // the crawl's
	feed     context.Context // ends the feed of new files
	stopFeed func()
	opts     Options
	results  chan<- result
	lanes    *ratelimit.Scheduler // nil: not paced

	mu    sync.Mutex
	first error // the quota error that stopped the crawl
}

func newPipeline(ctx, feed context.Context, stopFeed func(), opts Options, results chan<- result) *pipeline {
	p := &pipeline{ctx: ctx, feed: feed, stopFeed: stopFeed, opts: opts, results: results}
	if pc, ok := opts.Provider.(ratelimit.Paced); ok {
		p.lanes = pc.Scheduler()
	}
	return p
}

// err is the error that stopped the crawl (the quota), or nil.
func (p *pipeline) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first
}

// run feeds entries through the stages and closes results when every
// entry that was fed has its result.
func (p *pipeline) run(entries []Entry, how map[string]work) {
	defer close(p.results)
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := range entries {
			select {
			case jobs <- i:
			case <-p.feed.Done():
				return
			}
		}
	}()
	texts := make(chan *fileText)
	var readers sync.WaitGroup
	for range p.opts.Concurrency {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for i := range jobs {
				f, r := readFile(p.ctx, p.opts, how[entries[i].ID])
				if f == nil {
					r.i = i
					p.results <- r
					continue
				}
				f.i = i
				texts <- f
			}
		}()
	}
	go func() { readers.Wait(); close(texts) }()
	summarized := make(chan *fileText)
	go p.summarizeStage(texts, summarized)
	p.embedStage(summarized)
}

// limiter admits up to limit() at once; limit is asked again whenever one
// finishes (a lane's window changes as calls finish).
type limiter struct {
	limit func() int
	mu    sync.Mutex
	cond  *sync.Cond
	n     int
}

func newLimiter(limit func() int) *limiter {
	l := &limiter{limit: limit}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *limiter) acquire() {
	l.mu.Lock()
	for l.n >= max(1, l.limit()) {
		l.cond.Wait()
	}
	l.n++
	l.mu.Unlock()
}

func (l *limiter) release() {
	l.mu.Lock()
	l.n--
	l.cond.Broadcast()
	l.mu.Unlock()
}

func (p *pipeline) laneLimit(lane func(*ratelimit.Scheduler) *ratelimit.Lane) func() int {
	if p.lanes == nil {
		return func() int { return p.opts.Concurrency }
	}
	l := lane(p.lanes)
	return l.Concurrency
}

func (p *pipeline) summarizeStage(in <-chan *fileText, out chan<- *fileText) {
	defer close(out)
	lim := newLimiter(p.laneLimit((*ratelimit.Scheduler).Chat))
	var wg sync.WaitGroup
	for f := range in {
		lim.acquire()
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := f.summarize(p.ctx)
			lim.release()
			if err != nil {
				p.fail(f, err)
				return
			}
			out <- f
		}()
	}
	wg.Wait()
}

// fail reports f failed with err; a quota error stops the feed.
func (p *pipeline) fail(f *fileText, err error) {
	r := failed(err)
	switch {
	case p.ctx.Err() != nil:
		r = interrupted
	case errors.Is(err, ai.ErrQuotaExhausted):
		p.mu.Lock()
		if p.first == nil {
			p.first = err
		}
		p.mu.Unlock()
		p.stopFeed()
	}
	r.i = f.i
	p.results <- r
}

// commit stores f with its vectors and reports it.
func (p *pipeline) commit(f *fileText, vecs [][]float32) {
	res, err := f.commit(p.ctx, vecs)
	if err != nil {
		p.fail(f, err)
		return
	}
	detail := ""
	if res.Truncated {
		detail = TruncatedDetail
	}
	p.results <- result{i: f.i, status: res.Status, detail: detail}
}

func (p *pipeline) embedStage(in <-chan *fileText) {
	lim := newLimiter(p.laneLimit((*ratelimit.Scheduler).Embeddings))
	var wg sync.WaitGroup
	var (
		batch          []*fileText
		inputs, tokens int
		timer          *time.Timer
		due            <-chan time.Time
	)
	flush := func() {
		if len(batch) == 0 {
			return
		}
		b := batch
		batch, inputs, tokens, due = nil, 0, 0, nil
		if timer != nil {
			timer.Stop()
		}
		lim.acquire()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer lim.release()
			p.embedBatch(b)
		}()
	}
	for {
		select {
		case f, ok := <-in:
			if !ok {
				flush()
				wg.Wait()
				return
			}
			cost := 0
			for _, s := range f.inputs {
				cost += ratelimit.EstimateTokens(s)
			}
			if len(batch) > 0 && (inputs+len(f.inputs) > embedBatchInputs || tokens+cost > embedBatchTokens) {
				flush()
			}
			batch = append(batch, f)
			inputs, tokens = inputs+len(f.inputs), tokens+cost
			switch {
			case p.lanes == nil || inputs >= embedBatchInputs || tokens >= embedBatchTokens:
				flush()
			case len(batch) == 1:
				if timer == nil {
					timer = time.NewTimer(embedLinger)
				} else {
					timer.Reset(embedLinger)
				}
				due = timer.C
			}
		case <-due:
			due = nil
			flush()
		}
	}
}

// embedBatch embeds the inputs of files in one call and commits each; if
// the call fails, each file is embedded alone, so only a file that fails
// on its own fails.
func (p *pipeline) embedBatch(files []*fileText) {
	var all []string
	for _, f := range files {
		all = append(all, f.inputs...)
	}
	vecs, err := p.opts.Provider.Embed(p.ctx, all)
	if err == nil && len(vecs) == len(all) {
		k := 0
		for _, f := range files {
			p.commit(f, vecs[k:k+len(f.inputs)])
			k += len(f.inputs)
		}
		return
	}
	if len(files) == 1 || p.ctx.Err() != nil || errors.Is(err, ai.ErrQuotaExhausted) {
		if err == nil {
			err = errors.New("embedding: the provider returned a wrong number of vectors")
		}
		for _, f := range files {
			p.fail(f, err)
		}
		return
	}
	for _, f := range files {
		vecs, err := p.opts.Provider.Embed(p.ctx, f.inputs)
		if err != nil {
			p.fail(f, err)
			continue
		}
		p.commit(f, vecs)
	}
}
