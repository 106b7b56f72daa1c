package server

import "net/http"

// sseWriter writes server-sent events, flushing each at once. The stream's
// headers go out with the first event, so an error before it can still be
// an ordinary problem+json response (Started reports which).
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
}

func newSSEWriter(w http.ResponseWriter) *sseWriter {
	return &sseWriter{w: w, rc: http.NewResponseController(w)}
}

// Started reports whether an event was sent (the 200 and headers are out).
func (s *sseWriter) Started() bool { return s.started }

// Send writes one event: "event: NAME" when name is not empty, then
// "data: " and v as one line of JSON.
func (s *sseWriter) Send(name string, v any) error {
	if !s.started {
		s.started = true
		h := s.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		s.w.WriteHeader(http.StatusOK)
	}
	prefix := "data: "
	if name != "" {
		prefix = "event: " + name + "\ndata: "
	}
	if _, err := s.w.Write([]byte(prefix)); err != nil {
		return err
	}
	if err := jsonEncode(s.w, v); err != nil { // ends with "\n"
		return err
	}
	if _, err := s.w.Write([]byte("\n")); err != nil {
		return err
	}
	return s.rc.Flush()
}
