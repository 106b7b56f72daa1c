package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
)

// English entity types the rules assign (the build asks for
// organization, person, geo, event and concept; date and work are named
// by the reading of GraphRAG's types). A name no rule types is
// "other".
const (
	entPerson = "person"
	entGeo    = "geo"
	entOrg    = "organization"
	entEvent  = "event"
	entDate   = "date"
	entWork   = "work"
	entOther  = "other"
)

// enMention is one English entity mention in a sentence.
type enMention struct {
	name    string
	typ     string
	initial bool // starts the sentence (its capital may be only the sentence's)
}

// enWord is a word of a sentence with what separates it from the word
// before.
type enWord struct {
	text   string
	sep    string // the characters between the previous word and this one
	quoted bool   // inside double quotes
}

// splitEnWords splits a sentence into words (letters, digits, inner
// apostrophes, hyphens and periods of initials) with their separators.
func splitEnWords(s string) []enWord {
	var out []enWord
	quoted := false
	last := 0
	for _, loc := range reEnWord().FindAllStringIndex(s, -1) {
		sep := s[last:loc[0]]
		for _, r := range sep {
			if r == '"' || r == '“' || r == '”' {
				quoted = r == '“' || r == '"' && !quoted
			}
		}
		w := strings.TrimRight(s[loc[0]:loc[1]], "'’-")
		out = append(out, enWord{text: w, sep: sep, quoted: quoted})
		last = loc[1]
	}
	return out
}

// nameConnectors may join the words of one name: University of Warsaw,
// William the Conqueror, Robert de Thornham.
var nameConnectors = rules.LazySet("of", "de", "du", "da", "di", "del", "della", "van", "von", "der", "den", "la", "le", "the", "y", "al", "bin", "ibn", "upon", "on")

// sentenceStarters are capitalised words that open a sentence and name
// nothing (beyond the stop words).
var sentenceStarters = rules.LazySet("however", "although", "after", "before", "during", "since", "while", "when", "where",
	"there", "here", "this", "these", "those", "then", "thus", "also", "many", "most", "some", "several", "both", "each",
	"other", "another", "such", "one", "two", "three", "first", "second", "later", "early", "late", "today", "following",
	"according", "despite", "because", "unlike", "like", "although", "though", "meanwhile", "instead", "further", "finally",
	"in", "on", "at", "by", "for", "from", "with", "as", "it", "its", "he", "she", "they", "we", "his", "her", "their",
	"a", "an", "the", "if", "once", "until", "upon", "under", "over", "between", "among", "within", "without", "throughout")

// capitalised reports a word that starts with a capital letter.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// nameNumber reports a number that may end a name: Super Bowl 50, Louis
// XIV (up to three digits, or a Roman numeral).
func nameNumber(w string) bool {
	if n := len(w); n > 0 && n <= 3 && rules.IsAllClass(w, rules.ClassDigit) {
		return true
	}
	if w == "" || len(w) > 6 {
		return false
	}
	for _, r := range w {
		if !strings.ContainsRune("IVXLC", r) {
			return false
		}
	}
	return len(w) >= 2 // a lone I or V is a word
}

// breaksName reports a separator that ends a name: punctuation other
// than an apostrophe, a hyphen or an initial's period.
func breaksName(sep string) bool {
	for _, r := range sep {
		if !unicode.IsSpace(r) {
			return true
		}
	}
	return strings.Count(sep, "\n") > 0
}

// englishMentions finds the names of a sentence: runs of capitalised
// words (numbers and connectors such as "of" inside them) not broken by
// punctuation, so "Los Angeles, Orange County" are two names; a leading
// stop word or sentence opener (The, However) is left out; possessive 's
// is dropped. Each mention is typed by rules (englishType).
func englishMentions(sent string) []enMention {
	words := splitEnWords(sent)
	var out []enMention
	i := 0
	for i < len(words) {
		w := words[i]
		if !capitalised(w.text) {
			i++
			continue
		}
		start := i
		j := i + 1
		for j < len(words) && !breaksName(words[j].sep) {
			next := words[j].text
			if capitalised(next) || nameNumber(next) && j > start {
				j++
				continue
			}
			// A connector inside a name, followed by a capitalised word.
			if nameConnectors()[next] && j+1 < len(words) && capitalised(words[j+1].text) && !breaksName(words[j+1].sep) {
				j += 2
				continue
			}
			break
		}
		// Leading function words and sentence openers are not part of a
		// name, unless it is quoted (a title: "My Inventions").
		for start < j && !words[start].quoted && (answerStop()[strings.ToLower(words[start].text)] || sentenceStarters()[strings.ToLower(words[start].text)]) {
			start++
		}
		// Trailing connectors are not either.
		end := j
		for end > start && nameConnectors()[words[end-1].text] {
			end--
		}
		if start < end {
			parts := make([]string, 0, end-start)
			for k := start; k < end; k++ {
				t := words[k].text
				if k == end-1 {
					t = strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "’s")
				}
				parts = append(parts, t)
			}
			name := strings.Join(parts, " ")
			prev := ""
			if start > 0 {
				prev = strings.ToLower(words[start-1].text)
			}
			next := ""
			if end < len(words) {
				next = strings.ToLower(words[end].text)
			}
			out = append(out, enMention{name: name, typ: englishType(name, prev, next, words[start].quoted), initial: start == 0})
		}
		i = max(j, i+1)
	}
	return out
}

// Words that type a name by its own words or by the word before it.
var (
	personTitles = rules.LazySet("mr", "mrs", "ms", "dr", "prof", "professor", "sir", "lord", "lady", "king", "queen", "prince",
		"princess", "duke", "duchess", "count", "countess", "emperor", "empress", "pope", "saint", "st", "president", "general",
		"captain", "bishop", "archbishop", "cardinal", "quarterback", "coach", "senator", "governor", "mayor", "minister")
	personNext = rules.LazySet("who", "whose", "himself", "herself", "said", "says", "wrote", "born", "died")
	placeWords = rules.LazySet("city", "county", "river", "lake", "lakes", "mountain", "mountains", "mount", "island", "islands",
		"park", "street", "square", "bay", "valley", "sea", "ocean", "kingdom", "republic", "empire", "province", "state",
		"states", "area", "region", "district", "coast", "peninsula", "desert", "forest", "gulf", "strait", "canal", "bridge",
		"palace", "castle", "stadium", "airport", "station", "hall", "tower", "square", "avenue", "road", "north", "south",
		"east", "west", "central")
	placeBefore = rules.LazySet("in", "at", "near", "from", "to", "into", "across", "around", "toward", "towards", "outside")
	orgWords    = rules.LazySet("university", "college", "school", "academy", "institute", "company", "corporation", "corp",
		"inc", "ltd", "association", "society", "committee", "council", "league", "party", "army", "navy", "bank", "church",
		"club", "team", "agency", "department", "ministry", "museum", "foundation", "federation", "union", "organization",
		"organisation", "group", "network", "commission", "parliament", "government", "court", "office", "board", "broncos",
		"panthers", "conference", "laboratory", "laboratories", "press", "records", "studios", "motors")
	eventWords = rules.LazySet("war", "battle", "bowl", "cup", "games", "olympics", "revolution", "uprising", "conquest",
		"crusade", "championship", "festival", "exposition", "exhibition", "election", "treaty", "award", "prize", "conference")
)

// englishType types a name by rules: a month with a day or year is a
// date; a name in quotes a work; words such as University or League an
// organisation, War or Bowl an event, City or River a place; a title
// before it (King, Dr) or who/said after it a person; an acronym an
// organisation; in/at/from before it a place; otherwise "other".
func englishType(name, prev, next string, quoted bool) string {
	words := strings.Fields(name)
	if enCalendar()[strings.ToLower(words[0])] {
		return entDate
	}
	if quoted {
		return entWork
	}
	for _, w := range words {
		lw := strings.ToLower(w)
		switch {
		case orgWords()[lw]:
			return entOrg
		case eventWords()[lw]:
			return entEvent
		case placeWords()[lw] && len(words) > 1:
			return entGeo
		}
	}
	switch {
	case personTitles()[prev] || personTitles()[strings.ToLower(words[0])] && len(words) > 1:
		return entPerson
	case personNext()[next] && len(words) >= 2:
		return entPerson
	case len(words) == 1 && len(name) >= 2 && len(name) <= 6 && strings.ToUpper(name) == name && !rules.IsAllClass(name, rules.ClassDigit):
		return entOrg
	case placeBefore()[prev]:
		return entGeo
	}
	return entOther
}

// englishEntityNames reads the entity mentions of a chunk's sentences:
// a name that only ever opens a sentence, is one word and occurs in lower
// case in the chunk ("Town", "Late") is a common word and dropped; names
// of the calendar alone are dropped; a shorter name that ends a longer
// one of the chunk (Tesla, Nikola Tesla) is merged into it. It returns,
// per sentence, the mentions kept with their canonical names.
func englishEntityNames(sents []string) [][]enMention {
	per := make([][]enMention, len(sents))
	midCapital := map[string]bool{} // names seen capitalised inside a sentence
	lowerWords := map[string]bool{}
	for i, s := range sents {
		per[i] = englishMentions(s)
		for _, m := range per[i] {
			if !m.initial {
				midCapital[m.name] = true
			}
		}
		for _, w := range splitEnWords(s) {
			if !capitalised(w.text) {
				lowerWords[w.text] = true
			}
		}
	}
	// Aliases: a name that ends exactly one longer name of the chunk
	// (Tesla, Nikola Tesla) is that name.
	distinct := map[string]bool{}
	for _, ms := range per {
		for _, m := range ms {
			distinct[m.name] = true
		}
	}
	alias := map[string]string{}
	for n := range distinct {
		var longer []string
		for m := range distinct {
			if strings.HasSuffix(m, " "+n) && !strings.Contains(m, " of ") {
				longer = append(longer, m)
			}
		}
		if len(longer) == 1 {
			alias[n] = longer[0]
		}
	}
	for i := range per {
		for k, m := range per[i] {
			if l, ok := alias[m.name]; ok {
				per[i][k].name = l
				midCapital[l] = midCapital[l] || !m.initial
			}
		}
	}
	for i := range per {
		kept := per[i][:0]
		for _, m := range per[i] {
			lname := strings.ToLower(m.name)
			single := !strings.Contains(m.name, " ")
			switch {
			case single && (rules.EnStop()[lname] || enCommon()[lname] || sentenceStarters()[lname] || enCalendar()[lname]):
				continue
			case single && m.initial && !midCapital[m.name] && lowerWords[lname]:
				continue // a common word that only opens sentences
			case single && m.initial && !midCapital[m.name] && m.typ == entOther && len(sents) > 1:
				continue // a sentence's first word, never capitalised elsewhere
			case utf8.RuneCountInString(m.name) < 2 || rules.IsAllClass(strings.ReplaceAll(m.name, " ", ""), rules.ClassDigit):
				continue
			case strings.Count(m.name, " ") >= 6:
				continue // a title-case heading, not a name
			}
			kept = append(kept, m)
		}
		per[i] = kept
	}
	return per
}
