package openai_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gds-cli/gds/internal/ai/openai"
)

// Calls made at the same moment to a server that drops every connection:
// one of them pays the retries, the others wait for its outcome and fail
// at once ("not tried again"), so a crawl of many files pays the retries
// once, as a crawl of one file at a time did.
func TestOneCallProbesAnUnreachableServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close() // no answer: a cut connection
		}
	}()
	const retries, calls = 2, 4
	p, err := openai.New(openai.Config{APIKey: "k", BaseURL: "http://" + ln.Addr().String() + "/v1", MaxRetries: retries})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = p.Embed(context.Background(), []string{"hi"})
		}()
	}
	wg.Wait()
	notAgain := 0
	for _, err := range errs {
		if !errors.Is(err, openai.ErrConnection) {
			t.Errorf("got %v, want a connection error", err)
		}
		if err != nil && strings.Contains(err.Error(), "not tried again") {
			notAgain++
		}
	}
	// The prober: 1 + retries attempts; every other call its first one.
	if got, want := int(conns.Load()), 1+retries+calls-1; got > want {
		t.Errorf("%d connections, want at most %d (one call probing, the others waiting)", got, want)
	}
	if notAgain < 1 {
		t.Errorf("no call failed with \"not tried again\": %v", errs)
	}
}
