package auth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"
)

// Status is what `gds auth status` reports. It never holds a token.
type Status struct {
	LoggedIn        bool       `json:"logged_in"`
	Store           string     `json:"store"`
	ClientID        string     `json:"client_id,omitempty"`
	ClientMatches   bool       `json:"client_matches"`
	Scopes          []string   `json:"scopes"`
	ObtainedAt      *time.Time `json:"obtained_at,omitempty"`
	RefreshedAt     *time.Time `json:"refreshed_at,omitempty"` // last accepted refresh
	AccessExpiry    *time.Time `json:"access_token_expiry,omitempty"`
	HasRefreshToken bool       `json:"has_refresh_token"`
	// Checked is true when the sign-in was tried against Google (--check);
	// Valid is then its result and Problem the reason it failed.
	Checked bool   `json:"checked"`
	Valid   bool   `json:"valid"`
	Problem string `json:"problem,omitempty"`
}

// AccountStatus is the sign-in of one Google account (never a secret).
type AccountStatus struct {
	// Account is "default" or the account's name.
	Account string `json:"account"`
	Status
}

// Inspect reports the stored sign-in without contacting Google. A missing
// record is LoggedIn false, not an error.
func Inspect(ctx context.Context, store TokenStore, clientID string) (Status, error) {
	st := Status{Store: store.Location(), Scopes: []string{}}
	rec, err := store.Load(ctx)
	if errors.Is(err, ErrNotLoggedIn) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	st.LoggedIn = true
	st.ClientID = rec.ClientID
	st.ClientMatches = rec.ClientID == clientID
	if rec.Scopes != nil {
		st.Scopes = rec.Scopes
	}
	if !rec.ObtainedAt.IsZero() {
		t := rec.ObtainedAt
		st.ObtainedAt = &t
	}
	if !rec.RefreshedAt.IsZero() {
		t := rec.RefreshedAt
		st.RefreshedAt = &t
	}
	if !rec.Token.Expiry.IsZero() {
		t := rec.Token.Expiry
		st.AccessExpiry = &t
	}
	st.HasRefreshToken = rec.Token.RefreshToken != ""
	return st, nil
}

// decodeJSON reads a small JSON response body into v.
func decodeJSON(resp *http.Response, v any) error {
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(v)
}
