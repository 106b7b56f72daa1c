package rules

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// span is a half-open byte range [start, end) of the analysed text.
type span struct{ start, end int }

// atom is one period expression found in a query: the calendar interval
// [from, to) it names. A zero to means "up to now" (rolling periods).
type atom struct {
	span
	from, to time.Time
}

// clock resolves calendar expressions against a reference time in its
// location.
type clock struct {
	now   time.Time
	today time.Time // midnight of now's calendar day, in now's location
}

func newClock(now time.Time) clock {
	if now.IsZero() {
		now = time.Now()
	}
	y, m, d := now.Date()
	return clock{now: now, today: time.Date(y, m, d, 0, 0, 0, 0, now.Location())}
}

func (c clock) date(y, m, d int) time.Time {
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, c.today.Location())
}

func (c clock) year(y int) (time.Time, time.Time) { return c.date(y, 1, 1), c.date(y+1, 1, 1) }
func (c clock) month(y, m int) (time.Time, time.Time) {
	return c.date(y, m, 1), c.date(y, m+1, 1)
}
func (c clock) day(t time.Time) (time.Time, time.Time) { return t, t.AddDate(0, 0, 1) }

// fiscal is the Japanese fiscal year y: April y to March y+1.
func (c clock) fiscal(y int) (time.Time, time.Time) { return c.date(y, 4, 1), c.date(y+1, 4, 1) }

// week is the Monday-based week containing t.
func (c clock) week(t time.Time) (time.Time, time.Time) {
	monday := t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
	return monday, monday.AddDate(0, 0, 7)
}

func (c clock) fiscalYearOfToday() int {
	if c.today.Month() >= time.April {
		return c.today.Year()
	}
	return c.today.Year() - 1
}

// unit is a calendar unit of a relative expression.
type unit int

const (
	unitDay unit = iota
	unitWeek
	unitMonth
	unitYear
)

func parseUnit(s string) (unit, bool) {
	s = strings.ToLower(s)
	switch {
	case strings.HasPrefix(s, "日"), strings.HasPrefix(s, "day"):
		return unitDay, true
	case strings.HasPrefix(s, "週"), strings.HasPrefix(s, "week"):
		return unitWeek, true
	case strings.HasSuffix(strings.TrimSuffix(s, "間"), "月"), strings.HasPrefix(s, "month"):
		return unitMonth, true
	case strings.HasPrefix(s, "年"), strings.HasPrefix(s, "year"):
		return unitYear, true
	}
	return 0, false
}

// back returns today moved n units into the past.
func (c clock) back(n int, u unit) time.Time {
	switch u {
	case unitWeek:
		return c.today.AddDate(0, 0, -7*n)
	case unitMonth:
		return c.today.AddDate(0, -n, 0)
	case unitYear:
		return c.today.AddDate(-n, 0, 0)
	}
	return c.today.AddDate(0, 0, -n)
}

// unitAt returns the calendar unit containing t.
func (c clock) unitAt(t time.Time, u unit) (time.Time, time.Time) {
	switch u {
	case unitWeek:
		return c.week(t)
	case unitMonth:
		return c.month(t.Year(), int(t.Month()))
	case unitYear:
		return c.year(t.Year())
	}
	return c.day(t)
}

// lastMonthNamed returns the most recent month m (1–12) that has begun.
func (c clock) lastMonthNamed(m int) (time.Time, time.Time) {
	y := c.today.Year()
	if m > int(c.today.Month()) {
		y--
	}
	return c.month(y, m)
}

// recentDays is what "最近" / "recent" without a number means.
const recentDays = 30

type periodRule struct {
	gate
	// resolve returns the interval named by the match; ok=false rejects it.
	resolve func(c clock, m []string) (from, to time.Time, ok bool)
}

const enMonths = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`

var monthIndex = sync.OnceValue(func() map[string]int {
	return map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
})

func enMonth(s string) int { return monthIndex()[strings.ToLower(s)[:3]] }

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func validYear(y int) bool { return y >= 1900 && y <= 2199 }

func ymd(c clock, y, m, d int) (time.Time, time.Time, bool) {
	if !validYear(y) || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, time.Time{}, false
	}
	t := c.date(y, m, d)
	if t.Day() != d { // 2月30日
		return time.Time{}, time.Time{}, false
	}
	from, to := c.day(t)
	return from, to, true
}

func ym(c clock, y, m int) (time.Time, time.Time, bool) {
	if !validYear(y) || m < 1 || m > 12 {
		return time.Time{}, time.Time{}, false
	}
	from, to := c.month(y, m)
	return from, to, true
}

func yr(c clock, y int) (time.Time, time.Time, bool) {
	if !validYear(y) {
		return time.Time{}, time.Time{}, false
	}
	from, to := c.year(y)
	return from, to, true
}

func fixed(f func(c clock) (time.Time, time.Time)) func(clock, []string) (time.Time, time.Time, bool) {
	return func(c clock, _ []string) (time.Time, time.Time, bool) {
		from, to := f(c)
		return from, to, true
	}
}

const jaUnits = `日間?|週間?|か月間?|カ月間?|ヶ月間?|ヵ月間?|ケ月間?|箇月間?|ヶ月|年間?`

// gate is a period pattern compiled on first use, with a necessary
// condition for it to match that is checked without compiling it: each
// Alfred keystroke is a new process, and compiling all ~37 patterns cost
// about 3.5 ms of CPU per keystroke, though most queries can match none.
type gate struct {
	re func() *regexp.Regexp
	// digit: every match has an ASCII digit (\d).
	digit bool
	// any: every match contains one of these literals (lower-case ASCII
	// when fold: matched against the query with ASCII letters lowered).
	any  []string
	fold bool
}

// lit is a pattern whose every match contains one of literals; num one
// whose every match also has an ASCII digit. A (?i) pattern's literals are
// lower-case ASCII.
func lit(expr string, literals ...string) gate {
	return gate{re: LazyRegexp(expr), any: literals, fold: strings.HasPrefix(expr, "(?i)")}
}

func num(expr string, literals ...string) gate {
	g := lit(expr, literals...)
	g.digit = true
	return g
}

// gateInput is the query as the gates read it: whether it has an ASCII
// digit, and its ASCII-lowered form for the (?i) patterns. Case folding in
// regexp also matches ſ (U+017F) for s and K (U+212A) for k; a query with
// either passes every folded gate.
type gateInput struct {
	s, lower    string
	digit, wild bool
}

func newGateInput(s string) gateInput {
	in := gateInput{s: s, lower: s}
	lowered := false
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= '0' && b <= '9':
			in.digit = true
		case b >= 'A' && b <= 'Z':
			lowered = true
		}
	}
	if lowered {
		in.lower = strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' {
				return r + ('a' - 'A')
			}
			return r
		}, s)
	}
	in.wild = strings.ContainsRune(s, '\u017f') || strings.ContainsRune(s, '\u212a')
	return in
}

// may reports whether the pattern could match in.s: false only when no
// match is possible.
func (g gate) may(in gateInput) bool {
	if g.digit && !in.digit {
		return false
	}
	if g.fold && in.wild {
		return true
	}
	t := in.s
	if g.fold {
		t = in.lower
	}
	for _, l := range g.any {
		if strings.Contains(t, l) {
			return true
		}
	}
	return len(g.any) == 0
}

// periodRules are built on first use, not at start-up, and each pattern is
// compiled only when its gate passes.
var periodRules = sync.OnceValue(func() []periodRule {
	return []periodRule{
		// Japanese.
		{num(`(\d{4})\s*年度`, "年度"), func(c clock, m []string) (time.Time, time.Time, bool) {
			y := atoi(m[1])
			if !validYear(y) {
				return time.Time{}, time.Time{}, false
			}
			from, to := c.fiscal(y)
			return from, to, true
		}},
		{lit(`(今|本|当|昨|前|去|来|一昨)年度`, "年度"), func(c clock, m []string) (time.Time, time.Time, bool) {
			y := c.fiscalYearOfToday()
			switch m[1] {
			case "昨", "前", "去":
				y--
			case "一昨":
				y -= 2
			case "来":
				y++
			}
			from, to := c.fiscal(y)
			return from, to, true
		}},
		{num(`(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日`, "日"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return ymd(c, atoi(m[1]), atoi(m[2]), atoi(m[3]))
		}},
		{num(`(\d{4})\s*年\s*(\d{1,2})\s*月`, "月"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return ym(c, atoi(m[1]), atoi(m[2]))
		}},
		{num(`(\d{4})\s*年`, "年"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return yr(c, atoi(m[1]))
		}},
		{num(`(\d{1,2})\s*月\s*(\d{1,2})\s*日`, "日"), func(c clock, m []string) (time.Time, time.Time, bool) {
			mo, d := atoi(m[1]), atoi(m[2])
			y := c.today.Year()
			if from, _, ok := ymd(c, y, mo, d); ok && from.After(c.today) {
				y--
			}
			return ymd(c, y, mo, d)
		}},
		{num(`(\d{1,2})\s*月`, "月"), func(c clock, m []string) (time.Time, time.Time, bool) {
			mo := atoi(m[1])
			if mo < 1 || mo > 12 {
				return time.Time{}, time.Time{}, false
			}
			from, to := c.lastMonthNamed(mo)
			return from, to, true
		}},
		{num(`(?:最近|直近|過去|ここ)\s*(\d+)\s*(`+jaUnits+`)`, "最近", "直近", "過去", "ここ"), func(c clock, m []string) (time.Time, time.Time, bool) {
			u, ok := parseUnit(m[2])
			n := atoi(m[1])
			if !ok || n <= 0 || n > 100 {
				return time.Time{}, time.Time{}, false
			}
			return c.back(n, u), time.Time{}, true
		}},
		{num(`(\d+)\s*(日|週間|週|か月|カ月|ヶ月|ヵ月|ケ月|箇月|年)\s*前`, "前"), func(c clock, m []string) (time.Time, time.Time, bool) {
			u, ok := parseUnit(m[2])
			n := atoi(m[1])
			if !ok || n <= 0 || n > 100 {
				return time.Time{}, time.Time{}, false
			}
			from, to := c.unitAt(c.back(n, u), u)
			return from, to, true
		}},
		{lit(`一昨年|おととし`, "一昨年", "おととし"), fixed(func(c clock) (time.Time, time.Time) { return c.year(c.today.Year() - 2) })},
		{lit(`去年|昨年|前年|きょねん`, "去年", "昨年", "前年", "きょねん"), fixed(func(c clock) (time.Time, time.Time) { return c.year(c.today.Year() - 1) })},
		{lit(`今年|本年|ことし`, "今年", "本年", "ことし"), fixed(func(c clock) (time.Time, time.Time) { return c.year(c.today.Year()) })},
		{lit(`来年`, "来年"), fixed(func(c clock) (time.Time, time.Time) { return c.year(c.today.Year() + 1) })},
		{lit(`一昨日|おととい`, "一昨日", "おととい"), fixed(func(c clock) (time.Time, time.Time) { return c.day(c.today.AddDate(0, 0, -2)) })},
		{lit(`昨日|きのう`, "昨日", "きのう"), fixed(func(c clock) (time.Time, time.Time) { return c.day(c.today.AddDate(0, 0, -1)) })},
		{lit(`今日|本日|きょう`, "今日", "本日", "きょう"), fixed(func(c clock) (time.Time, time.Time) { return c.day(c.today) })},
		{lit(`先々週`, "先々週"), fixed(func(c clock) (time.Time, time.Time) { return c.week(c.today.AddDate(0, 0, -14)) })},
		{lit(`先週|前週`, "先週", "前週"), fixed(func(c clock) (time.Time, time.Time) { return c.week(c.today.AddDate(0, 0, -7)) })},
		{lit(`今週|本週`, "今週", "本週"), fixed(func(c clock) (time.Time, time.Time) { return c.week(c.today) })},
		{lit(`先々月`, "先々月"), fixed(func(c clock) (time.Time, time.Time) {
			return c.month(c.today.Year(), int(c.today.Month())-2)
		})},
		{lit(`先月|前月`, "先月", "前月"), fixed(func(c clock) (time.Time, time.Time) {
			return c.month(c.today.Year(), int(c.today.Month())-1)
		})},
		{lit(`今月|本月`, "今月", "本月"), fixed(func(c clock) (time.Time, time.Time) {
			return c.month(c.today.Year(), int(c.today.Month()))
		})},
		{lit(`最近|直近|近頃|このごろ|さいきん`, "最近", "直近", "近頃", "このごろ", "さいきん"), fixed(func(c clock) (time.Time, time.Time) {
			return c.today.AddDate(0, 0, -recentDays), time.Time{}
		})},

		// English (the text keeps its case; these match case-insensitively).
		{num(`(?i)\b(?:fy|fiscal\s+(?:year\s+)?)\s*(\d{4})\b`, "fy", "fiscal"), func(c clock, m []string) (time.Time, time.Time, bool) {
			y := atoi(m[1])
			if !validYear(y) {
				return time.Time{}, time.Time{}, false
			}
			from, to := c.fiscal(y)
			return from, to, true
		}},
		{num(`(?i)\b(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})\b`, "/", ".", "-"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return ymd(c, atoi(m[1]), atoi(m[2]), atoi(m[3]))
		}},
		{num(`(?i)\b(\d{4})[/-](\d{1,2})\b`, "/", "-"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return ym(c, atoi(m[1]), atoi(m[2]))
		}},
		{num(`(?i)\b(`+enMonths+`)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return ymd(c, atoi(m[3]), enMonth(m[1]), atoi(m[2]))
		}},
		{num(`(?i)\b(`+enMonths+`)\.?,?\s+(\d{4})\b`, "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return ym(c, atoi(m[2]), enMonth(m[1]))
		}},
		{lit(`(?i)\b(january|february|march|april|june|july|august|september|october|november|december)\b`, "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), func(c clock, m []string) (time.Time, time.Time, bool) {
			from, to := c.lastMonthNamed(enMonth(m[1]))
			return from, to, true
		}},
		{num(`(?i)\b(?:last|past|previous|recent)\s+(\d+)\s+(days?|weeks?|months?|years?)\b`, "last", "past", "previous", "recent"), func(c clock, m []string) (time.Time, time.Time, bool) {
			u, _ := parseUnit(m[2])
			n := atoi(m[1])
			if n <= 0 || n > 100 {
				return time.Time{}, time.Time{}, false
			}
			return c.back(n, u), time.Time{}, true
		}},
		{num(`(?i)\b(\d+)\s+(days?|weeks?|months?|years?)\s+ago\b`, "ago"), func(c clock, m []string) (time.Time, time.Time, bool) {
			u, _ := parseUnit(m[2])
			n := atoi(m[1])
			if n <= 0 || n > 100 {
				return time.Time{}, time.Time{}, false
			}
			from, to := c.unitAt(c.back(n, u), u)
			return from, to, true
		}},
		{lit(`(?i)\b(this|last|previous|past|next)\s+(week|month|year)\b`, "week", "month", "year"), func(c clock, m []string) (time.Time, time.Time, bool) {
			u, _ := parseUnit(m[2])
			switch strings.ToLower(m[1]) {
			case "this":
				from, to := c.unitAt(c.today, u)
				return from, to, true
			case "past":
				return c.back(1, u), time.Time{}, true
			case "next":
				from, _ := c.unitAt(c.today, u)
				_, to := c.unitAt(from, u)
				from, to = c.unitAt(to, u)
				return from, to, true
			}
			from, _ := c.unitAt(c.today, u) // start of the current unit
			from, to := c.unitAt(from.AddDate(0, 0, -1), u)
			return from, to, true
		}},
		{lit(`(?i)\bday\s+before\s+yesterday\b`, "yesterday"), fixed(func(c clock) (time.Time, time.Time) { return c.day(c.today.AddDate(0, 0, -2)) })},
		{lit(`(?i)\byesterday\b`, "yesterday"), fixed(func(c clock) (time.Time, time.Time) { return c.day(c.today.AddDate(0, 0, -1)) })},
		{lit(`(?i)\btoday\b`, "today"), fixed(func(c clock) (time.Time, time.Time) { return c.day(c.today) })},
		{lit(`(?i)\b(?:recent|recently|lately)\b`, "recent", "lately"), fixed(func(c clock) (time.Time, time.Time) {
			return c.today.AddDate(0, 0, -recentDays), time.Time{}
		})},
		{num(`\b(19\d{2}|2[01]\d{2})\b`, "19", "20", "21"), func(c clock, m []string) (time.Time, time.Time, bool) {
			return yr(c, atoi(m[1]))
		}},
	}
})

// findAtoms returns the period expressions of s, left to right, without
// overlaps; where two overlap the longer wins.
func findAtoms(c clock, s string) []atom { return findAtomsGated(c, s, true) }

// findAtomsGated is findAtoms; with gated false it runs every pattern (the
// reference the gates are tested against).
func findAtomsGated(c clock, s string, gated bool) []atom {
	var all []atom
	in := newGateInput(s)
	for _, r := range periodRules() {
		if gated && !r.may(in) {
			continue
		}
		for _, idx := range r.re().FindAllStringSubmatchIndex(s, -1) {
			m := make([]string, len(idx)/2)
			for i := range m {
				if idx[2*i] >= 0 {
					m[i] = s[idx[2*i]:idx[2*i+1]]
				}
			}
			from, to, ok := r.resolve(c, m)
			if !ok {
				continue
			}
			all = append(all, atom{span: span{idx[0], idx[1]}, from: from, to: to})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		li, lj := all[i].end-all[i].start, all[j].end-all[j].start
		if li != lj {
			return li > lj
		}
		return all[i].start < all[j].start
	})
	var kept []atom
	for _, a := range all {
		overlaps := false
		for _, k := range kept {
			if a.start < k.end && k.start < a.end {
				overlaps = true
				break
			}
		}
		if !overlaps {
			kept = append(kept, a)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].start < kept[j].start })
	return kept
}

// Modifier patterns around a period expression, compiled on first use.
var (
	// Japanese markers after a period. Order matters: longer first.
	jaAfterRe = LazyRegexp(`^\s*(より後ろ|よりあと|より後|より前|以降|以後|以前|以内|までに|まで|から|より|の後|の前|の間|中|頃|ごろ)`)
	// Connectors between the two ends of a range.
	rangeSepRe = LazyRegexp(`(?i)^\s*(?:から|より|〜|~|-|–|—|to|until|till|through|thru|and)\s*`)
	rangeEndRe = LazyRegexp(`^\s*(?:まで(?:の間)?|の間)`)
	// English markers before a period.
	enBeforeRe = LazyRegexp(`(?i)\b(since|after|before|until|till|through|from|between|in|during|on|of|within|for)\s+(?:the\s+)?$`)
)

// period is the outcome of period parsing: the bounds and every byte range
// of the text that expressed them.
type period struct {
	from, to time.Time // zero: open
	spans    []span
	found    bool
	// explicit: the period found names calendar dates by number or month
	// name (1910年, 2024-03, August 2024), not relative to today (去年,
	// last week, 3日前). Such a date may be the question's content rather
	// than the files' dates (see dateIsFileDate).
	explicit bool
	// first is the span of the period found.
	first span
}

// parsePeriod finds the first period expression of s, with its Japanese or
// English modifiers (以降, まで, since, before, from … to …). Later period
// expressions are consumed (their spans returned) but ignored.
func parsePeriod(c clock, s string) period {
	atoms := findAtoms(c, s)
	var p period
	for i := 0; i < len(atoms); i++ {
		a := atoms[i]
		sp := a.span
		from, to := a.from, a.to
		// English preposition before the atom.
		prep := ""
		lo := max(0, a.start-24) // the longest preposition plus "the" and spaces
		if m := enBeforeRe().FindStringSubmatchIndex(s[lo:a.start]); m != nil {
			prep = strings.ToLower(s[lo+m[2] : lo+m[3]])
			sp.start = lo + m[0]
		}
		// Range: atom, connector, atom.
		if i+1 < len(atoms) {
			if m := rangeSepRe().FindStringIndex(s[a.end:]); m != nil && a.end+m[1] == atoms[i+1].start {
				b := atoms[i+1]
				from, to = a.from, b.to
				if b.to.IsZero() {
					to = time.Time{}
				}
				sp.end = b.end
				if m := rangeEndRe().FindStringIndex(s[sp.end:]); m != nil {
					sp.end += m[1]
				}
				i++
				if !p.found {
					p.from, p.to, p.found = from, to, true
					p.explicit, p.first = explicitDate(s[sp.start:sp.end]), sp
				}
				p.spans = append(p.spans, sp)
				continue
			}
		}
		switch prep {
		case "since":
			to = time.Time{}
		case "after":
			from, to = a.to, time.Time{}
			if a.to.IsZero() {
				from = a.from
			}
		case "before":
			from, to = time.Time{}, a.from
		case "until", "till", "through":
			from = time.Time{}
		}
		if prep == "" {
			if m := jaAfterRe().FindStringSubmatchIndex(s[a.end:]); m != nil {
				switch s[a.end+m[2] : a.end+m[3]] {
				case "以降", "以後", "から", "より":
					to = time.Time{}
				case "より後ろ", "よりあと", "より後", "の後":
					from, to = a.to, time.Time{}
					if a.to.IsZero() {
						from = a.from
					}
				case "以前", "まで", "までに":
					from = time.Time{}
				case "より前", "の前":
					from, to = time.Time{}, a.from
				}
				sp.end = a.end + m[1]
			}
		}
		if !p.found {
			p.from, p.to, p.found = from, to, true
			p.explicit, p.first = explicitDate(s[sp.start:sp.end]), sp
		}
		p.spans = append(p.spans, sp)
	}
	return p
}

// Patterns of dates in content position, compiled on first use.
var (
	// relativeDateRe marks a period expression relative to today.
	relativeDateRe = LazyRegexp(`(?i)前|今|昨|去|来|最近|直近|過去|ここ|\b(?:ago|last|past|previous|recent|this|next)\b`)
	// numberOrMonthRe marks a calendar date written by number or month name.
	numberOrMonthRe = LazyRegexp(`(?i)\d|\b(?:` + enMonths + `)\b`)
	// jaFileDateWordRe / enFileDateWordRe are words saying the date is the
	// file's: when it was made, changed or sent.
	jaFileDateWordRe = LazyRegexp(`作成|更新|変更|編集|保存|アップロード|共有|作った|作られた|書いた|送った|送られた|受け取った|もらった|届いた|日付`)
	enFileDateWordRe = LazyRegexp(`(?i)\b(?:created|modified|updated|edited|uploaded|saved|shared|dated|changed|sent|received|written)\b`)
	// jaNounTailRe is what follows a date that qualifies a document: an
	// optional の and a noun phrase to the end of the query (2024年3月の請求書,
	// 2024/3 請求書), optionally with a request (…を探して).
	jaNounTailRe = LazyRegexp(`^[\s　]*の?[\s　]*[\p{Han}\p{Katakana}ー・々A-Za-z0-9\s　]*(?:(?:を|が)?(?:探して|見せて|表示して|開いて|出して|教えて)?(?:ください|下さい|ほしい|欲しい)?)[。.!！]*$`)
	// enQuestionRe marks an English question: a question word or auxiliary
	// first, or a question mark.
	enQuestionRe = LazyRegexp(`(?i)^\s*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|would|should|will|has|have|had|in\s+what|in\s+which)\b|\?\s*$`)
	// yearRe finds a year in a date; jaMonthRe a Japanese month.
	yearRe    = LazyRegexp(`(?:^|[^0-9])((?:19|20|21)[0-9]{2})(?:[^0-9]|$)`)
	jaMonthRe = LazyRegexp(`([0-9]{1,2})\s*月`)
	enMonthRe = LazyRegexp(`(?i)\b(` + enMonths + `)\b`)
)

// explicitDate reports whether a period expression names calendar dates by
// number or month name rather than relative to today.
func explicitDate(s string) bool {
	return numberOrMonthRe().MatchString(s) && !relativeDateRe().MatchString(s)
}

// dateIsFileDate decides whether an explicit date in query s (p.first) is
// a file-date filter or the question's content. It is a filter when the
// query says so (作成, 更新, created, modified, …), when a file type is
// named, when — in Japanese — it qualifies the noun phrase that ends the
// query (2024年3月の請求書, 2023年以降の契約書), or when an English query is a
// list of keywords rather than a question (budget in 2024). A date in a
// sentence (1910年に亡くなったのは誰, what happened in 1910?) is content.
func dateIsFileDate(s string, p period, fileType string) bool {
	if fileType != "" || jaFileDateWordRe().MatchString(s) || enFileDateWordRe().MatchString(s) {
		return true
	}
	if hasCJK(s) {
		return jaNounTailRe().MatchString(s[p.first.end:])
	}
	return !enQuestionRe().MatchString(s)
}

// dateKeywords are the words of the period spans of s searched for when
// the dates are content: each year, else the month as written (8月,
// August).
func dateKeywords(s string, spans []span) []string {
	var out []string
	for _, sp := range spans {
		t := s[sp.start:sp.end]
		if ys := yearRe().FindAllStringSubmatch(t, -1); len(ys) > 0 {
			for _, y := range ys {
				out = append(out, y[1])
			}
			continue
		}
		if m := jaMonthRe().FindStringSubmatch(t); m != nil {
			out = append(out, m[1]+"月")
		} else if m := enMonthRe().FindString(t); m != "" {
			out = append(out, m)
		}
	}
	return out
}

func hasCJK(s string) bool {
	for _, r := range s {
		if c := ClassOf(r); c == ClassHiragana || c == ClassKatakana || c == ClassKanji {
			return true
		}
	}
	return false
}

func formatDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}
