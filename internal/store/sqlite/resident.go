package sqlite

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"modernc.org/libc"

	"github.com/gds-cli/gds/internal/fulltext"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// A Resident is the file full-text index of one index generation held in
// memory (fulltext.Index), with what the keyword search's filters read of
// each file: a long-lived reader (the keystroke server) answers
// KeywordSearch from it with the hits, scores and order FTS5 gives, without
// reading the database for the matches. It is built from the FTS5 table's
// own storage — every token instance (the drive_file_fts_instance vocabulary
// table), each row's length and the table's totals — so it holds exactly
// the tokens FTS5 searches.
type Resident struct {
	st  *Store
	gen int64

	// What a keystroke checks before answering, without SQL when no
	// transaction has committed since it last looked (walStamp): that the
	// generation is still gen, and the sync states.
	mu        sync.Mutex
	verified  []byte // the stamp at the last check that found gen current
	states    []store.SyncState
	statesFor []byte // the stamp states were read at
	ix        *fulltext.Index
	files     map[int64]residentFile // doc_id → the file's filter columns
	rows      map[string]store.File  // file ID → the file, without its embedding
}

// residentFile is what filterSQL reads of a file, as stored.
type residentFile struct {
	id, modified, mime, path, source string
}

// ErrResidentTooLarge is LoadResident's error when the index holds more
// token instances than the limit.
var ErrResidentTooLarge = errors.New("the full-text index is larger than the memory allowed for it")

// residentColumns are the file full-text table's columns, in order, with
// their bm25 weights (bm25Weights).
var residentColumns = map[string]int{"name": 0, "keywords": 1, "summary": 2, "body": 3}

var residentWeights = func() []float64 {
	var w []float64
	for _, f := range strings.Split(bm25Weights, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			panic(err)
		}
		w = append(w, v)
	}
	return w
}()

// LoadResident reads the file full-text index into memory, in one read
// transaction. maxInstances bounds its size: an index holding more token
// instances is ErrResidentTooLarge (each costs ~8 bytes, plus the terms).
func (s *Store) LoadResident(ctx context.Context, maxInstances int) (_ *Resident, err error) {
	defer s.classify(&err)
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("load the full-text index of %s: %w", s.path, err)
	}
	defer tx.Rollback()
	r, err := s.loadResident(ctx, tx, maxInstances)
	if err != nil {
		return nil, fmt.Errorf("load the full-text index of %s: %w", s.path, err)
	}
	return r, nil
}

func (s *Store) loadResident(ctx context.Context, tx *sql.Tx, maxInstances int) (*Resident, error) {
	gen, err := readGeneration(ctx, tx)
	if err != nil {
		return nil, err
	}
	var avg []byte
	switch err := tx.QueryRowContext(ctx, `SELECT block FROM drive_file_fts_data WHERE id = 1`).Scan(&avg); {
	case errors.Is(err, sql.ErrNoRows):
		avg = nil // an empty table
	case err != nil:
		return nil, fmt.Errorf("read the table's totals: %w", err)
	}
	rows, tokens, err := decodeAverages(avg, len(residentColumns))
	if err != nil {
		return nil, err
	}
	if tokens > int64(maxInstances) {
		return nil, ErrResidentTooLarge // every token is an instance: known before reading them
	}
	bd, err := fulltext.NewBuilder(residentWeights)
	if err != nil {
		return nil, err
	}
	bd.Log(sqliteLog)
	if err := scanRows(ctx, tx, `SELECT id, sz FROM drive_file_fts_docsize`, func(sc func(...any) error) error {
		var id int64
		var sz []byte
		if err := sc(&id, &sz); err != nil {
			return err
		}
		n, err := decodeSizes(sz)
		if err != nil {
			return fmt.Errorf("row %d: %w", id, err)
		}
		bd.Row(id, n)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read the row lengths: %w", err)
	}
	r := &Resident{st: s, gen: gen, files: map[int64]residentFile{}}
	if err := scanRows(ctx, tx, `SELECT doc_id, file_id, drive_modified_at, mime_type, path, source FROM drive_file_index`, func(sc func(...any) error) error {
		var doc int64
		var f residentFile
		if err := sc(&doc, &f.id, &f.modified, &f.mime, &f.path, &f.source); err != nil {
			return err
		}
		r.files[doc] = f
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read the files: %w", err)
	}
	// The files themselves, for Files: every column but the embedding
	// (an empty one in its place).
	r.rows = make(map[string]store.File, len(r.files))
	frows, err := tx.QueryContext(ctx, `SELECT `+strings.Replace(fileColumns, "embedding", "X''", 1)+` FROM drive_file_index`)
	if err != nil {
		return nil, fmt.Errorf("read the files: %w", err)
	}
	defer frows.Close()
	for frows.Next() {
		f, err := scanFile(frows)
		if err != nil {
			return nil, fmt.Errorf("read the files: %w", err)
		}
		f.Embedding = nil
		r.rows[f.ID] = f
	}
	if err := frows.Err(); err != nil {
		return nil, fmt.Errorf("read the files: %w", err)
	}
	if err := scanRows(ctx, tx, `SELECT term, doc, col, offset FROM drive_file_fts_instance`, func(sc func(...any) error) error {
		var term, col sql.RawBytes
		var doc int64
		var off int
		if err := sc(&term, &doc, &col, &off); err != nil {
			return err
		}
		c, ok := residentColumns[string(col)]
		if !ok {
			return fmt.Errorf("unknown column %q", col)
		}
		if bd.Instances() >= maxInstances {
			return ErrResidentTooLarge
		}
		return bd.Add(term, doc, c, off)
	}); err != nil {
		return nil, fmt.Errorf("read the token instances: %w", err)
	}
	r.ix = bd.Build(rows, tokens)
	return r, nil
}

// sqliteLog is the logarithm SQLite's bm25() calls: modernc's C library
// (musl's log on Linux, math.Log elsewhere), whose last bit can differ
// from math.Log's. Its arguments here are positive and finite; the
// thread state is only read on error paths.
func sqliteLog(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Log(x)
	}
	return libc.Xlog(nil, x)
}

// scanRows runs query and calls fn with each row's Scan.
func scanRows(ctx context.Context, tx *sql.Tx, query string, fn func(scan func(...any) error) error) error {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// getVarint decodes one SQLite varint (FTS5 records use SQLite's format:
// big-endian groups of 7 bits, the ninth byte whole).
func getVarint(p []byte) (v uint64, n int) {
	for i := 0; i < 9 && i < len(p); i++ {
		if i == 8 {
			return v<<8 | uint64(p[i]), 9
		}
		v = v<<7 | uint64(p[i]&0x7f)
		if p[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// decodeAverages reads FTS5's averages record (row 1 of the data table):
// the number of rows, then the tokens of each column; nil is an empty
// table.
func decodeAverages(p []byte, cols int) (rows, tokens int64, err error) {
	if len(p) == 0 {
		return 0, 0, nil
	}
	v, n := getVarint(p)
	if n == 0 {
		return 0, 0, errors.New("the table's totals are unreadable")
	}
	rows, p = int64(v), p[n:]
	for c := 0; c < cols && len(p) > 0; c++ {
		v, n := getVarint(p)
		if n == 0 {
			return 0, 0, errors.New("the table's totals are unreadable")
		}
		tokens, p = tokens+int64(v), p[n:]
	}
	return rows, tokens, nil
}

// decodeSizes sums a docsize record's column lengths.
func decodeSizes(p []byte) (int64, error) {
	var total int64
	for len(p) > 0 {
		v, n := getVarint(p)
		if n == 0 {
			return 0, errors.New("unreadable row length")
		}
		total, p = total+int64(v), p[n:]
	}
	return total, nil
}

// Generation is the index generation the resident index was loaded at.
func (r *Resident) Generation() int64 { return r.gen }

// Rows is the number of full-text rows held.
func (r *Resident) Rows() int { return r.ix.Rows() }

// ErrResidentStale is KeywordSearch's error when the index has changed
// since the resident index was loaded: it must be loaded again.
var ErrResidentStale = errors.New("the index changed since its full text was loaded")

// KeywordSearch answers q as Store.KeywordSearch does — the same hits,
// scores and order — from memory. ok is false, with no error, for a query
// it leaves to the store: all terms required (store.MatchAll), no
// searchable term (a filter-only search), a term with a character whose
// FTS5 tokenisation it does not reproduce, or matches of equal score on
// either side of the limit. The error is ErrResidentStale
// when the index has changed since the load.
func (r *Resident) KeywordSearch(ctx context.Context, q store.KeywordQuery) (res store.KeywordResult, ok bool, err error) {
	defer r.st.classify(&err)
	if q.Match != store.MatchAny {
		return res, false, nil
	}
	phrases, ok := residentPhrases(q.Terms)
	if !ok || len(phrases) == 0 {
		return res, false, nil
	}
	if err := r.current(ctx); err != nil {
		return res, false, err
	}
	res.Hits = []store.Hit{}
	if q.Filter.IDs != nil && len(q.Filter.IDs) == 0 {
		return res, true, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	accept := r.filter(q.Filter)
	top, total := r.ix.Rank(phrases, accept, limit+1)
	if len(top) > limit {
		if top[limit].Rank == top[limit-1].Rank {
			// Which of the matches tied at the limit are kept is decided
			// by file ID, which Rank does not know: left to the store.
			return store.KeywordResult{}, false, nil
		}
		top = top[:limit]
	}
	// Equal scores in file ID order, as the store orders them (byFileID).
	slices.SortStableFunc(top, func(a, b fulltext.Match) int {
		if c := cmp.Compare(a.Rank, b.Rank); c != 0 {
			return c
		}
		return strings.Compare(r.files[a.Rowid].id, r.files[b.Rowid].id)
	})
	res.Total = total
	for _, m := range top {
		res.Hits = append(res.Hits, store.Hit{ID: r.files[m.Rowid].id, Score: -m.Rank})
	}
	return res, true, nil
}

// HasTerms reports for each term (a phrase of its tokens, as KeywordSearch
// searches it) whether any file holds it, from memory and without ranking
// (fulltext.Index.Has). ok is false, with no error, when a term is one it
// leaves to the store (residentPhrases); the error is ErrResidentStale
// when the index has changed since the load.
func (r *Resident) HasTerms(ctx context.Context, terms []string) (has map[string]bool, ok bool, err error) {
	defer r.st.classify(&err)
	phrases := make([]fulltext.Phrase, len(terms))
	for i, t := range terms {
		ph, ok := residentPhrases([]string{t})
		if !ok {
			return nil, false, nil
		}
		if len(ph) == 1 {
			phrases[i] = ph[0]
		}
	}
	if err := r.current(ctx); err != nil {
		return nil, false, err
	}
	has = make(map[string]bool, len(terms))
	for i, t := range terms {
		has[t] = len(phrases[i].Tokens) > 0 && r.ix.Has(phrases[i])
	}
	return has, true, nil
}

// Files returns the files among ids in the order given, as GetFiles
// returns them but without their embeddings, from the generation the
// resident index was loaded at; ok is false when one of them is not held.
func (r *Resident) Files(ids []string) (files []store.File, ok bool) {
	files = make([]store.File, 0, len(ids))
	for _, id := range ids {
		f, held := r.rows[id]
		if !held {
			return nil, false
		}
		files = append(files, f)
	}
	return files, true
}

// current reports (nil) whether the index generation is still the one
// loaded, ErrResidentStale when not. It reads the generation only when a
// transaction may have committed since it last found it current.
func (r *Resident) current(ctx context.Context) error {
	stamp := r.st.walStamp()
	r.mu.Lock()
	same := stamp != nil && bytes.Equal(stamp, r.verified)
	r.mu.Unlock()
	if same {
		return nil
	}
	var gen int64
	if err := r.st.read.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM gds_meta WHERE key = 'generation'), 0)`).Scan(&gen); err != nil {
		return fmt.Errorf("keyword search in %s: %w", r.st.path, err)
	}
	if gen != r.gen {
		return ErrResidentStale
	}
	r.mu.Lock()
	r.verified = stamp // read before the generation: a commit in between changes the next stamp
	r.mu.Unlock()
	return nil
}

// SyncStates returns the store's SyncStates, read again only when a
// transaction may have committed since they were read (the sync states
// change without a new generation).
func (r *Resident) SyncStates(ctx context.Context) ([]store.SyncState, error) {
	stamp := r.st.walStamp()
	r.mu.Lock()
	if stamp != nil && bytes.Equal(stamp, r.statesFor) {
		defer r.mu.Unlock()
		return slices.Clone(r.states), nil
	}
	r.mu.Unlock()
	states, err := r.st.SyncStates(ctx)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.states, r.statesFor = slices.Clone(states), stamp
	r.mu.Unlock()
	return states, nil
}

// walStamp is the header of the index's WAL index (the -shm file; "The
// WAL-Index Format" of SQLite's file format documentation): every
// committed write transaction changes it (its change counter, frame count
// and checksums), so an unchanged stamp means no commit since it was read.
// nil when it cannot be read (no -shm: not in WAL mode, or no connection
// open), and then the caller reads the database.
//
// The file is read through a descriptor the store keeps open until it
// closes (Store.Close, after SQLite's connections): closing any
// descriptor of a file drops every POSIX lock the process holds on it —
// SQLite's read locks on the WAL index included, and another process
// could then reset the WAL under a reader ("How To Corrupt An SQLite
// Database File", 2.2). It is opened again only when the -shm file was
// replaced (SQLite deletes it when the last connection of every process
// closes; the old file is then no one's).
func (s *Store) walStamp() []byte {
	path := s.path + "-shm"
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	s.shmMu.Lock()
	defer s.shmMu.Unlock()
	if s.shm == nil || !os.SameFile(fi, s.shmInfo) {
		if s.shm != nil {
			s.shm.Close()
			s.shm, s.shmInfo = nil, nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		info, err := f.Stat()
		if err != nil {
			f.Close()
			return nil
		}
		s.shm, s.shmInfo = f, info
	}
	hdr := make([]byte, 48)
	if _, err := s.shm.ReadAt(hdr, 0); err != nil {
		return nil
	}
	return hdr
}

// filter is filterSQL's condition on a file, for the resident index: the
// same comparisons on the stored columns. A row with no file never passes
// (the store's search drops it too).
func (r *Resident) filter(f store.Filter) func(rowid int64) bool {
	var after, before string
	if !f.ModifiedAfter.IsZero() {
		after = formatTime(f.ModifiedAfter)
	}
	if !f.ModifiedBefore.IsZero() {
		before = formatTime(f.ModifiedBefore)
	}
	var ids map[string]bool
	if f.IDs != nil {
		ids = map[string]bool{}
		for _, id := range f.IDs {
			ids[id] = true
		}
	}
	folder := store.CleanFolder(f.Folder)
	return func(rowid int64) bool {
		file, ok := r.files[rowid]
		switch {
		case !ok,
			after != "" && file.modified < after,
			before != "" && file.modified >= before,
			len(f.MimeTypes) > 0 && !contains(f.MimeTypes, file.mime),
			ids != nil && !ids[file.id],
			folder != "" && file.path != folder && (file.path < folder+"/" || file.path >= folder+"0"),
			len(f.Sources) > 0 && !store.InSources(file.source, f.Sources):
			return false
		}
		return true
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// residentPhrases are ftsPhrases as FTS5 parses them: each term's index
// tokens, split again by the table's tokenizer (unicode61 keeping letters,
// numbers, marks and private-use characters; the tokens are already lower
// case), the last one a prefix when it is a lone CJK character. ok is
// false when a token holds a character outside the scripts whose unicode61
// categories and case folding are known to equal Go's here.
func residentPhrases(terms []string) (phrases []fulltext.Phrase, ok bool) {
	for _, term := range terms {
		toks := tokenize.IndexTokens(term)
		if len(toks) == 0 {
			continue
		}
		var ph fulltext.Phrase
		for _, t := range toks {
			for _, r := range t {
				if !residentSafe(r) {
					return nil, false
				}
			}
			ph.Tokens = append(ph.Tokens, strings.FieldsFunc(t, func(r rune) bool { return !unicode61Token(r) })...)
		}
		if len(ph.Tokens) == 0 {
			return nil, false // FTS5 would see an empty phrase
		}
		if last := toks[len(toks)-1]; utf8.RuneCountInString(last) == 1 {
			if r, _ := utf8.DecodeRuneInString(last); tokenize.IsCJK(r) {
				ph.Prefix = true
			}
		}
		phrases = append(phrases, ph)
	}
	return phrases, true
}

// unicode61Token reports whether the table's tokenizer keeps r in a token
// (categories L*, N*, Co, M*).
func unicode61Token(r rune) bool {
	return unicode.In(r, unicode.L, unicode.N, unicode.M, unicode.Co)
}

// residentSafe reports whether r is in a range where Go's Unicode
// categories agree with the tables of SQLite's unicode61 tokenizer (which
// predate later Unicode versions) and r is not an upper-case letter (the
// tokenizer folds case; index tokens are lower case already).
func residentSafe(r rune) bool {
	if unicode.IsUpper(r) {
		return false
	}
	switch {
	case r < 0x250: // ASCII, Latin-1, Latin Extended-A and -B
	case r >= 0x370 && r < 0x530: // Greek, Cyrillic
	case r >= 0x3000 && r < 0x3100: // CJK punctuation, hiragana, katakana
	case r >= 0x4e00 && r <= 0x9fcb: // CJK unified ideographs of Unicode 6.1
	default:
		return false
	}
	return true
}
