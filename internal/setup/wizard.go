package setup

import (
	"slices"

	"github.com/gds-cli/gds/internal/i18n"
)

// AI provider choices the wizard offers (GDS_AI_PROVIDER values).
const (
	ProviderOffline = "offline"
	ProviderOpenAI  = "openai"
)

// Settings the wizard writes besides EnvSources.
const (
	EnvAIProvider = "GDS_AI_PROVIDER"
	EnvOpenAIKey  = "OPENAI_API_KEY"
	// Legacy source settings, folded into GDS_SOURCES: the wizard comments
	// them out so that one setting says what is crawled.
	EnvLegacySource    = "GDS_SOURCE"
	EnvLegacyFolderIDs = "GOOGLE_DRIVE_TARGET_FOLDER_IDS"
)

// Current is what is configured now and what the wizard found around it;
// its values are the wizard's defaults, so re-running `gds init` edits the
// existing setup.
type Current struct {
	Sources  []Source
	Provider string // as configured: "", auto, openai or offline
	HasKey   bool   // an OpenAI API key is configured
	SignedIn bool   // a Google token is stored
	// Accounts are the named Google accounts signed in (auth login
	// --account NAME); NoSignIn: the Drive endpoint needs no sign-in (an
	// emulator or proxy).
	Accounts []string
	NoSignIn bool
	// Mirror is the Google Drive for desktop folder found on this machine
	// (macOS), "" when none.
	Mirror string
}

// Folder is a Drive folder (or a Shared drive's root) in the picker.
type Folder struct {
	ID          string
	Name        string
	SharedDrive bool // the root of a Shared drive
}

// Step is where the wizard is.
type Step string

// The wizard's steps, in order.
const (
	StepSources  Step = "sources"  // choose the kinds of source
	StepSignIn   Step = "sign_in"  // sign in to Google
	StepBrowse   Step = "browse"   // pick Drive folders
	StepAccount  Step = "account"  // offer another Google account
	StepLocal    Step = "local"    // add local folders
	StepProvider Step = "provider" // choose the AI provider
	StepKey      Step = "key"      // enter and check the OpenAI key
	StepWrite    Step = "write"    // write the home .env
	StepCrawl    Step = "crawl"    // offer the first crawl
	StepSchedule Step = "schedule" // offer `gds schedule install`
	StepDone     Step = "done"
)

// ActionKind is what the executor must do next.
type ActionKind string

// The actions. Ask* show a question and answer with the events listed;
// the others perform an effect and answer with its outcome.
const (
	AskSources  ActionKind = "ask_sources"  // → EvSources
	SignIn      ActionKind = "sign_in"      // → EvSignedIn
	ListFolders ActionKind = "list_folders" // Action.Parent (nil: My Drive and Shared drives) → EvListed
	FindFolders ActionKind = "find_folders" // Action.Query → EvListed
	AskFolder   ActionKind = "ask_folder"   // → EvOpen, EvUp, EvToggle, EvSearch, EvFoldersDone
	AskAccount  ActionKind = "ask_account"  // → EvAccount
	AskLocal    ActionKind = "ask_local"    // → EvLocalPath, EvLocalRemove, EvLocalDone
	AskProvider ActionKind = "ask_provider" // → EvProvider
	AskKey      ActionKind = "ask_key"      // → EvKey
	CheckKey    ActionKind = "check_key"    // Action.Key ("" : the configured key) → EvKeyChecked
	WriteEnv    ActionKind = "write_env"    // Action.Plan → EvWritten
	AskCrawl    ActionKind = "ask_crawl"    // → EvYes / EvNo
	Crawl       ActionKind = "crawl"        // → EvRan
	AskSchedule ActionKind = "ask_schedule" // → EvYes / EvNo
	Schedule    ActionKind = "schedule"     // → EvRan
	Finish      ActionKind = "finish"       // the wizard is over
)

// Action is the next thing the executor does.
type Action struct {
	Kind ActionKind
	// Account is the Google account of SignIn, ListFolders and
	// FindFolders ("" the default account).
	Account string
	Parent  *Folder // ListFolders
	Query   string  // FindFolders
	Key     string  // CheckKey: the key typed, "" for the configured one
	Plan    Plan    // WriteEnv
}

// EventKind is what happened.
type EventKind string

// The events.
const (
	EvSources     EventKind = "sources"      // Drive, Local, Mirror
	EvSignedIn    EventKind = "signed_in"    // Err
	EvListed      EventKind = "listed"       // Folders, Err
	EvOpen        EventKind = "open"         // Folder
	EvUp          EventKind = "up"           //
	EvToggle      EventKind = "toggle"       // Folder
	EvSearch      EventKind = "search"       // Query
	EvFoldersDone EventKind = "folders_done" //
	EvAccount     EventKind = "account"      // Account ("": no other account), Err (a bad name)
	EvLocalPath   EventKind = "local_path"   // Path (absolute, an existing folder), Err
	EvLocalRemove EventKind = "local_remove" // Path
	EvLocalDone   EventKind = "local_done"   //
	EvProvider    EventKind = "provider"     // Provider
	EvKey         EventKind = "key"          // Key
	EvKeyChecked  EventKind = "key_checked"  // Key result
	EvWritten     EventKind = "written"      // Err
	EvYes         EventKind = "yes"          //
	EvNo          EventKind = "no"           //
	EvRan         EventKind = "ran"          // Err
	EvCancel      EventKind = "cancel"       // the user gave up (Ctrl-C, end of input)
)

// KeyResult is the outcome of checking an OpenAI key against the API.
type KeyResult string

// The key check outcomes.
const (
	KeyOK          KeyResult = "ok"
	KeyRejected    KeyResult = "rejected"    // the API refused it (401/403)
	KeyUnreachable KeyResult = "unreachable" // no answer: saved anyway
)

// Event is the outcome of an Action.
type Event struct {
	Kind                 EventKind
	Drive, Local, Mirror bool // EvSources
	Folders              []Folder
	Folder               Folder
	Query                string
	Path                 string
	Provider             string
	Account              string
	Key                  string
	Result               KeyResult
	Err                  error
}

// State is the wizard's whole memory.
type State struct {
	Step Step
	Cur  Current

	UseDrive, UseLocal, UseMirror bool
	Drive                         []Source // chosen Drive folders
	// Accounts are the Drive sources of named Google accounts
	// (drive@NAME…): those configured, and the folders picked in another
	// account's Drive, after the chosen Drive folders.
	Accounts []Source
	// Account is the Google account whose Drive the picker browses ("":
	// the default account); AccountAsked: another account was offered.
	Account      string
	AccountAsked bool
	Local        []Source // chosen local folders (the mirror included)

	Path      []Folder // the folders opened in the picker; empty: the top level
	Listing   []Folder // what the picker shows
	Searching string   // the listing is the search result for this name

	Provider string
	Key      string // a newly typed key (written, never shown)

	// Problem is the message to show with the next question (a rejected
	// key, a failed listing); ProblemArgs are its arguments.
	Problem     i18n.Key
	ProblemArgs []any
	// Err is the failure that ended the wizard (writing the .env).
	Err error

	Written   bool
	Crawled   bool
	Scheduled bool
	Cancelled bool
}

// Start is the wizard's first state and action: the sources question, with
// the current setup as the default answers.
func Start(cur Current) (State, Action) {
	s := State{Step: StepSources, Cur: cur}
	s.Drive = ofKind(cur.Sources, KindDrive)
	s.Accounts = otherAccounts(cur.Sources)
	s.Local = ofKind(cur.Sources, KindLocal)
	s.UseDrive = len(s.Drive) > 0
	for _, l := range s.Local {
		if cur.Mirror != "" && l.Path == cur.Mirror {
			s.UseMirror = true
		} else {
			s.UseLocal = true
		}
	}
	switch cur.Provider {
	case ProviderOffline, ProviderOpenAI:
		s.Provider = cur.Provider
	default: // auto or unset: what auto resolves to
		s.Provider = ProviderOffline
		if cur.HasKey {
			s.Provider = ProviderOpenAI
		}
	}
	return s, Action{Kind: AskSources}
}

// Next applies ev to s and returns the new state and the next action. It
// never fails: an event that does not fit the step repeats the step's
// question.
func Next(s State, ev Event) (State, Action) {
	s.Problem, s.ProblemArgs = "", nil
	if ev.Kind == EvCancel {
		s.Cancelled = true
		s.Step = StepDone
		return s, Action{Kind: Finish}
	}
	switch s.Step {
	case StepSources:
		return s.onSources(ev)
	case StepSignIn:
		if ev.Kind != EvSignedIn {
			break
		}
		if ev.Err != nil && s.Account != "" {
			// Another account: offered again; the default one's picks stay.
			s.Account = ""
			return s.problem("init.problem.sign_in", ev.Err.Error()).askAccount()
		}
		if ev.Err != nil {
			s.Step = StepSources
			s.UseDrive = false
			return s.problem("init.problem.sign_in", ev.Err.Error()), Action{Kind: AskSources}
		}
		if s.Account != "" {
			s.Cur.Accounts = append(slices.Clone(s.Cur.Accounts), s.Account)
		} else {
			s.Cur.SignedIn = true
		}
		return s.browseTop()
	case StepBrowse:
		return s.onBrowse(ev)
	case StepAccount:
		return s.onAccount(ev)
	case StepLocal:
		return s.onLocal(ev)
	case StepProvider:
		if ev.Kind != EvProvider {
			break
		}
		switch ev.Provider {
		case ProviderOffline:
			s.Provider, s.Key = ProviderOffline, ""
			return s.write()
		case ProviderOpenAI:
			s.Provider = ProviderOpenAI
			s.Step = StepKey
			return s, Action{Kind: AskKey}
		}
	case StepKey:
		return s.onKey(ev)
	case StepWrite:
		if ev.Kind != EvWritten {
			break
		}
		if ev.Err != nil {
			s.Err = ev.Err
			s.Step = StepDone
			return s, Action{Kind: Finish}
		}
		s.Written = true
		s.Step = StepCrawl
		return s, Action{Kind: AskCrawl}
	case StepCrawl:
		switch {
		case ev.Kind == EvYes:
			return s, Action{Kind: Crawl}
		case ev.Kind == EvRan:
			if ev.Err != nil {
				s = s.problem("init.problem.crawl", ev.Err.Error())
			} else {
				s.Crawled = true
			}
			fallthrough
		case ev.Kind == EvNo:
			s.Step = StepSchedule
			return s, Action{Kind: AskSchedule}
		}
	case StepSchedule:
		switch {
		case ev.Kind == EvYes:
			return s, Action{Kind: Schedule}
		case ev.Kind == EvRan:
			if ev.Err != nil {
				s = s.problem("init.problem.schedule", ev.Err.Error())
			} else {
				s.Scheduled = true
			}
			fallthrough
		case ev.Kind == EvNo:
			s.Step = StepDone
			return s, Action{Kind: Finish}
		}
	case StepDone:
		return s, Action{Kind: Finish}
	}
	return s, s.question()
}

// question is the question of the current step, asked again.
func (s State) question() Action {
	switch s.Step {
	case StepSources:
		return Action{Kind: AskSources}
	case StepSignIn:
		return Action{Kind: SignIn, Account: s.Account}
	case StepBrowse:
		return Action{Kind: AskFolder}
	case StepAccount:
		return Action{Kind: AskAccount}
	case StepLocal:
		return Action{Kind: AskLocal}
	case StepProvider:
		return Action{Kind: AskProvider}
	case StepKey:
		return Action{Kind: AskKey}
	case StepWrite:
		return Action{Kind: WriteEnv, Plan: s.Plan()}
	case StepCrawl:
		return Action{Kind: AskCrawl}
	case StepSchedule:
		return Action{Kind: AskSchedule}
	}
	return Action{Kind: Finish}
}

func (s State) problem(k i18n.Key, args ...any) State {
	s.Problem, s.ProblemArgs = k, args
	return s
}

func (s State) onSources(ev Event) (State, Action) {
	if ev.Kind != EvSources {
		return s, Action{Kind: AskSources}
	}
	if !ev.Drive && !ev.Local && !(ev.Mirror && s.Cur.Mirror != "") {
		return s.problem("init.problem.no_source"), Action{Kind: AskSources}
	}
	s.UseDrive, s.UseLocal, s.UseMirror = ev.Drive, ev.Local, ev.Mirror && s.Cur.Mirror != ""
	if !s.UseDrive {
		s.Drive = nil
	}
	// Keep the local folders the answer still covers; add the mirror.
	var local []Source
	for _, l := range s.Local {
		isMirror := s.Cur.Mirror != "" && l.Path == s.Cur.Mirror
		if (isMirror && s.UseMirror) || (!isMirror && s.UseLocal) {
			local = append(local, l)
		}
	}
	if s.UseMirror && !slices.ContainsFunc(local, func(l Source) bool { return l.Path == s.Cur.Mirror }) {
		local = append(local, Source{Kind: KindLocal, Path: s.Cur.Mirror})
	}
	s.Local = local
	return s.afterSources()
}

// afterSources goes on with the first chosen kind.
func (s State) afterSources() (State, Action) {
	switch {
	case s.UseDrive && !s.Cur.SignedIn && !s.Cur.NoSignIn:
		s.Step = StepSignIn
		return s, Action{Kind: SignIn}
	case s.UseDrive:
		return s.browseTop()
	}
	return s.afterDrive()
}

// afterDrive goes on after the Drive folders were picked (or skipped).
func (s State) afterDrive() (State, Action) {
	if s.UseLocal {
		s.Step = StepLocal
		return s, Action{Kind: AskLocal}
	}
	s.Step = StepProvider
	return s, Action{Kind: AskProvider}
}

func (s State) browseTop() (State, Action) {
	s.Step = StepBrowse
	s.Path, s.Listing, s.Searching = nil, nil, ""
	return s, Action{Kind: ListFolders, Account: s.Account}
}

// list lists the folder at the top of Path (the top level when empty).
func (s State) list() (State, Action) {
	s.Searching, s.Listing = "", nil
	if len(s.Path) == 0 {
		return s, Action{Kind: ListFolders, Account: s.Account}
	}
	p := s.Path[len(s.Path)-1]
	return s, Action{Kind: ListFolders, Account: s.Account, Parent: &p}
}

// askAccount offers another Google account.
func (s State) askAccount() (State, Action) {
	s.Step = StepAccount
	s.AccountAsked = true
	s.Path, s.Listing, s.Searching = nil, nil, ""
	return s, Action{Kind: AskAccount}
}

// onAccount takes the answer to "another Google account?": a name signs
// it in (unless it is signed in already) and opens its Drive in the
// picker, whose picks become drive@NAME:FOLDER_ID sources; no name goes on.
func (s State) onAccount(ev Event) (State, Action) {
	switch {
	case ev.Kind != EvAccount:
		return s, Action{Kind: AskAccount}
	case ev.Err != nil:
		return s.problem("init.problem.account", ev.Err.Error()), Action{Kind: AskAccount}
	case ev.Account == "":
		s.Account = ""
		return s.afterDrive()
	}
	s.Account = ev.Account
	if s.Cur.NoSignIn || slices.Contains(s.Cur.Accounts, s.Account) {
		return s.browseTop()
	}
	s.Step = StepSignIn
	return s, Action{Kind: SignIn, Account: s.Account}
}

// Picked returns the Drive folders chosen in the account the picker
// browses.
func (s State) Picked() []Source {
	if s.Account == "" {
		return s.Drive
	}
	var out []Source
	for _, a := range s.Accounts {
		if a.Account == s.Account {
			out = append(out, a)
		}
	}
	return out
}

// Here is the folder the picker has open; nil at the top level.
func (s State) Here() *Folder {
	if len(s.Path) == 0 {
		return nil
	}
	f := s.Path[len(s.Path)-1]
	return &f
}

// Chosen reports whether the Drive folder id is picked in the account the
// picker browses.
func (s State) Chosen(id string) bool {
	return slices.ContainsFunc(s.Picked(), func(d Source) bool { return d.FolderID == id })
}

func (s State) onBrowse(ev Event) (State, Action) {
	switch ev.Kind {
	case EvListed:
		if ev.Err != nil {
			s.Listing = nil
			return s.problem("init.problem.list", ev.Err.Error()), Action{Kind: AskFolder}
		}
		s.Listing = ev.Folders
		if s.Searching != "" && len(ev.Folders) == 0 {
			s = s.problem("init.problem.no_match", s.Searching)
		}
		return s, Action{Kind: AskFolder}
	case EvOpen:
		s.Path = append(slices.Clone(s.Path), ev.Folder)
		return s.list()
	case EvUp:
		if len(s.Path) > 0 {
			s.Path = s.Path[:len(s.Path)-1]
		}
		return s.list()
	case EvToggle:
		if ev.Folder.ID == "" {
			break
		}
		picked := Source{Kind: KindDrive, FolderID: ev.Folder.ID, Name: ev.Folder.Name, Account: s.Account}
		list := &s.Drive
		if s.Account != "" {
			list = &s.Accounts
		}
		if s.Chosen(ev.Folder.ID) {
			*list = slices.DeleteFunc(slices.Clone(*list), func(d Source) bool { return sameSource(d, picked) })
		} else {
			*list = append(slices.Clone(*list), picked)
		}
		return s, Action{Kind: AskFolder}
	case EvSearch:
		if ev.Query == "" {
			return s.list()
		}
		s.Searching, s.Listing = ev.Query, nil
		return s, Action{Kind: FindFolders, Account: s.Account, Query: ev.Query}
	case EvFoldersDone:
		if len(s.Picked()) == 0 {
			return s.problem("init.problem.no_folder"), Action{Kind: AskFolder}
		}
		return s.askAccount()
	}
	return s, Action{Kind: AskFolder}
}

func (s State) onLocal(ev Event) (State, Action) {
	switch ev.Kind {
	case EvLocalPath:
		if ev.Err != nil {
			return s.problem("init.problem.local_path", ev.Err.Error()), Action{Kind: AskLocal}
		}
		src := Source{Kind: KindLocal, Path: ev.Path}
		if !slices.ContainsFunc(s.Local, func(l Source) bool { return sameSource(l, src) }) {
			s.Local = append(slices.Clone(s.Local), src)
		}
	case EvLocalRemove:
		s.Local = slices.DeleteFunc(slices.Clone(s.Local), func(l Source) bool { return l.Path == ev.Path })
	case EvLocalDone:
		if len(s.Local) == 0 {
			return s.problem("init.problem.no_local"), Action{Kind: AskLocal}
		}
		s.Step = StepProvider
		return s, Action{Kind: AskProvider}
	}
	return s, Action{Kind: AskLocal}
}

func (s State) onKey(ev Event) (State, Action) {
	switch ev.Kind {
	case EvKey:
		if ev.Key == "" && !s.Cur.HasKey {
			s.Step = StepProvider
			return s.problem("init.problem.no_key"), Action{Kind: AskProvider}
		}
		s.Key = ev.Key
		return s, Action{Kind: CheckKey, Key: s.Key}
	case EvKeyChecked:
		switch ev.Result {
		case KeyOK:
			return s.write()
		case KeyRejected:
			s.Key = ""
			return s.problem("init.problem.key_rejected", errText(ev.Err)), Action{Kind: AskKey}
		case KeyUnreachable:
			s, a := s.write()
			return s.problem("init.problem.key_unreachable", errText(ev.Err)), a
		}
	}
	return s, Action{Kind: AskKey}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (s State) write() (State, Action) {
	s.Step = StepWrite
	return s, Action{Kind: WriteEnv, Plan: s.Plan()}
}

// Sources are the chosen sources: Drive folders, the other Google
// accounts' sources, then local folders.
func (s State) Sources() []Source {
	return slices.Concat(s.Drive, s.Accounts, s.Local)
}

// Plan is the edit of the home .env the answers call for.
func (s State) Plan() Plan {
	return PlanFor(s.Sources(), s.Provider, s.Key)
}

// Plan is an edit of the home .env: settings to set (in order) and
// settings to comment out.
type Plan struct {
	Set     []Setting
	Comment []string
}

// Setting is one KEY=VALUE line to write.
type Setting struct {
	Name   string
	Value  string
	Secret bool // never shown or logged
}

// PlanFor is the edit that configures sources and provider; key, when not
// empty, is a new OpenAI API key.
func PlanFor(sources []Source, provider, key string) Plan {
	p := Plan{
		Set: []Setting{
			{Name: EnvSources, Value: FormatSpecs(sources)},
			{Name: EnvAIProvider, Value: provider},
		},
		// GDS_SOURCES wins over GDS_SOURCE, which would only contradict
		// it. The target folder list is what a bare "drive" source crawls,
		// so it stays while one is configured.
		Comment: []string{EnvLegacySource},
	}
	if !slices.ContainsFunc(sources, func(s Source) bool { return s.Kind == KindDrive && s.FolderID == "" }) {
		p.Comment = append(p.Comment, EnvLegacyFolderIDs)
	}
	if key != "" {
		p.Set = append(p.Set, Setting{Name: EnvOpenAIKey, Value: key, Secret: true})
	}
	return p
}
