package extract

import (
	"context"
	"strings"
	"testing"
)

// TestHTMLListNumbers: list items carry the number or bullet a browser
// shows.
func TestHTMLListNumbers(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"ordered, nested", `<ol><li>one<li>two<ol><li>inner<li>inner too</ol><li>three</ol>`,
			"1. one\n2. two\n1. inner\n2. inner too\n3. three"},
		{"start and type", `<ol start="4" type="a"><li>d<li>e</ol><ol type="I"><li>first<li>second</ol>`,
			"d. d\ne. e\nI. first\nII. second"},
		{"value renumbers from there", `<ol><li>a<li value="10">b<li>c</ol>`, "1. a\n10. b\n11. c"},
		{"reversed", `<ol reversed start="3"><li>x<li>y<li>z</ol>`, "3. x\n2. y\n1. z"},
		{"bullets", `<ul><li>apple<li>pear<ol><li>numbered inside</ol><li>plum</ul>`, "• apple\n• pear\n1. numbered inside\n• plum"},
		{"an item outside a list", `<li>loose</li><p>text</p>`, "loose\ntext"},
		{"a stray end tag", `</ol><ol><li>a</li></ol></ul><ol><li>b</ol>`, "1. a\n1. b"},
		{"hidden lists count nothing", `<ol><li>a<template><li>x</template><li>b</ol>`, "1. a\n2. b"},
	}
	for _, tt := range tests {
		doc, err := Extract(context.Background(), "text/html", strings.NewReader(tt.in), 0)
		got := strings.ReplaceAll(doc.Text(), "\n\n", "\n")
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

// TestHTMLListsDeep: lists nested deeper than the stack is kept go on
// counting, and close in order.
func TestHTMLListsDeep(t *testing.T) {
	in := strings.Repeat("<ol><li>x", 1000) + strings.Repeat("</ol>", 1000) + "<ol><li>after</ol>"
	doc, err := Extract(context.Background(), "text/html", strings.NewReader(in), 0)
	if err != nil || !strings.HasSuffix(doc.Text(), "1. after") {
		t.Errorf("%q, %v", firstRunes(doc.Text(), 80), err)
	}
}
