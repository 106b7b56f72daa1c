package extract

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Number formats of XLSX cells: a number is stored as a double and shown
// as its cell's number format says. The text keeps what a reader sees for
// the formats that change the words: dates and times (as ISO 8601, so
// "1993-08-16" is found rather than the serial 34197), percentages, and
// fixed decimals (which also hide binary rounding such as 0.30000000000000004),
// and scientific notation ("4.00E+28" for the 4E28 a CSV import made of the
// code point 4E28). Other formats (General, thousands separators,
// fractions, currency) keep the stored number.

// numFmtKind is what a number format does to a number.
type numFmtKind uint8

const (
	fmtGeneral numFmtKind = iota
	fmtDate               // date, possibly with a time of day
	fmtTime               // time of day only
	fmtElapsed            // [h]:mm:ss, a duration in hours
	fmtPercent
	fmtFixed      // a fixed number of decimals
	fmtScientific // mantissa with decimals, E, exponent
)

// numFmt is the part of a number format that gds renders.
type numFmt struct {
	kind     numFmtKind
	decimals int  // fmtPercent, fmtFixed, fmtScientific (of the mantissa)
	exponent int  // fmtScientific: the least digits of the exponent
	minus    bool // fmtScientific: E- (a sign only for negative exponents)
	seconds  bool // fmtDate, fmtTime, fmtElapsed: the format shows seconds
	clock    bool // fmtDate: the format shows a time of day too
}

// builtinNumFmt returns the format of a built-in numFmtId (ECMA-376 Part 1,
// 18.8.30, with the East Asian ids 27–36 and 50–58 that Excel in a Japanese,
// Chinese or Korean locale writes as dates and times).
func builtinNumFmt(id int) numFmt {
	switch {
	case id == 1:
		return numFmt{kind: fmtFixed}
	case id == 2 || id == 4:
		return numFmt{kind: fmtFixed, decimals: 2}
	case id == 3:
		return numFmt{kind: fmtFixed}
	case id == 9:
		return numFmt{kind: fmtPercent}
	case id == 11:
		return numFmt{kind: fmtScientific, decimals: 2, exponent: 2}
	case id == 48:
		return numFmt{kind: fmtScientific, decimals: 1, exponent: 1}
	case id == 10:
		return numFmt{kind: fmtPercent, decimals: 2}
	case id >= 14 && id <= 17, id >= 27 && id <= 31, id == 36, id >= 50 && id <= 58:
		return numFmt{kind: fmtDate}
	case id == 22:
		return numFmt{kind: fmtDate, clock: true}
	case id == 18 || id == 20 || id == 32 || id == 34:
		return numFmt{kind: fmtTime}
	case id == 19 || id == 21 || id == 33 || id == 35 || id == 45 || id == 47:
		return numFmt{kind: fmtTime, seconds: true}
	case id == 46:
		return numFmt{kind: fmtElapsed, seconds: true}
	}
	return numFmt{}
}

// parseNumFmt classifies a custom format code. Only its first section
// (positive numbers) is read; quoted text, escaped characters, fill and
// padding characters and bracketed colours or locales are not format
// characters.
func parseNumFmt(code string) numFmt {
	section, _, _ := strings.Cut(code, ";")
	if strings.EqualFold(strings.TrimSpace(section), "general") || section == "@" {
		return numFmt{}
	}
	var plain strings.Builder
	elapsed := false
	for i := 0; i < len(section); i++ {
		c := section[i]
		switch c {
		case '"':
			j := strings.IndexByte(section[i+1:], '"')
			if j < 0 {
				i = len(section)
			} else {
				i += j + 1
			}
		case '\\', '_', '*':
			i++ // the next character is literal, a padding or a fill
		case '[':
			j := strings.IndexByte(section[i+1:], ']')
			if j < 0 {
				i = len(section)
				continue
			}
			inner := strings.ToLower(section[i+1 : i+1+j])
			if inner != "" && strings.Trim(inner, "hms") == "" {
				elapsed = true
				plain.WriteString(inner)
			}
			i += j + 1
		default:
			plain.WriteByte(c)
		}
	}
	p := strings.ToLower(plain.String())
	hasTime := strings.ContainsAny(p, "hs")
	hasDate := strings.ContainsAny(p, "yd") || (strings.Contains(p, "m") && !hasTime && !strings.Contains(p, "0"))
	switch {
	case elapsed:
		return numFmt{kind: fmtElapsed, seconds: strings.Contains(p, "s")}
	case hasDate:
		return numFmt{kind: fmtDate, clock: hasTime, seconds: strings.Contains(p, "s")}
	case hasTime:
		return numFmt{kind: fmtTime, seconds: strings.Contains(p, "s")}
	}
	decimals := 0
	if _, frac, ok := strings.Cut(p, "."); ok {
		for _, r := range frac {
			if r != '0' && r != '#' && r != '?' {
				break
			}
			decimals++
		}
	}
	switch {
	case strings.Contains(p, "%"):
		return numFmt{kind: fmtPercent, decimals: decimals}
	case strings.Contains(p, "e+") || strings.Contains(p, "e-"):
		_, exp, _ := strings.Cut(strings.ReplaceAll(p, "e-", "e+"), "e+")
		return numFmt{kind: fmtScientific, decimals: decimals, exponent: len(exp) - len(strings.TrimLeft(exp, "0#?")),
			minus: !strings.Contains(p, "e+")}
	case strings.ContainsAny(p, "e/"):
		return numFmt{} // a fraction: the stored number
	case decimals > 0 || strings.Contains(p, "0"):
		return numFmt{kind: fmtFixed, decimals: decimals}
	}
	return numFmt{}
}

// maxSerial is 9999-12-31, the last date a spreadsheet shows.
const maxSerial = 2958465

// render returns the number v (as stored) shown in format f, with the
// workbook's date system (date1904: day 0 is 1904-01-01, else the 1900
// system, whose day 60 is the 1900-02-29 that never was). A value the
// format cannot show is returned as stored.
func (f numFmt) render(v string, date1904 bool) string {
	if f.kind == fmtGeneral {
		return v
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return v
	}
	switch f.kind {
	case fmtPercent:
		return strconv.FormatFloat(x*100, 'f', min(f.decimals, 15), 64) + "%"
	case fmtFixed:
		if math.Abs(x) >= 1e15 {
			return v
		}
		return strconv.FormatFloat(x, 'f', min(f.decimals, 15), 64)
	case fmtScientific:
		mant, exp, _ := strings.Cut(strconv.FormatFloat(x, 'E', min(f.decimals, 15), 64), "E")
		sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
		if sign == "+" && f.minus {
			sign = ""
		}
		return mant + "E" + sign + strings.Repeat("0", max(max(f.exponent, 1)-len(digits), 0)) + digits
	case fmtElapsed:
		if x < 0 || x > maxSerial {
			return v
		}
		secs := int64(math.Round(x * 86400))
		s := fmt.Sprintf("%d:%02d", secs/3600, secs/60%60)
		if f.seconds {
			s += fmt.Sprintf(":%02d", secs%60)
		}
		return s
	}
	if x < 0 || x >= maxSerial+1 {
		return v
	}
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	switch {
	case date1904:
		epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	case x < 61:
		// Serials 1–59 are 1900-01-01 to 02-28; 60 is the 1900-02-29
		// that Lotus counted and Excel keeps, shown here as 02-28.
		epoch = time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC)
		if x >= 60 {
			x--
		}
	}
	t := epoch.Add(time.Duration(math.Round(x*86400)) * time.Second)
	clock := "15:04"
	if f.seconds {
		clock = "15:04:05"
	}
	switch {
	case f.kind == fmtTime:
		return t.Format(clock)
	case f.clock:
		return t.Format("2006-01-02 " + clock)
	}
	return t.Format("2006-01-02")
}

// Bounds of the styles part: Excel allows 64,000 cell formats.
const (
	maxCellXfs  = 1 << 16
	maxNumFmts  = 1 << 16
	maxFmtCode  = 255
	stylesLimit = 16 << 20 // bytes of styles.xml read
)

// cellStyles maps a cell's style index (its s attribute) to its number
// format.
type cellStyles struct {
	xfs      []numFmt
	date1904 bool
}

// format returns the number format of style index s ("" is style 0).
func (c *cellStyles) format(s string) numFmt {
	if c == nil || s == "" {
		return numFmt{}
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i >= len(c.xfs) {
		return numFmt{}
	}
	return c.xfs[i]
}

// readCellStyles reads the number formats (custom ones by id) and the
// cell formats (cellXfs) of a styles part. A damaged styles part only
// costs the formats: cells then keep their stored numbers.
func readCellStyles(ctx context.Context, r io.Reader) (*cellStyles, error) {
	d := xml.NewDecoder(io.LimitReader(r, stylesLimit))
	custom := map[int]numFmt{}
	var ids []int
	inCellXfs := false
	for n := 0; ; n++ {
		if n&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		tok, err := d.RawToken()
		if err != nil {
			if errors.Is(err, ErrMalformed) {
				return nil, err
			}
			break // io.EOF, or a damaged part: the formats read so far
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "numFmt":
				id, code := -1, ""
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "numFmtId":
						id, _ = strconv.Atoi(a.Value)
					case "formatCode":
						code = a.Value
					}
				}
				if id >= 0 && len(custom) < maxNumFmts && len(code) <= maxFmtCode {
					custom[id] = parseNumFmt(code)
				}
			case "cellXfs":
				inCellXfs = true
			case "xf":
				if !inCellXfs || len(ids) >= maxCellXfs {
					continue
				}
				id := 0
				for _, a := range t.Attr {
					if a.Name.Local == "numFmtId" {
						id, _ = strconv.Atoi(a.Value)
					}
				}
				ids = append(ids, id)
			}
		case xml.EndElement:
			if t.Name.Local == "cellXfs" {
				inCellXfs = false
			}
		}
	}
	st := &cellStyles{xfs: make([]numFmt, len(ids))}
	for i, id := range ids {
		if f, ok := custom[id]; ok {
			st.xfs[i] = f
		} else {
			st.xfs[i] = builtinNumFmt(id)
		}
	}
	return st, nil
}
