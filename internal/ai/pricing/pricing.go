// Package pricing holds what OpenAI's models cost and how fast an account
// may call them: an embedded, dated table (table.json: each price and limit
// with the date it was read and its source URL) that the configuration
// overrides (GDS_AI_PRICES, GDS_AI_LIMITS; GDS_OPENAI_TIER picks the
// account's usage tier). Prices change: the table is a default, and every
// figure gds prints from it names its date.
package pricing

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Model  string  `json:"model"`
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	AsOf   string  `json:"as_of"`  // the date the figure was read; "config" for an override
	Source string  `json:"source"` // where it was read
}

// Limit is how many requests and tokens per minute an account of a usage
// tier may send a model.
type Limit struct {
	Tier   string `json:"tier"`
	Model  string `json:"model"`
	RPM    int    `json:"rpm"`
	TPM    int    `json:"tpm"`
	AsOf   string `json:"as_of"`
	Source string `json:"source"`
}

// DefaultTier is the usage tier assumed when none is configured: the
// first paid tier, which every API account reaches with its first payment.
const DefaultTier = "1"

// Tiers are OpenAI's usage tiers.
var Tiers = []string{"free", "1", "2", "3", "4", "5"}

// FromConfig is the AsOf of a figure set in the configuration.
const FromConfig = "config"

//go:embed table.json
var tableJSON []byte

type table struct {
	Prices []Price `json:"prices"`
	Limits []Limit `json:"limits"`
}

var builtin = sync.OnceValue(func() table {
	var t table
	if err := json.Unmarshal(tableJSON, &t); err != nil {
		panic("pricing: table.json: " + err.Error()) // a build-time mistake, caught by the tests
	}
	return t
})

// Book is the table with the configuration's overrides.
type Book struct {
	Tier   string
	prices map[string]Price
	limits map[string]Limit // by model, of Tier
}

// New returns the book of the account's tier ("" means DefaultTier) with
// the overrides: prices "MODEL=INPUT/OUTPUT,…" (USD per million tokens)
// and limits "MODEL=RPM/TPM,…". A malformed override is an error naming it.
func New(tier, prices, limits string) (*Book, error) {
	if tier == "" {
		tier = DefaultTier
	}
	tier = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(tier)), "tier-")
	if !validTier(tier) {
		return nil, fmt.Errorf("unknown usage tier %q", tier)
	}
	b := &Book{Tier: tier, prices: map[string]Price{}, limits: map[string]Limit{}}
	t := builtin()
	for _, p := range t.Prices {
		b.prices[p.Model] = p
	}
	for _, l := range t.Limits {
		if l.Tier == tier {
			b.limits[l.Model] = l
		}
	}
	err := eachPair(prices, func(model string, x, y float64) {
		b.prices[model] = Price{Model: model, Input: x, Output: y, AsOf: FromConfig}
	})
	if err != nil {
		return nil, fmt.Errorf("prices: %w", err)
	}
	err = eachPair(limits, func(model string, x, y float64) {
		b.limits[model] = Limit{Tier: tier, Model: model, RPM: int(x), TPM: int(y), AsOf: FromConfig}
	})
	if err != nil {
		return nil, fmt.Errorf("limits: %w", err)
	}
	return b, nil
}

func validTier(t string) bool {
	for _, v := range Tiers {
		if v == t {
			return true
		}
	}
	return false
}

// eachPair parses "MODEL=X/Y,…" with non-negative numbers.
func eachPair(s string, f func(model string, x, y float64)) error {
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		model, val, ok := strings.Cut(item, "=")
		xs, ys, ok2 := strings.Cut(val, "/")
		x, err1 := strconv.ParseFloat(strings.TrimSpace(xs), 64)
		y, err2 := strconv.ParseFloat(strings.TrimSpace(ys), 64)
		if !ok || !ok2 || strings.TrimSpace(model) == "" || err1 != nil || err2 != nil || x < 0 || y < 0 {
			return fmt.Errorf("%q is not MODEL=NUMBER/NUMBER", item)
		}
		f(strings.TrimSpace(model), x, y)
	}
	return nil
}

// Price returns the price of model; false when neither the table nor the
// configuration knows it (a local model, a new one).
func (b *Book) Price(model string) (Price, bool) {
	p, ok := b.prices[model]
	if !ok {
		p, ok = b.prices[baseModel(model)]
	}
	return p, ok
}

// Limit returns the rate limit of model at the book's tier; false when
// unknown.
func (b *Book) Limit(model string) (Limit, bool) {
	l, ok := b.limits[model]
	if !ok {
		l, ok = b.limits[baseModel(model)]
	}
	return l, ok
}

// baseModel drops a dated snapshot suffix: gpt-4o-mini-2024-07-18 is
// priced as gpt-4o-mini.
func baseModel(m string) string {
	parts := strings.Split(m, "-")
	if n := len(parts); n > 3 && len(parts[n-3]) == 4 && len(parts[n-2]) == 2 && len(parts[n-1]) == 2 {
		if _, err := strconv.Atoi(parts[n-3] + parts[n-2] + parts[n-1]); err == nil {
			return strings.Join(parts[:n-3], "-")
		}
	}
	return m
}
