package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// fakeSecurity emulates /usr/bin/security on one in-memory keychain and
// records every call.
type fakeSecurity struct {
	items  map[string][]byte // service/account → data
	calls  []fakeCall
	status int // forced exit status of the next call, if non-zero
}

type fakeCall struct {
	name  string
	args  []string
	stdin string
}

func (f *fakeSecurity) run(_ context.Context, stdin []byte, name string, args ...string) ([]byte, []byte, int, error) {
	f.calls = append(f.calls, fakeCall{name: name, args: args, stdin: string(stdin)})
	if f.status != 0 {
		st := f.status
		f.status = 0
		return nil, []byte("security: SecKeychainItemCreateFromContent: User interaction is not allowed.\n"), st, nil
	}
	if len(args) == 1 && args[0] == "-i" {
		for _, line := range strings.Split(strings.TrimSpace(string(stdin)), "\n") {
			words, err := splitSecurityLine(line)
			if err != nil {
				return nil, []byte(err.Error()), 1, nil
			}
			if _, _, st, _ := f.exec(words); st != 0 {
				return nil, nil, st, nil
			}
		}
		return nil, nil, 0, nil
	}
	return f.exec(args)
}

func (f *fakeSecurity) exec(words []string) ([]byte, []byte, int, error) {
	opt := map[string]string{}
	flags := map[string]bool{}
	for i := 1; i < len(words); i++ {
		switch w := words[i]; w {
		case "-U":
			flags[w] = true
		case "-w":
			if i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
				opt[w] = words[i+1]
				i++
			} else {
				flags[w] = true
			}
		default:
			if i+1 < len(words) {
				opt[w] = words[i+1]
				i++
			}
		}
	}
	key := opt["-s"] + "/" + opt["-a"]
	switch words[0] {
	case "add-generic-password":
		if _, ok := f.items[key]; ok && !flags["-U"] {
			return nil, []byte("already exists"), 45, nil
		}
		f.items[key] = []byte(opt["-w"])
		return nil, nil, 0, nil
	case "find-generic-password":
		d, ok := f.items[key]
		if !ok {
			return nil, []byte("security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n"), 44, nil
		}
		return append(append([]byte(nil), d...), '\n'), nil, 0, nil
	case "delete-generic-password":
		if _, ok := f.items[key]; !ok {
			return nil, nil, 44, nil
		}
		delete(f.items, key)
		return nil, nil, 0, nil
	}
	return nil, []byte("unknown command " + words[0]), 1, nil
}

// splitSecurityLine splits a `security -i` line into words, honouring
// single and double quotes as security's command parser does.
func splitSecurityLine(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, c := range line {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote")
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

func newFakeSecurityStore() (SecurityStore, *fakeSecurity) {
	f := &fakeSecurity{items: map[string][]byte{}}
	s := NewSecurityStore()
	s.Run = f.run
	return s, f
}

func TestSecurityStoreSecretOnlyOnStdin(t *testing.T) {
	ctx := context.Background()
	s, f := newFakeSecurityStore()
	if _, err := s.Load(ctx); !errors.Is(err, ErrNotLoggedIn) {
		t.Fatalf("empty keychain: %v", err)
	}
	rec := testRecord()
	if err := s.Save(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Token.AccessToken = "ya29.updated-SECRET"
	if err := s.Save(ctx, rec); err != nil { // -U updates in place
		t.Fatal(err)
	}
	got, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Token.AccessToken != "ya29.updated-SECRET" || got.Token.RefreshToken != rec.Token.RefreshToken {
		t.Errorf("round trip: %+v", got.Token)
	}
	sawStdinSecret := false
	for _, c := range f.calls {
		if c.name != SecurityPath {
			t.Errorf("ran %q, want %s", c.name, SecurityPath)
		}
		if strings.Contains(strings.Join(c.args, " "), "SECRET") {
			t.Errorf("a token is on argv: %v", c.args)
		}
		if strings.Contains(c.stdin, "SECRET") {
			sawStdinSecret = true
			if len(c.args) != 1 || c.args[0] != "-i" || !strings.HasPrefix(c.stdin, "add-generic-password -U -s dev.gds.oauth -a default ") {
				t.Errorf("secret sent with args %v stdin prefix %.60q", c.args, c.stdin)
			}
		}
	}
	if !sawStdinSecret {
		t.Error("the token never went through stdin")
	}
	// The item holds exactly the bytes KeychainStore (cgo) writes with
	// SetData(encodeRecord(rec)): the two darwin builds share it.
	want, _ := encodeRecord(rec)
	if string(f.items["dev.gds.oauth/default"]) != string(want) {
		t.Errorf("item data %s\nwant %s", f.items["dev.gds.oauth/default"], want)
	}
	if err := s.Delete(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx); err != nil {
		t.Errorf("second delete: %v", err)
	}
	if _, err := s.Load(ctx); !errors.Is(err, ErrNotLoggedIn) {
		t.Errorf("after delete: %v", err)
	}
}

func TestSecurityStoreReadsItemWrittenByOtherBuild(t *testing.T) {
	s, f := newFakeSecurityStore()
	data, _ := encodeRecord(testRecord())
	f.items["dev.gds.oauth/default"] = data // as KeychainStore writes it
	got, err := s.Load(context.Background())
	if err != nil || got.Token.RefreshToken != "1//refresh-SECRET" {
		t.Fatalf("load: %v", err)
	}
}

func TestSecurityStoreLockedKeychain(t *testing.T) {
	s, f := newFakeSecurityStore()
	f.status = securityInteractionNotAllowed
	_, err := s.Load(context.Background())
	if !errors.Is(err, ErrKeychain) || !strings.Contains(err.Error(), "gds auth status") {
		t.Errorf("err = %v", err)
	}
}

func TestSecurityStoreDetectsLostWrite(t *testing.T) {
	s, f := newFakeSecurityStore()
	s.Run = func(ctx context.Context, stdin []byte, name string, args ...string) ([]byte, []byte, int, error) {
		if len(args) == 1 && args[0] == "-i" {
			return nil, nil, 0, nil // interactive mode "succeeds" without writing
		}
		return f.run(ctx, stdin, name, args...)
	}
	if err := s.Save(context.Background(), testRecord()); err == nil {
		t.Error("a write that did not happen was reported as saved")
	}
}
