// Package setup holds the decisions of `gds init`: the wizard's state
// machine (which question comes next, what a answer changes, what to write
// to the home .env) and the sources it configures. It does no I/O: the
// executor in internal/app performs each Action (asking the user, signing
// in, listing Drive folders, checking an API key, editing the .env file)
// and feeds the outcome back as an Event, so every path through the wizard
// is table-tested without a terminal, a network or a file system.
package setup
