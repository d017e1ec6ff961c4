// Package docs holds the project's documents; its test keeps
// ARCHITECTURE.md true to the code.
package docs

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layers is ARCHITECTURE.md's drawing, top to bottom: a package imports
// only packages of lower layers.
var layers = [][]string{
	{"cmd/wayfind", "cmd/wayfind-bench"},
	{"lsp", "mcpserver", "hook", "daemon"},
	{"service"},
	{"wire", "pathlit"},
	{"session"},
	{"passes", "treewatch", "compaction"},
	{"base"},
	{"memory"},
	{"history", "rank"},
	{"content", "symbols", "vcs", "rerank"},
	{"workspace", "ident", "pool", "pathtable", "pacing"},
	{"segment"},
}

// forbidden are imports the table's "never" column rules out within the
// layering: the engine knows no user history and calls the model only
// through rank.Reranker; vcs stays out of the indexes beneath it.
var forbidden = [][2]string{
	{"rank", "rerank"},
	{"rank", "history"},
	{"history", "vcs"},
	{"content", "vcs"},
	{"symbols", "vcs"},
}

// TestImportsFollowTheMap fails when an import crosses a boundary the
// architecture draws, or a package is missing from the drawing or the
// table.
func TestImportsFollowTheMap(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, "wayfind/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layer[p] = i
		}
	}
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, "wayfind/")
		if pkg == "docs" || strings.HasSuffix(pkg, "test") { // this package; test helpers (vcstest, reranktest)
			continue
		}
		from, ok := layer[pkg]
		if !ok {
			t.Errorf("%s is not in the drawing (layers)", pkg)
			continue
		}
		if !regexp.MustCompile("`" + regexp.QuoteMeta(pkg) + "/?`").Match(doc) {
			t.Errorf("ARCHITECTURE.md's table does not describe %s", pkg)
		}
		for _, imp := range strings.Fields(imports) {
			if !strings.HasPrefix(imp, "wayfind/") {
				continue
			}
			imp = strings.TrimPrefix(imp, "wayfind/")
			to, ok := layer[imp]
			if !ok {
				continue // reported as a package of its own
			}
			if to <= from {
				t.Errorf("%s (layer %d) imports %s (layer %d): arrows point down only", pkg, from, imp, to)
			}
			if slices.Contains(forbidden, [2]string{pkg, imp}) {
				t.Errorf("%s imports %s, which ARCHITECTURE.md rules out", pkg, imp)
			}
		}
	}
}

// backticked is every `…` span of a document.
var backticked = regexp.MustCompile("`([^`\n]+)`")

// TestPointersExist: every file ARCHITECTURE.md names exists, and every
// Go name it gives — a package's (`rank.Mapped`), a method
// (`(*Session).pace`), a bare name written in camel case (`typoBudget`) —
// is declared or used in the code, so a rename that leaves the document
// behind fails here.
func TestPointersExist(t *testing.T) {
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	code := sourceText(t)
	method := regexp.MustCompile(`^\(\*(\w+)\)\.(\w+)$`)
	qualified := regexp.MustCompile(`^([a-z]+)\.([A-Za-z_]\w*)(?:\.(\w+))?$`)
	camel := regexp.MustCompile(`^[a-z]+[A-Z]\w*$|^[A-Z][a-z]+[A-Z]\w*$`)
	for _, m := range backticked.FindAllStringSubmatch(string(doc), -1) {
		tok := m[1]
		switch {
		case strings.Contains(tok, "/") && regexp.MustCompile(`^[\w./-]+\.(go|scm|ts|lua|sh|py|md)$`).MatchString(tok):
			if _, err := os.Stat("../" + tok); err != nil {
				t.Errorf("ARCHITECTURE.md names %s, which does not exist", tok)
			}
		case method.MatchString(tok):
			p := method.FindStringSubmatch(tok)
			if !regexp.MustCompile(`func \(\w+ \*?` + p[1] + `\) ` + p[2] + `\(`).MatchString(code) {
				t.Errorf("ARCHITECTURE.md names %s: no such method", tok)
			}
		case qualified.MatchString(tok):
			p := qualified.FindStringSubmatch(tok)
			dir := "../" + p[1]
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				continue // a file name (files.idx, vcs.gob), not a package
			}
			name := p[2]
			if p[3] != "" {
				name = p[3]
			}
			if !regexp.MustCompile(`\b` + name + `\b`).MatchString(sourceOf(t, dir)) {
				t.Errorf("ARCHITECTURE.md names %s: %s is not in package %s", tok, name, p[1])
			}
		case camel.MatchString(tok):
			if !regexp.MustCompile(`\b` + tok + `\b`).MatchString(code) {
				t.Errorf("ARCHITECTURE.md names %s, which the code does not", tok)
			}
		}
	}
}

// TestReadmeLayoutListsEveryPackage: the README's layout table names
// every top-level directory holding Go code.
func TestReadmeLayoutListsEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", "wayfind/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, pkg := range strings.Fields(string(out)) {
		pkg = strings.TrimPrefix(pkg, "wayfind/")
		top, _, _ := strings.Cut(pkg, "/")
		if top == "cmd" {
			top = pkg
		}
		if top == "docs" || seen[top] {
			continue
		}
		seen[top] = true
		if !regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(top) + "/?` \\|").Match(readme) {
			t.Errorf("README.md's layout table has no row for %s", top)
		}
	}
}

// sourceText is the code of every Go, TypeScript and Lua file of the
// repository (comments included: a name in a comment is still a name the
// code keeps), dependencies left out.
func sourceText(t *testing.T) string {
	return sourceOf(t, "..")
}

func sourceOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "node_modules" || n == "testdata" || (strings.HasPrefix(n, ".") && p != dir) || n == "third_party" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".ts", ".lua":
			text, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.Write(text)
			b.WriteByte('\n')
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
