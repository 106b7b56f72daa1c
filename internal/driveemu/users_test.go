package driveemu_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"golang.org/x/oauth2"
	"google.golang.org/api/drive/v3"
	"google.golang.org/api/option"

	"github.com/gds-cli/gds/internal/driveemu"
)

// Each user sees their own files and Shared drives, chosen by the bearer
// token; a token the endpoint does not accept gets Drive's 401 authError.
func TestUsersEachSeeTheirOwnDrive(t *testing.T) {
	var mu sync.Mutex
	tokens := map[string]string{"tok-work": "work", "tok-home": "home"}
	users := driveemu.NewUsers(func(tok string) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		return driveemu.StaticTokens(tokens)(tok)
	})
	work := users.Add("work", driveemu.User{DisplayName: "Work", EmailAddress: "me@work.example"})
	home := users.Add("home", driveemu.User{DisplayName: "Home", EmailAddress: "me@home.example"})
	work.AddDoc("root", "Work plan", "quarterly plan")
	sd := work.AddSharedDrive("Team")
	work.AddDoc(sd, "Team notes", "team")
	home.AddDoc("root", "Holiday", "trip plan")
	if work.RootID() == home.RootID() || work.RootID() == driveemu.New().RootID() {
		t.Errorf("root IDs %q %q are not each user's own", work.RootID(), home.RootID())
	}
	srv := httptest.NewServer(users)
	t.Cleanup(srv.Close)

	svc := func(tok string) *drive.Service {
		s, err := drive.NewService(context.Background(), option.WithEndpoint(srv.URL+"/drive/v3/"),
			option.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok})))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	names := func(tok string) []string {
		out := listAll(t, svc(tok).Files.List().Q("trashed = false and mimeType != 'application/vnd.google-apps.folder'").
			Corpora("allDrives").IncludeItemsFromAllDrives(true).SupportsAllDrives(true))
		slices.Sort(out)
		return out
	}
	if got := names("tok-work"); !slices.Equal(got, []string{"Team notes", "Work plan"}) {
		t.Errorf("work sees %v", got)
	}
	if got := names("tok-home"); !slices.Equal(got, []string{"Holiday"}) {
		t.Errorf("home sees %v", got)
	}
	about, err := svc("tok-home").About.Get().Fields("user").Do()
	if err != nil || about.User.EmailAddress != "me@home.example" {
		t.Errorf("about.get of home = %+v, %v", about, err)
	}

	mu.Lock()
	delete(tokens, "tok-home") // revoked
	mu.Unlock()
	_, err = svc("tok-home").Files.List().Do()
	apiErr(t, err, 401, "authError")
	if got := names("tok-work"); len(got) != 2 {
		t.Errorf("work after home's revocation sees %v", got)
	}
}
