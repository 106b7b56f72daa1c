package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3/option"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

// DefaultRateRetries is how many times one call is sent again after a 429
// rate_limit_exceeded (each after the lane's pause), on top of MaxRetries
// for failures: a rate limit is the account's pace, not a fault.
const DefaultRateRetries = 10

// Scheduler returns the lanes that pace this provider's calls
// (ratelimit.Paced): callers size their fan-out by them.
func (p *Provider) Scheduler() *ratelimit.Scheduler { return p.sched }

var _ ratelimit.Paced = (*Provider)(nil)

// cost estimates the tokens a chat request counts against a TPM limit.
func chatCost(req ai.Request) int {
	n := ratelimit.EstimateTokens(req.System)
	for _, m := range req.Messages {
		n += ratelimit.EstimateTokens(m.Content) + 4
	}
	if req.MaxTokens > 0 {
		n += req.MaxTokens
	}
	return n
}

func embedCost(texts []string) int {
	n := 0
	for _, t := range texts {
		n += ratelimit.EstimateTokens(t)
	}
	return n
}

// outcome is what one attempt came to, for retryPlan.
type outcome struct {
	callerDone bool // the caller's context ended
	timedOut   bool // the attempt's own time limit passed without an answer
	status     int  // 0: no response
	obs        ratelimit.Observation
	should     string // x-should-retry
}

// plan is retryPlan's answer.
type plan struct {
	retry       bool
	rateLimited bool          // a 429 rate limit: the lane's pause is the wait
	wait        time.Duration // a failure's backoff
}

// retryPlan decides whether an attempt is sent again. failures and limits
// count the earlier re-sends of each kind; retries is MaxRetries (0: none).
func retryPlan(o outcome, failures, limits, retries int) plan {
	switch {
	case o.callerDone, o.timedOut, retries <= 0:
		return plan{}
	case o.should == "false":
		return plan{}
	case o.obs.QuotaExhausted():
		return plan{}
	case o.obs.RateLimited():
		if limits >= DefaultRateRetries {
			return plan{}
		}
		return plan{retry: true, rateLimited: true}
	}
	retryable := o.should == "true" || o.status == 0 || o.status == http.StatusRequestTimeout ||
		o.status == http.StatusConflict || o.status >= 500
	if !retryable || failures >= retries {
		return plan{}
	}
	if o.obs.RetryAfter > 0 {
		return plan{retry: true, wait: o.obs.RetryAfter}
	}
	// The SDK's backoff: 0.5 s doubling, at most 8 s, up to a quarter less.
	d := min(500*time.Millisecond<<failures, 8*time.Second)
	return plan{retry: true, wait: d - time.Duration(rand.Float64()*0.25*float64(d))}
}

// schedule is the middleware every request goes through: it takes a
// place in the model's lane (pace, window, quota), sends the request with
// the attempt's time limit, tells the lane what the response said, and
// sends again after a 429 rate limit (when the lane allows) or a failure
// (MaxRetries, with backoff). The SDK's own retries are off.
func (p *Provider) schedule(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	ctx := req.Context()
	a, _ := ctx.Value(attemptsKey{}).(*attempts)
	if a == nil {
		a = &attempts{}
	}
	lane := p.sched.Chat()
	if strings.HasSuffix(req.URL.Path, "/embeddings") {
		lane = p.sched.Embeddings()
	}
	failures, limits := 0, 0
	probing := false
	defer func() {
		if probing {
			<-p.probe
		}
	}()
	for {
		slot, err := lane.Acquire(ctx, a.cost)
		if err != nil {
			return nil, err
		}
		if n := a.n.Add(1); n > 1 {
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					slot.Done(ratelimit.Unknown(0))
					return nil, err
				}
				req.Body = body
			}
			req.Header.Set("X-Stainless-Retry-Count", strconv.Itoa(int(n-1)))
		}
		actx, cancel := context.WithTimeout(ctx, p.timeout)
		res, err := next(req.WithContext(actx))
		o := outcome{callerDone: ctx.Err() != nil, timedOut: res == nil && actx.Err() != nil}
		o.obs = ratelimit.Unknown(0)
		if res != nil {
			o.status, o.should = res.StatusCode, res.Header.Get("x-should-retry")
			code := ""
			if res.StatusCode == http.StatusTooManyRequests {
				code = peekCode(res)
			}
			o.obs = ratelimit.ParseHeaders(res.StatusCode, res.Header.Get, code)
		}
		if err == nil && res.StatusCode < 300 {
			// The place in the window is kept until the body is read (a
			// whole stream).
			res.Body = &doneBody{ReadCloser: res.Body, done: func() { slot.Done(o.obs); cancel() }}
			return res, nil
		}
		slot.Done(o.obs)
		pl := retryPlan(o, failures, limits, p.retries)
		refused := res == nil && err != nil && !o.callerDone && !o.timedOut && isTransport(err)
		if !pl.retry && refused {
			// Marked here, before the probe is handed on, so the calls
			// waiting for it see the outcome.
			p.markDown()
		}
		if !pl.retry {
			if res != nil {
				res.Body = &doneBody{ReadCloser: res.Body, done: cancel}
			} else {
				cancel()
			}
			return res, err
		}
		if res != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
			res.Body.Close()
		}
		cancel()
		if pl.rateLimited {
			limits++
			continue
		}
		failures++
		if refused && !probing {
			select {
			case p.probe <- struct{}{}:
				probing = true
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if refused && p.unreachable("") != nil {
			return nil, errMarkedDown
		}
		t := time.NewTimer(pl.wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
}

// errMarkedDown ends a call that waited to send again while another call
// found the server unreachable; fail reports it as "not tried again".
var errMarkedDown = errors.New("the server was found unreachable by another call")

// peekCode reads the error code of a 429 body and puts the body back.
func peekCode(res *http.Response) string {
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	var body struct {
		Error struct {
			Code *string `json:"code"`
			Type string  `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return ""
	}
	if body.Error.Code != nil && *body.Error.Code != "" {
		return *body.Error.Code
	}
	if body.Error.Type == ratelimit.CodeQuota {
		return ratelimit.CodeQuota
	}
	return ratelimit.CodeRateLimit
}

// doneBody calls done once when the body is closed or read to its end.
type doneBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *doneBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.done)
	}
	return n, err
}

func (b *doneBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}
