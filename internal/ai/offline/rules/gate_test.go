package rules

import (
	"reflect"
	"strings"
	"testing"
)

// gateFragments are period wordings of every kind the rules know, with
// near misses, other cases and the two non-ASCII letters (ſ, K) that (?i)
// matches for s and k.
var gateFragments = []string{
	"2024年度", "今年度", "昨年度", "来年度", "一昨年度", "2024年3月5日", "2024年3月", "2024 年", "3月5日", "12月",
	"最近3日", "直近 2 週間", "過去6か月", "ここ1年", "3日前", "2 週間 前", "5ヶ月前", "1年前",
	"一昨年", "おととし", "去年", "昨年", "前年", "きょねん", "今年", "本年", "ことし", "来年",
	"一昨日", "おととい", "昨日", "きのう", "今日", "本日", "きょう", "先々週", "先週", "前週", "今週", "本週",
	"先々月", "先月", "前月", "今月", "本月", "最近", "直近", "近頃", "このごろ", "さいきん",
	"FY2024", "fy 2025", "Fiscal Year 2023", "fiscal 2022", "2024-03-05", "2024/3/5", "2024.03.05", "2024/3", "2024-11",
	"March 5, 2024", "Aug 2024", "SEPT. 3rd 2023", "dec, 2021", "August", "MAY", "june", "Jan", "October 2020",
	"last 3 days", "PAST 2 WEEKS", "previous 6 months", "recent 1 year", "3 days ago", "10 Years Ago",
	"this week", "Last Month", "previous year", "past week", "next month", "day before yesterday", "Yesterday", "TODAY",
	"recent", "recently", "Lately", "1999", "2101", "1850", "19", "laſt 3 days", "this weeK", "3 weeKs ago", "ſince 2024",
	"以降", "まで", "から", "より前", "since", "before", "after", "until", "from", "to", "between", "and", "〜", "-",
	"議事録", "PDF", "report", "steam engine", "Tesla", "ポルトガル", "梅雨", "日本", "月曜", "年間", "前後", "days", "mar",
}

// racePairStride: the race detector makes regexp about 40 times slower
// and finds nothing in these single-goroutine sweeps, so the race build
// takes every racePairStride-th fragment pair (7 is prime to the list's
// length, so every fragment still meets many partners on both sides);
// scripts/test.sh runs the sweeps once more without -race over every pair.
const racePairStride = 7

// gateQueries builds the broad list: every fragment alone, in a sentence,
// and every pair of fragments with and without a space (under the race
// detector every racePairStride-th pair).
func gateQueries(t *testing.T) []string {
	stride := 1
	if raceEnabled {
		stride = racePairStride
		t.Logf("race build: every %dth fragment pair; scripts/test.sh runs every pair without -race", stride)
	}
	qs := append([]string{}, gateFragments...)
	k := 0
	for _, f := range gateFragments {
		qs = append(qs, f+"の議事録", "budget "+f, "what happened in "+f+"?", f+"に亡くなったのは誰", strings.ToUpper(f))
		for _, g := range gateFragments {
			if k%stride == 0 {
				qs = append(qs, f+" "+g, f+g)
			}
			k++
		}
	}
	return qs
}

// checkGates reports the two properties of the gates on q: a closed gate
// means its pattern cannot match (so every pattern's gate passes on each of
// its own matches: a rule whose gate names the wrong literal shows here,
// even where another rule would have produced the same atom), and the gated
// atoms, and so the whole analysis, are those of running every pattern. It
// returns whether q has a period.
func checkGates(t *testing.T, c clock, q string) bool {
	t.Helper()
	in := newGateInput(q)
	for i, r := range periodRules() {
		if !r.may(in) && r.re().MatchString(q) {
			t.Errorf("rule %d (%s): matches %q but its gate is closed", i, r.re(), q)
		}
	}
	got, want := findAtomsGated(c, q, true), findAtomsGated(c, q, false)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q: gated atoms %+v, every pattern %+v", q, got, want)
	}
	return len(want) > 0
}

// The gates only skip compiling patterns that cannot match: the period
// atoms, and so the whole analysis, are those of running every pattern;
// and every pattern's gate passes on each of its own matches.
func TestGatesSkipOnlyPatternsThatCannotMatch(t *testing.T) {
	c := newClock(testNow)
	n := 0
	for _, q := range gateQueries(t) {
		if checkGates(t, c, q) {
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d queries have a period: the list no longer exercises the patterns", n)
	}
}

// FuzzGates checks the gates' properties on any query; the seeds are the
// fragments alone and in a sentence.
func FuzzGates(f *testing.F) {
	for _, s := range gateFragments {
		f.Add(s)
		f.Add("budget " + s + "の議事録")
	}
	c := newClock(testNow)
	f.Fuzz(func(t *testing.T, q string) {
		checkGates(t, c, q)
	})
}

// A query without period wording opens no gate, so no pattern is
// compiled: that is the keystroke's saving.
func TestGatesClosedWithoutPeriodWords(t *testing.T) {
	for _, q := range []string{"steam engine", "Tesla", "ポルトガル", "日本で梅雨がないのは北海道とどこか。", "immune system", "議事録 PDF"} {
		in := newGateInput(q)
		for i, r := range periodRules() {
			if r.may(in) {
				t.Errorf("%q opens the gate of rule %d (%s)", q, i, r.re())
			}
		}
	}
}
