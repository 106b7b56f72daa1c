package extract

import (
	"strconv"
	"strings"
)

// HTML list items are written with their number ("1. ", "b. ", "iv. ")
// or a bullet ("• "), as browsers and w3m show them: <ol start type
// reversed>, <li value>; <ul> and <menu> items get a bullet. Lists
// nested deeper than maxHTMLLists are counted as the deepest one.

const maxHTMLLists = 32

type htmlList struct {
	ordered bool
	next    int
	step    int    // 1, or -1 for a reversed list
	format  string // a w:numFmt name (formatListNumber)
}

// htmlLists is the stack of open lists.
type htmlLists struct {
	stack []htmlList
	extra int // lists opened beyond maxHTMLLists
}

// listTypes maps <ol type> to a number format.
var listTypes = map[string]string{
	"1": "decimal", "a": "lowerLetter", "A": "upperLetter", "i": "lowerRoman", "I": "upperRoman",
}

// open starts a list; attrs are its start, type and reversed attributes.
func (l *htmlLists) open(ordered bool, attrs map[string]string) {
	if len(l.stack) >= maxHTMLLists {
		l.extra++
		return
	}
	list := htmlList{ordered: ordered, next: 1, step: 1, format: "decimal"}
	if f, ok := listTypes[strings.TrimSpace(attrs["type"])]; ok {
		list.format = f
	}
	if _, ok := attrs["reversed"]; ok {
		list.step = -1
	}
	if n, err := strconv.Atoi(strings.TrimSpace(attrs["start"])); err == nil {
		list.next = min(max(n, -maxListCounter), maxListCounter)
	}
	l.stack = append(l.stack, list)
}

// close ends the innermost list (an end tag without its list is
// ignored).
func (l *htmlLists) close() {
	switch {
	case l.extra > 0:
		l.extra--
	case len(l.stack) > 0:
		l.stack = l.stack[:len(l.stack)-1]
	}
}

// item returns the label of the next item of the innermost list, with the
// space after it; value is the item's value attribute. "" outside lists.
func (l *htmlLists) item(value string) string {
	if len(l.stack) == 0 {
		return ""
	}
	list := &l.stack[len(l.stack)-1]
	if !list.ordered {
		return "• "
	}
	if n, err := strconv.Atoi(strings.TrimSpace(value)); err == nil {
		list.next = min(max(n, -maxListCounter), maxListCounter)
	}
	n := list.next
	list.next = min(max(list.next+list.step, -maxListCounter), maxListCounter)
	if n < 1 && list.format != "decimal" {
		return strconv.Itoa(n) + ". "
	}
	return formatListNumber(list.format, 0, n) + ". "
}
