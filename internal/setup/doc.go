// Package setup holds the decisions of `gds init`: the wizard's state
// machine (which question comes next, what a answer changes, what to write
// to the home .env) and the sources it configures. It does no I/O: the
// executor in internal/app performs each Action (asking the user, signing
// in, listing Drive folders, checking an API key, editing the .env file)
// and feeds the outcome back as an Event, so every path through the wizard
// is table-tested without a terminal, a network or a file system.
//
// Start(Current) and Next(State, Event) (State, Action) are the wizard:
// sources → Google sign-in when a Drive source is chosen and there is no
// token → Drive folder picking (open, back, "use this folder", search by
// name) → "add another Google account?" (a name signs that account in and
// picks its folders as drive@NAME:FOLDER_ID, then asks again) → local folders → AI provider → OpenAI key check → write the .env →
// offer the first crawl → offer gds schedule install. PlanFor is the .env
// edit: GDS_SOURCES, GDS_AI_PROVIDER and a newly typed OPENAI_API_KEY, with
// the legacy GDS_SOURCE and GOOGLE_DRIVE_TARGET_FOLDER_IDS commented out.
// app.InitWizard is the executor; render.InitPrompter asks the questions.
package setup
