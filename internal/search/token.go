package search

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
)

// The state token carries a paused search between processes (`gds search
// --json --state`, Alfred). Its format is
//
//	"g1." + base64url(deflate(compact JSON of State)), no padding
//
// so it is safe in URLs, shell words and Alfred query text (letters, digits,
// "-", "_" and one "."). The "g1" prefix is the format version; a token of
// another version is refused with ErrTokenVersion. A State holds the query,
// the conditions, the ranked hit IDs and the pending question — never a
// credential — so a token can be printed and logged.
const (
	// TokenPrefix starts every state token of the current format.
	TokenPrefix = "g1."
	// MaxTokenLen bounds the encoded token (bytes).
	MaxTokenLen = 32 << 10
	// maxStateJSON bounds the decompressed JSON, so a crafted token cannot
	// inflate into a large allocation.
	maxStateJSON = 256 << 10
)

var (
	// ErrBadToken is returned for a string that is not a valid state token.
	ErrBadToken = errors.New("invalid search state token")
	// ErrTokenVersion is returned for a token written by another version
	// of gds.
	ErrTokenVersion = errors.New("search state token from another gds version")
)

// EncodeState returns the opaque token of s.
func EncodeState(s State) (string, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("encode search state: %w", err)
	}
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", fmt.Errorf("encode search state: %w", err)
	}
	if _, err := zw.Write(raw); err != nil {
		return "", fmt.Errorf("encode search state: %w", err)
	}
	if err := zw.Close(); err != nil {
		return "", fmt.Errorf("encode search state: %w", err)
	}
	tok := TokenPrefix + base64.RawURLEncoding.EncodeToString(buf.Bytes())
	if len(tok) > MaxTokenLen {
		return "", fmt.Errorf("encode search state: token of %d bytes exceeds %d", len(tok), MaxTokenLen)
	}
	return tok, nil
}

// DecodeState parses a token made by EncodeState. Errors wrap ErrBadToken
// (garbage, truncated, too large, inconsistent) or ErrTokenVersion.
func DecodeState(tok string) (State, error) {
	tok = strings.TrimSpace(tok)
	if len(tok) > MaxTokenLen {
		return State{}, fmt.Errorf("%w: %d bytes, more than %d", ErrBadToken, len(tok), MaxTokenLen)
	}
	body, ok := strings.CutPrefix(tok, TokenPrefix)
	if !ok {
		if v, _, found := strings.Cut(tok, "."); found && len(v) >= 2 && len(v) <= 4 && v[0] == 'g' && isDigits(v[1:]) {
			return State{}, fmt.Errorf("%w: version %q, this gds reads %q", ErrTokenVersion, v, strings.TrimSuffix(TokenPrefix, "."))
		}
		return State{}, fmt.Errorf("%w: missing the %q prefix", ErrBadToken, TokenPrefix)
	}
	packed, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	zr := flate.NewReader(bytes.NewReader(packed))
	defer zr.Close()
	raw, err := io.ReadAll(io.LimitReader(zr, maxStateJSON+1))
	if err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	if len(raw) > maxStateJSON {
		return State{}, fmt.Errorf("%w: state larger than %d bytes", ErrBadToken, maxStateJSON)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var s State
	if err := dec.Decode(&s); err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	if dec.More() {
		return State{}, fmt.Errorf("%w: trailing data", ErrBadToken)
	}
	if err := checkState(s); err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	return s, nil
}

// checkState rejects states the loop could not have produced.
func checkState(s State) error {
	switch {
	case strings.TrimSpace(s.Query) == "":
		return errors.New("empty query")
	case s.MaxLoops < 1 || s.MaxLoops > 1000:
		return fmt.Errorf("max_loops %d out of range", s.MaxLoops)
	case s.Loop < 0 || s.Loop > s.MaxLoops:
		return fmt.Errorf("loop %d out of range 0..%d", s.Loop, s.MaxLoops)
	case len(s.Rounds) > 2*s.MaxLoops+2:
		return fmt.Errorf("%d rounds for %d loops", len(s.Rounds), s.MaxLoops)
	case len(s.Hits) > NoAnswerKeep:
		return fmt.Errorf("%d hits, more than %d", len(s.Hits), NoAnswerKeep)
	}
	switch s.End {
	case EndNone, EndResults, EndNotFound, EndLoopCap:
	default:
		return fmt.Errorf("unknown end %q", s.End)
	}
	return nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ParseAnswer turns a user's reply to q into an Answer: a number 1..N
// (surrounding spaces and a leading "#" allowed) picks choice N; anything
// else, including a number outside 1..N, is free text; "" is no answer
// (the loop then applies the no-answer policy).
func ParseAnswer(q ai.Question, text string) Answer {
	t := strings.TrimSpace(text)
	if n, err := strconv.Atoi(strings.TrimPrefix(t, "#")); err == nil && isDigits(strings.TrimPrefix(t, "#")) && n >= 1 && n <= len(q.Choices) {
		return Answer{Choice: n - 1}
	}
	return Answer{Choice: -1, Text: t}
}
