package serveload

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// streamFrame is the part of a chat/stream frame the load generator checks.
type streamFrame struct {
	Content *string          `json:"content"`
	Done    bool             `json:"done"`
	Sources *json.RawMessage `json:"sources"`
	Error   *struct {
		Status int    `json:"status"`
		Detail string `json:"detail"`
	} `json:"error"`
}

// streamResult is what reading one SSE answer found.
type streamResult struct {
	frames int
	done   bool   // the done frame arrived
	errMsg string // a frame carried an error, or a frame was malformed
}

// errStreamMalformed marks a stream that is not the API's SSE framing.
var errStreamMalformed = errors.New("malformed stream")

// readStream reads server-sent events from r up to the frame with done
// true, calling first when the first frame is complete. Each event must be
// one `data:` line holding a frame with content, done and sources. A read
// error (the connection closed early) is returned as is; a malformed event
// is errStreamMalformed; a frame carrying an error ends the stream with
// errMsg set.
func readStream(r io.Reader, first func()) (streamResult, error) {
	var res streamResult
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	seen := false
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			switch {
			case len(line) == 0: // end of an event
				if !seen {
					break
				}
				f, perr := parseFrame(data)
				data, seen = data[:0], false
				if perr != nil {
					return res, perr
				}
				res.frames++
				if res.frames == 1 && first != nil {
					first()
				}
				if f.Error != nil {
					res.errMsg = fmt.Sprintf("error frame: %d %s", f.Error.Status, f.Error.Detail)
					return res, nil
				}
				if f.Done {
					res.done = true
					return res, nil
				}
			case bytes.HasPrefix(line, []byte("data:")):
				if seen {
					return res, fmt.Errorf("%w: two data lines in one event", errStreamMalformed)
				}
				data = append(data[:0], bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
				seen = true
			case line[0] == ':': // an SSE comment
			default:
				return res, fmt.Errorf("%w: unexpected line %q", errStreamMalformed, truncate(string(line), 80))
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return res, io.ErrUnexpectedEOF // the done frame never came
			}
			return res, err
		}
	}
}

func parseFrame(data []byte) (streamFrame, error) {
	var f streamFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("%w: frame %q: %v", errStreamMalformed, truncate(string(data), 80), err)
	}
	if f.Content == nil || f.Sources == nil && f.Done {
		return f, fmt.Errorf("%w: frame %q lacks content or (done) sources", errStreamMalformed, truncate(string(data), 80))
	}
	return f, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
