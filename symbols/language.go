package symbols

import (
	"embed"
	"fmt"
	"path"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// The query files. Each captures, per definition, the definition node as
// @definition.KIND and its name as @name; see capture names in query.go.
//
//go:embed queries/*.scm
var queryFiles embed.FS

// Language is one supported language: its grammar and its query.
type Language struct {
	Name    string
	grammar func() *sitter.Language
	// queryFile names the query when it is not Name's (TSX reads
	// TypeScript's: its grammar only adds JSX nodes).
	queryFile string
	// elide, when set, names the byte spans the parser may skip (function
	// bodies) because no definition worth indexing lives there.
	elide func(src []byte) []sitter.Range

	once  sync.Once
	query *compiledQuery
	err   error
}

var languages = []*Language{
	{Name: "go", grammar: golang.GetLanguage, elide: goBodies},
	{Name: "python", grammar: python.GetLanguage},
	{Name: "javascript", grammar: javascript.GetLanguage},
	{Name: "typescript", grammar: typescript.GetLanguage},
	{Name: "tsx", grammar: tsx.GetLanguage, queryFile: "typescript"},
	{Name: "rust", grammar: rust.GetLanguage},
	{Name: "java", grammar: java.GetLanguage},
	{Name: "c", grammar: c.GetLanguage},
	{Name: "cpp", grammar: cpp.GetLanguage},
	{Name: "csharp", grammar: csharp.GetLanguage},
	{Name: "ruby", grammar: ruby.GetLanguage},
	{Name: "php", grammar: php.GetLanguage},
	{Name: "kotlin", grammar: kotlin.GetLanguage},
	{Name: "swift", grammar: swift.GetLanguage},
	{Name: "scala", grammar: scala.GetLanguage},
}

// byExt maps a lower-case file extension to its language. Headers (.h) go
// to C++: its grammar reads C headers too, and C++ headers are where
// classes are declared.
var byExt = map[string]string{
	".go": "go",
	".py": "python", ".pyi": "python", ".pyw": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
	".tsx":  "tsx",
	".rs":   "rust",
	".java": "java",
	".c":    "c",
	".h":    "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp", ".h++": "cpp",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".ipp": "cpp", ".inl": "cpp",
	".cs": "csharp",
	".rb": "ruby", ".rake": "ruby",
	".php": "php",
	".kt":  "kotlin", ".kts": "kotlin",
	".swift": "swift",
	".scala": "scala", ".sc": "scala",
}

var byName = func() map[string]*Language {
	m := make(map[string]*Language, len(languages))
	for _, l := range languages {
		m[l.Name] = l
	}
	return m
}()

// LanguageOf returns the language of a file by its extension, or nil when
// wayfind extracts no symbols from such files.
func LanguageOf(file string) *Language {
	name, ok := byExt[strings.ToLower(path.Ext(file))]
	if !ok {
		return nil
	}
	return byName[name]
}

// Languages lists the supported languages' names.
func Languages() []string {
	out := make([]string, len(languages))
	for i, l := range languages {
		out[i] = l.Name
	}
	return out
}

// compiled returns the language's query, compiling it on first use. A
// compiled query is immutable and shared by every worker; cursors are not.
func (l *Language) compiled() (*compiledQuery, error) {
	l.once.Do(func() {
		file := l.queryFile
		if file == "" {
			file = l.Name
		}
		src, err := queryFiles.ReadFile("queries/" + file + ".scm")
		if err != nil {
			l.err = err
			return
		}
		l.query, l.err = compileQuery(src, l.grammar())
		if l.err != nil {
			l.err = fmt.Errorf("symbols: %s query: %w", l.Name, l.err)
		}
	})
	return l.query, l.err
}
