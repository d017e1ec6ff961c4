package symbols

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .want files of the extraction fixtures")

// TestExtractFixtures checks the exact symbol list of one fixture per
// language (testdata/symbols/sample.*). Each line of a .want file is
// "line:col kind container name" for the name's position, then the
// definition's line span.
func TestExtractFixtures(t *testing.T) {
	files, err := filepath.Glob("../testdata/symbols/*")
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]bool{}
	x := NewExtractor()
	defer x.Close()
	for _, f := range files {
		if strings.HasSuffix(f, ".want") {
			continue
		}
		lang := LanguageOf(f)
		if lang == nil {
			t.Errorf("%s: no language", f)
			continue
		}
		langs[lang.Name] = true
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			syms, err := x.Extract(context.Background(), lang, src)
			if err != nil {
				t.Fatal(err)
			}
			got := formatSymbols(syms)
			if *update {
				if err := os.WriteFile(f+".want", []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(f + ".want")
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("symbols differ\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
	for _, l := range Languages() {
		if !langs[l] {
			t.Errorf("no fixture for %s", l)
		}
	}
}

func formatSymbols(syms []Symbol) string {
	var b strings.Builder
	for _, s := range syms {
		c := s.Container
		if c == "" {
			c = "-"
		}
		fmt.Fprintf(&b, "%d:%d %s %s %s [%d-%d]\n", s.Select.Start.Line+1, s.Select.Start.Col, s.Kind, c, s.Name, s.Range.Start.Line+1, s.Range.End.Line+1)
	}
	return b.String()
}

// TestExtractEdgeCases covers inputs the indexer meets in real trees: too
// large, binary, broken syntax, and Go laid out in ways that defeat the
// body-skipping fast path (which must then fall back, never lose symbols).
func TestExtractEdgeCases(t *testing.T) {
	goLang, pyLang := byName["go"], byName["python"]
	long := strings.Repeat("\tx := 1\n\t_ = x\n", 400) // bodies big enough to be skipped
	cases := []struct {
		name     string
		lang     *Language
		src      string
		maxBytes int
		want     []string // qualified names
		err      error
	}{
		{"too large", goLang, "package p\nfunc F() {}\n", 10, nil, ErrTooLarge},
		{"binary", goLang, "package p\x00\nfunc F() {}\n", 0, nil, ErrBinary},
		{"broken syntax keeps what parses", goLang, "package p\nfunc F() {\n\tif {\n}\nfunc G() {}\n", 0, []string{"p.F", "p.G"}, nil},
		{"skipped bodies", goLang, "package p\nfunc F() {\n" + long + "}\n\nfunc G() {\n" + long + "}\n", 0, []string{"p.F", "p.G"}, nil},
		{"raw string closing a body early", goLang, "package p\nfunc F() {\n\ts := `\n}\n`\n" + long + "}\nfunc G() {}\n", 0, []string{"p.F", "p.G"}, nil},
		{"declaration inside a skipped span", goLang, "package p\nfunc F() {\n" + long + "} // end\nfunc G() {}\ntype T struct{}\nfunc H() {\n" + long + "}\n", 0, []string{"p.F", "p.G", "p.T", "p.H"}, nil},
		{"not gofmt", goLang, "package p\nfunc F() {\n" + long + "  }\nfunc G() {\n" + long + "}\n", 0, []string{"p.F", "p.G"}, nil},
		{"empty", pyLang, "", 0, nil, nil},
		{"garbage", pyLang, "\xff\xfe)))(((def def class :::\n\tclass", 0, nil, nil},
		{"non-ASCII columns", pyLang, "x = 'é😀'; \ndef f(): pass\nclass Ünïcode: pass\n", 0, []string{"f", "Ünïcode"}, nil},
	}
	x := NewExtractor()
	defer x.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x.MaxBytes = c.maxBytes
			syms, err := x.Extract(context.Background(), c.lang, []byte(c.src))
			if err != c.err {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
			var got []string
			for _, s := range syms {
				got = append(got, s.Qualified())
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestGoBodiesSkipsOnlyBodies(t *testing.T) {
	long := strings.Repeat("\tx := 1\n", 1000)
	src := "package p\n\nfunc F() {\n" + long + "}\n"
	r := goBodies([]byte(src))
	if len(r) != 2 {
		t.Fatalf("ranges = %v", r)
	}
	kept := src[r[0].StartByte:r[0].EndByte] + src[r[1].StartByte:]
	if kept != "package p\n\nfunc F() {}\n" {
		t.Errorf("kept %q", kept)
	}
	if r[1].StartPoint.Row != 1003 {
		t.Errorf("closing brace at row %d", r[1].StartPoint.Row)
	}
}
