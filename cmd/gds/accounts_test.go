package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/render"
)

// twoAccounts is gds with two Google accounts: the default one signed in
// as alice@home and "work" as alice@work, each with their own Drive in one
// multi-user Drive emulator, reached through Google's endpoint with the
// real drive/v3 client, OAuth transport and token files (no
// GDS_DRIVE_ENDPOINT): the emulator answers each request with the Drive of
// the bearer token's user and refuses a revoked token as Drive does.
type twoAccounts struct {
	t              *testing.T
	srv            *authtest.Server
	env            map[string]string
	emulator       *url.URL
	stdout, stderr bytes.Buffer
	// homeDoc, workDoc and teamDoc are the IDs of one file of each
	// source: home's folder, work's folder and work's Shared drive.
	homeDoc, workDoc, teamDoc string
	home                      *driveemu.Emulator // alice@home's Drive
	homeFolder                string
	workFolder, teamDrive     string
}

func newTwoAccounts(t *testing.T) *twoAccounts {
	t.Helper()
	o := newTwoAccountsSignedOut(t)
	o.srv.SignInAs("alice@home")
	o.mustRun("auth", "login")
	o.srv.SignInAs("alice@work")
	o.mustRun("auth", "login", "--account", "work")
	return o
}

// newTwoAccountsSignedOut is twoAccounts before either sign-in.
func newTwoAccountsSignedOut(t *testing.T) *twoAccounts {
	t.Helper()
	o := &twoAccounts{t: t, srv: authtest.New(t)}
	users := driveemu.NewUsers(o.srv.UserOf)
	home := users.Add("alice@home", driveemu.User{DisplayName: "Alice", EmailAddress: "alice@home.example"})
	work := users.Add("alice@work", driveemu.User{DisplayName: "Alice", EmailAddress: "alice@work.example"})
	hf := home.AddFolder("root", "Personal")
	o.home, o.homeFolder = home, hf
	o.homeDoc = home.AddDoc(hf, "Kyoto trip", "Itinerary for the Kyoto trip: temples, ryokan and the night bus.")
	home.AddDoc(hf, "Recipes", "Miso soup and onigiri recipes.")
	wf := work.AddFolder("root", "Projects")
	o.workDoc = work.AddDoc(wf, "Kyoto office plan", "Plan for opening the Kyoto office: lease, hiring and the launch budget.")
	work.AddDoc(wf, "Roadmap", "Quarterly roadmap of the search product.")
	team := work.AddSharedDrive("Team")
	o.teamDoc = work.AddDoc(team, "Kyoto offsite", "Team offsite in Kyoto: agenda and travel.")
	o.workFolder, o.teamDrive = wf, team
	drv := httptest.NewServer(users)
	t.Cleanup(drv.Close)
	o.emulator, _ = url.Parse(drv.URL)
	o.env = map[string]string{
		config.EnvHome:              t.TempDir(),
		config.EnvOAuthClientID:     o.srv.ClientID,
		config.EnvOAuthClientSecret: o.srv.ClientSecret,
		config.EnvSources:           "drive:" + hf + ",drive@work:" + wf + ",drive@work:" + team,
		config.EnvAIProvider:        "offline",
	}
	return o
}

// run runs gds in-process with the production Deps but for the OAuth
// endpoints, the browser (which follows the consent URL) and the base
// transport, which sends googleapis.com requests to the emulator.
func (o *twoAccounts) run(args ...string) int {
	o.t.Helper()
	o.stdout.Reset()
	o.stderr.Reset()
	return run(context.Background(), o.deps(""), append([]string{"gds"}, args...), buildInfo{Version: "1.2.3"})
}

// deps are the Deps of one run, reading stdin.
func (o *twoAccounts) deps(stdin string) *app.Deps {
	opts := config.LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := o.env[k]; return v, ok },
		WorkDir:   o.t.TempDir(),
		GOOS:      "linux",
	}
	cfg, err := config.Load(opts)
	d := app.New(app.Options{Config: cfg, ConfigErr: err, LoadAllConfig: func() (*config.Config, []error) { return config.LoadAll(opts) },
		IO: iostreams.IOStreams{Stdin: strings.NewReader(stdin), Stdout: &o.stdout, Stderr: &o.stderr, Lang: o.env["LANG"]}})
	d.OAuthEndpoints = o.srv.Endpoints()
	d.TokenStore = func(account string) (auth.TokenStore, error) {
		return auth.NewAccountFileStore(o.env[config.EnvHome], account), nil
	}
	d.OpenBrowser = func(_ context.Context, u string) error { _, err := authtest.Visit(u); return err }
	d.GoogleBaseClient = &http.Client{Transport: googleAPIs{emulator: o.emulator}}
	return d
}

func (o *twoAccounts) mustRun(args ...string) {
	o.t.Helper()
	if code := o.run(args...); code != exitOK {
		o.t.Fatalf("gds %s: exit %d\n%s%s", strings.Join(args, " "), code, o.stdout.String(), o.stderr.String())
	}
	if out := o.stdout.String() + o.stderr.String(); strings.Contains(out, authtest.TokenMarker) {
		o.t.Fatalf("gds %s printed a token:\n%s", strings.Join(args, " "), out)
	}
}

// search runs `gds search --json` and returns each result's account by ID.
func (o *twoAccounts) search(args ...string) map[string]string {
	o.t.Helper()
	o.mustRun(append([]string{"search", "--json"}, args...)...)
	doc := decodeDoc(o.t, o.stdout.String())
	out := map[string]string{}
	for _, r := range doc.Results {
		out[r.ID] = r.Account
	}
	return out
}

// The target: two emulator accounts indexed side by side, both
// searchable and labelled; one revoked, its sources fail alone with the
// fix named, and the other account's files still crawl and search.
func TestTwoAccountsSideBySideOneRevoked(t *testing.T) {
	o := newTwoAccounts(t)

	// gds auth status lists both accounts, signed in, no secret shown.
	o.mustRun("auth", "status", "--json", "--check")
	var st app.AuthReport
	if err := json.Unmarshal(o.stdout.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Accounts) != 2 || st.Accounts[0].Account != "default" || st.Accounts[1].Account != "work" ||
		!st.Accounts[0].Valid || !st.Accounts[1].Valid || !st.LoggedIn {
		t.Fatalf("auth status: %s", o.stdout.String())
	}
	// The second sign-in showed Google's account chooser.
	reqs := o.srv.AuthRequests()
	if p := reqs[len(reqs)-1].Get("prompt"); !slices.Contains(strings.Fields(p), "select_account") {
		t.Errorf("the --account login asked prompt=%q, want the account chooser", p)
	}

	o.mustRun("crawl")
	got := o.search("Kyoto")
	want := map[string]string{o.homeDoc: "default", o.workDoc: "work", o.teamDoc: "work"}
	for id, account := range want {
		if got[id] != account {
			t.Errorf("search Kyoto: %s has account %q, want %q (results %v)", id, got[id], account, got)
		}
	}
	// --source drive@work narrows to the work account (its folder and its
	// Shared drive); --source drive to the default account.
	if got := o.search("--source", "drive@work", "Kyoto"); len(got) != 2 || got[o.workDoc] != "work" || got[o.teamDoc] != "work" {
		t.Errorf("--source drive@work: %v", got)
	}
	if got := o.search("--source", "drive", "Kyoto"); len(got) != 1 || got[o.homeDoc] != "default" {
		t.Errorf("--source drive: %v", got)
	}
	// The terminal labels each result with its account.
	o.mustRun("search", "Kyoto")
	if out := o.stdout.String(); !strings.Contains(out, "Drive (work)") || !strings.Contains(out, "(Drive · ") {
		t.Errorf("terminal results do not name the accounts:\n%s", out)
	}

	// work's grant is revoked (at Google: its access token stops working
	// at once, its refresh token is refused).
	o.srv.RevokeUser("alice@work")
	for _, lang := range []string{i18n.En, i18n.Ja} {
		o.env["LANG"] = lang
		code := o.run("crawl")
		out := o.stdout.String() + o.stderr.String()
		if code != exitAuth {
			t.Fatalf("%s: crawl with work revoked: exit %d, want %d\n%s", lang, code, exitAuth, out)
		}
		if strings.Count(out, "gds auth login --account work") < 2 || strings.Contains(out, authtest.TokenMarker) {
			t.Errorf("%s: the crawl does not name the fix of each of work's two sources:\n%s", lang, out)
		}
		if lang == i18n.Ja && !strings.Contains(out, "アカウント work") {
			t.Errorf("ja: not in Japanese:\n%s", out)
		}
	}
	delete(o.env, "LANG")

	// The default account's source still crawls: a file added to its
	// Drive since is indexed by the same crawl that failed work's sources.
	added := o.home.AddDoc(o.homeFolder, "Kyoto photos list", "Which Kyoto photos to print.")
	if code := o.run("crawl"); code != exitAuth {
		t.Fatalf("crawl: exit %d\n%s", code, o.stderr.String())
	}
	// Both accounts' files are still found (work's from the local index),
	// labelled; the search says work's Drive was not asked and how to fix it.
	o.mustRun("search", "--json", "Kyoto")
	doc := decodeDoc(t, o.stdout.String())
	accounts := map[string]string{}
	for _, r := range doc.Results {
		accounts[r.ID] = r.Account
	}
	for id, account := range map[string]string{added: "default", o.homeDoc: "default", o.workDoc: "work", o.teamDoc: "work"} {
		if accounts[id] != account {
			t.Errorf("search after work's revocation: %s has account %q, want %q (%v)", id, accounts[id], account, accounts)
		}
	}
	named := false
	for _, n := range doc.Degraded {
		named = named || n.Account == "work" && n.Reason == "auth" && strings.Contains(n.Message, "gds auth login --account work")
	}
	if !named {
		t.Errorf("the search does not say work's sign-in failed, with the fix: %+v", doc.Degraded)
	}
	// auth status --check names the broken account; the default is fine.
	if code := o.run("auth", "status", "--json", "--check"); code != exitAuth {
		t.Errorf("auth status --check: exit %d, want %d", code, exitAuth)
	}
	st = app.AuthReport{}
	if err := json.Unmarshal(o.stdout.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if !st.Accounts[0].Valid || st.Accounts[1].Valid || !strings.Contains(st.Accounts[1].Problem, "--account work") {
		t.Errorf("auth status after the revocation: %s", o.stdout.String())
	}

	// Signing work in again repairs only it; logout removes only it.
	o.mustRun("auth", "login", "--account", "work")
	o.mustRun("crawl")
	o.mustRun("auth", "logout", "--account", "work")
	o.mustRun("auth", "status", "--json")
	st = app.AuthReport{}
	if err := json.Unmarshal(o.stdout.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if !st.LoggedIn || len(st.Accounts) != 2 || st.Accounts[1].LoggedIn {
		t.Errorf("after logout --account work: %s", o.stdout.String())
	}
	// Signed out, work's files are still found (the local index), and the
	// search says how to sign it in again.
	o.mustRun("search", "--json", "--source", "drive@work", "Kyoto")
	doc = decodeDoc(t, o.stdout.String())
	if len(doc.Results) != 2 || len(doc.Degraded) != 1 || doc.Degraded[0].Account != "work" ||
		!strings.Contains(doc.Degraded[0].Message, "gds auth login --account work") {
		t.Errorf("search of a signed-out account: %+v %+v", doc.Results, doc.Degraded)
	}
}

// A bad account name is a usage error in both languages, before anything
// is stored or opened.
func TestAccountNameUsage(t *testing.T) {
	o := newTwoAccounts(t)
	o.mustRun("crawl")
	for _, args := range [][]string{
		{"auth", "login", "--account", "Work"},
		{"auth", "logout", "--account", "a b"},
		{"search", "--source", "drive@Work", "Kyoto"},
		{"crawl", "--source", "drive@"},
	} {
		for _, lang := range []string{i18n.En, i18n.Ja} {
			o.env["LANG"] = lang
			if code := o.run(args...); code != exitUsage {
				t.Errorf("%s %v: exit %d, want %d\n%s", lang, args, code, exitUsage, o.stderr.String())
			}
			want := "lowercase letters"
			if lang == i18n.Ja {
				want = "英小文字"
			}
			if !strings.Contains(o.stderr.String(), want) {
				t.Errorf("%s %v: %q does not say which names work", lang, args, o.stderr.String())
			}
		}
	}
}

// gds doctor checks the sign-in of every account the sources use, each
// named with its own fix, and compares each account's sources with the
// index: a revoked work account fails its own line and its sources'
// coverage names its login, while the default account stays OK.
func TestDoctorChecksEveryAccount(t *testing.T) {
	o := newTwoAccounts(t)
	o.mustRun("crawl")
	type check struct {
		ID, Status, Account, Title, Detail, Fix string
		Coverage                                *struct{ Source string }
	}
	doctorChecks := func() (int, []check) {
		code := o.run("doctor", "--json")
		var rep struct{ Checks []check }
		if err := json.Unmarshal(o.stdout.Bytes(), &rep); err != nil {
			t.Fatalf("%v\n%s", err, o.stdout.String())
		}
		return code, rep.Checks
	}
	byAccount := func(checks []check) map[string]check {
		out := map[string]check{}
		for _, c := range checks {
			if c.ID == "auth" {
				out[c.Account] = c
			}
		}
		return out
	}
	coverageFix := func(checks []check) map[string]string {
		out := map[string]string{}
		for _, c := range checks {
			if c.ID == "coverage" && c.Coverage != nil {
				out[c.Coverage.Source] = c.Status + " " + c.Fix
			}
		}
		return out
	}
	_, checks := doctorChecks()
	auths := byAccount(checks)
	if len(auths) != 2 || auths["default"].Status != "ok" || auths["work"].Status != "ok" || !strings.Contains(auths["work"].Title, "work") {
		t.Fatalf("doctor before the revocation: %+v", auths)
	}
	if cov := coverageFix(checks); len(cov) != 3 {
		t.Errorf("coverage of the three sources: %v", cov)
	}

	o.srv.RevokeUser("alice@work")
	code, checks := doctorChecks()
	if code == exitOK {
		t.Errorf("doctor with work revoked: exit 0")
	}
	auths = byAccount(checks)
	if auths["default"].Status != "ok" || auths["work"].Status != "fail" || auths["work"].Fix != "gds auth login --account work" {
		t.Errorf("doctor with work revoked: %+v", auths)
	}
	cov := coverageFix(checks)
	for src, fix := range cov {
		isWork := strings.HasPrefix(src, "drive@work:")
		if named := strings.Contains(fix, "gds auth login --account work"); named != isWork {
			t.Errorf("coverage of %s: %q", src, fix)
		}
	}
	// The text report, in Japanese too, names the account and its fix.
	for _, lang := range []string{i18n.En, i18n.Ja} {
		o.env["LANG"] = lang
		o.run("doctor")
		out := o.stdout.String()
		title := "Google sign-in (work)"
		if lang == i18n.Ja {
			title = "Google ログイン（work）"
		}
		if !strings.Contains(out, title) || !strings.Contains(out, "gds auth login --account work") || strings.Contains(out, authtest.TokenMarker) {
			t.Errorf("%s: doctor does not name work's sign-in and fix:\n%s", lang, out)
		}
	}
}

// gds init's wizard offers another Google account after the default
// account's folders: its name signs it in (Google's account chooser) and
// opens its Drive, whose picks — a folder and a Shared drive — are written
// as drive@NAME sources; the crawl then indexes both accounts.
func TestInitWizardAddsASecondAccount(t *testing.T) {
	o := newTwoAccountsSignedOut(t)
	delete(o.env, config.EnvSources) // init writes them to the home .env
	script := strings.Join([]string{
		"1",         // sources: Google Drive → signs in the default account
		"1",         // top: open My Drive
		"2",         // My Drive: open Personal
		"1",         // use Personal
		"4",         // done
		"Work Mail", // another account: a bad name…
		"work",      // …then work → signs in with the account chooser
		"2",         // work's top: open the Team Shared drive
		"1",         // use Team
		"3",         // back to the top
		"1",         // open work's My Drive
		"2",         // open Projects
		"1",         // use Projects
		"4",         // done
		"",          // no third account
		"1",         // offline provider
		"n", "n",    // no crawl, no schedule
	}, "\n") + "\n"
	d := o.deps(script)
	var out bytes.Buffer
	signedIn := []string{}
	d.OpenBrowser = func(_ context.Context, u string) error {
		// Each sign-in picks its Google user: the chooser (prompt
		// select_account) is the second account's.
		who := "alice@home"
		if strings.Contains(u, "select_account") {
			who = "alice@work"
		}
		o.srv.SignInAs(who)
		signedIn = append(signedIn, who)
		_, err := authtest.Visit(u)
		return err
	}
	res, err := d.InitWizard(context.Background(), app.InitWizardRequest{
		UI: &render.InitPrompter{In: render.NewLines(d.Stdin), Out: &out, Lang: i18n.En},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	transcript := out.String()
	for _, want := range []string{"Add another Google account?", "lowercase letters", "Google account work: its folders become drive@work:FOLDER_ID sources", "▸ Team (Shared drive)"} {
		if !strings.Contains(transcript, want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript)
		}
	}
	if strings.Join(signedIn, ",") != "alice@home,alice@work" || res.OfferAccount() {
		t.Errorf("sign-ins %v, offer printed after the wizard %v", signedIn, res.OfferAccount())
	}
	want := "drive:" + o.homeFolder + ",drive@work:" + o.teamDrive + ",drive@work:" + o.workFolder
	var sources string
	for _, st := range res.Set {
		if st.Name == config.EnvSources {
			sources = st.Value
		}
	}
	if sources != want {
		t.Fatalf("GDS_SOURCES=%s, want %s\n%s", sources, want, transcript)
	}
	o.mustRun("crawl")
	got := o.search("Kyoto")
	for id, account := range map[string]string{o.homeDoc: "default", o.workDoc: "work", o.teamDoc: "work"} {
		if got[id] != account {
			t.Errorf("after init and crawl: %s has account %q, want %q (%v)", id, got[id], account, got)
		}
	}
}
