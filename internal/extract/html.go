package extract

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
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

// collapseSpaces replaces each run of spaces, tabs, form feeds, vertical
// tabs and no-break spaces with one space (by hand: a page may have
// millions of lines).
func collapseSpaces(s string) string {
	isSpace := func(r rune) bool { return r == ' ' || r == '\t' || r == '\f' || r == '\v' || r == '\u00a0' }
	clean := true
	prevSpace := false
	for _, r := range s {
		sp := isSpace(r)
		if sp && (prevSpace || r != ' ') {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prevSpace = false
	for _, r := range s {
		if isSpace(r) {
			if !prevSpace {
				b.WriteByte(' ')
			}
			prevSpace = true
			continue
		}
		prevSpace = false
		b.WriteRune(r)
	}
	return b.String()
}

// htmlEncoding returns the charset of a page: the one its BOM or <meta>
// declares, else UTF-16 when it has NUL bytes and reads as UTF-16 text
// (a page saved as "Unicode" without its BOM), else UTF-8 when the whole
// page is valid UTF-8, else the
// legacy charset its bytes read best in (detectLegacy). A page declaring
// Windows-1252 or ISO-8859-1 is detected too: the HTML standard's default
// is indistinguishable from that declaration (charset.DetermineEncoding
// answers windows-1252 for both), and such a declaration on a Shift_JIS
// page is a common mistake of old generators.
func htmlEncoding(data []byte) encoding.Encoding {
	enc, name, certain := charset.DetermineEncoding(data, "text/html")
	if certain || name != "windows-1252" {
		return enc
	}
	if bytes.IndexByte(data[:min(len(data), charsetSample)], 0) >= 0 {
		if be, ok := detectUTF16(data); ok {
			order := xunicode.LittleEndian
			if be {
				order = xunicode.BigEndian
			}
			return xunicode.UTF16(order, xunicode.IgnoreBOM)
		}
	}
	if utf8.Valid(data) {
		return encoding.Nop
	}
	enc, _ = detectLegacy(data)
	return enc
}

// headContent are the elements that may stay in <head>: any other start
// tag ends it (as the HTML parser's "in head" insertion mode does).
var headContent = map[atom.Atom]bool{
	atom.Title: true, atom.Meta: true, atom.Link: true, atom.Style: true, atom.Script: true,
	atom.Base: true, atom.Noscript: true, atom.Template: true,
}

// extractHTML returns the title (first line) and the visible text of an
// HTML page: no scripts, styles, comments or head content; block elements
// start new lines; table cells are separated by tabs. The charset comes
// from the BOM or <meta>, else from the content (htmlEncoding).
//
// It reads tokens as they come (golang.org/x/net/html's tokenizer), not a
// parse tree: a tree costs some 50 times the input (hundreds of bytes per
// element), and the parser refuses pages nested more than 512 deep. Text
// stops at textLimit.
func extractHTML(ctx context.Context, data []byte) (Doc, error) {
	r := transform.NewReader(bytes.NewReader(data), htmlEncoding(data).NewDecoder())
	budget := newTextBudget()
	b := newTextWriter(budget)
	z := html.NewTokenizer(r)
	var title strings.Builder
	inTitle, titleDone := false, false
	inHead := false
	hidden := map[atom.Atom]int{} // open invisible elements
	nHidden := 0
	cellOpen := false // a cell was opened in the current row
	// Ruby: the annotation (<rt>, <rtc>) and its fallback parentheses
	// (<rp>) are not base text (君子 with くんし over it is 君子). Their end
	// tags may be omitted: the next <rb>, <rt>, <rp> or </ruby> ends them.
	rubyOpen, inAnnotation := 0, false
	sup, sub := 0, 0 // open <sup> and <sub> (scriptNumber)
	var lists htmlLists
	for n := 0; !budget.full(); n++ {
		if n&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return Doc{}, err
			}
		}
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); err != io.EOF {
				return Doc{}, fmt.Errorf("%w: HTML: %v", ErrMalformed, err)
			}
			break
		}
		switch tt {
		case html.TextToken:
			switch {
			case inAnnotation:
			case inTitle:
				if title.Len() < 4096 {
					title.Write(z.Text())
				}
			case nHidden == 0 && !inHead && sup+sub > 0:
				b.WriteString(scriptNumber(string(z.Text()), sup > sub))
			case nHidden == 0 && !inHead:
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if inHead && !headContent[a] && a != atom.Head {
				inHead = false
			}
			switch {
			case a == atom.Head:
				inHead = tt == html.StartTagToken
				continue
			case a == atom.Body:
				inHead = false
			case a == atom.Title:
				inTitle = tt == html.StartTagToken && !titleDone
				continue
			}
			if a == atom.Ruby && tt == html.StartTagToken {
				rubyOpen++
			}
			if tt == html.StartTagToken && a == atom.Sup {
				sup++
			} else if tt == html.StartTagToken && a == atom.Sub {
				sub++
			}
			if rubyOpen > 0 {
				switch a {
				case atom.Rt, atom.Rtc, atom.Rp:
					inAnnotation = tt == html.StartTagToken
					continue
				case atom.Rb:
					inAnnotation = false
					continue
				}
			}
			if invisible[a] && tt == html.StartTagToken {
				hidden[a]++
				nHidden++
				continue
			}
			if nHidden > 0 || inHead {
				continue
			}
			switch {
			case a == atom.Img && hasAttr:
				if alt := attrOf(z, "alt"); alt != "" {
					b.WriteString(" " + alt + " ")
				}
			case a == atom.Td || a == atom.Th:
				if cellOpen {
					b.WriteByte(cellSep)
				}
				cellOpen = true
			case a == atom.Tr:
				cellOpen = false
				newLine(b)
			case a == atom.Li:
				newLine(b)
				value := ""
				if hasAttr {
					value = attrOf(z, "value")
				}
				b.WriteString(lists.item(value))
			case (a == atom.Ol || a == atom.Ul || a == atom.Menu) && tt == html.StartTagToken:
				newLine(b)
				var attrs map[string]string
				if hasAttr {
					attrs = tagAttrs(z, "start", "type", "reversed")
				}
				lists.open(a == atom.Ol, attrs)
			case blocks[a]:
				newLine(b) // a block left open (<p>a<p>b) still breaks the line
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Head:
				inHead = false
				continue
			case a == atom.Title:
				if inTitle {
					inTitle, titleDone = false, true
				}
				continue
			case a == atom.Sup && sup > 0:
				sup--
			case a == atom.Sub && sub > 0:
				sub--
			case a == atom.Ruby && rubyOpen > 0:
				rubyOpen--
				inAnnotation = false
				continue
			case a == atom.Rt || a == atom.Rtc || a == atom.Rp:
				inAnnotation = false
				continue
			case hidden[a] > 0:
				hidden[a]--
				nHidden--
				continue
			}
			if nHidden > 0 || inHead {
				continue
			}
			switch {
			case a == atom.Td || a == atom.Th:
				// the separator goes before the next cell
			case a == atom.Tr || a == atom.Table:
				cellOpen = false
				b.WriteByte('\n')
			case a == atom.Ol || a == atom.Ul || a == atom.Menu:
				lists.close()
				b.WriteByte('\n')
			case blocks[a]:
				b.WriteByte('\n')
			case a == atom.A || a == atom.Button || a == atom.Label || a == atom.Option:
				b.WriteByte(' ') // menus of adjacent links would run together
			}
		}
	}
	lines := strings.Split(strings.TrimPrefix(b.String(), "\ufeff"), "\n") // the BOM of a UTF-16 page
	for i, l := range lines {
		l = strings.TrimSpace(collapseSpaces(l))
		l = strings.ReplaceAll(l, " "+string(cellSep), string(cellSep))
		lines[i] = strings.Trim(l, string(cellSep)+" ")
	}
	body := strings.ReplaceAll(cleanLines(strings.Join(lines, "\n")), string(cellSep), "\t")
	t := strings.TrimSpace(collapseSpaces(title.String()))
	if t != "" && !strings.HasPrefix(body, t) {
		body = t + "\n\n" + body
	}
	return Doc{Pages: []Page{{Text: body}}, Truncated: budget.truncated}, nil
}

// cellSep marks the end of a table cell until spaces are collapsed.
const cellSep = '\x1f'

// newLine ends the current line unless it is empty.
func newLine(w *textWriter) {
	if t := w.String(); t != "" && t[len(t)-1] != '\n' {
		w.WriteByte('\n')
	}
}

// tagAttrs returns the attributes of the current tag named in keys
// (an attribute without a value maps to "").
func tagAttrs(z *html.Tokenizer, keys ...string) map[string]string {
	out := map[string]string{}
	for {
		k, v, more := z.TagAttr()
		if slices.Contains(keys, string(k)) {
			out[string(k)] = string(v)
		}
		if !more {
			return out
		}
	}
}

// attrOf returns the value of the attribute key of the current tag.
func attrOf(z *html.Tokenizer, key string) string {
	for {
		k, v, more := z.TagAttr()
		if string(k) == key {
			return string(v)
		}
		if !more {
			return ""
		}
	}
}
