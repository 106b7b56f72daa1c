package schedule

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"howett.net/plist"
)

// fakeRunner records commands and answers each with the first matching
// scripted response (consumed in order), else success.
type fakeRunner struct {
	calls     []string
	responses []fakeResponse
}

type fakeResponse struct {
	prefix string
	out    string
	code   int // 0 = success
}

func (f *fakeRunner) Run(_ context.Context, name string, args ...string) (string, error) {
	cmd := strings.Join(append([]string{name}, args...), " ")
	f.calls = append(f.calls, cmd)
	for i, r := range f.responses {
		if strings.HasPrefix(cmd, r.prefix) {
			f.responses = append(f.responses[:i], f.responses[i+1:]...)
			if r.code == 0 {
				return r.out, nil
			}
			return r.out, &CommandError{Command: cmd, Output: r.out, ExitCode: r.code, Err: errors.New("exit status " + string(rune('0'+r.code%10)))}
		}
	}
	return "", nil
}

func testSpec(t *testing.T) Spec {
	t.Helper()
	return Spec{Program: "/opt/homebrew/bin/gds", Interval: 30 * time.Minute, GDSHome: "/Users/me/Library/Application Support/gds & co"}
}

type agentPlist struct {
	Label                string            `plist:"Label"`
	ProgramArguments     []string          `plist:"ProgramArguments"`
	StartInterval        int               `plist:"StartInterval"`
	RunAtLoad            bool              `plist:"RunAtLoad"`
	ProcessType          string            `plist:"ProcessType"`
	LowPriorityIO        bool              `plist:"LowPriorityIO"`
	Nice                 int               `plist:"Nice"`
	StandardOutPath      string            `plist:"StandardOutPath"`
	StandardErrorPath    string            `plist:"StandardErrorPath"`
	EnvironmentVariables map[string]string `plist:"EnvironmentVariables"`
}

func TestRenderPlistParses(t *testing.T) {
	sp := testSpec(t)
	sp.LogDir = "/Users/me/Library/Logs/gds"
	data, err := RenderPlist(sp)
	if err != nil {
		t.Fatal(err)
	}
	var p agentPlist
	format, err := plist.Unmarshal(data, &p)
	if err != nil {
		t.Fatalf("plist does not parse: %v\n%s", err, data)
	}
	if format != plist.XMLFormat {
		t.Errorf("format %d, want XML", format)
	}
	want := agentPlist{
		Label:             "dev.gds.crawl",
		ProgramArguments:  []string{"/opt/homebrew/bin/gds", "crawl"},
		StartInterval:     1800,
		RunAtLoad:         true,
		ProcessType:       "Background",
		LowPriorityIO:     true,
		Nice:              10,
		StandardOutPath:   "/Users/me/Library/Logs/gds/crawl.log",
		StandardErrorPath: "/Users/me/Library/Logs/gds/crawl.err.log",
		EnvironmentVariables: map[string]string{
			"GDS_HOME": "/Users/me/Library/Application Support/gds & co",
			"PATH":     MinimalPATH,
		},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("plist\n got %+v\nwant %+v", p, want)
	}
}

func TestSpecValidation(t *testing.T) {
	base := testSpec(t)
	base.LogDir = "/logs"
	for name, mut := range map[string]func(*Spec){
		"relative program": func(s *Spec) { s.Program = "gds" },
		"short interval":   func(s *Spec) { s.Interval = 30 * time.Second },
		"relative home":    func(s *Spec) { s.GDSHome = "gds" },
		"relative logs":    func(s *Spec) { s.LogDir = "logs" },
	} {
		s := base
		mut(&s)
		if _, err := RenderPlist(s); err == nil {
			t.Errorf("%s: RenderPlist accepted %+v", name, s)
		}
	}
}

func TestResolveProgram(t *testing.T) {
	links := map[string]string{
		"/opt/homebrew/bin/gds":         "/opt/homebrew/Caskroom/gds/1.2.0/gds",
		"/usr/local/bin/gds":            "/home/me/src/gds/gds",
		"/tmp/go-build123/b001/exe/gds": "/tmp/go-build123/b001/exe/gds",
	}
	eval := func(p string) (string, error) {
		if r, ok := links[p]; ok {
			return r, nil
		}
		return p, nil
	}
	for in, want := range map[string]string{
		"/opt/homebrew/bin/gds": "/opt/homebrew/bin/gds", // versioned brew path: keep the stable link
		"/usr/local/bin/gds":    "/home/me/src/gds/gds",  // ordinary symlink: resolved
		"/home/me/go/bin/gds":   "/home/me/go/bin/gds",
	} {
		got, err := ResolveProgram(in, eval)
		if err != nil || got != want {
			t.Errorf("ResolveProgram(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"/tmp/go-build123/b001/exe/gds", "/tmp/x/gds.test"} {
		if _, err := ResolveProgram(in, eval); !errors.Is(err, ErrTemporaryBinary) {
			t.Errorf("ResolveProgram(%s) = %v, want ErrTemporaryBinary", in, err)
		}
	}
}

func newLaunchd(t *testing.T, r *fakeRunner) Launchd {
	return Launchd{Runner: r, UID: 501, Home: t.TempDir()}
}

func TestLaunchdInstallSequence(t *testing.T) {
	r := &fakeRunner{responses: []fakeResponse{{prefix: "launchctl bootout", out: "Boot-out failed: 3: No such process", code: 3}}}
	l := newLaunchd(t, r)
	if err := l.Install(context.Background(), testSpec(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"launchctl bootout gui/501/dev.gds.crawl",
		"launchctl bootstrap gui/501 " + l.PlistPath(),
	}
	if !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls\n got %q\nwant %q", r.calls, want)
	}
	data, err := os.ReadFile(l.PlistPath())
	if err != nil {
		t.Fatal(err)
	}
	var p agentPlist
	if _, err := plist.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if p.StandardOutPath != filepath.Join(l.Home, "Library/Logs/gds/crawl.log") {
		t.Errorf("log path %s", p.StandardOutPath)
	}
	if fi, err := os.Stat(l.LogDir()); err != nil || !fi.IsDir() {
		t.Errorf("log dir not created: %v", err)
	}
}

func TestLaunchdInstallRetriesIOError(t *testing.T) {
	r := &fakeRunner{responses: []fakeResponse{
		{prefix: "launchctl bootstrap", out: "Bootstrap failed: 5: Input/output error", code: 5},
	}}
	l := newLaunchd(t, r)
	if err := l.Install(context.Background(), testSpec(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"launchctl bootout gui/501/dev.gds.crawl",
		"launchctl bootstrap gui/501 " + l.PlistPath(),
		"launchctl bootout gui/501/dev.gds.crawl",
		"launchctl bootstrap gui/501 " + l.PlistPath(),
	}
	if !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls\n got %q\nwant %q", r.calls, want)
	}
}

func TestLaunchdInstallFailsAfterOneRetry(t *testing.T) {
	r := &fakeRunner{responses: []fakeResponse{
		{prefix: "launchctl bootstrap", out: "Bootstrap failed: 5: Input/output error", code: 5},
		{prefix: "launchctl bootstrap", out: "Bootstrap failed: 5: Input/output error", code: 5},
	}}
	l := newLaunchd(t, r)
	err := l.Install(context.Background(), testSpec(t))
	if err == nil || !strings.Contains(err.Error(), "Input/output error") {
		t.Fatalf("err = %v", err)
	}
	if len(r.calls) != 4 {
		t.Errorf("calls %q, want exactly one retry", r.calls)
	}
	// A different bootstrap failure is not retried.
	r = &fakeRunner{responses: []fakeResponse{{prefix: "launchctl bootstrap", out: "Bootstrap failed: 125: Domain does not support specified action", code: 125}}}
	l = newLaunchd(t, r)
	if err := l.Install(context.Background(), testSpec(t)); err == nil {
		t.Fatal("want an error")
	}
	if len(r.calls) != 2 {
		t.Errorf("calls %q, want no retry", r.calls)
	}
}

func TestLaunchdUninstall(t *testing.T) {
	r := &fakeRunner{}
	l := newLaunchd(t, r)
	if err := l.Install(context.Background(), testSpec(t)); err != nil {
		t.Fatal(err)
	}
	r.calls = nil
	existed, err := l.Uninstall(context.Background())
	if err != nil || !existed {
		t.Fatalf("Uninstall = %v, %v", existed, err)
	}
	if want := []string{"launchctl bootout gui/501/dev.gds.crawl"}; !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls %q, want %q", r.calls, want)
	}
	if _, err := os.Stat(l.PlistPath()); !os.IsNotExist(err) {
		t.Errorf("plist still there: %v", err)
	}
	// Nothing installed, not loaded: fine, reports nothing existed.
	r.responses = []fakeResponse{{prefix: "launchctl bootout", out: "Boot-out failed: 3: No such process", code: 3}}
	if existed, err := l.Uninstall(context.Background()); err != nil || existed {
		t.Errorf("second Uninstall = %v, %v", existed, err)
	}
	// A real failure is reported.
	r.responses = []fakeResponse{{prefix: "launchctl bootout", out: "Boot-out failed: 1: Operation not permitted", code: 1}}
	if _, err := l.Uninstall(context.Background()); err == nil {
		t.Error("want the bootout failure")
	}
}

func TestLaunchdRunNowAndStatus(t *testing.T) {
	ctx := context.Background()
	r := &fakeRunner{}
	l := newLaunchd(t, r)
	if err := l.RunNow(ctx); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("RunNow before install = %v", err)
	}
	r.responses = []fakeResponse{{prefix: "launchctl print", out: "Bad request.\nCould not find service \"dev.gds.crawl\" in domain for port", code: 113}}
	st, err := l.Status(ctx)
	if err != nil || st.Installed || st.Loaded {
		t.Fatalf("status before install = %+v, %v", st, err)
	}
	if err := l.Install(ctx, testSpec(t)); err != nil {
		t.Fatal(err)
	}
	r.calls = nil
	if err := l.RunNow(ctx); err != nil {
		t.Fatal(err)
	}
	if want := []string{"launchctl kickstart -k gui/501/dev.gds.crawl"}; !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls %q", r.calls)
	}
	logPath := filepath.Join(l.LogDir(), LogFileName)
	if err := os.WriteFile(logPath, []byte("Incremental crawl: 2 files changed\nDone: 2 new, 0 updated, 0 unchanged, 0 skipped, 0 failed\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	if err := os.Chtimes(logPath, when, when); err != nil {
		t.Fatal(err)
	}
	r.responses = []fakeResponse{{prefix: "launchctl print", out: "gui/501/dev.gds.crawl = {\n\tactive count = 0\n\tpath = " + l.PlistPath() + "\n\tstate = not running\n\truns = 3\n\tlast exit code = 1\n}\n"}}
	st, err = l.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Installed || !st.Loaded || st.Running || st.LastExitCode == nil || *st.LastExitCode != 1 {
		t.Errorf("status %+v", st)
	}
	if st.Interval != 30*time.Minute || st.Program != "/opt/homebrew/bin/gds" {
		t.Errorf("interval/program from the plist: %s %s", st.Interval, st.Program)
	}
	if !st.LastRun.Equal(when) || !strings.HasPrefix(st.LastLogLine, "Done: 2 new") {
		t.Errorf("last run %s, line %q", st.LastRun, st.LastLogLine)
	}
}

func TestSystemdUnitsAndSequence(t *testing.T) {
	ctx := context.Background()
	r := &fakeRunner{}
	s := Systemd{Runner: r, ConfigHome: t.TempDir()}
	sp := Spec{Program: "/home/me/bin/gds", Interval: 2 * time.Hour, GDSHome: "/home/me/.config/gds 100%"}
	if err := s.Install(ctx, sp); err != nil {
		t.Fatal(err)
	}
	want := []string{"systemctl --user daemon-reload", "systemctl --user enable --now gds-crawl.timer"}
	if !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls %q", r.calls)
	}
	svc, _ := os.ReadFile(s.ServicePath())
	tmr, _ := os.ReadFile(s.TimerPath())
	for _, w := range []string{"ExecStart=\"/home/me/bin/gds\" crawl", "Environment=\"GDS_HOME=/home/me/.config/gds 100%%\"", "Type=oneshot"} {
		if !strings.Contains(string(svc), w) {
			t.Errorf("service lacks %q:\n%s", w, svc)
		}
	}
	for _, w := range []string{"OnUnitActiveSec=7200s", "WantedBy=timers.target", "Unit=gds-crawl.service"} {
		if !strings.Contains(string(tmr), w) {
			t.Errorf("timer lacks %q:\n%s", w, tmr)
		}
	}

	r.calls = nil
	r.responses = []fakeResponse{
		{prefix: "systemctl --user is-active", out: "active\n"},
		{prefix: "systemctl --user show", out: "ActiveState=inactive\nExecMainStatus=0\nExecMainExitTimestamp=Sat 2026-11-21 18:31:06 UTC\n"},
	}
	st, err := s.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Installed || !st.Loaded || st.Running || st.Interval != 2*time.Hour || st.LastExitCode == nil || *st.LastExitCode != 0 ||
		!st.LastRun.Equal(time.Date(2026, 11, 21, 18, 31, 6, 0, time.UTC)) {
		t.Errorf("status %+v", st)
	}

	r.calls = nil
	if err := s.RunNow(ctx); err != nil || !reflect.DeepEqual(r.calls, []string{"systemctl --user start --no-block gds-crawl.service"}) {
		t.Errorf("RunNow: %v %q", err, r.calls)
	}
	r.calls = nil
	existed, err := s.Uninstall(ctx)
	if err != nil || !existed {
		t.Fatalf("Uninstall = %v, %v", existed, err)
	}
	if want := []string{"systemctl --user disable --now gds-crawl.timer", "systemctl --user daemon-reload"}; !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls %q", r.calls)
	}
	if _, err := os.Stat(s.TimerPath()); !os.IsNotExist(err) {
		t.Error("timer still there")
	}
}

func TestCronLine(t *testing.T) {
	sp := Spec{Program: "/usr/local/bin/gds", GDSHome: "/home/me/.config/gds", LogDir: "/home/me/.config/gds"}
	for iv, want := range map[time.Duration]string{
		time.Minute:      "* * * * *",
		15 * time.Minute: "*/15 * * * *",
		time.Hour:        "0 * * * *",
		6 * time.Hour:    "0 */6 * * *",
	} {
		sp.Interval = iv
		got, err := CronLine(sp)
		if err != nil {
			t.Fatalf("%s: %v", iv, err)
		}
		full := want + " GDS_HOME=/home/me/.config/gds PATH=" + MinimalPATH + " /usr/local/bin/gds crawl >>/home/me/.config/gds/crawl.log 2>&1"
		if got != full {
			t.Errorf("%s:\n got %s\nwant %s", iv, got, full)
		}
	}
	for _, iv := range []time.Duration{7 * time.Minute, 5 * time.Hour, 90 * time.Second} {
		sp.Interval = iv
		if _, err := CronLine(sp); err == nil {
			t.Errorf("%s accepted", iv)
		}
	}
	sp.Interval = time.Hour
	sp.GDSHome = "/home/o'neil/50%"
	got, _ := CronLine(sp)
	if !strings.Contains(got, `GDS_HOME='/home/o'\''neil/50\%'`) {
		t.Errorf("quoting: %s", got)
	}
}

// Sources given to the spec reach the crawl as GDS_SOURCES in every form
// (cron line, systemd service, launchd plist); none: the crawl reads them.
func TestSpecSources(t *testing.T) {
	sp := Spec{Program: "/usr/local/bin/gds", GDSHome: "/home/me/.config/gds", LogDir: "/home/me/.config/gds", Interval: time.Hour,
		Sources: "local:/home/me/My Docs,drive:F1"}
	line, err := CronLine(sp)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, " GDS_SOURCES='local:/home/me/My Docs,drive:F1' /usr/local/bin/gds crawl ") {
		t.Errorf("cron line %s lacks the sources", line)
	}
	service, _, err := RenderSystemdUnits(sp)
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := RenderPlist(sp)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"systemd": service, "launchd": string(rendered)} {
		if !strings.Contains(text, "GDS_SOURCES") || !strings.Contains(text, "local:/home/me/My Docs,drive:F1") {
			t.Errorf("%s unit lacks the sources:\n%s", name, text)
		}
	}
	sp.Sources = ""
	if line, _ := CronLine(sp); strings.Contains(line, "GDS_SOURCES") {
		t.Errorf("cron line without sources names GDS_SOURCES: %s", line)
	}
}
