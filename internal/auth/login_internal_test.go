package auth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

func TestParseCallback(t *testing.T) {
	cases := []struct {
		query    string
		wantCode string
		wantKey  string
	}{
		{"code=abc&state=S1", "abc", ""},
		{"code=abc&state=S2", "", "auth.err.state_mismatch"},
		{"code=abc", "", "auth.err.state_mismatch"},
		{"code=abc&state=", "", "auth.err.state_mismatch"},
		{"state=S1", "", "auth.err.no_code"},
		{"error=access_denied&state=S1", "", "auth.err.denied"},
	}
	for _, tc := range cases {
		q, _ := url.ParseQuery(tc.query)
		code, err := parseCallback(q, "S1")
		var ae *Error
		switch {
		case tc.wantKey == "" && (err != nil || code != tc.wantCode):
			t.Errorf("%s: code %q err %v", tc.query, code, err)
		case tc.wantKey != "" && (!errors.As(err, &ae) || string(ae.Key) != tc.wantKey || !errors.Is(err, ErrLoginFailed)):
			t.Errorf("%s: err %v, want key %s", tc.query, err, tc.wantKey)
		}
	}
}

func TestTokenErrorMapping(t *testing.T) {
	grant := &oauth2.RetrieveError{ErrorCode: "invalid_grant", Body: []byte(`{"error":"invalid_grant","refresh":"1//XYZZY"}`)}
	client := &oauth2.RetrieveError{ErrorCode: "invalid_client"}
	other := &oauth2.RetrieveError{ErrorCode: "server_error", Body: []byte("1//XYZZY")}
	cases := []struct {
		err        error
		hadRefresh bool
		want       error
	}{
		{fmt.Errorf("wrapped: %w", grant), true, ErrReauthRequired},
		{client, true, ErrNoClient},
		{errors.New("oauth2: token expired and refresh token is not set"), false, ErrReauthRequired},
		{other, true, nil},
	}
	for _, tc := range cases {
		got := tokenError(tc.err, tc.hadRefresh, Testing{})
		if tc.want != nil && !errors.Is(got, tc.want) {
			t.Errorf("%v → %v, want %v", tc.err, got, tc.want)
		}
		if strings.Contains(got.Error(), "XYZZY") {
			t.Errorf("%v: message shows the body: %v", tc.err, got)
		}
	}
}

func TestBrowserCommand(t *testing.T) {
	const u = "https://accounts.google.com/o/oauth2/auth?a=1&b=2"
	for goos, want := range map[string]string{"darwin": "open", "linux": "xdg-open", "freebsd": "xdg-open", "windows": "rundll32"} {
		name, args := BrowserCommand(goos, u)
		if name != want || args[len(args)-1] != u {
			t.Errorf("%s: %s %v", goos, name, args)
		}
	}
}

func TestGoogleEndpoints(t *testing.T) {
	ep := Endpoints{}.orGoogle()
	if ep.AuthURL != "https://accounts.google.com/o/oauth2/auth" || ep.TokenURL != "https://oauth2.googleapis.com/token" || ep.RevokeURL != GoogleRevokeURL {
		t.Errorf("%+v", ep)
	}
}
