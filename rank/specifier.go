package rank

import (
	"path"
	"strings"
)

// A relative import specifier in a script (JavaScript, TypeScript and the
// frameworks compiling to them) names a module, not a path: the file is
// the specifier plus an extension, or its directory's index.

// moduleExts are the files a relative import specifier names, in the
// order Node and TypeScript try them: the specifier plus an extension,
// then a directory's index.
var moduleExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json", ".vue", ".svelte"}

// scriptModule reports whether a document's relative paths are import
// specifiers (JavaScript, TypeScript and the frameworks that compile to
// them).
func scriptModule(doc string) bool {
	switch strings.ToLower(path.Ext(doc)) {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte", ".astro":
		return true
	}
	return false
}

// moduleFile is the file a relative import specifier names (spec,
// root-relative, read beside its document): the specifier plus an
// extension, its directory's index, or — a ".js" specifier in
// TypeScript's ESM — the ".ts" file of that name.
func (e *Engine) moduleFile(root int, spec string) (int32, bool) {
	stem := spec
	for _, js := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		if s, ok := strings.CutSuffix(spec, js); ok {
			stem = s
			break
		}
	}
	for _, base := range []string{stem, stem + "/index"} {
		for _, ext := range moduleExts {
			if id, ok := e.fileID(root, base+ext); ok {
				return id, true
			}
		}
	}
	return 0, false
}
