package drive

import (
	"strings"
	"time"
)

// Query is a Drive search query (the files.list `q` parameter), built only
// through the functions of this file. Every value is quoted and escaped when
// the query is built, so no value, whatever it contains, can change the
// structure of the query. The zero Query is empty and matches everything;
// And and Or drop empty operands.
type Query struct {
	s        string
	compound bool // joined by and/or or negated: parenthesised when nested
}

// String returns the query in Drive's syntax, "" for the empty query.
func (q Query) String() string { return q.s }

// IsZero reports whether q is the empty query.
func (q Query) IsZero() bool { return q.s == "" }

// Field is a searchable file field. Only the package's Field values exist,
// so a field name can never come from user input.
type Field struct{ name string }

// The fields gds queries.
var (
	FieldName         = Field{"name"}
	FieldFullText     = Field{"fullText"}
	FieldMimeType     = Field{"mimeType"}
	FieldModifiedTime = Field{"modifiedTime"}
	FieldCreatedTime  = Field{"createdTime"}
	FieldTrashed      = Field{"trashed"}
	FieldStarred      = Field{"starred"}
	FieldParents      = Field{"parents"}
)

// Op is a comparison operator of the query language.
type Op struct{ s string }

// The comparison operators.
var (
	OpContains = Op{"contains"}
	OpEq       = Op{"="}
	OpNe       = Op{"!="}
	OpLt       = Op{"<"}
	OpLe       = Op{"<="}
	OpGt       = Op{">"}
	OpGe       = Op{">="}
)

// FolderMimeType is the MIME type of a Drive folder.
const FolderMimeType = "application/vnd.google-apps.folder"

// Quote returns value as a quoted string literal of the query language:
// `\` becomes `\\` and `'` becomes `\'`, inside single quotes.
func Quote(value string) string {
	var b strings.Builder
	b.Grow(len(value) + 2)
	b.WriteByte('\'')
	for _, r := range value {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// FormatTime formats t for the query language: RFC 3339 in UTC with
// milliseconds when t has a fraction (Drive keeps millisecond times). The
// fraction beyond milliseconds is truncated.
func FormatTime(t time.Time) string {
	t = t.UTC().Truncate(time.Millisecond)
	if t.Nanosecond() == 0 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("2006-01-02T15:04:05.000Z")
}

// Compare is `field op 'value'`.
func Compare(f Field, op Op, value string) Query {
	return Query{s: f.name + " " + op.s + " " + Quote(value)}
}

// CompareTime is `field op 'RFC 3339 time'`.
func CompareTime(f Field, op Op, t time.Time) Query {
	return Query{s: f.name + " " + op.s + " " + Quote(FormatTime(t))}
}

// CompareBool is `field op true|false`.
func CompareBool(f Field, op Op, v bool) Query {
	lit := "false"
	if v {
		lit = "true"
	}
	return Query{s: f.name + " " + op.s + " " + lit}
}

// In is `'value' in field`, e.g. `'FOLDER_ID' in parents`.
func In(value string, f Field) Query {
	return Query{s: Quote(value) + " in " + f.name}
}

// And joins the non-empty queries with `and`, each in parentheses when it
// is a compound.
func And(qs ...Query) Query { return join("and", qs) }

// Or joins the non-empty queries with `or`, each in parentheses when it is
// a compound.
func Or(qs ...Query) Query { return join("or", qs) }

// Not negates q; Not of the empty query is empty.
func Not(q Query) Query {
	if q.IsZero() {
		return q
	}
	return Query{s: "not " + group(q), compound: true}
}

func join(op string, qs []Query) Query {
	var parts []string
	var kept []Query
	for _, q := range qs {
		if !q.IsZero() {
			parts = append(parts, group(q))
			kept = append(kept, q)
		}
	}
	switch len(parts) {
	case 0:
		return Query{}
	case 1:
		return kept[0]
	}
	return Query{s: strings.Join(parts, " "+op+" "), compound: true}
}

// group puts a compound query in parentheses.
func group(q Query) string {
	if q.compound {
		return "(" + q.s + ")"
	}
	return q.s
}

// InParents is `'id1' in parents or 'id2' in parents ...` (empty for no IDs).
func InParents(ids ...string) Query {
	qs := make([]Query, len(ids))
	for i, id := range ids {
		qs[i] = In(id, FieldParents)
	}
	return Or(qs...)
}

// NotTrashed is `trashed = false` (files.list includes trashed files
// unless told otherwise).
func NotTrashed() Query { return CompareBool(FieldTrashed, OpEq, false) }

// ModifiedAfter is `modifiedTime > 't'`.
func ModifiedAfter(t time.Time) Query { return CompareTime(FieldModifiedTime, OpGt, t) }

// ModifiedBefore is `modifiedTime < 't'`.
func ModifiedBefore(t time.Time) Query { return CompareTime(FieldModifiedTime, OpLt, t) }

// MimeTypeIn is `mimeType = 'a' or mimeType = 'b' ...` (empty for none).
func MimeTypeIn(types ...string) Query {
	qs := make([]Query, len(types))
	for i, t := range types {
		qs[i] = Compare(FieldMimeType, OpEq, t)
	}
	return Or(qs...)
}

// IsFolder is `mimeType = 'application/vnd.google-apps.folder'`.
func IsFolder() Query { return Compare(FieldMimeType, OpEq, FolderMimeType) }

// NameContains is `name contains 'term'` (a prefix match on the name's words
// in Drive).
func NameContains(term string) Query { return Compare(FieldName, OpContains, term) }

// FullTextContains is `fullText contains 'term'`. A term with several words
// is searched as an exact phrase, quoted as Drive wants: `fullText contains
// '"two words"'`; double quotes inside the term are dropped since Drive has
// no escape for them inside a phrase. A term that is empty after trimming
// gives the empty query.
func FullTextContains(term string) Query {
	term = strings.Join(strings.Fields(strings.ReplaceAll(term, `"`, " ")), " ")
	if term == "" {
		return Query{}
	}
	if strings.Contains(term, " ") {
		term = `"` + term + `"`
	}
	return Compare(FieldFullText, OpContains, term)
}
