package launcher

import (
	"fmt"
	"io"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render/scriptfilter"
	"github.com/gds-cli/gds/internal/termsafe"
)

// AlfredSourceVar is the Alfred workflow variable (an environment variable
// of the script) that limits Alfred's searches to some sources: source
// specs separated by commas, as GDS_SOURCES ("local:~/Docs,drive"); the
// keystroke package reads it (keystroke.AlfredSources).
const AlfredSourceVar = "source"

// FolderEnv is the environment variable (an Alfred workflow variable)
// that limits the Alfred searches to a folder when --folder is not given.
const FolderEnv = "GDS_FOLDER"

// AlfredError turns a failure into an item that tells the fix.
func AlfredError(err error, lang string) scriptfilter.Output {
	r := apperr.Describe(err, lang)
	switch r.Code {
	case apperr.NoIndex.Code():
		return scriptfilter.Message(i18n.T(lang, "alfred.err.no_index.title"), i18n.T(lang, "alfred.err.no_index.sub"), "")
	case apperr.Auth.Code():
		return scriptfilter.Message(i18n.T(lang, "alfred.err.auth.title"), i18n.T(lang, "alfred.err.auth.sub"), "")
	case apperr.Config.Code():
		return scriptfilter.Message(i18n.T(lang, "alfred.err.config.title"), r.Message, "")
	}
	msg := r.Message
	if r.Hint != "" {
		msg += " — " + r.Hint
	}
	return scriptfilter.Message(i18n.T(lang, "alfred.err.title"), msg, "")
}

// RespondAlfred prints one Script Filter response to stdout: answer's
// output, or — when it fails or panics — an item that says what to do, with
// the details on stderr (Alfred shows stderr in its debugger). It always
// prints valid Alfred JSON; the error is only the write's. redact (nil:
// none) strips secrets from a panic's text (config.Redact with the
// configuration).
func RespondAlfred(stdout, stderr io.Writer, redact func(string) string, lang string, answer func() (scriptfilter.Output, error)) (err error) {
	var out scriptfilter.Output
	defer func() {
		if p := recover(); p != nil {
			// A panic value is text gds did not write: strip secrets first.
			msg := fmt.Sprint(p)
			if redact != nil {
				msg = redact(msg)
			}
			fmt.Fprintf(stderr, "gds alfred: internal error: %s\n", msg)
			out = scriptfilter.Message(i18n.T(lang, "alfred.err.title"), msg, "")
		}
		err = scriptfilter.Write(stdout, out)
	}()
	out, ferr := answer()
	if ferr != nil {
		fmt.Fprintln(stderr, i18n.T(lang, i18n.ErrorPrefix)+termsafe.String(apperr.Message(ferr, lang)))
		out = AlfredError(ferr, lang)
	}
	return nil
}

// Prompt is the response to an empty query — the keyword alone, which
// Alfred runs before the first typed letter: the item that asks for a
// query. It reads no index.
func Prompt(lang string) scriptfilter.Output { return scriptfilter.Prompt(lang) }
