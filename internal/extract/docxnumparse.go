package extract

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"
)

// maxXMLPath bounds the element names kept of the path to the current
// element; deeper elements are read with an unnamed parent.
const maxXMLPath = 64

// xmlPath is the path of element names to the current element.
type xmlPath struct {
	names []string
	depth int
}

func (p *xmlPath) push(name string) {
	if p.depth < maxXMLPath {
		p.names = append(p.names[:p.depth], name)
	}
	p.depth++
}

func (p *xmlPath) pop() {
	if p.depth > 0 {
		p.depth--
	}
}

// up returns the name of the ancestor k levels up of the current element
// (0: the element itself), or "".
func (p *xmlPath) up(k int) string {
	i := p.depth - 1 - k
	if i < 0 || i >= len(p.names) || i >= maxXMLPath {
		return ""
	}
	return p.names[i]
}

func attr(se xml.StartElement, name string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// listNumber parses a count or level of a numbering part, clamped to
// [0, maxListCounter].
func listNumber(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, false
	}
	return min(max(n, 0), maxListCounter), true
}

// onOff reads a WordprocessingML on/off property: on unless val says off.
func onOff(se xml.StartElement) bool {
	v, ok := attr(se, "val")
	return !ok || (v != "0" && v != "false" && v != "off")
}

// walkXML calls fn for each start element of r with the path to it, and
// checks ctx every few thousand tokens.
func walkXML(ctx context.Context, r io.Reader, fn func(se xml.StartElement, p *xmlPath)) error {
	d := xml.NewDecoder(r)
	var p xmlPath
	for n := 0; ; n++ {
		if n&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			p.push(t.Name.Local)
			fn(t, &p)
		case xml.EndElement:
			p.pop()
		}
	}
}

// readNumbering parses a numbering part into defs.
func readNumbering(ctx context.Context, r io.Reader, defs *listDefs) error {
	var (
		abs      *abstractList
		num      *listInstance
		lvl      *listLevel
		overLvl  = -1
		fromPick bool // lvl's format came from an mc:Choice
	)
	return walkXML(ctx, r, func(se xml.StartElement, p *xmlPath) {
		parent := p.up(1)
		switch name := se.Name.Local; {
		case name == "abstractNum" && parent == "numbering":
			abs, num, lvl = nil, nil, nil
			id, _ := attr(se, "abstractNumId")
			if _, dup := defs.abstract[id]; !dup && len(defs.abstract) < maxListDefs {
				abs = &abstractList{}
				defs.abstract[id] = abs
			}
		case name == "num" && parent == "numbering":
			abs, num, lvl = nil, nil, nil
			id, _ := attr(se, "numId")
			if _, dup := defs.nums[id]; !dup && len(defs.nums) < maxListDefs {
				num = &listInstance{}
				for i := range num.startOver {
					num.startOver[i] = -1
				}
				defs.nums[id] = num
			}
		case name == "numStyleLink" && parent == "abstractNum" && abs != nil:
			abs.numStyleLink, _ = attr(se, "val")
		case name == "abstractNumId" && parent == "num" && num != nil:
			num.abstractID, _ = attr(se, "val")
		case name == "lvlOverride" && parent == "num":
			overLvl = -1
			if v, ok := attr(se, "ilvl"); ok {
				if i, ok := listNumber(v); ok && i < listLevels {
					overLvl = i
				}
			}
		case name == "startOverride" && parent == "lvlOverride" && num != nil && overLvl >= 0:
			if v, ok := attr(se, "val"); ok {
				if n, ok := listNumber(v); ok {
					num.startOver[overLvl] = n
				}
			}
		case name == "lvl":
			lvl, fromPick = nil, false
			i := -1
			if v, ok := attr(se, "ilvl"); ok {
				if n, ok := listNumber(v); ok && n < listLevels {
					i = n
				}
			}
			switch {
			case parent == "abstractNum" && abs != nil && i >= 0:
				lvl = &abs.levels[i]
			case parent == "lvlOverride" && num != nil && overLvl >= 0:
				lvl = &num.override[overLvl]
			}
			if lvl != nil {
				*lvl = listLevel{defined: true, restart: -1, format: "decimal"}
			}
		case lvl != nil && (parent == "lvl" || parent == "Choice" || parent == "Fallback"):
			readLevelProperty(se, name, parent, lvl, &fromPick)
		}
	})
}

// readLevelProperty reads one property of a w:lvl. Word writes formats
// older readers do not know as mc:AlternateContent, the new one in
// mc:Choice and a fallback after it: a zero-padded custom format
// (001, 002, …) is taken from the choice, the fallback otherwise.
func readLevelProperty(se xml.StartElement, name, parent string, lvl *listLevel, fromPick *bool) {
	v, _ := attr(se, "val")
	switch name {
	case "start":
		if n, ok := listNumber(v); ok {
			lvl.start = n
		}
	case "numFmt":
		switch {
		case parent == "Choice":
			f, _ := attr(se, "format")
			if w := zeroPadWidth(f); v == "custom" && w > 0 {
				lvl.format, lvl.width, *fromPick = "custom", w, true
			}
		case parent == "Fallback" && *fromPick:
		default:
			lvl.format = v
		}
	case "lvlText":
		lvl.text = levelText(v)
	case "lvlRestart":
		if n, ok := listNumber(v); ok {
			lvl.restart = n
		}
	case "isLgl":
		lvl.legal = onOff(se)
	case "pStyle":
		lvl.pStyle = v
	}
}

// zeroPadWidth reads a custom number format like "001, 002, 003, ...":
// the width of its first number when it is zero-padded, else 0.
func zeroPadWidth(f string) int {
	first, _, _ := strings.Cut(f, ",")
	first = strings.TrimSpace(first)
	if len(first) < 2 || len(first) > 8 || first[0] != '0' {
		return 0
	}
	for _, c := range first {
		if c < '0' || c > '9' {
			return 0
		}
	}
	return len(first)
}

// readListStyles reads what the paragraph and numbering styles of a
// styles part say of lists (w:pPr/w:numPr, w:basedOn), and the default
// paragraph style.
func readListStyles(ctx context.Context, r io.Reader, defs *listDefs) error {
	var (
		cur *styleNumbering
		id  string
	)
	flush := func() {
		if cur != nil {
			defs.styles[id] = *cur
			cur = nil
		}
	}
	err := walkXML(ctx, r, func(se xml.StartElement, p *xmlPath) {
		switch name := se.Name.Local; {
		case name == "style" && p.up(1) == "styles":
			flush()
			typ, _ := attr(se, "type")
			id, _ = attr(se, "styleId")
			if (typ != "paragraph" && typ != "numbering") || len(defs.styles) >= maxListDefs {
				return
			}
			if _, dup := defs.styles[id]; dup {
				return
			}
			cur = &styleNumbering{}
			if typ == "paragraph" && defs.defaultStyle == "" && onOffAttr(se, "default") {
				defs.defaultStyle = id
			}
		case cur == nil:
		case name == "basedOn" && p.up(1) == "style":
			cur.basedOn, _ = attr(se, "val")
		case (name == "numId" || name == "ilvl") && p.up(1) == "numPr" && p.up(2) == "pPr" && p.up(3) == "style":
			v, _ := attr(se, "val")
			if name == "numId" {
				cur.numID, cur.hasNum = strings.TrimSpace(v), true
			} else if n, ok := listNumber(v); ok {
				cur.ilvl, cur.hasLv = n, true
			}
		}
	})
	flush()
	return err
}

func onOffAttr(se xml.StartElement, name string) bool {
	v, ok := attr(se, name)
	return ok && (v == "1" || v == "true" || v == "on")
}

// docxLists reads the numbering and styles parts a DOCX's main part
// relates to (rels): nil when it has no numbering part (no lists to count).
// A part that does not parse leaves the lists it defined so far: list
// numbers are not worth refusing a document's text for.
func docxLists(ctx context.Context, p *ooxmlPackage, rels map[string]string) (*listDefs, error) {
	numbering, styles := "", ""
	for _, t := range rels {
		switch path.Base(t) {
		case "numbering.xml":
			numbering = t
		case "styles.xml":
			styles = t
		}
	}
	// Without relationships, the parts where Word puts them.
	if _, ok := p.files["word/numbering.xml"]; ok && numbering == "" {
		numbering = "word/numbering.xml"
	}
	if _, ok := p.files["word/styles.xml"]; ok && styles == "" {
		styles = "word/styles.xml"
	}
	if numbering == "" {
		return nil, nil
	}
	defs := &listDefs{abstract: map[string]*abstractList{}, nums: map[string]*listInstance{}, styles: map[string]styleNumbering{}}
	for _, part := range []struct {
		name string
		read func(context.Context, io.Reader, *listDefs) error
	}{{numbering, readNumbering}, {styles, readListStyles}} {
		if part.name == "" {
			continue
		}
		rc, ok, err := p.open(part.name)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		err = part.read(ctx, rc, defs)
		rc.Close()
		switch {
		case errors.Is(err, ErrMalformed): // over the zip limits
			return nil, err
		case ctx.Err() != nil:
			return nil, ctx.Err()
		}
	}
	return defs, nil
}
