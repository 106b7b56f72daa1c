package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/auth"
)

// One account prints its table alone, as before accounts existed; several
// print one table each, named.
func TestAuthStatusAccounts(t *testing.T) {
	def := auth.AccountStatus{Account: "default", Status: auth.Status{LoggedIn: true, Store: "/h/credentials/google-oauth-token.json", ClientMatches: true, HasRefreshToken: true}}
	work := auth.AccountStatus{Account: "work", Status: auth.Status{Store: "/h/credentials/google-oauth-token@work.json"}}
	var b bytes.Buffer
	if err := AuthStatusText(&b, []auth.AccountStatus{def}, "en"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Account:") {
		t.Errorf("one account names it:\n%s", b.String())
	}
	b.Reset()
	if err := AuthStatusText(&b, []auth.AccountStatus{def, work}, "en"); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	i, j := strings.Index(got, "default\n"), strings.Index(got, "work\n")
	if i < 0 || j < i || !strings.Contains(got[j:], "@work.json") || strings.Contains(got[i:j], "@work.json") ||
		!strings.Contains(got[j:], "gds auth login --account work") {
		t.Errorf("two accounts:\n%s", got)
	}
}

func TestInitOffersSecondAccount(t *testing.T) {
	for _, offer := range []bool{false, true} {
		var b bytes.Buffer
		InitResult(&b, &b, InitSummary{EnvFile: "/h/.env", OfferAccount: offer}, "en")
		if got := strings.Contains(b.String(), "gds auth login --account work"); got != offer {
			t.Errorf("offer %v: %q", offer, b.String())
		}
	}
}
