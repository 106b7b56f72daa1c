package pricing

import (
	"regexp"
	"testing"
)

// TestTableIsDatedAndSourced: every entry of the embedded table says when
// it was read and where, and is positive.
func TestTableIsDatedAndSourced(t *testing.T) {
	date := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	tb := builtin()
	if len(tb.Prices) == 0 || len(tb.Limits) == 0 {
		t.Fatal("empty table")
	}
	for _, p := range tb.Prices {
		if !date.MatchString(p.AsOf) || len(p.Source) < 10 || p.Input <= 0 || p.Output < 0 {
			t.Errorf("price %+v: want a date, a source and a positive input price", p)
		}
	}
	for _, l := range tb.Limits {
		if !date.MatchString(l.AsOf) || len(l.Source) < 10 || l.RPM <= 0 || l.TPM <= 0 || !validTier(l.Tier) {
			t.Errorf("limit %+v: want a date, a source, a tier and positive limits", l)
		}
	}
	// gds's default models are always known.
	b, err := New("", "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"gpt-4o-mini", "text-embedding-3-small"} {
		if _, ok := b.Price(m); !ok {
			t.Errorf("no price for %s", m)
		}
		if _, ok := b.Limit(m); !ok {
			t.Errorf("no tier-1 limit for %s", m)
		}
	}
}

func TestBook(t *testing.T) {
	for _, c := range []struct {
		name, tier, prices, limits string
		model                      string
		wantIn, wantOut            float64
		wantPrice                  bool
		wantRPM, wantTPM           int
		wantLimit                  bool
		wantErr                    bool
	}{
		{name: "default tier", model: "gpt-4o-mini", wantIn: 0.15, wantOut: 0.60, wantPrice: true, wantRPM: 500, wantTPM: 200000, wantLimit: true},
		{name: "tier 3", tier: "tier-3", model: "gpt-4o-mini", wantIn: 0.15, wantOut: 0.60, wantPrice: true, wantRPM: 5000, wantTPM: 4000000, wantLimit: true},
		{name: "snapshot name", model: "gpt-4o-mini-2024-07-18", wantIn: 0.15, wantOut: 0.60, wantPrice: true, wantRPM: 500, wantTPM: 200000, wantLimit: true},
		{name: "override", prices: "gpt-4o-mini=1/2", limits: " gpt-4o-mini = 10/1000 ", model: "gpt-4o-mini", wantIn: 1, wantOut: 2, wantPrice: true, wantRPM: 10, wantTPM: 1000, wantLimit: true},
		{name: "local model", model: "llama3.1", wantPrice: false, wantLimit: false},
		{name: "local model priced", prices: "llama3.1=0/0", model: "llama3.1", wantPrice: true},
		{name: "bad tier", tier: "gold", wantErr: true},
		{name: "bad price", prices: "gpt-4o-mini=cheap", wantErr: true},
		{name: "negative", prices: "gpt-4o-mini=-1/2", wantErr: true},
		{name: "no model", limits: "=1/2", wantErr: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := New(c.tier, c.prices, c.limits)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if err != nil {
				return
			}
			p, ok := b.Price(c.model)
			if ok != c.wantPrice || p.Input != c.wantIn || p.Output != c.wantOut {
				t.Errorf("Price = %+v %v", p, ok)
			}
			l, ok := b.Limit(c.model)
			if ok != c.wantLimit || l.RPM != c.wantRPM || l.TPM != c.wantTPM {
				t.Errorf("Limit = %+v %v", l, ok)
			}
		})
	}
}
