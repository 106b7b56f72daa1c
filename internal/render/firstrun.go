package render

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
)

// OfferInit asks, on a terminal, whether to set gds up now: bare `gds`
// before any source is configured. It reads the answer from in and reports
// yes (Enter, y, はい). On no it says how to do it later; on no answer
// (Ctrl-D) it says nothing more. A cancelled ctx is returned as its error.
func OfferInit(ctx context.Context, in LineReader, w io.Writer, lang string) (bool, error) {
	fmt.Fprint(w, i18n.T(lang, "first_run.offer"))
	answer, err := in.ReadLine(ctx)
	switch {
	case ctx.Err() != nil:
		return false, ctx.Err()
	case err != nil && answer == "":
		fmt.Fprintln(w)
		return false, nil
	case AcceptsOffer(answer):
		return true, nil
	}
	fmt.Fprintln(w, i18n.T(lang, "first_run.declined"))
	fmt.Fprintln(w)
	return false, nil
}

// AcceptsOffer reads the answer to a [Y/n] question: yes unless it starts
// with n (or いいえ).
func AcceptsOffer(answer string) bool {
	a := strings.ToLower(strings.TrimSpace(answer))
	return !strings.HasPrefix(a, "n") && !strings.HasPrefix(a, "いいえ")
}
