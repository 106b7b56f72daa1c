package ratelimit

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLaneKeepsTheWindow(t *testing.T) {
	l := NewLane("m", Config{Initial: 3}, nil)
	var inFlight, peak atomic.Int32
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := l.Acquire(context.Background(), 1)
			if err != nil {
				t.Error(err)
				return
			}
			n := inFlight.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			inFlight.Add(-1)
			s.Done(Unknown(200))
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 3 {
		t.Errorf("%d calls in flight with a window of 3 (no headers)", p)
	}
	if st := l.Stats(); st.Sent != 40 || st.InFlight != 0 || st.Window != 3 {
		t.Errorf("stats = %+v", st)
	}
}

func TestLaneQuotaFailsAtOnce(t *testing.T) {
	l := NewLane("m", Config{}, nil)
	s, err := l.Acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	q := Unknown(StatusTooManyRequests)
	q.Code = CodeQuota
	s.Done(q)
	s.Done(Unknown(200)) // a second Done is ignored
	if _, err := l.Acquire(context.Background(), 1); !errors.Is(err, ErrQuota) {
		t.Errorf("after insufficient_quota: %v, want ErrQuota", err)
	}
	if st := l.Stats(); st.Quota != 1 || st.InFlight != 0 {
		t.Errorf("stats = %+v", st)
	}
}

func TestLaneCancelledWaiterPassesTheTurn(t *testing.T) {
	l := NewLane("m", Config{Initial: 1}, nil)
	first, err := l.Acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error, 1)
	go func() { _, err := l.Acquire(ctx, 1); gaveUp <- err }()
	got := make(chan *Slot, 1)
	go func() {
		// Queued behind the one that gives up.
		for {
			l.mu.Lock()
			n := len(l.queue)
			l.mu.Unlock()
			if n == 1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		s, _ := l.Acquire(context.Background(), 1)
		got <- s
	}()
	for {
		l.mu.Lock()
		n := len(l.queue)
		l.mu.Unlock()
		if n == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	first.Done(Unknown(200))
	select {
	case s := <-got:
		s.Done(Unknown(200))
	case <-time.After(10 * time.Second):
		t.Fatal("the waiter behind a cancelled one never got its turn")
	}
}
