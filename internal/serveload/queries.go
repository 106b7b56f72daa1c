package serveload

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// QueriesFromTexts makes up to n queries from chunk texts, one per text in
// turn: five words from a third of the way in, or, for text written without
// spaces (Japanese), twenty characters from there. Texts too short to
// give a query are skipped; duplicates are dropped.
func QueriesFromTexts(texts []string, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		if len(out) >= n {
			break
		}
		q := queryOf(t)
		if utf8.RuneCountInString(q) < 4 || seen[q] {
			continue
		}
		seen[q] = true
		out = append(out, q)
	}
	return out
}

func queryOf(text string) string {
	words := strings.Fields(text)
	if len(words) >= 8 {
		k := len(words) / 3
		return strings.Join(words[k:min(k+5, len(words))], " ")
	}
	r := []rune(strings.Join(words, " "))
	k := len(r) / 3
	return strings.TrimSpace(string(r[k:min(k+20, len(r))]))
}

// FetchQueries asks the server for its documents (up to 100) and makes up
// to n queries from their chunks (QueriesFromTexts), so the load asks about
// what the server holds.
func FetchQueries(ctx context.Context, client *http.Client, base, token string, n int) ([]string, error) {
	if err := CheckTarget(base); err != nil {
		return nil, err
	}
	if client == nil {
		client = http.DefaultClient
	}
	base = strings.TrimSuffix(base, "/")
	get := func(path string, out any) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if err != nil {
			return err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: status %d", path, resp.StatusCode)
		}
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return fmt.Errorf("GET %s: %w", path, err)
		}
		return nil
	}
	var list struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if err := get("/api/v1/documents?per_page=100", &list); err != nil {
		return nil, fmt.Errorf("list the server's documents: %w", err)
	}
	// One chunk of each document in turn, then the next chunk of each, so
	// the queries spread over the documents.
	var perDoc [][]string
	for _, it := range list.Items {
		var d struct {
			Chunks []struct {
				Content string `json:"content"`
			} `json:"chunks"`
		}
		if err := get("/api/v1/documents/"+url.PathEscape(it.ID), &d); err != nil {
			return nil, fmt.Errorf("read a document's chunks: %w", err)
		}
		var cs []string
		for _, c := range d.Chunks {
			cs = append(cs, c.Content)
		}
		perDoc = append(perDoc, cs)
	}
	var texts []string
	for i := 0; ; i++ {
		added := false
		for _, cs := range perDoc {
			if i < len(cs) {
				texts = append(texts, cs[i])
				added = true
			}
		}
		if !added {
			break
		}
	}
	qs := QueriesFromTexts(texts, n)
	if len(qs) == 0 {
		return nil, fmt.Errorf("the server at %s holds no document text to ask about (index some documents first)", base)
	}
	return qs, nil
}
