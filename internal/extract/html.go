package extract

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// invisible elements: their content is never shown as text.
var invisible = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Head: true, atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true,
	atom.Canvas: true, atom.Select: true,
}

// blocks end a line.
var blocks = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Br: true, atom.Li: true, atom.Tr: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Pre: true,
	atom.Blockquote: true, atom.Section: true, atom.Article: true, atom.Header: true,
	atom.Footer: true, atom.Nav: true, atom.Aside: true, atom.Table: true, atom.Ul: true,
	atom.Ol: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Hr: true, atom.Main: true,
	atom.Figure: true, atom.Figcaption: true, atom.Form: true, atom.Address: true, atom.Details: true,
	atom.Summary: true, atom.Caption: true,
}

var spaceRun = lazyRegexp(`[ \t\f\v\x{00a0}]+`)

// extractHTML returns the title (first line) and the visible text of an
// HTML page: no scripts, styles, comments or head content; block elements
// start new lines; table cells are separated by tabs. The charset comes
// from the BOM, <meta> or content (UTF-8 and Shift_JIS pages alike).
func extractHTML(data []byte) (Doc, error) {
	r, err := charset.NewReader(bytes.NewReader(data), "text/html")
	if err != nil {
		return Doc{}, fmt.Errorf("%w: HTML charset: %v", ErrMalformed, err)
	}
	root, err := html.Parse(r)
	if err != nil {
		return Doc{}, fmt.Errorf("%w: HTML: %v", ErrMalformed, err)
	}
	var title string
	var b strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > 512 {
			return
		}
		switch n.Type {
		case html.CommentNode, html.DoctypeNode:
			return
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if invisible[n.DataAtom] {
				return
			}
			if n.DataAtom == atom.Img {
				if alt := attr(n, "alt"); alt != "" {
					b.WriteString(" " + alt + " ")
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
		if n.Type == html.ElementNode {
			switch {
			case n.DataAtom == atom.Td || n.DataAtom == atom.Th:
				b.WriteByte(cellSep)
			case blocks[n.DataAtom]:
				b.WriteByte('\n')
			case n.DataAtom == atom.A || n.DataAtom == atom.Button || n.DataAtom == atom.Label || n.DataAtom == atom.Option:
				b.WriteByte(' ') // menus of adjacent links would run together
			}
		}
	}
	title = findTitle(root, 0)
	walk(root, 0)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(spaceRun().ReplaceAllString(l, " "))
		l = strings.ReplaceAll(l, " "+string(cellSep), string(cellSep))
		lines[i] = strings.Trim(l, string(cellSep)+" ")
	}
	body := strings.ReplaceAll(cleanLines(strings.Join(lines, "\n")), string(cellSep), "\t")
	if title != "" && !strings.HasPrefix(body, title) {
		body = title + "\n\n" + body
	}
	return Doc{Pages: []Page{{Text: body}}}, nil
}

// cellSep marks the end of a table cell until spaces are collapsed.
const cellSep = '\x1f'

func findTitle(n *html.Node, depth int) string {
	if depth > 512 {
		return ""
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Title {
		return strings.TrimSpace(textOf(n))
	}
	if n.Type == html.ElementNode && (n.DataAtom == atom.Svg || n.DataAtom == atom.Body) {
		return ""
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := findTitle(c, depth+1); t != "" {
			return t
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return spaceRun().ReplaceAllString(b.String(), " ")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
