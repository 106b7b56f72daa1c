package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joho/godotenv"

	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/setup"
)

// initDeps loads the configuration of a gds home whose .env holds envFile
// and builds Deps reading stdin.
func initDeps(t *testing.T, envFile string, env map[string]string, stdin string) (*Deps, string, *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	if envFile != "" {
		if err := os.WriteFile(filepath.Join(home, ".env"), []byte(envFile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if env == nil {
		env = map[string]string{}
	}
	env[config.EnvHome] = home
	opts := config.LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		WorkDir:   t.TempDir(),
		GOOS:      "linux",
	}
	cfg, err := config.Load(opts)
	out := &bytes.Buffer{}
	d := New(Options{Config: cfg, ConfigErr: err, LoadAllConfig: func() (*config.Config, []error) { return config.LoadAll(opts) },
		IO: iostreams.IOStreams{Stdin: strings.NewReader(stdin), Stdout: out, Stderr: out, Lang: i18n.En}})
	return d, filepath.Join(home, ".env"), out
}

func readEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	vals, err := godotenv.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return vals
}

func TestInitNonInteractive(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	old := "# my setup\nGDS_SOURCE=drive\nGOOGLE_DRIVE_TARGET_FOLDER_IDS=abc\nSUMMARY_MAX_LENGTH=300\n"
	d, envPath, _ := initDeps(t, old, nil, "")

	// Current sources come from the legacy settings.
	if got := currentSetup(d.Config).Sources; len(got) != 1 || got[0].Spec() != "drive" {
		t.Fatalf("current sources %+v", got)
	}

	res, err := d.Init(context.Background(), InitRequest{Sources: []string{"local:" + a, "local:" + b + ",local:" + a}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || res.EnvFile != envPath {
		t.Errorf("result %+v", res)
	}
	data, _ := os.ReadFile(envPath)
	want := "# my setup\n# GDS_SOURCE=drive  # replaced by GDS_SOURCES (gds init)\n# GOOGLE_DRIVE_TARGET_FOLDER_IDS=abc  # replaced by GDS_SOURCES (gds init)\n" +
		"SUMMARY_MAX_LENGTH=300\nGDS_SOURCES=local:" + a + ",local:" + b + "\nGDS_AI_PROVIDER=offline\n"
	if string(data) != want {
		t.Errorf(".env:\n%s\nwant:\n%s", data, want)
	}
	if st, _ := os.Stat(envPath); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
}

func TestInitRejectsBadInputAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		req  InitRequest
		key  i18n.Key
	}{
		{"bare path", InitRequest{Sources: []string{"local:" + dir, dir}}, "init.source_path"},
		{"unknown word", InitRequest{Sources: []string{"dropbox"}}, "init.bad_source"},
		{"bad folder id", InitRequest{Sources: []string{"drive:a/b"}}, "init.bad_folder_id"},
		{"missing folder", InitRequest{Sources: []string{"local:" + filepath.Join(dir, "nope")}}, "init.no_such_folder"},
		{"a file", InitRequest{Sources: []string{"local:" + file}}, "init.not_a_folder"},
		{"local without a path", InitRequest{Sources: []string{"local:" + dir + ",local:"}}, "init.empty_source"},
		{"no source at all", InitRequest{}, "init.need_source"},
		{"bad provider", InitRequest{Sources: []string{"drive"}, Provider: "claude"}, "init.bad_provider"},
		{"openai without a key", InitRequest{Sources: []string{"drive"}, Provider: "openai"}, "init.need_key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, envPath, _ := initDeps(t, "KEEP=1\n", nil, "")
			_, err := d.Init(context.Background(), tc.req)
			var le *apperr.Localized
			if !errors.As(err, &le) || le.Key != tc.key || !errors.Is(err, apperr.Usage) {
				t.Fatalf("err = %v, want %s (usage)", err, tc.key)
			}
			if data, _ := os.ReadFile(envPath); string(data) != "KEEP=1\n" {
				t.Errorf(".env changed: %q", data)
			}
		})
	}
}

// TestSpecsRoundTrip: what setup writes is what config reads.
func TestSpecsRoundTrip(t *testing.T) {
	a := t.TempDir()
	in := []setup.Source{{Kind: setup.KindDrive}, {Kind: setup.KindDrive, FolderID: "1AbC-_x"}, {Kind: setup.KindLocal, Path: filepath.Join(a, "My Drive")},
		{Kind: setup.KindDrive, Account: "work"}, {Kind: setup.KindDrive, Account: "work", FolderID: "2XyZ"}}
	css, err := config.ParseSources(setup.FormatSpecs(in), "/", "/")
	if err != nil {
		t.Fatal(err)
	}
	if got := config.FormatSources(css); got != setup.FormatSpecs(in) {
		t.Errorf("config reads %q back as %q", setup.FormatSpecs(in), got)
	}
	for i, cs := range css {
		if sourceOf(cs) != in[i] {
			t.Errorf("sourceOf(%+v) = %+v, want %+v", cs, sourceOf(cs), in[i])
		}
	}
	if d, _, _ := initDeps(t, "", nil, ""); len(currentSetup(d.Config).Sources) != 0 {
		t.Errorf("a fresh home has configured sources: %+v", currentSetup(d.Config).Sources)
	}
}

// TestInitRerunKeepsSources: without --source, a re-run keeps the
// configured sources and changes only what is asked.
func TestInitRerunKeepsSources(t *testing.T) {
	a := t.TempDir()
	d, envPath, _ := initDeps(t, "GDS_SOURCES=local:"+a+",drive:XYZ\nOPENAI_API_KEY=sk-test-0123456789abcdef\n", nil, "")
	res, err := d.Init(context.Background(), InitRequest{Provider: "openai"})
	if err != nil {
		t.Fatal(err)
	}
	vals := readEnv(t, envPath)
	if vals["GDS_SOURCES"] != "local:"+a+",drive:XYZ" || vals["GDS_AI_PROVIDER"] != "openai" || vals["OPENAI_API_KEY"] != "sk-test-0123456789abcdef" {
		t.Errorf(".env values %q", vals)
	}
	if !res.Model {
		t.Error("an openai configuration: InitResult.Model false, want the next step to be the estimate")
	}
	for _, st := range res.Set {
		if strings.Contains(st.Value, "0123456789abcdef") {
			t.Errorf("the key is shown: %+v", st)
		}
	}
}

// TestInitWizardScripted drives the whole wizard through the line
// prompter with scripted answers, against the Drive emulator and the
// OpenAI test server: Drive folders picked by browsing and by a search for
// a name with a quote and backslashes, a local folder (after a missing
// one), a rejected then an accepted key.
func TestInitWizardScripted(t *testing.T) {
	e := driveemu.New()
	projects := e.AddFolder("root", "Projects")
	e.AddFolder(projects, "Alpha")
	odd := e.AddFolder("root", `Bob's \backup\ "2024"`)
	team := e.AddSharedDrive("Team")
	e.AddFolder(team, "Specs")
	ai := openaitest.NewServer(t, openaitest.WithAPIKey("sk-right-0123456789"))
	local := t.TempDir()

	script := strings.Join([]string{
		"1,2",            // sources: Drive and local folders
		"1",              // top: open My Drive
		"3",              // My Drive: open Projects (after "use", Bob's)
		"1",              // use Projects
		"4",              // back to My Drive
		"4",              // search…
		`Bob's \backup\`, // …by a name with a quote and backslashes
		"1",              // open the match
		"1",              // use it
		"4",              // done
		"",               // no other Google account
		"1",              // local: add a folder…
		filepath.Join(local, "missing"),
		"1", local, // add the real one
		"3",        // done
		"2",        // provider: OpenAI
		"sk-wrong", // rejected
		"sk-right-0123456789",
		"n", // no crawl
		"",  // no schedule (the default)
	}, "\n") + "\n"
	d, envPath, out := initDeps(t, "# keep me\n", map[string]string{
		config.EnvDriveEndpoint: drivetest.Serve(t, e),
		config.EnvOpenAIBaseURL: ai.URL,
	}, script)
	var ran []string
	res, err := d.InitWizard(context.Background(), InitWizardRequest{
		UI:  &render.InitPrompter{In: render.NewLines(d.Stdin), Out: out, Lang: i18n.En},
		Run: func(_ context.Context, args ...string) error { ran = append(ran, strings.Join(args, " ")); return nil },
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	vals := readEnv(t, envPath)
	wantSources := "drive:" + projects + ",drive:" + odd + ",local:" + local
	if vals["GDS_SOURCES"] != wantSources || vals["GDS_AI_PROVIDER"] != "openai" || vals["OPENAI_API_KEY"] != "sk-right-0123456789" {
		t.Errorf(".env = %q, want sources %s\n%s", vals, wantSources, out)
	}
	if data, _ := os.ReadFile(envPath); !strings.HasPrefix(string(data), "# keep me\n") {
		t.Errorf("the comment is lost: %q", data)
	}
	transcript := out.String()
	for _, want := range []string{"▸ Team (Shared drive)", "the folder " + filepath.Join(local, "missing") + " does not exist", "the API key was rejected"} {
		if !strings.Contains(transcript, want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript)
		}
	}
	if strings.Contains(transcript, "sk-right-0123456789") {
		t.Error("the key is in the output")
	}
	// With a model, the estimate of the first crawl comes before the offer.
	if strings.Join(ran, ";") != "crawl --estimate" || res.Crawled || res.Scheduled || !res.Changed {
		t.Errorf("ran %v, result %+v", ran, res)
	}
	if i, j := strings.Index(transcript, "The first crawl with this model:"), strings.LastIndex(transcript, "crawl"); i < 0 || j < i {
		t.Errorf("the estimate is not announced before the crawl offer:\n%s", transcript)
	}
}

// TestInitWizardCancel: the end of input before the write leaves the
// .env alone; answering yes runs the crawl and the schedule.
func TestInitWizardCancelAndRun(t *testing.T) {
	local := t.TempDir()
	d, envPath, out := initDeps(t, "A=1\n", nil, "2\n1\n"+local+"\n")
	res, err := d.InitWizard(context.Background(), InitWizardRequest{UI: &render.InitPrompter{In: render.NewLines(d.Stdin), Out: out, Lang: i18n.En}})
	if err != nil || !res.Cancelled {
		t.Fatalf("res %+v err %v", res, err)
	}
	if data, _ := os.ReadFile(envPath); string(data) != "A=1\n" {
		t.Errorf(".env changed: %q", data)
	}

	d, envPath, out = initDeps(t, "", nil, "2\n1\n"+local+"\n\n1\ny\ny\n")
	var ran []string
	res, err = d.InitWizard(context.Background(), InitWizardRequest{
		UI:  &render.InitPrompter{In: render.NewLines(d.Stdin), Out: out, Lang: i18n.En},
		Run: func(_ context.Context, args ...string) error { ran = append(ran, strings.Join(args, " ")); return nil },
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Join(ran, ";") != "crawl;schedule install" || !res.Crawled || !res.Scheduled {
		t.Errorf("ran %v res %+v\n%s", ran, res, out)
	}
	if v := readEnv(t, envPath); v["GDS_SOURCES"] != "local:"+local || v["GDS_AI_PROVIDER"] != "offline" {
		t.Errorf(".env %q", v)
	}
}

// TestInitOffersTheDriveForDesktopFolder: on macOS the wizard offers the
// Google Drive for desktop folder when it exists, and choosing it alone
// makes it the one local source without asking for paths.
func TestInitOffersTheDriveForDesktopFolder(t *testing.T) {
	userHome := t.TempDir()
	myDrive := filepath.Join(userHome, "Library", "CloudStorage", "GoogleDrive-me@example.com", "My Drive")
	if err := os.MkdirAll(filepath.Join(myDrive, "Projects"), 0o700); err != nil {
		t.Fatal(err)
	}
	if got := findMirror("darwin", userHome); got != myDrive {
		t.Fatalf("findMirror = %q, want %q", got, myDrive)
	}
	if got := findMirror("linux", userHome); got != "" {
		t.Errorf("findMirror on linux = %q", got)
	}
	if got := findMirror("darwin", t.TempDir()); got != "" {
		t.Errorf("findMirror without Drive for desktop = %q", got)
	}

	// Sources: only the third choice (the mirror); offline; no crawl, no schedule.
	d, envPath, out := initDeps(t, "", nil, "3\n1\nn\nn\n")
	res, err := d.InitWizard(context.Background(), InitWizardRequest{
		UI:   &render.InitPrompter{In: render.NewLines(d.Stdin), Out: out, Lang: i18n.En},
		GOOS: "darwin", UserHome: userHome,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "3) Google Drive for desktop folder: "+myDrive) {
		t.Errorf("the mirror is not offered:\n%s", out)
	}
	if v := readEnv(t, envPath); v["GDS_SOURCES"] != "local:"+myDrive || !res.Changed {
		t.Errorf(".env %q\n%s", v, out)
	}
}

// TestInitWizardSignInFailure: without an OAuth client the sign-in fails;
// the wizard says why and asks for the sources again.
func TestInitWizardSignInFailure(t *testing.T) {
	local := t.TempDir()
	d, envPath, out := initDeps(t, "", nil, "1\n2\n1\n"+local+"\n\n1\nn\nn\n")
	d.TokenStore = func(string) (auth.TokenStore, error) { return auth.NewFileStore(t.TempDir()), nil }
	_, err := d.InitWizard(context.Background(), InitWizardRequest{UI: &render.InitPrompter{In: render.NewLines(d.Stdin), Out: out, Lang: i18n.En}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "! Google sign-in failed: ") || !strings.Contains(out.String(), config.EnvOAuthClientID) {
		t.Errorf("no sign-in failure shown:\n%s", out)
	}
	if v := readEnv(t, envPath); v["GDS_SOURCES"] != "local:"+local {
		t.Errorf(".env %q", v)
	}
}

// TestInitRepairsBadValuesButNotABrokenFile: a bad value (here an unknown
// GDS_SOURCE) is what init replaces; a .env line the parser refuses is
// reported with its file and line, and nothing is written.
func TestInitRepairsBadValuesButNotABrokenFile(t *testing.T) {
	a := t.TempDir()
	d, envPath, _ := initDeps(t, "GDS_SOURCE=dropbox\n", nil, "")
	if d.Config != nil {
		t.Fatal("the bad value loaded")
	}
	if _, err := d.Init(context.Background(), InitRequest{Sources: []string{"local:" + a}}); err != nil {
		t.Fatal(err)
	}
	if v := readEnv(t, envPath); v["GDS_SOURCES"] != "local:"+a || v["GDS_SOURCE"] != "" {
		t.Errorf(".env %q", v)
	}

	broken := "A=1\nthis is not a setting\n"
	d, envPath, _ = initDeps(t, broken, nil, "")
	_, err := d.Init(context.Background(), InitRequest{Sources: []string{"local:" + a}})
	var ce *config.Error
	if !errors.As(err, &ce) || ce.File != envPath || ce.Line != 2 {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(envPath); string(data) != broken {
		t.Errorf(".env changed: %q", data)
	}
}
