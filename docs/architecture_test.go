// Package docs holds the project's documents; its test keeps
// ARCHITECTURE.md true to the code.
package docs

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layers is ARCHITECTURE.md's drawing, top to bottom: a package imports
// only packages of lower layers.
var layers = [][]string{
	{"cmd/wayfind", "cmd/wayfind-bench"},
	{"lsp", "mcpserver", "hook"},
	{"service"},
	{"wire", "pathlit"},
	{"session"},
	{"history", "rank"},
	{"content", "symbols", "vcs", "rerank"},
	{"workspace", "ident", "pool"},
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
