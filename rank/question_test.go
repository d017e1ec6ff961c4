package rank

import (
	"strings"
	"testing"
)

func TestReadQuestion(t *testing.T) {
	cases := []struct {
		q            string
		body, phrase string // body words joined by "|"
		text         string
		impl, define bool
		names        string // readings joined by "|", words by " "
	}{
		{q: "where is CommandRouter implemented", body: "CommandRouter", text: "CommandRouter", impl: true, names: "CommandRouter|is CommandRouter|where is CommandRouter"},
		{q: "Where's the auth middleware?", body: "auth|middleware", text: "the auth middleware", names: "auth middleware|the auth middleware|Where's the auth middleware"},
		{q: "find a call from Go to", body: "call|from|Go|to", text: "a call from Go to", names: "call from Go to|a call from Go to|find a call from Go to|call from Go"},
		{q: "find class TokenBucket", body: "class|TokenBucket", text: "class TokenBucket", names: "class TokenBucket|TokenBucket|find class TokenBucket"},
		{q: "parse_args", body: "parse_args", text: "parse_args", names: "parse_args"},
		{q: "where is Module defined", body: "Module", text: "Module", define: true, names: "Module|is Module|where is Module"},
		{q: "find read file", body: "read|file", text: "read file", names: "read file|read|find read file"},
		{q: "find find text", body: "find|text", text: "find text", names: "find text|find find text"},
		{q: "where is is eface", body: "is|eface", text: "is eface", names: "is eface|is is eface|where is is eface|eface"},
		{q: "find version to abi", body: "version|to|abi", text: "version to abi", names: "version to abi|find version to abi|version abi"},
		{q: "Where is the SessionManager class implemented?", body: "SessionManager|class", text: "the SessionManager class", impl: true, names: "SessionManager class|SessionManager|the SessionManager class|is the SessionManager class|Where is the SessionManager class"},
		{q: `where is "reports whether the byte could be" handled`, phrase: "reports whether the byte could be"},
		{q: "where is `should set the output`", phrase: "should set the output"},
		{q: "where is 'max retries' defined", phrase: "max retries", define: true},
		{q: "why isn't it 'found'", phrase: "found", body: ""},
		{q: "find syscall.Open: O_SYNC is not supported by js/wasm", body: "syscall.Open|O_SYNC|is|not|supported|by|js/wasm",
			text: "syscall.Open: O_SYNC is not supported by js/wasm", names: "syscall.Open O_SYNC is not supported by js/wasm|find syscall.Open O_SYNC is not supported by js/wasm|syscall.Open O_SYNC not supported js/wasm"},
		{q: "get preferred schemes", body: "get|preferred|schemes", text: "get preferred schemes", names: "get preferred schemes"},
		{q: "find for Base() != nil", body: "Base|=|nil", text: "for Base() != nil", names: "Base = nil|for Base = nil|find for Base = nil"},
		{q: "where is the", names: ""},
		{q: "Implementation", body: "Implementation", text: "Implementation", names: "Implementation"},
		{q: "is request", body: "is|request", text: "is request", names: "is request|request"},
		{q: "the config loader", body: "config|loader", text: "the config loader", names: "config loader|the config loader"},
		{q: "find search file", body: "search|file", text: "search file", names: "search file|search|find search file"},
		{q: "search for the config loader", body: "config|loader", text: "for the config loader", names: "config loader|the config loader|for the config loader|search for the config loader"},
		{q: "where is Locate implemented", body: "Locate", text: "Locate", impl: true, names: "Locate|is Locate|where is Locate"},
	}
	for _, c := range cases {
		q := readQuestion(c.q)
		var names []string
		if q.phrase == "" {
			for _, n := range q.names() {
				names = append(names, strings.Join(n, " "))
			}
		}
		if got := strings.Join(q.body, "|"); q.phrase == "" && got != c.body || q.phrase != c.phrase || q.text != c.text ||
			q.impl != c.impl || q.define != c.define || strings.Join(names, "|") != c.names {
			t.Errorf("readQuestion(%q) = body %q phrase %q text %q impl %v define %v names %q", c.q, q.body, q.phrase, q.text, q.impl, q.define, names)
		}
	}
}
