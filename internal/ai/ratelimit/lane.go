package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Lane schedules the calls of one model. It is safe for concurrent use.
type Lane struct {
	name string
	cfg  Config
	now  func() time.Time

	mu    sync.Mutex
	st    State
	queue []*waiter     // calls waiting, first in first out; queue[0] may be admitted
	wake  chan struct{} // closed (and replaced) when a call finishes
}

type waiter struct{ turn chan struct{} }

// NewLane returns a lane for the model called name. now is the clock (nil:
// time.Now).
func NewLane(name string, c Config, now func() time.Time) *Lane {
	if now == nil {
		now = time.Now
	}
	c = c.withDefaults()
	return &Lane{name: name, cfg: c, now: now, st: NewState(c), wake: make(chan struct{})}
}

// Name is the model the lane schedules.
func (l *Lane) Name() string { return l.name }

// Slot is an admitted call; Done must be called once when it has finished.
type Slot struct {
	l     *Lane
	start time.Time
	once  sync.Once
}

// Done records the call's outcome and frees its place in the window.
func (s *Slot) Done(o Observation) {
	if s == nil {
		return
	}
	s.once.Do(func() {
		l := s.l
		l.mu.Lock()
		now := l.now()
		l.st.Finish(l.cfg, o, now.Sub(s.start), now)
		close(l.wake)
		l.wake = make(chan struct{})
		l.mu.Unlock()
	})
}

// Acquire waits until a call costing about cost tokens may start: its turn
// in the queue, room in the window, and the pacer's leave. It fails with
// ErrQuota while the quota is known to be exhausted, or with ctx's error.
func (l *Lane) Acquire(ctx context.Context, cost int) (*Slot, error) {
	w := &waiter{turn: make(chan struct{})}
	l.mu.Lock()
	l.queue = append(l.queue, w)
	if len(l.queue) == 1 {
		close(w.turn)
	}
	l.mu.Unlock()
	select {
	case <-w.turn:
	case <-ctx.Done():
		l.leave(w)
		return nil, ctx.Err()
	}
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		l.mu.Lock()
		d := l.st.Admit(l.cfg, cost, l.now())
		if d.OK || d.Err != nil {
			l.popHead()
			l.mu.Unlock()
			if d.Err != nil {
				return nil, d.Err
			}
			return &Slot{l: l, start: l.now()}, nil
		}
		wake := l.wake
		l.mu.Unlock()
		var tc <-chan time.Time
		if d.Wait > 0 {
			if timer == nil {
				timer = time.NewTimer(d.Wait)
			} else {
				timer.Reset(d.Wait)
			}
			tc = timer.C
		}
		select {
		case <-wake:
		case <-tc:
		case <-ctx.Done():
			l.leave(w)
			return nil, ctx.Err()
		}
		if timer != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// popHead removes queue[0] and gives the next waiter its turn. l.mu held.
func (l *Lane) popHead() {
	l.queue[0] = nil
	l.queue = l.queue[1:]
	if len(l.queue) > 0 {
		close(l.queue[0].turn)
	}
}

// leave removes w from the queue (passing the turn on if it had it).
func (l *Lane) leave(w *waiter) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, q := range l.queue {
		if q != w {
			continue
		}
		if i == 0 {
			l.popHead()
		} else {
			l.queue = append(l.queue[:i], l.queue[i+1:]...)
		}
		return
	}
}

// Concurrency is how many calls of this model are worth having in flight
// or waiting now (see State.Concurrency); callers size their fan-out by it.
func (l *Lane) Concurrency() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.st.Concurrency()
}

// Stats is a lane's state for progress displays and benchmarks.
type Stats struct {
	Model string
	// RPM is the request rate the lane keeps under (the learned limit
	// capped by MaxRPM; 0: unknown, no pacing); TPM the learned token limit.
	RPM, TPM int
	// Window and InFlight: the concurrency window and the calls in flight.
	Window, InFlight int
	// Sent counts calls admitted; Limited 429 rate limits; Quota
	// insufficient_quota refusals.
	Sent, Limited, Quota int64
}

// Stats returns the lane's current state.
func (l *Lane) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Stats{Model: l.name, RPM: l.st.EffectiveRPM(l.cfg), TPM: l.st.TPM, Window: int(l.st.Window),
		InFlight: l.st.InFlight, Sent: l.st.Sent, Limited: l.st.Limited, Quota: l.st.Quota}
}

// Scheduler holds the lanes of a provider: its chat model and its
// embedding model, limited separately as OpenAI limits them.
type Scheduler struct {
	chat, emb *Lane
}

// NewScheduler returns the lanes of a provider's two models.
func NewScheduler(chatModel, embeddingModel string, c Config, now func() time.Time) *Scheduler {
	return &Scheduler{chat: NewLane(chatModel, c, now), emb: NewLane(embeddingModel, c, now)}
}

// Chat is the chat model's lane.
func (s *Scheduler) Chat() *Lane { return s.chat }

// Embeddings is the embedding model's lane.
func (s *Scheduler) Embeddings() *Lane { return s.emb }

// Paced is implemented by a provider whose calls a Scheduler paces
// (internal/ai/openai). Callers size their fan-out by its lanes; a
// provider without it (the offline one) has no limits.
type Paced interface {
	Scheduler() *Scheduler
}
