package extract

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

const fidelity = "../../testdata/fidelity"

func TestParseNumFmt(t *testing.T) {
	tests := []struct {
		code string
		want numFmt
	}{
		{"General", numFmt{}},
		{"@", numFmt{}},
		{"yyyy-mm-dd", numFmt{kind: fmtDate}},
		{"d/m/yyyy", numFmt{kind: fmtDate}},
		{"mmm-yy", numFmt{kind: fmtDate}},
		{"mmmm", numFmt{kind: fmtDate}},
		{`[$-411]ggge"年"m"月"d"日"`, numFmt{kind: fmtDate}},
		{`yyyy"年"m"月"d"日";@`, numFmt{kind: fmtDate}},
		{"m/d/yy h:mm", numFmt{kind: fmtDate, clock: true}},
		{"yyyy-mm-dd hh:mm:ss", numFmt{kind: fmtDate, clock: true, seconds: true}},
		{"h:mm AM/PM", numFmt{kind: fmtTime}},
		{"hh:mm:ss", numFmt{kind: fmtTime, seconds: true}},
		{"[h]:mm:ss", numFmt{kind: fmtElapsed, seconds: true}},
		{"[Red][h]:mm", numFmt{kind: fmtElapsed}},
		{"0%", numFmt{kind: fmtPercent}},
		{"0.0%", numFmt{kind: fmtPercent, decimals: 1}},
		{"0.00", numFmt{kind: fmtFixed, decimals: 2}},
		{"#,##0.000", numFmt{kind: fmtFixed, decimals: 3}},
		{`_-* #,##0_-;\-* #,##0_-;_-* "-"_-;_-@_-`, numFmt{kind: fmtFixed}},
		{`0.00" days"`, numFmt{kind: fmtFixed, decimals: 2}},
		{`"Day "0`, numFmt{kind: fmtFixed}},
		{"[Red]0.0", numFmt{kind: fmtFixed, decimals: 1}},
		{"0.00E+00", numFmt{kind: fmtScientific, decimals: 2, exponent: 2}},
		{"##0.0E+0", numFmt{kind: fmtScientific, decimals: 1, exponent: 1}},
		{"0E-00", numFmt{kind: fmtScientific, exponent: 2, minus: true}},
		{"# ?/?", numFmt{}},
	}
	for _, tt := range tests {
		if got := parseNumFmt(tt.code); got != tt.want {
			t.Errorf("parseNumFmt(%q) = %+v, want %+v", tt.code, got, tt.want)
		}
	}
}

func TestNumFmtRender(t *testing.T) {
	date := numFmt{kind: fmtDate}
	tests := []struct {
		name     string
		f        numFmt
		v        string
		date1904 bool
		want     string
	}{
		{"1900 date", date, "34197", false, "1993-08-16"},
		{"1900 date 2", date, "35233", false, "1996-06-17"},
		{"1900 day 1", date, "1", false, "1900-01-01"},
		{"1900 day 59", date, "59", false, "1900-02-28"},
		{"1900 day 61", date, "61", false, "1900-03-01"},
		{"1904 date", date, "40543", true, "2015-01-01"},
		{"1904 day 0", date, "0", true, "1904-01-01"},
		{"date ignores time", date, "45000.75", false, "2023-03-15"},
		{"date and time", numFmt{kind: fmtDate, clock: true}, "45000.75", false, "2023-03-15 18:00"},
		{"date and seconds", numFmt{kind: fmtDate, clock: true, seconds: true}, "45000.500011574", false, "2023-03-15 12:00:01"},
		{"time", numFmt{kind: fmtTime}, "0.5", false, "12:00"},
		{"time seconds", numFmt{kind: fmtTime, seconds: true}, "0.75001157407", false, "18:00:01"},
		{"elapsed", numFmt{kind: fmtElapsed, seconds: true}, "1.5", false, "36:00:00"},
		{"percent", numFmt{kind: fmtPercent}, "0.25", false, "25%"},
		{"percent decimals", numFmt{kind: fmtPercent, decimals: 2}, "0.12345", false, "12.35%"},
		{"fixed", numFmt{kind: fmtFixed, decimals: 2}, "0.30000000000000004", false, "0.30"},
		{"general", numFmt{}, "12345", false, "12345"},
		{"scientific (a code point a CSV import read as 4E28)", numFmt{kind: fmtScientific, decimals: 2, exponent: 2}, "4E+28", false, "4.00E+28"},
		{"scientific, exponent 0", numFmt{kind: fmtScientific, decimals: 2, exponent: 2}, "4", false, "4.00E+00"},
		{"scientific, negative exponent", numFmt{kind: fmtScientific, decimals: 1, exponent: 1}, "0.000123", false, "1.2E-4"},
		{"scientific, long exponent", numFmt{kind: fmtScientific, decimals: 2, exponent: 2}, "-1.5e300", false, "-1.50E+300"},
		{"scientific E-, positive exponent", numFmt{kind: fmtScientific, exponent: 2, minus: true}, "12345", false, "1E04"},
		{"negative date kept", date, "-3", false, "-3"},
		{"date beyond 9999 kept", date, "3000000", false, "3000000"},
		{"not a number kept", date, "#N/A", false, "#N/A"},
		{"huge fixed kept", numFmt{kind: fmtFixed}, "1e300", false, "1e300"},
	}
	for _, tt := range tests {
		if got := tt.f.render(tt.v, tt.date1904); got != tt.want {
			t.Errorf("%s: render(%q) = %q, want %q", tt.name, tt.v, got, tt.want)
		}
	}
}

func TestReadCellStyles(t *testing.T) {
	styles := `<styleSheet><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy/mm/dd"/><numFmt numFmtId="165" formatCode="0.0%"/></numFmts>
<cellStyleXfs count="1"><xf numFmtId="10"/></cellStyleXfs>
<cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="9"/></cellXfs></styleSheet>`
	st, err := readCellStyles(context.Background(), strings.NewReader(styles))
	if err != nil {
		t.Fatal(err)
	}
	want := []numFmt{{}, {kind: fmtDate}, {kind: fmtDate}, {kind: fmtPercent, decimals: 1}, {kind: fmtPercent}}
	if len(st.xfs) != len(want) {
		t.Fatalf("%d cell formats, want %d (cellStyleXfs are not cell formats)", len(st.xfs), len(want))
	}
	for i, w := range want {
		if st.format(string(rune('0'+i))) != w {
			t.Errorf("style %d = %+v, want %+v", i, st.xfs[i], w)
		}
	}
	if st.format("") != (numFmt{}) || st.format("99") != (numFmt{}) || st.format("x") != (numFmt{}) {
		t.Error("an absent or unknown style must be General")
	}
}

// TestXLSXDates: a real workbook (tealeg/xlsx test fixture, made by Excel
// for Mac, 1904 date system) shows its date cell as an ISO date, and its
// other numbers, booleans and formula results as before.
func TestXLSXDates(t *testing.T) {
	doc, err := extractFile(t, filepath.Join(fidelity, "tealeg-testcelltypes.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	text := doc.Text()
	for _, want := range []string{"2015-01-01\tdate", "12345\tint", "1.024\tfloat", "TRUE\tbool", "30\tformula", "日本語\tstring"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "40543") {
		t.Errorf("the date is stored as its serial:\n%s", text)
	}
}
