package driveemu

import (
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Users is several Google users behind one Drive endpoint, each with an
// Emulator of their own (their My Drive, Shared drives and about.get
// user). The request's bearer token says whose Drive answers: Auth maps a
// token to a user name, so tokens can come from a fake OAuth server
// (authtest) or from a fixed table (StaticTokens). A request without a
// token, or with one Auth does not accept (revoked, expired, unknown), is
// answered as Drive answers it: 401 with reason authError and a
// WWW-Authenticate header.
//
//	users := driveemu.NewUsers(driveemu.StaticTokens(map[string]string{"tok-w": "work"}))
//	work := users.Add("work", driveemu.User{EmailAddress: "me@work.example"})
//	work.AddDoc("root", "Plan", "the plan")
//	srv := httptest.NewServer(users)
type Users struct {
	// Auth returns the user of a bearer token, ok false when the token is
	// not accepted.
	Auth func(token string) (user string, ok bool)

	mu    sync.RWMutex
	users map[string]*Emulator
}

// NewUsers returns an endpoint with no users yet.
func NewUsers(auth func(token string) (string, bool)) *Users {
	return &Users{Auth: auth, users: map[string]*Emulator{}}
}

// StaticTokens is an Auth accepting the tokens of a fixed table (token →
// user).
func StaticTokens(tokens map[string]string) func(string) (string, bool) {
	return func(tok string) (string, bool) {
		u, ok := tokens[tok]
		return u, ok
	}
}

// Add creates user name's Drive (an empty Emulator whose about.get is u)
// and returns it; adding a name again returns the existing Drive.
func (u *Users) Add(name string, user User) *Emulator {
	u.mu.Lock()
	defer u.mu.Unlock()
	if e, ok := u.users[name]; ok {
		return e
	}
	e := New()
	e.SetUser(user)
	// Every user's IDs differ, their My Drive root's too.
	e.salt = name + "/"
	root := e.files[e.rootID]
	delete(e.files, e.rootID)
	e.rootID = e.newID("root", name)
	root.ID = e.rootID
	e.files[e.rootID] = root
	u.users[name] = e
	return e
}

// Put makes e user name's Drive, replacing any: a Drive built elsewhere
// (a fixture), whose IDs, unlike Add's, are kept as they are.
func (u *Users) Put(name string, e *Emulator) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.users[name] = e
}

// Names returns the users' names, sorted.
func (u *Users) Names() []string {
	u.mu.RLock()
	defer u.mu.RUnlock()
	out := make([]string, 0, len(u.users))
	for n := range u.users {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Drive returns user name's Emulator, nil when there is none.
func (u *Users) Drive(name string) *Emulator {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.users[name]
}

// ServeHTTP answers with the Drive of the token's user.
func (u *Users) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	var name string
	if ok && u.Auth != nil {
		name, ok = u.Auth(strings.TrimSpace(tok))
	}
	e := u.Drive(name)
	if !ok || e == nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
		writeError(w, &apiError{Code: http.StatusUnauthorized, Domain: "global", Reason: "authError",
			Message: "Invalid Credentials", LocationType: "header", Location: "Authorization"})
		return
	}
	e.ServeHTTP(w, r)
}
