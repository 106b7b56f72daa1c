package server

import (
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

func TestJSONSyntax(t *testing.T) {
	tests := []struct {
		body string
		ok   bool
		want jsonPos
		msg  string
	}{
		{`{"question": "x"}`, false, jsonPos{}, ""},
		{`{"question": nope}`, true, jsonPos{Offset: 15, Line: 1, Column: 15, Char: 'o'},
			`the request body is not valid JSON at line 1, column 15 (byte 15): unexpected "o" (strings need double quotes; no trailing commas)`},
		{`{"question": "x",}`, true, jsonPos{Offset: 18, Line: 1, Column: 18, Char: '}'}, ""},
		{"{\n  \"question\": 'x'\n}", true, jsonPos{Offset: 17, Line: 2, Column: 15, Char: '\''}, ""},
		{"{\"質問\": \"x\" x}", true, jsonPos{Offset: 16, Line: 1, Column: 12, Char: 'x'}, ""},
		{`{"question": "x"`, true, jsonPos{Offset: 17, Line: 1, Column: 17, EOF: true},
			`the request body is not valid JSON at line 1, column 17 (byte 17): the body ends inside the JSON value`},
		{`{"a":1x`, true, jsonPos{Offset: 7, Line: 1, Column: 7, Char: 'x'}, ""},
		{``, true, jsonPos{Offset: 1, Line: 1, Column: 1, EOF: true}, ""},
		{`{"a":1} {}`, true, jsonPos{Offset: 9, Line: 1, Column: 9, Char: '{'}, ""},
	}
	for _, tc := range tests {
		got, bad := jsonSyntax([]byte(tc.body))
		if bad != tc.ok || got != tc.want {
			t.Errorf("jsonSyntax(%q) = %+v, %v; want %+v, %v", tc.body, got, bad, tc.want, tc.ok)
		}
		if tc.msg != "" {
			if m := got.message(i18n.En); m != tc.msg {
				t.Errorf("message(%q) = %q\nwant %q", tc.body, m, tc.msg)
			}
		}
	}
}
