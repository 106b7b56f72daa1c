package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Query is one line of a query set, as in the retrieval benchmarks' queries-dev.jsonl files.
type Query struct {
	ID    string `json:"id"`
	Query string `json:"query"`
	// Relevant are the names of the files that answer the query.
	Relevant []string `json:"relevant"`
	// Answers are the gold answer strings (kept, not used by the metrics).
	Answers []string `json:"answers,omitempty"`
}

// maxLine bounds one line of a query file.
const maxLine = 1 << 20

// ReadQueries reads a JSON Lines query set. Blank lines are skipped; a line
// that is not a query object, or a query without text or relevant files,
// is an error naming the line.
func ReadQueries(r io.Reader) ([]Query, error) {
	var out []Query
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var q Query
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return nil, fmt.Errorf("query line %d: %w", n, err)
		}
		q.Query = strings.TrimSpace(q.Query)
		if q.Query == "" {
			return nil, fmt.Errorf("query line %d: empty \"query\"", n)
		}
		if len(q.Relevant) == 0 {
			return nil, fmt.Errorf("query line %d: no \"relevant\" files", n)
		}
		if q.ID == "" {
			q.ID = fmt.Sprintf("line-%d", n)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read queries: %w", err)
	}
	return out, nil
}
