package rank

import (
	"regexp"
	"strings"
)

// A locate question is read as a frame around a body: "where is" BODY
// "implemented", "find" BODY, or just BODY. The frame says what is asked
// (the definition, the implementation); the body is what to look for.
// Only the frame is dropped — words inside the body are kept, since they
// may be part of the name ("version to abi" is VersionToABI, "start the
// world gc" is startTheWorldGC) or of the text looked for. Quoted text
// (double quotes, backticks, single quotes around words) is a phrase:
// exact text, searched as written.

// question is a locate query read.
type question struct {
	// phrase is quoted text, verbatim ("" when nothing is quoted);
	// embedded, when the question has words of its own beside it.
	phrase   string
	embedded bool
	// lead is the frame's leading words, in their case: "get preferred
	// schemes" may be a name after all (_get_preferred_schemes).
	lead []string
	// body is the words looked for, frame removed, in their case; text is
	// the same stretch of the query verbatim (punctuation kept), a phrase
	// as it may appear in a file.
	body []string
	text string
	// impl: "implemented" — where the body or the methods are; define:
	// "defined" or "declared" — the declaration.
	impl, define bool
}

// Frame words. A leading word is dropped only once ("find find text" is
// findText), and only from the ends of the query.
var (
	leadFrame = set("where", "where's", "wheres", "what", "what's", "which", "is", "are", "the", "a", "an",
		"find", "locate", "show", "me", "search", "for", "look", "up", "please", "can", "you", "i",
		"how", "do", "does", "file", "files", "defines", "define", "contains", "code", "source", "of")
	trailFrame = set("implemented", "implementation", "implements", "defined", "definition", "declared", "declaration",
		"handled", "located", "live", "lives", "written", "is", "are", "in", "at", "found", "kept", "?")
	// kindWords name a kind of definition: "the SessionManager class".
	// They are dropped from the ends of the body only when the rest
	// still names something.
	kindWords = set("class", "function", "func", "struct", "method", "type", "interface", "module", "enum", "trait",
		"file", "constant", "variable", "macro", "def")
	// filler words are dropped anywhere, as a last reading, when neither
	// the body nor its ends name anything: "the function that parses time".
	filler = set("the", "a", "an", "of", "for", "in", "is", "are", "that", "this", "it", "to", "which", "where", "does", "do", "with", "by", "on")
	// askWords open a question after which "is"/"are" are frame too.
	askWords = set("where", "what", "which", "how", "who")
	// verbs ask; a question has one, and a second is the body's.
	verbs = set("find", "locate", "search", "show", "look", "grep", "define", "defines", "contains")
	// questionWords are frame words that never name anything.
	questionWords = set("where", "where's", "wheres", "what", "what's", "which", "is", "are", "the", "a", "an",
		"how", "do", "does", "i", "can", "you", "please", "of", "for", "me", "up")
	// openers open a question; a quotation follows them.
	openers     = set("where", "where's", "wheres", "is", "are", "find", "locate", "search", "grep", "show", "me", "look", "up", "please")
	implWords   = set("implemented", "implementation", "implements")
	defineWords = set("defined", "definition", "declared", "declaration")
)

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// quoted finds a phrase: "…", `…`, or '…' opened after a space and closed
// before one (so that an apostrophe, as in isn't, opens nothing).
var quoted = regexp.MustCompile("\"([^\"]+)\"|`([^`]+)`|(?:^|\\s)'([^']+)'(?:$|[\\s?.,;:!])")

var fields = regexp.MustCompile(`\S+`)

// wordTrim is what surrounds a word in a question without being part of
// it.
const wordTrim = "?!.,;:'\"`()"

func readQuestion(query string) question { return readQuestionQuoted(query, true) }

// readQuestionQuoted reads query, with quotes marking a phrase or, when
// quotes is false, as plain words (the fallback for a quotation inside a
// longer text: "find There's no 'user-agent' header").
func readQuestionQuoted(query string, quotes bool) question {
	var q question
	rest := query
	if m := quoted.FindStringSubmatchIndex(query); quotes && m != nil {
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				q.phrase = query[m[2*g]:m[2*g+1]]
			}
		}
		rest = query[:m[0]] + " " + query[m[1]:]
		if strings.TrimSpace(q.phrase) == "" {
			q.phrase = ""
		}
	}
	type token struct {
		word       string // trimmed
		start, end int    // in rest, untrimmed
	}
	var toks []token
	for _, loc := range fields.FindAllStringIndex(rest, -1) {
		w := strings.Trim(rest[loc[0]:loc[1]], wordTrim)
		if w == "" {
			if strings.Contains(rest[loc[0]:loc[1]], "?") {
				w = "?"
			} else {
				continue
			}
		}
		toks = append(toks, token{w, loc[0], loc[1]})
	}
	i, j := 0, len(toks)
	seen, verb, asked := map[string]bool{}, false, false
	for i < j {
		w := strings.ToLower(toks[i].word)
		if !leadFrame[w] || seen[w] || verb && verbs[w] || (w == "is" || w == "are") && !asked {
			// One verb a question ("find search file" looks for
			// search_file); "is" only after "where", "what"… ("is
			// request" is isRequest).
			break
		}
		seen[w], verb, asked = true, verb || verbs[w], asked || askWords[w]
		i++
	}
	seen = map[string]bool{}
	for j > i && trailFrame[strings.ToLower(toks[j-1].word)] && !seen[strings.ToLower(toks[j-1].word)] {
		seen[strings.ToLower(toks[j-1].word)] = true
		j--
	}
	if i == j && q.phrase == "" {
		// Nothing left but the frame, and one of its words may be the
		// name asked about: "where is Locate implemented", "where is
		// find", "Implementation".
		switch {
		case i > 0 && !questionWords[strings.ToLower(toks[i-1].word)]:
			i--
		case j < len(toks) && !questionWords[strings.ToLower(toks[j].word)]:
			j++
		}
	}
	// What is asked is read from the frame only.
	for k, t := range toks {
		if k < i || k >= j || q.phrase != "" {
			lw := strings.ToLower(t.word)
			q.impl = q.impl || implWords[lw]
			q.define = q.define || defineWords[lw]
		}
	}
	if q.phrase != "" {
		// The rest is frame ("where is "…" handled"), or the quotation
		// sits inside longer text, which is tried as it stands when the
		// phrase alone is not enough (Locate).
		q.embedded = i < j
		return q
	}
	for _, t := range toks[:i] {
		q.lead = append(q.lead, t.word)
	}
	for _, t := range toks[i:j] {
		q.body = append(q.body, t.word)
	}
	if i < j {
		// As text, the body is what follows the question's opening verb
		// ("find", "where is", "search for"): "find a call from Go to"
		// quotes "a call from Go to", "find for Base() != nil" quotes
		// "for Base() != nil".
		k := 0
		seen := map[string]bool{}
		for k < i && openers[strings.ToLower(toks[k].word)] && !seen[strings.ToLower(toks[k].word)] {
			seen[strings.ToLower(toks[k].word)] = true
			k++
		}
		q.text = strings.Trim(rest[toks[k].start:toks[j-1].end], wordTrim)
	}
	return q
}

// names are the readings of the body as a name, best first: the body
// whole, then without kind words at its ends, then with the frame's
// leading words given back one by one from the inside, then without
// filler words anywhere. Each is distinct.
func (q *question) names() [][]string {
	var out [][]string
	add := func(ws []string) {
		if len(ws) == 0 {
			return
		}
		for _, o := range out {
			if strings.EqualFold(strings.Join(o, " "), strings.Join(ws, " ")) {
				return
			}
		}
		out = append(out, ws)
	}
	add(q.body)
	add(q.bare())
	for k := len(q.lead) - 1; k >= 0 && len(q.body) > 0; k-- {
		add(append(append([]string(nil), q.lead[k:]...), q.body...))
	}
	add(q.plain())
	return out
}

// bare is the body without kind words at its ends ("the SessionManager
// class" → SessionManager), or the body when nothing else is left.
func (q *question) bare() []string {
	ws := q.body
	for len(ws) > 1 && kindWords[strings.ToLower(ws[0])] {
		ws = ws[1:]
	}
	for len(ws) > 1 && kindWords[strings.ToLower(ws[len(ws)-1])] {
		ws = ws[:len(ws)-1]
	}
	return ws
}

// plain is the bare body without filler or kind words anywhere: the
// words to find in the files' text when no reading names anything.
func (q *question) plain() []string {
	var kept []string
	for _, w := range q.bare() {
		if !filler[strings.ToLower(w)] && !kindWords[strings.ToLower(w)] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		return q.bare()
	}
	return kept
}

// quotation reports a body long enough to be searched as text as well:
// minPhraseWords words or more as the question wrote them.
func (q *question) quotation() bool {
	return len(strings.Fields(q.text)) >= minPhraseWords
}
