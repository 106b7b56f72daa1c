package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// MaxDescriptionRunes bounds a merged description: the distinct
// descriptions of an entity or relationship joined in chunk order, as
// many whole ones as fit.
// (GraphRAG asks a model to summarise them; gds keeps them extractive.)
const MaxDescriptionRunes = 800

// NormalizeName is the key two extracted names must share to be one
// entity: NFKC (full-width letters and digits folded), quotes and
// surrounding punctuation trimmed, spaces collapsed, lower case, and an
// English plural or possessive ending of the last word dropped (Normans
// and Norman, Denver's and Denver are one entity).
func NormalizeName(name string) string {
	s := norm.NFKC.String(name)
	s = strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != '.' && r != ')' && r != '(' || r == '「' || r == '」'
	})
	s = strings.Join(strings.Fields(s), " ")
	return singular(strings.ToLower(s))
}

// singular drops the possessive 's and the plural s of a lower-case name's
// last word when it is a Latin-letter word of four letters or more not
// ending in ss, us or is (Normans → norman; not glass, campus, paris).
func singular(s string) string {
	s = strings.TrimSuffix(strings.TrimSuffix(s, "'s"), "’s")
	last := s[strings.LastIndexByte(s, ' ')+1:]
	if len(last) < 4 || !strings.HasSuffix(last, "s") || strings.HasSuffix(last, "ss") || strings.HasSuffix(last, "us") || strings.HasSuffix(last, "is") {
		return s
	}
	for _, r := range last {
		if r < 'a' || r > 'z' {
			return s
		}
	}
	return s[:len(s)-1]
}

// joinDescriptions joins distinct descriptions one per line, as many
// whole ones as fit in MaxDescriptionRunes (a first one longer than that
// is cut).
func joinDescriptions(descs []string) string {
	var keep []string
	n := 0
	for _, d := range descs {
		r := utf8.RuneCountInString(d)
		if len(keep) > 0 && n+1+r > MaxDescriptionRunes {
			break
		}
		keep = append(keep, d)
		n += r + 1
	}
	return ai.Truncate(strings.Join(keep, "\n"), MaxDescriptionRunes)
}

// shortHash is the first 12 hex digits of the SHA-256 of parts joined by NUL.
func shortHash(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:6])
}

// EntityID is the stable ID of the entity with this normalised name.
func EntityID(key string) string { return "e" + shortHash(key) }

// RelationshipID is the stable ID of the relationship between two entity IDs
// (in either order).
func RelationshipID(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return "r" + shortHash(a, b)
}

// TextHash is the hash of a chunk's text that decides whether it must be
// extracted again.
func TextHash(text string) string { return shortHash(text) }

// ChunkExtraction is one chunk's extraction with its chunk ID.
type ChunkExtraction struct {
	ChunkID string
	ai.GraphExtraction
}

// Merge combines the chunks' extractions into entities and relationships:
// names that normalise alike are one entity (the most frequent spelling
// and type win, ties to the first seen); descriptions are deduplicated and
// joined, one per line; a relationship's endpoints become entities when the extraction
// did not list them; self-loops are dropped; relationships between the
// same pair merge (weights add up). Results are sorted by ID.
func Merge(chunks []ChunkExtraction) ([]store.GraphEntity, []store.GraphRelationship) {
	type agg struct {
		names, types map[string]int
		nameOrder    []string
		typeOrder    []string
		descs        []string
		chunks       []string
	}
	ents := map[string]*agg{}
	entity := func(name, typ, desc, chunk string) string {
		key := NormalizeName(name)
		if key == "" {
			return ""
		}
		a := ents[key]
		if a == nil {
			a = &agg{names: map[string]int{}, types: map[string]int{}}
			ents[key] = a
		}
		name = strings.TrimSpace(norm.NFKC.String(name))
		if a.names[name] == 0 {
			a.nameOrder = append(a.nameOrder, name)
		}
		a.names[name]++
		if typ = strings.ToUpper(strings.TrimSpace(typ)); typ != "" {
			if a.types[typ] == 0 {
				a.typeOrder = append(a.typeOrder, typ)
			}
			a.types[typ]++
		}
		if desc = strings.TrimSpace(desc); desc != "" && !slices.Contains(a.descs, desc) {
			a.descs = append(a.descs, desc)
		}
		if !slices.Contains(a.chunks, chunk) {
			a.chunks = append(a.chunks, chunk)
		}
		return key
	}
	type ragg struct {
		a, b   string // entity IDs, a < b
		weight float64
		descs  []string
		chunks []string
	}
	rels := map[string]*ragg{}
	for _, c := range chunks {
		for _, e := range c.Entities {
			entity(e.Name, e.Type, e.Description, c.ChunkID)
		}
		for _, r := range c.Relationships {
			ka := entity(r.Source, "", "", c.ChunkID)
			kb := entity(r.Target, "", "", c.ChunkID)
			if ka == "" || kb == "" || ka == kb {
				continue
			}
			a, b := EntityID(ka), EntityID(kb)
			if b < a {
				a, b = b, a
			}
			id := RelationshipID(a, b)
			g := rels[id]
			if g == nil {
				g = &ragg{a: a, b: b}
				rels[id] = g
			}
			w := r.Strength
			if w <= 0 {
				w = 1
			}
			g.weight += w
			if d := strings.TrimSpace(r.Description); d != "" && !slices.Contains(g.descs, d) {
				g.descs = append(g.descs, d)
			}
			if !slices.Contains(g.chunks, c.ChunkID) {
				g.chunks = append(g.chunks, c.ChunkID)
			}
		}
	}
	degree := map[string]int{}
	outR := make([]store.GraphRelationship, 0, len(rels))
	for id, g := range rels {
		degree[g.a]++
		degree[g.b]++
		slices.Sort(g.chunks)
		outR = append(outR, store.GraphRelationship{ID: id, Source: g.a, Target: g.b,
			Description: joinDescriptions(g.descs), Weight: g.weight, ChunkIDs: g.chunks})
	}
	sort.Slice(outR, func(i, j int) bool { return outR[i].ID < outR[j].ID })
	outE := make([]store.GraphEntity, 0, len(ents))
	for key, a := range ents {
		id := EntityID(key)
		slices.Sort(a.chunks)
		outE = append(outE, store.GraphEntity{ID: id, Name: mostFrequent(a.nameOrder, a.names), Type: mostFrequent(a.typeOrder, a.types),
			Description: joinDescriptions(a.descs), ChunkIDs: a.chunks, Degree: degree[id]})
	}
	sort.Slice(outE, func(i, j int) bool { return outE[i].ID < outE[j].ID })
	return outE, outR
}

// mostFrequent returns the value with the highest count, ties to the
// earliest in order; "" for none.
func mostFrequent(order []string, n map[string]int) string {
	best := ""
	for _, v := range order {
		if best == "" || n[v] > n[best] {
			best = v
		}
	}
	return best
}
