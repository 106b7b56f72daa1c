package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/i18n"
)

// AuthStatusText writes `gds auth status`: the sign-in of each Google
// account as an aligned table, a blank line between accounts; with only
// the default account, its table alone.
func AuthStatusText(w io.Writer, accounts []auth.AccountStatus, lang string) error {
	for i, a := range accounts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := authStatusTable(w, a, len(accounts) > 1, lang); err != nil {
			return err
		}
	}
	return nil
}

func authStatusTable(w io.Writer, a auth.AccountStatus, named bool, lang string) error {
	st := a.Status
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(k i18n.Key, v string) { fmt.Fprintf(tw, "%s:\t%s\n", i18n.T(lang, k), v) }
	yesNo := func(b bool) string {
		if b {
			return i18n.T(lang, "out.auth.status.yes")
		}
		return i18n.T(lang, "out.auth.status.no")
	}
	if named {
		row("out.auth.status.account", a.Account)
	}
	if !st.LoggedIn {
		state := i18n.T(lang, "out.auth.status.out")
		if a.Account != "" && a.Account != "default" {
			state = i18n.T(lang, "out.auth.status.out_account", a.Account)
		}
		row("out.auth.status.state", state)
		row("out.auth.status.store", st.Store)
		return tw.Flush()
	}
	row("out.auth.status.state", i18n.T(lang, "out.auth.status.in"))
	row("out.auth.status.store", st.Store)
	if st.ClientMatches {
		row("out.auth.status.client", st.ClientID)
	} else {
		row("out.auth.status.client", i18n.T(lang, "out.auth.status.other", st.ClientID))
	}
	row("out.auth.status.scopes", strings.Join(st.Scopes, " "))
	if st.ObtainedAt != nil {
		row("out.auth.status.since", st.ObtainedAt.Local().Format(time.RFC3339))
	}
	if st.AccessExpiry != nil {
		row("out.auth.status.expiry", st.AccessExpiry.Local().Format(time.RFC3339))
	}
	row("out.auth.status.refresh", yesNo(st.HasRefreshToken))
	if st.Checked {
		if st.Valid {
			row("out.auth.status.check", i18n.T(lang, "out.auth.status.ok"))
		} else {
			row("out.auth.status.check", st.Problem)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the status: %w", err)
	}
	return nil
}

// AuthLoginURL shows the sign-in URL on w (stderr, with the prompts): it
// carries the client ID, state and PKCE challenge, none of them secret.
func AuthLoginURL(w io.Writer, url string, timeout time.Duration, lang string) {
	fmt.Fprintln(w, i18n.T(lang, "out.auth.open_url", timeout))
	fmt.Fprintln(w, "  "+url)
}

// AuthLoggedIn says where the token is kept (out) and what a Testing-mode
// OAuth app means for it (errw).
func AuthLoggedIn(out, errw io.Writer, location, lang string) {
	fmt.Fprintln(out, i18n.T(lang, "out.auth.logged_in", location))
	fmt.Fprintln(errw, i18n.T(lang, "out.auth.testing_note"))
}

// AuthLoggedOut reports `gds auth logout`.
func AuthLoggedOut(w io.Writer, location string, wasStored, revoked bool, lang string) {
	switch {
	case !wasStored:
		fmt.Fprintln(w, i18n.T(lang, "out.auth.not_stored", location))
		return
	case revoked:
		fmt.Fprintln(w, i18n.T(lang, "out.auth.revoked"))
	}
	fmt.Fprintln(w, i18n.T(lang, "out.auth.logged_out", location))
}
