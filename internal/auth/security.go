package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// SecurityPath is the macOS keychain command-line tool.
const SecurityPath = "/usr/bin/security"

// Exit statuses of security(1): the low byte of the OSStatus.
const (
	securityNotFound              = 44  // errSecItemNotFound (-25300)
	securityInteractionNotAllowed = 36  // errSecInteractionNotAllowed (-25308): locked, or no UI (launchd)
	securityAuthFailed            = 51  // errSecAuthFailed (-25293): the user refused the password prompt
	securityUserCanceled          = 128 // errSecUserCanceled (-128)
)

// securityMaxLine is the longest command line `security -i` reads; longer
// lines are cut, so Save refuses them.
const securityMaxLine = 4096

// CommandRunner runs a program with stdin and returns its standard output,
// standard error and exit status. err is set only when the program could
// not run at all (a non-zero status is not an error).
type CommandRunner func(ctx context.Context, stdin []byte, name string, args ...string) (stdout, stderr []byte, status int, err error)

// ExecRunner runs the program with os/exec.
func ExecRunner(ctx context.Context, stdin []byte, name string, args ...string) ([]byte, []byte, int, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.Bytes(), errb.Bytes(), ee.ExitCode(), nil
	}
	if err != nil {
		return nil, nil, -1, fmt.Errorf("run %s: %w", name, err)
	}
	return out.Bytes(), errb.Bytes(), 0, nil
}

// SecurityStore keeps the record in the macOS login Keychain through
// /usr/bin/security, for darwin builds without cgo. It uses the same item
// as KeychainStore (service KeychainService, account KeychainAccount, data
// = encodeRecord's JSON).
//
// Writing: `security -i` reads commands from its standard input, so the
// line `add-generic-password -U -s … -a … -l … -w '<json>'` is written to
// stdin and the token never appears in the process arguments (visible to
// every user in ps). The JSON contains no single quote and no byte outside
// printable ASCII (encodeRecord), so single quotes delimit it safely. The
// exit status of interactive mode is not trusted: Save reads the item back
// and compares. Reading uses `find-generic-password -w` (the secret comes
// back on stdout), deleting `delete-generic-password`; status 44 means no
// item.
type SecurityStore struct {
	Service string
	Account string
	Path    string        // the security binary; "" means SecurityPath
	Run     CommandRunner // nil means ExecRunner
}

var _ TokenStore = SecurityStore{}

// NewSecurityStore returns the store of gds's Keychain item.
func NewSecurityStore() SecurityStore {
	return SecurityStore{Service: KeychainService, Account: KeychainAccount, Path: SecurityPath, Run: ExecRunner}
}

func (s SecurityStore) run(ctx context.Context, stdin []byte, args ...string) ([]byte, []byte, int, error) {
	path, run := s.Path, s.Run
	if path == "" {
		path = SecurityPath
	}
	if run == nil {
		run = ExecRunner
	}
	return run(ctx, stdin, path, args...)
}

// Location names the Keychain item.
func (s SecurityStore) Location() string {
	return fmt.Sprintf("macOS Keychain (service %s, account %s; via %s)", s.Service, s.Account, SecurityPath)
}

// Load reads the item.
func (s SecurityStore) Load(ctx context.Context) (*Record, error) {
	data, err := s.read(ctx)
	if err != nil {
		return nil, err
	}
	r, err := decodeRecord(data)
	if err != nil {
		return nil, fmt.Errorf("decode the Keychain item %s: %w", s.Service, err)
	}
	return r, nil
}

func (s SecurityStore) read(ctx context.Context) ([]byte, error) {
	out, errOut, status, err := s.run(ctx, nil, "find-generic-password", "-s", s.Service, "-a", s.Account, "-w")
	if err != nil {
		return nil, fmt.Errorf("read the Keychain item %s: %w", s.Service, err)
	}
	switch status {
	case 0:
		return bytes.TrimRight(out, "\r\n"), nil
	case securityNotFound:
		return nil, newError(ErrNotLoggedIn, "auth.err.not_logged_in", nil)
	default:
		return nil, securityError("read", s.Service, status, errOut)
	}
}

// Save writes the item through `security -i` (secret on stdin only) and
// reads it back.
func (s SecurityStore) Save(ctx context.Context, r *Record) error {
	data, err := encodeRecord(r)
	if err != nil {
		return err
	}
	for _, v := range []string{s.Service, s.Account} {
		if v == "" || strings.ContainsAny(v, " '\"\\\n") {
			return fmt.Errorf("save to the Keychain: unsupported service or account name %q", v)
		}
	}
	line := fmt.Sprintf("add-generic-password -U -s %s -a %s -l '%s' -w '%s'\n", s.Service, s.Account, KeychainLabel, data)
	if len(line) > securityMaxLine {
		return fmt.Errorf("save to the Keychain: the token record is %d bytes, too long for `security -i` (max %d)", len(data), securityMaxLine)
	}
	_, errOut, status, err := s.run(ctx, []byte(line), "-i")
	if err == nil && status == securityInteractionNotAllowed {
		// Some macOS versions answer 36 to -U for an item that does not
		// exist yet: retry once as a plain add (still on stdin).
		plain := strings.Replace(line, " -U ", " ", 1)
		if _, _, st2, err2 := s.run(ctx, []byte(plain), "-i"); err2 == nil && st2 == 0 {
			status = 0
		}
	}
	if err != nil {
		return fmt.Errorf("save to the Keychain item %s: %w", s.Service, err)
	}
	if status != 0 {
		return securityError("save", s.Service, status, errOut)
	}
	got, err := s.read(ctx)
	if err != nil {
		return fmt.Errorf("check the saved Keychain item %s: %w", s.Service, err)
	}
	if !bytes.Equal(got, data) {
		return fmt.Errorf("check the saved Keychain item %s: the stored data differs from what was written", s.Service)
	}
	return nil
}

// Delete removes the item.
func (s SecurityStore) Delete(ctx context.Context) error {
	_, errOut, status, err := s.run(ctx, nil, "delete-generic-password", "-s", s.Service, "-a", s.Account)
	if err != nil {
		return fmt.Errorf("delete the Keychain item %s: %w", s.Service, err)
	}
	if status != 0 && status != securityNotFound {
		return securityError("delete", s.Service, status, errOut)
	}
	return nil
}

// securityError describes a failed security(1) run. stderr of security
// never contains the password data, but it is cut to one line anyway.
func securityError(op, service string, status int, stderr []byte) error {
	msg := strings.TrimSpace(string(stderr))
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 200 {
		msg = msg[:200]
	}
	cause := fmt.Errorf("%s the Keychain item %s: security exited with status %d: %s", op, service, status, msg)
	switch status {
	case securityInteractionNotAllowed, securityAuthFailed, securityUserCanceled:
		return newError(ErrKeychain, "auth.err.keychain", cause)
	}
	return cause
}
