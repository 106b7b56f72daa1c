package resilient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/search"
)

func TestClassify(t *testing.T) {
	timedOut, cancel := context.WithTimeoutCause(context.Background(), time.Nanosecond, errStepTimeout)
	defer cancel()
	<-timedOut.Done()
	live := context.Background()
	refused := &url.Error{Op: "Get", URL: "http://127.0.0.1:1/x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want budget.Cause
	}{
		{"step ran out", timedOut, fmt.Errorf("list: %w", context.DeadlineExceeded), budget.CauseTimeout},
		{"user cancelled", live, context.Canceled, budget.CauseCanceled},
		{"refused", live, fmt.Errorf("search Drive: %w", refused), budget.CauseUnreachable},
		{"unknown host", live, &net.DNSError{Err: "no such host", Name: "x.invalid"}, budget.CauseUnreachable},
		{"rate limited", live, apperr.New(apperr.RateLimited, "429"), budget.CauseRateLimited},
		{"auth", live, apperr.New(apperr.Auth, "sign in"), budget.CauseAuth},
		{"server error", live, apperr.New(apperr.Unavailable, "503"), budget.CauseUnavailable},
		{"other", live, errors.New("malformed"), budget.CauseOther},
	}
	for _, tt := range tests {
		if got := Classify(tt.ctx, tt.err); got != tt.want {
			t.Errorf("%s: Classify = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// failingSearcher fails every search with err, counting calls.
type failingSearcher struct {
	err   error
	calls *int
}

func (f failingSearcher) SearchKeywords(context.Context, search.Conditions, int) ([]string, int, error) {
	*f.calls++
	return nil, 0, f.err
}

type fixedSearcher []string

func (f fixedSearcher) SearchKeywords(context.Context, search.Conditions, int) ([]string, int, error) {
	return f, len(f), nil
}

// TestSearcherFallsBackOnce: a Drive search that fails is answered by the
// local index with one notice, and Drive is not asked again in the same
// search; a cancelled search is not continued; --local never asks Drive.
func TestSearcherFallsBackOnce(t *testing.T) {
	calls := 0
	r := NewRun(budget.Policy{}, nil)
	s := Searcher{Drive: failingSearcher{err: apperr.New(apperr.RateLimited, "429"), calls: &calls}, Local: fixedSearcher{"a"}, Run: r}
	for range 2 {
		ids, _, err := s.SearchKeywords(context.Background(), search.Conditions{Keywords: []string{"x"}}, 10)
		if err != nil || len(ids) != 1 || ids[0] != "a" {
			t.Fatalf("fallback = %v, %v", ids, err)
		}
	}
	if calls != 1 {
		t.Errorf("Drive asked %d times, want once (then given up for the search)", calls)
	}
	if n := r.Notices(); len(n) != 1 || n[0].Service != budget.Drive || n[0].Reason != budget.CauseRateLimited || n[0].Fallback != budget.FallbackIndex {
		t.Errorf("notices = %+v", n)
	}

	calls = 0
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s = Searcher{Drive: failingSearcher{err: context.Canceled, calls: &calls}, Local: fixedSearcher{"a"}, Run: NewRun(budget.Policy{}, nil)}
	if _, _, err := s.SearchKeywords(ctx, search.Conditions{}, 10); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v, want context.Canceled", err)
	}

	calls = 0
	s = Searcher{Drive: failingSearcher{err: errors.New("x"), calls: &calls}, Local: fixedSearcher{"a"}, Run: NewRun(budget.Policy{Local: true}, nil)}
	if _, _, err := s.SearchKeywords(context.Background(), search.Conditions{}, 10); err != nil || calls != 0 {
		t.Errorf("--local: err %v, Drive calls %d", err, calls)
	}
}

// TestSearcherSkipsDriveWithoutTimeLeft: with no time left in the budget
// (an injected clock past it) Drive is not asked at all.
func TestSearcherSkipsDriveWithoutTimeLeft(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := now
	r := NewRun(budget.Policy{}, func() time.Time { return clock })
	clock = now.Add(10 * time.Second)
	calls := 0
	s := Searcher{Drive: failingSearcher{err: errors.New("x"), calls: &calls}, Local: fixedSearcher{"a"}, Run: r}
	if _, _, err := s.SearchKeywords(context.Background(), search.Conditions{}, 10); err != nil || calls != 0 {
		t.Fatalf("err %v, Drive calls %d", err, calls)
	}
	if n := r.Notices(); len(n) != 1 || n[0].Reason != budget.CauseBudget {
		t.Errorf("notices = %+v", n)
	}
}

// downProvider fails every call like an unreachable server.
type downProvider struct{ ai.Provider }

func (downProvider) Name() string { return "openai" }
func (downProvider) Structured(context.Context, ai.Request) (json.RawMessage, error) {
	return nil, apperr.New(apperr.Unavailable, "connection failed")
}
func (downProvider) Embed(context.Context, []string) ([][]float32, error) {
	return nil, apperr.New(apperr.Unavailable, "connection failed")
}

// TestProviderFallsBackToOffline: a failing provider's analysis is the
// offline provider's (same result as asking it directly), with a notice;
// the query embedding fails with search.ErrNoQueryVector.
func TestProviderFallsBackToOffline(t *testing.T) {
	r := NewRun(budget.Policy{}, nil)
	p := Provider{Primary: downProvider{}, Offline: offline.New(), Run: r}
	in := ai.QueryInput{Query: "budget report 2024", Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Lang: "en"}
	got, err := ai.AnalyzeQuery(context.Background(), p, in)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ai.AnalyzeQuery(context.Background(), offline.New(), in)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("fallback analysis %+v, want the offline one %+v", got, want)
	}
	if _, err := p.Embed(context.Background(), []string{"q"}); !errors.Is(err, search.ErrNoQueryVector) {
		t.Errorf("Embed after the provider went down: %v, want ErrNoQueryVector", err)
	}
	n := r.Notices()
	if len(n) != 1 || n[0].Service != budget.AI || n[0].Fallback != budget.FallbackOffline || n[0].Step != string(ai.TaskAnalyzeQuery) {
		t.Errorf("notices = %+v", n)
	}
}
