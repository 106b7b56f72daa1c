// Package i18n picks the user's language from the locale environment
// variables and holds the message catalog (key → English, Japanese) used by
// every user-facing string of gds.
//
// Japanese is used when the first non-empty of LC_ALL, LC_MESSAGES and LANG
// starts with "ja"; English otherwise. Messages are fmt format strings; both
// languages of a key take the same arguments in the same order.
package i18n

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// The supported languages.
const (
	En = "en" // English, the default
	Ja = "ja" // Japanese
)

// Detect returns Ja or En from the locale variables, read through lookup
// (os.LookupEnv in production). The first non-empty of LC_ALL, LC_MESSAGES
// and LANG decides, as POSIX prescribes.
func Detect(lookup func(key string) (string, bool)) string {
	if lookup == nil {
		return En
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v, ok := lookup(name)
		if !ok || v == "" {
			continue
		}
		if strings.HasPrefix(strings.ToLower(v), "ja") {
			return Ja
		}
		return En
	}
	return En
}

// Key names a message in the catalog.
type Key string

// Message is one catalog entry: the same message in English and Japanese.
type Message struct {
	En string
	Ja string
}

// messageSets are the message tables of the messages_*.go files. Their init
// functions only add a function here; the maps are built when the first
// message is looked up, so a process that prints nothing translated (or
// prints it late) does not pay for the catalog before main.
var messageSets []func() map[Key]Message

// register adds a message table to the catalog; called by init functions.
func register(set func() map[Key]Message) {
	messageSets = append(messageSets, set)
}

// catalog is every registered message, built on first use; it is read-only
// afterwards.
var catalog = sync.OnceValue(func() map[Key]Message {
	c := make(map[Key]Message, 512)
	for _, set := range messageSets {
		merge(c, set())
	}
	return c
})

// merge adds msgs to c; a duplicate key is a programming error and panics
// (on the first lookup, and in the tests).
func merge(c, msgs map[Key]Message) {
	for k, m := range msgs {
		if _, dup := c[k]; dup {
			panic("i18n: duplicate message key " + string(k))
		}
		c[k] = m
	}
}

// T returns the message for key in lang, formatted with args. An unknown
// key returns the key itself (so a missing entry is visible, never silent).
func T(lang string, key Key, args ...any) string {
	m, ok := catalog()[key]
	if !ok {
		if len(args) > 0 {
			return string(key) + fmt.Sprint(args...)
		}
		return string(key)
	}
	format := m.En
	if lang == Ja && m.Ja != "" {
		format = m.Ja
	}
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// N is T for a message about n things, n its first argument: the message
// key+".one" when n is 1 and the catalog has it ("1 problem"), else key
// ("2 problems"; Japanese needs no such pair, so its .one entry repeats
// the key's).
func N(lang string, key Key, n int, args ...any) string {
	if n == 1 {
		if _, ok := catalog()[key+".one"]; ok {
			key += ".one"
		}
	}
	return T(lang, key, append([]any{n}, args...)...)
}

// Lookup returns the catalog entry of key.
func Lookup(key Key) (Message, bool) {
	m, ok := catalog()[key]
	return m, ok
}

// Keys returns every key of the catalog, sorted.
func Keys() []Key {
	c := catalog()
	keys := make([]Key, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// Printer formats messages in one language.
type Printer struct {
	Lang string
}

// T formats key in the printer's language.
func (p Printer) T(key Key, args ...any) string { return T(p.Lang, key, args...) }
