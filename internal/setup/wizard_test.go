package setup

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

// step is one event fed to the machine and the action it must lead to.
type step struct {
	ev   Event
	want ActionKind
	// problem, when set, is the message the state must carry after ev.
	problem i18n.Key
	// account, when set, is the Google account the action must be for
	// (SignIn, ListFolders, FindFolders).
	account string
}

func TestWizardPaths(t *testing.T) {
	projects := Folder{ID: "F1", Name: "Projects"}
	alpha := Folder{ID: "F2", Name: "Alpha"}
	team := Folder{ID: "D1", Name: "Team", SharedDrive: true}
	boom := errors.New("boom")

	cases := []struct {
		name  string
		cur   Current
		steps []step
		check func(t *testing.T, s State)
	}{
		{
			name: "local only, offline, no crawl, no schedule",
			steps: []step{
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
				{ev: Event{Kind: EvLocalDone}, want: AskLocal, problem: "init.problem.no_local"},
				{ev: Event{Kind: EvLocalPath, Err: boom}, want: AskLocal, problem: "init.problem.local_path"},
				{ev: Event{Kind: EvLocalPath, Path: "/docs"}, want: AskLocal},
				{ev: Event{Kind: EvLocalPath, Path: "/docs"}, want: AskLocal}, // no duplicate
				{ev: Event{Kind: EvLocalPath, Path: "/notes"}, want: AskLocal},
				{ev: Event{Kind: EvLocalRemove, Path: "/notes"}, want: AskLocal},
				{ev: Event{Kind: EvLocalDone}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOffline}, want: WriteEnv},
				{ev: Event{Kind: EvWritten}, want: AskCrawl},
				{ev: Event{Kind: EvNo}, want: AskSchedule},
				{ev: Event{Kind: EvNo}, want: Finish},
			},
			check: func(t *testing.T, s State) {
				if got := FormatSpecs(s.Sources()); got != "local:/docs" {
					t.Errorf("sources = %q", got)
				}
				if !s.Written || s.Crawled || s.Scheduled || s.Cancelled {
					t.Errorf("flags: %+v", s)
				}
			},
		},
		{
			name: "drive: sign in, browse, search, pick; openai key rejected then accepted; crawl and schedule",
			steps: []step{
				{ev: Event{Kind: EvSources, Drive: true}, want: SignIn},
				{ev: Event{Kind: EvSignedIn}, want: ListFolders},
				{ev: Event{Kind: EvListed, Folders: []Folder{projects, team}}, want: AskFolder},
				{ev: Event{Kind: EvFoldersDone}, want: AskFolder, problem: "init.problem.no_folder"},
				{ev: Event{Kind: EvOpen, Folder: projects}, want: ListFolders},
				{ev: Event{Kind: EvListed, Folders: []Folder{alpha}}, want: AskFolder},
				{ev: Event{Kind: EvToggle, Folder: alpha}, want: AskFolder},
				{ev: Event{Kind: EvUp}, want: ListFolders},
				{ev: Event{Kind: EvListed, Err: boom}, want: AskFolder, problem: "init.problem.list"},
				{ev: Event{Kind: EvSearch, Query: "Team"}, want: FindFolders},
				{ev: Event{Kind: EvListed, Folders: nil}, want: AskFolder, problem: "init.problem.no_match"},
				{ev: Event{Kind: EvSearch, Query: "Te"}, want: FindFolders},
				{ev: Event{Kind: EvListed, Folders: []Folder{team}}, want: AskFolder},
				{ev: Event{Kind: EvToggle, Folder: team}, want: AskFolder},
				{ev: Event{Kind: EvFoldersDone}, want: AskAccount},
				{ev: Event{Kind: EvAccount}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOpenAI}, want: AskKey},
				{ev: Event{Kind: EvKey, Key: "sk-bad"}, want: CheckKey},
				{ev: Event{Kind: EvKeyChecked, Result: KeyRejected, Err: boom}, want: AskKey, problem: "init.problem.key_rejected"},
				{ev: Event{Kind: EvKey, Key: "sk-good"}, want: CheckKey},
				{ev: Event{Kind: EvKeyChecked, Result: KeyOK}, want: WriteEnv},
				{ev: Event{Kind: EvWritten}, want: AskCrawl},
				{ev: Event{Kind: EvYes}, want: Crawl},
				{ev: Event{Kind: EvRan}, want: AskSchedule},
				{ev: Event{Kind: EvYes}, want: Schedule},
				{ev: Event{Kind: EvRan}, want: Finish},
			},
			check: func(t *testing.T, s State) {
				if got := FormatSpecs(s.Sources()); got != "drive:F2,drive:D1" {
					t.Errorf("sources = %q", got)
				}
				want := Plan{
					Set: []Setting{
						{Name: EnvSources, Value: "drive:F2,drive:D1"},
						{Name: EnvAIProvider, Value: ProviderOpenAI},
						{Name: EnvOpenAIKey, Value: "sk-good", Secret: true},
					},
					Comment: []string{EnvLegacySource, EnvLegacyFolderIDs},
				}
				if got := s.Plan(); !reflect.DeepEqual(got, want) {
					t.Errorf("plan = %+v, want %+v", got, want)
				}
				if !s.Crawled || !s.Scheduled {
					t.Errorf("crawled %v scheduled %v", s.Crawled, s.Scheduled)
				}
			},
		},
		{
			name: "another Google account: bad name, sign-in failed, then signed in, its folders picked as drive@NAME",
			cur:  Current{SignedIn: true, Accounts: []string{"home"}},
			steps: []step{
				{ev: Event{Kind: EvSources, Drive: true}, want: ListFolders},
				{ev: Event{Kind: EvListed, Folders: []Folder{projects}}, want: AskFolder},
				{ev: Event{Kind: EvToggle, Folder: projects}, want: AskFolder},
				{ev: Event{Kind: EvFoldersDone}, want: AskAccount},
				{ev: Event{Kind: EvAccount, Err: boom}, want: AskAccount, problem: "init.problem.account"},
				{ev: Event{Kind: EvAccount, Account: "work"}, want: SignIn, account: "work"},
				{ev: Event{Kind: EvSignedIn, Err: boom}, want: AskAccount, problem: "init.problem.sign_in"},
				{ev: Event{Kind: EvAccount, Account: "work"}, want: SignIn, account: "work"},
				{ev: Event{Kind: EvSignedIn}, want: ListFolders, account: "work"},
				{ev: Event{Kind: EvListed, Folders: []Folder{projects, team}}, want: AskFolder},
				{ev: Event{Kind: EvFoldersDone}, want: AskFolder, problem: "init.problem.no_folder"},
				{ev: Event{Kind: EvToggle, Folder: team}, want: AskFolder},
				{ev: Event{Kind: EvSearch, Query: "Pro"}, want: FindFolders, account: "work"},
				{ev: Event{Kind: EvListed, Folders: []Folder{projects}}, want: AskFolder},
				{ev: Event{Kind: EvToggle, Folder: projects}, want: AskFolder},
				{ev: Event{Kind: EvFoldersDone}, want: AskAccount},
				{ev: Event{Kind: EvAccount, Account: "home"}, want: ListFolders, account: "home"}, // signed in already
				{ev: Event{Kind: EvListed, Folders: []Folder{alpha}}, want: AskFolder},
				{ev: Event{Kind: EvToggle, Folder: alpha}, want: AskFolder},
				{ev: Event{Kind: EvFoldersDone}, want: AskAccount},
				{ev: Event{Kind: EvAccount}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOffline}, want: WriteEnv},
			},
			check: func(t *testing.T, s State) {
				if got := FormatSpecs(s.Sources()); got != "drive:F1,drive@work:D1,drive@work:F1,drive@home:F2" {
					t.Errorf("sources = %q", got)
				}
				if !s.AccountAsked || s.Account != "" || !reflect.DeepEqual(s.Cur.Accounts, []string{"home", "work"}) {
					t.Errorf("account %q asked %v signed in %v", s.Account, s.AccountAsked, s.Cur.Accounts)
				}
			},
		},
		{
			name: "failed sign-in returns to the sources question without Drive",
			steps: []step{
				{ev: Event{Kind: EvSources, Drive: true, Local: true}, want: SignIn},
				{ev: Event{Kind: EvSignedIn, Err: boom}, want: AskSources, problem: "init.problem.sign_in"},
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
			},
			check: func(t *testing.T, s State) {
				if s.UseDrive || len(s.Drive) != 0 {
					t.Errorf("drive still chosen: %+v", s.Drive)
				}
			},
		},
		{
			name: "nothing chosen is asked again",
			steps: []step{
				{ev: Event{Kind: EvSources}, want: AskSources, problem: "init.problem.no_source"},
				{ev: Event{Kind: EvSources, Mirror: true}, want: AskSources, problem: "init.problem.no_source"}, // no mirror found
			},
		},
		{
			name: "mirror alone needs no local question",
			cur:  Current{Mirror: "/Users/a/Library/CloudStorage/GoogleDrive-a@b/My Drive"},
			steps: []step{
				{ev: Event{Kind: EvSources, Mirror: true}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOffline}, want: WriteEnv},
			},
			check: func(t *testing.T, s State) {
				if got := FormatSpecs(s.Sources()); got != "local:/Users/a/Library/CloudStorage/GoogleDrive-a@b/My Drive" {
					t.Errorf("sources = %q", got)
				}
			},
		},
		{
			name: "openai with no key anywhere goes back to the provider question",
			steps: []step{
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
				{ev: Event{Kind: EvLocalPath, Path: "/docs"}, want: AskLocal},
				{ev: Event{Kind: EvLocalDone}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOpenAI}, want: AskKey},
				{ev: Event{Kind: EvKey}, want: AskProvider, problem: "init.problem.no_key"},
				{ev: Event{Kind: EvProvider, Provider: "bogus"}, want: AskProvider},
			},
		},
		{
			name: "unreachable API: the key is kept and written with a warning",
			cur:  Current{Sources: []Source{{Kind: KindLocal, Path: "/docs"}}, HasKey: true},
			steps: []step{
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
				{ev: Event{Kind: EvLocalDone}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOpenAI}, want: AskKey},
				{ev: Event{Kind: EvKey}, want: CheckKey}, // keep the configured key
				{ev: Event{Kind: EvKeyChecked, Result: KeyUnreachable, Err: boom}, want: WriteEnv, problem: "init.problem.key_unreachable"},
			},
			check: func(t *testing.T, s State) {
				for _, st := range s.Plan().Set {
					if st.Name == EnvOpenAIKey {
						t.Errorf("the configured key is rewritten: %+v", st)
					}
				}
			},
		},
		{
			name: "a failed write ends the wizard with the error",
			steps: []step{
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
				{ev: Event{Kind: EvLocalPath, Path: "/docs"}, want: AskLocal},
				{ev: Event{Kind: EvLocalDone}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOffline}, want: WriteEnv},
				{ev: Event{Kind: EvWritten, Err: boom}, want: Finish},
			},
			check: func(t *testing.T, s State) {
				if !errors.Is(s.Err, boom) || s.Written {
					t.Errorf("err %v written %v", s.Err, s.Written)
				}
			},
		},
		{
			name: "a failed crawl is reported and the schedule still offered",
			steps: []step{
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
				{ev: Event{Kind: EvLocalPath, Path: "/docs"}, want: AskLocal},
				{ev: Event{Kind: EvLocalDone}, want: AskProvider},
				{ev: Event{Kind: EvProvider, Provider: ProviderOffline}, want: WriteEnv},
				{ev: Event{Kind: EvWritten}, want: AskCrawl},
				{ev: Event{Kind: EvYes}, want: Crawl},
				{ev: Event{Kind: EvRan, Err: boom}, want: AskSchedule, problem: "init.problem.crawl"},
				{ev: Event{Kind: EvYes}, want: Schedule},
				{ev: Event{Kind: EvRan, Err: boom}, want: Finish, problem: "init.problem.schedule"},
			},
			check: func(t *testing.T, s State) {
				if s.Crawled || s.Scheduled {
					t.Errorf("crawled %v scheduled %v", s.Crawled, s.Scheduled)
				}
			},
		},
		{
			name: "cancel before writing writes nothing",
			steps: []step{
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
				{ev: Event{Kind: EvCancel}, want: Finish},
			},
			check: func(t *testing.T, s State) {
				if !s.Cancelled || s.Written {
					t.Errorf("cancelled %v written %v", s.Cancelled, s.Written)
				}
			},
		},
		{
			name: "an event out of place repeats the question",
			steps: []step{
				{ev: Event{Kind: EvYes}, want: AskSources},
				{ev: Event{Kind: EvSources, Local: true}, want: AskLocal},
				{ev: Event{Kind: EvToggle, Folder: alpha}, want: AskLocal},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, a := Start(tc.cur)
			if a.Kind != AskSources {
				t.Fatalf("start: %s", a.Kind)
			}
			for i, st := range tc.steps {
				s, a = Next(s, st.ev)
				if a.Kind != st.want {
					t.Fatalf("step %d (%s): action %s, want %s (state %+v)", i, st.ev.Kind, a.Kind, st.want, s)
				}
				if s.Problem != st.problem {
					t.Fatalf("step %d (%s): problem %q, want %q", i, st.ev.Kind, s.Problem, st.problem)
				}
				if st.account != "" && a.Account != st.account {
					t.Fatalf("step %d (%s): %s for account %q, want %q", i, st.ev.Kind, a.Kind, a.Account, st.account)
				}
				if a.Kind == WriteEnv && !reflect.DeepEqual(a.Plan, s.Plan()) {
					t.Fatalf("step %d: the action's plan is not the state's", i)
				}
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

// TestWizardPickerLists checks which folder each listing is asked for.
func TestWizardPickerLists(t *testing.T) {
	a, b := Folder{ID: "A", Name: "a"}, Folder{ID: "B", Name: "b"}
	s, _ := Start(Current{SignedIn: true})
	s, act := Next(s, Event{Kind: EvSources, Drive: true})
	if act.Kind != ListFolders || act.Parent != nil {
		t.Fatalf("top listing: %+v", act)
	}
	s, _ = Next(s, Event{Kind: EvListed, Folders: []Folder{a}})
	s, act = Next(s, Event{Kind: EvOpen, Folder: a})
	if act.Parent == nil || act.Parent.ID != "A" {
		t.Fatalf("open a: %+v", act)
	}
	s, _ = Next(s, Event{Kind: EvListed, Folders: []Folder{b}})
	s, act = Next(s, Event{Kind: EvOpen, Folder: b})
	if act.Parent.ID != "B" || s.Here().ID != "B" {
		t.Fatalf("open b: %+v", act)
	}
	s, act = Next(s, Event{Kind: EvUp})
	if act.Parent.ID != "A" {
		t.Fatalf("up from b: %+v", act)
	}
	s, act = Next(s, Event{Kind: EvSearch, Query: `it's a\b`})
	if act.Kind != FindFolders || act.Query != `it's a\b` || s.Searching != `it's a\b` {
		t.Fatalf("search: %+v", act)
	}
	s, act = Next(s, Event{Kind: EvSearch})
	if act.Kind != ListFolders || act.Parent.ID != "A" || s.Searching != "" {
		t.Fatalf("empty search goes back to the folder: %+v", act)
	}
	s, _ = Next(s, Event{Kind: EvToggle, Folder: a})
	s, _ = Next(s, Event{Kind: EvToggle, Folder: b})
	s, _ = Next(s, Event{Kind: EvToggle, Folder: a})
	if s.Chosen("A") || !s.Chosen("B") {
		t.Fatalf("toggles: %+v", s.Drive)
	}
	_, act = Next(s, Event{Kind: EvUp})
	_, act2 := Next(State{Step: StepBrowse}, Event{Kind: EvUp})
	if act.Kind != ListFolders || act.Parent != nil || act2.Parent != nil {
		t.Fatalf("up to the top: %+v %+v", act, act2)
	}
}

// TestStartDefaults checks that a re-run starts from the current setup.
func TestStartDefaults(t *testing.T) {
	mirror := "/m/My Drive"
	cases := []struct {
		name                    string
		cur                     Current
		drive, local, useMirror bool
		provider                string
	}{
		{name: "fresh", provider: ProviderOffline},
		{name: "auto with a key", cur: Current{Provider: "auto", HasKey: true}, provider: ProviderOpenAI},
		{name: "explicit offline with a key", cur: Current{Provider: ProviderOffline, HasKey: true}, provider: ProviderOffline},
		{name: "drive and local", cur: Current{Sources: []Source{{Kind: KindDrive, FolderID: "X"}, {Kind: KindLocal, Path: "/d"}}},
			drive: true, local: true, provider: ProviderOffline},
		{name: "mirror only", cur: Current{Mirror: mirror, Sources: []Source{{Kind: KindLocal, Path: mirror}}}, useMirror: true, provider: ProviderOffline},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := Start(tc.cur)
			if s.UseDrive != tc.drive || s.UseLocal != tc.local || s.UseMirror != tc.useMirror || s.Provider != tc.provider {
				t.Errorf("got drive %v local %v mirror %v provider %s", s.UseDrive, s.UseLocal, s.UseMirror, s.Provider)
			}
			if got, want := FormatSpecs(s.Sources()), FormatSpecs(tc.cur.Sources); got != want {
				t.Errorf("sources %q, want %q", got, want)
			}
		})
	}
}

// TestPlanKeepsFolderIDsForBareDrive: a bare "drive" source crawls the
// target folder list, so the plan keeps it.
func TestPlanKeepsFolderIDsForBareDrive(t *testing.T) {
	p := PlanFor([]Source{{Kind: KindDrive}, {Kind: KindLocal, Path: "/d"}}, ProviderOffline, "")
	if !reflect.DeepEqual(p.Comment, []string{EnvLegacySource}) {
		t.Errorf("comment %v", p.Comment)
	}
	p = PlanFor([]Source{{Kind: KindDrive, FolderID: "X"}}, ProviderOffline, "")
	if !reflect.DeepEqual(p.Comment, []string{EnvLegacySource, EnvLegacyFolderIDs}) {
		t.Errorf("comment %v", p.Comment)
	}
}

// The other Google accounts' sources are kept as configured while the
// wizard picks the default account's folders.
func TestWizardKeepsOtherAccounts(t *testing.T) {
	cur := Current{SignedIn: true, Provider: ProviderOffline, Sources: []Source{
		{Kind: KindDrive, FolderID: "F1"}, {Kind: KindDrive, Account: "work", FolderID: "W1"}, {Kind: KindLocal, Path: "/n"},
	}}
	s, _ := Start(cur)
	s, _ = Next(s, Event{Kind: EvToggle, Folder: Folder{ID: "F2", Name: "Two"}})
	if got := FormatSpecs(s.Sources()); got != "drive:F1,drive@work:W1,local:/n" && got != "drive:F1,drive:F2,drive@work:W1,local:/n" {
		t.Errorf("sources = %q", got)
	}
	s.Drive = nil
	if got := FormatSpecs(s.Sources()); got != "drive@work:W1,local:/n" {
		t.Errorf("without the default account's folders: %q", got)
	}
}

func TestSpecs(t *testing.T) {
	ss := []Source{{Kind: KindDrive}, {Kind: KindDrive, FolderID: "abc", Name: "Team"}, {Kind: KindLocal, Path: "/a b/c"},
		{Kind: KindDrive, Account: "work"}, {Kind: KindDrive, Account: "work", FolderID: "w1"}}
	if got := FormatSpecs(ss); got != "drive,drive:abc,local:/a b/c,drive@work,drive@work:w1" {
		t.Errorf("FormatSpecs = %q", got)
	}
	if got := ss[1].Label(); got != "drive:abc (Team)" {
		t.Errorf("Label = %q", got)
	}
}
