package extract

import (
	"encoding/xml"
	"unicode/utf8"
)

// DOCX footnote and endnote marks. Word does not store the "1" of a
// footnote reference (w:footnoteReference) nor the one opening the note's
// text (w:footnoteRef): it numbers the notes in the order the document
// refers to them, footnotes 1, 2, 3 and endnotes i, ii, iii (its default
// formats; w:footnotePr and w:endnotePr are not read). The body comes
// before the notes parts, so each note's number is known when its text is
// read. A reference with w:customMarkFollows has its mark as text (a "*")
// and takes no number.

// noteKinds: footnotes, endnotes.
const (
	footnote = iota
	endnote
)

// noteMarks numbers the notes of one document.
type noteMarks struct {
	nums    [2]map[string]int // by kind, the number of each note id
	last    [2]int            // by kind, the last number given
	current [2]string         // by kind, the id of the note being read
}

func newNoteMarks() *noteMarks {
	return &noteMarks{nums: [2]map[string]int{{}, {}}}
}

// start follows the start of element se and returns the mark to write
// there, or "".
func (m *noteMarks) start(se xml.StartElement) string {
	n := se.Name.Local
	kind := footnote
	switch n {
	case "endnoteReference", "endnote", "endnoteRef":
		kind = endnote
	case "footnoteReference", "footnote", "footnoteRef":
	default:
		return ""
	}
	id, _ := attr(se, "id")
	switch n {
	case "footnote", "endnote":
		m.current[kind] = id
		return ""
	case "footnoteRef", "endnoteRef":
		id = m.current[kind]
		if num, ok := m.nums[kind][id]; ok {
			return noteMark(kind, num)
		}
		return ""
	}
	if v, ok := attr(se, "customMarkFollows"); ok && v != "0" && v != "false" && v != "off" {
		return ""
	}
	num, ok := m.nums[kind][id]
	if !ok {
		if len(m.nums[kind]) >= maxListDefs {
			return ""
		}
		m.last[kind]++
		num = m.last[kind]
		m.nums[kind][id] = num
	}
	return noteMark(kind, num)
}

func noteMark(kind, n int) string {
	if kind == endnote {
		return formatListNumber("lowerRoman", 0, n)
	}
	return formatListNumber("decimal", 0, n)
}

// writeMark writes a note mark into w, a space before it where it would
// run into a word ("claim 1", as a superscript is read in a PDF or a PPTX;
// xmlText.write parts it from a word right after it).
func writeMark(w *textWriter, mark string) {
	if r, _ := utf8.DecodeLastRuneInString(w.String()); isLetterOrDigit(r) {
		w.WriteByte(' ')
	}
	w.WriteString(mark)
}
