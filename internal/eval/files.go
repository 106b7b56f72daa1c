package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// ReadQueryFile reads a query set (JSON Lines, see ReadQueries) from a
// file; an empty set is an error.
func ReadQueryFile(name string) ([]Query, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open the query set: %w", err)
	}
	defer f.Close()
	qs, err := ReadQueries(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no queries", name)
	}
	return qs, nil
}

// Detail is one line of a details file: one query's result.
type Detail struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
	Rank     int      `json:"rank"` // 0: not returned
	Files    []string `json:"files"`
	Loops    int      `json:"loops"`
	End      string   `json:"end"`
	Trace    []string `json:"trace,omitempty"`
	MS       float64  `json:"ms"`
}

// WriteDetails writes every query's result to the file name as JSON Lines.
func WriteDetails(name string, results []QueryResult) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("write the details: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		if err := enc.Encode(Detail{ID: r.Query.ID, Query: r.Query.Query, Relevant: r.Query.Relevant, Rank: r.Rank,
			Files: r.Ranked.Files, Loops: r.Ranked.Loops, End: r.Ranked.End, Trace: r.Ranked.Trace,
			MS: float64(r.Ranked.Elapsed.Microseconds()) / 1000}); err != nil {
			f.Close()
			return fmt.Errorf("write the details: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write the details: %w", err)
	}
	return nil
}

// TraceWriter writes values as JSON Lines to a file, safely from several
// goroutines (gds eval --capture). The first error is kept and returned by
// Close.
type TraceWriter struct {
	mu  sync.Mutex
	f   *os.File
	enc *json.Encoder
	err error
}

// NewTraceWriter creates (or truncates) the file name.
func NewTraceWriter(name string) (*TraceWriter, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("write the capture: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	return &TraceWriter{f: f, enc: enc}, nil
}

// Write appends v as one line.
func (w *TraceWriter) Write(v any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		if err := w.enc.Encode(v); err != nil {
			w.err = fmt.Errorf("write the capture: %w", err)
		}
	}
}

// Close closes the file and returns the first error.
func (w *TraceWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.f.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("write the capture: %w", err)
	}
	return w.err
}

// WriteJSONLines writes each value as one line of JSON to the file name.
func WriteJSONLines[T any](name string, values []T) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("write the details: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, v := range values {
		if err := enc.Encode(v); err != nil {
			f.Close()
			return fmt.Errorf("write the details: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write the details: %w", err)
	}
	return nil
}
