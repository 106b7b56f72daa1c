package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/estimate"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/termsafe"
)

// EstimateOut returns the printer of an estimate's outcome: its figures,
// or its error, as text or as JSON (then an error is a JSON error document
// too). It takes the estimate's results as they come:
// EstimateOut(w, asJSON, lang)(d.EstimateCrawl(ctx, req)).
func EstimateOut(w io.Writer, asJSON bool, lang string) func(*estimate.Figures, error) error {
	return func(f *estimate.Figures, err error) error { return estimateOut(w, f, err, asJSON, lang) }
}

func estimateOut(w io.Writer, f *estimate.Figures, err error, asJSON bool, lang string) error {
	switch {
	case err != nil && asJSON:
		return FailJSON(w, err, lang)
	case err != nil:
		return err
	case asJSON:
		return WriteJSON(w, f)
	}
	Estimate(w, *f, lang)
	return nil
}

// Estimate prints an estimate: the calls by kind with their input and
// output tokens and price, the total, the least time the rate limits
// allow, and the prices used with their dates and sources.
func Estimate(w io.Writer, f estimate.Figures, lang string) {
	op := "gds " + f.Operation
	if f.Offline {
		fmt.Fprintln(w, i18n.T(lang, "estimate.offline", op))
		return
	}
	fmt.Fprintln(w, i18n.T(lang, "estimate.heading", op, termsafe.String(f.Models.Chat), termsafe.String(f.Models.Embedding)))
	if f.Total.Calls == 0 {
		fmt.Fprintln(w, "  "+i18n.T(lang, "estimate.nothing"))
		return
	}
	for _, l := range f.Lines {
		fmt.Fprintln(w, "  "+callLine(lang, string(l.Kind), l.Tally, l.CostUSD))
	}
	fmt.Fprintln(w, "  "+callLine(lang, "total", f.Total, f.CostUSD))
	fmt.Fprintln(w, "  "+timeLine(f, lang))
	var prices []string
	for _, p := range f.Prices {
		src := p.AsOf + ", " + p.Source
		if p.AsOf == "config" {
			src = "GDS_AI_PRICES"
		}
		prices = append(prices, fmt.Sprintf("%s $%s/$%s (%s)", termsafe.String(p.Model), strconv.FormatFloat(p.Input, 'f', -1, 64),
			strconv.FormatFloat(p.Output, 'f', -1, 64), termsafe.String(src)))
	}
	if len(prices) > 0 {
		fmt.Fprintln(w, "  "+i18n.T(lang, "estimate.prices", strings.Join(prices, "; ")))
	}
	if f.CostUSD == nil {
		fmt.Fprintln(w, "  "+i18n.T(lang, "estimate.price_unknown"))
	}
	fmt.Fprintln(w, i18n.T(lang, "estimate.output_note"))
}

// ModelUsage prints what a run's model calls took, beside the estimate
// made for it when there is one; nothing for a run without a model call
// and without an estimate (an hourly crawl that found no change).
func ModelUsage(w io.Writer, actual, est *estimate.Figures, lang string) {
	if actual == nil || (actual.Total.Calls == 0 && est == nil) {
		return
	}
	fmt.Fprintln(w, i18n.T(lang, "estimate.actual_heading"))
	byKind := map[ai.CallKind]estimate.Line{}
	if est != nil {
		for _, l := range est.Lines {
			byKind[l.Kind] = l
		}
	}
	for _, l := range actual.Lines {
		line := "  " + callLine(lang, string(l.Kind), l.Tally, l.CostUSD)
		if est != nil {
			e := byKind[l.Kind]
			line += "  " + i18n.T(lang, "estimate.beside", callFigures(lang, e.Tally, e.CostUSD))
		}
		fmt.Fprintln(w, line)
	}
	line := "  " + callLine(lang, "total", actual.Total, actual.CostUSD)
	if est != nil {
		line += "  " + i18n.T(lang, "estimate.beside", callFigures(lang, est.Total, est.CostUSD))
	}
	fmt.Fprintln(w, line)
}

// callLine is one kind's calls, tokens and price.
func callLine(lang, kind string, t ai.Tally, cost *float64) string {
	return i18n.T(lang, i18n.Key("estimate.kind."+kind)) + ": " + callFigures(lang, t, cost)
}

func callFigures(lang string, t ai.Tally, cost *float64) string {
	c := "$?"
	if cost != nil {
		c = "$" + money(*cost)
	}
	return i18n.T(lang, "estimate.figures", thousands(t.Calls), thousands(t.InputTokens), thousands(t.OutputTokens), c)
}

// timeLine is the least time the rate limits allow, and which limit
// decides it.
func timeLine(f estimate.Figures, lang string) string {
	if f.Seconds == nil {
		return i18n.T(lang, "estimate.time_unknown")
	}
	bound := ""
	var slowest float64 = -1
	for _, l := range f.Lanes {
		if l.Seconds != nil && *l.Seconds > slowest {
			slowest = *l.Seconds
			bound = termsafe.String(l.Model) + ", " + i18n.T(lang, i18n.Key("estimate.bound."+l.BoundBy))
			if l.Limit != nil {
				bound += fmt.Sprintf(" %s RPM / %s TPM", thousands(l.Limit.RPM), thousands(l.Limit.TPM))
			}
		}
	}
	return i18n.T(lang, "estimate.time", f.Tier, formatDuration(f.Duration()), bound)
}

// formatDuration is formatETA, at least 1 s when positive.
func formatDuration(d time.Duration) string {
	if d > 0 && d < time.Second {
		d = time.Second
	}
	return formatETA(d)
}

// money is a dollar amount with enough digits to show small costs.
func money(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 0.01:
		return strconv.FormatFloat(v, 'f', 6, 64)
	case v < 1:
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
