package symbols

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"wayfind/workspace"
)

// DefaultMaxBytes is the default size limit: larger files are mostly
// generated tables, slow to parse and rarely where a definition is sought.
const DefaultMaxBytes = 1 << 20

// Reasons a file yields no symbols without being an error of the file's.
var (
	ErrTooLarge = errors.New("file exceeds the size limit")
	ErrBinary   = errors.New("binary file")
)

// parseTimeout bounds one file's parse (in microseconds) so that a
// pathological input costs seconds, not the indexer.
const parseTimeout = 10_000_000

// fullRange is the whole document: the parser's included ranges are reset
// to it after a parse that skipped function bodies.
var fullRange = []sitter.Range{{
	EndByte:  ^uint32(0),
	EndPoint: sitter.Point{Row: ^uint32(0), Column: ^uint32(0)},
}}

// Extractor parses files and collects their definitions. Tree-sitter
// parsers and cursors are not safe for concurrent use, so each worker owns
// one Extractor.
type Extractor struct {
	MaxBytes int // 0 means DefaultMaxBytes
	parser   *sitter.Parser
	cursor   *sitter.QueryCursor
}

// NewExtractor returns an extractor; Close frees its C memory.
func NewExtractor() *Extractor {
	p := sitter.NewParser()
	p.SetOperationLimit(parseTimeout)
	return &Extractor{parser: p, cursor: sitter.NewQueryCursor()}
}

// Close frees the parser and cursor.
func (x *Extractor) Close() {
	x.cursor.Close()
	x.parser.Close()
}

// Extract returns the definitions in src, a file of language lang, in
// source order. A grammar or query failure is an error, never a crash.
func (x *Extractor) Extract(ctx context.Context, lang *Language, src []byte) (syms []Symbol, err error) {
	max := x.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	if len(src) > max {
		return nil, ErrTooLarge
	}
	if workspace.IsBinary(src) {
		return nil, ErrBinary
	}
	cq, err := lang.compiled()
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			x.parser.Reset()
			syms, err = nil, fmt.Errorf("symbols: %s extractor failed: %v", lang.Name, r)
		}
	}()
	x.parser.SetLanguage(lang.grammar())
	tree, err := x.parse(ctx, lang, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	return collect(x.cursor, cq, tree.RootNode(), src), nil
}

// parse parses src, skipping the spans lang.elide names when it names any.
// A skip that leaves the tree with syntax errors (the spans were not what
// they seemed) is undone by parsing the whole file.
func (x *Extractor) parse(ctx context.Context, lang *Language, src []byte) (*sitter.Tree, error) {
	if lang.elide != nil {
		if ranges := lang.elide(src); ranges != nil {
			x.parser.SetIncludedRanges(ranges)
			tree, err := x.parser.ParseCtx(ctx, nil, src)
			x.parser.SetIncludedRanges(fullRange)
			if err != nil {
				x.parser.Reset()
				return nil, err
			}
			if !tree.RootNode().HasError() {
				return tree, nil
			}
			tree.Close()
		}
	}
	tree, err := x.parser.ParseCtx(ctx, nil, src)
	if err != nil {
		x.parser.Reset()
		return nil, err
	}
	return tree, nil
}

// found is one definition or scope seen by the query, before nesting is
// worked out.
type found struct {
	node       *sitter.Node
	start, end uint32
	pattern    uint16
	kind       Kind
	scope      bool // a @scope: a container that is not a symbol
	name       string
	nameNode   *sitter.Node
	receiver   string
}

func collect(cur *sitter.QueryCursor, cq *compiledQuery, root *sitter.Node, src []byte) []Symbol {
	items, pkg := matches(cur, cq, root, src)
	return nest(items, pkg, src)
}

// matches runs the query and keeps one found definition per node (the
// earliest pattern, the most specific, wins), in source order; pkg is the
// file's package or namespace, when it declares one.
func matches(cur *sitter.QueryCursor, cq *compiledQuery, root *sitter.Node, src []byte) (items []found, pkg string) {
	cur.Exec(cq.q, root)
	seen := map[uintptr]int{} // definition node → index in items
	for {
		m, ok := cur.NextMatch()
		if !ok {
			break
		}
		m = cur.FilterPredicates(m, src)
		if len(m.Captures) == 0 {
			continue
		}
		f, ok := foundOf(cq, m, src, &pkg)
		if !ok {
			continue
		}
		if i, dup := seen[f.node.ID()]; dup {
			if items[i].pattern > f.pattern {
				items[i] = f
			}
			continue
		}
		seen[f.node.ID()] = len(items)
		items = append(items, f)
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].start != items[j].start {
			return items[i].start < items[j].start
		}
		return items[i].end > items[j].end
	})
	return items, pkg
}

// foundOf reads one match's captures by their roles; ok is false when the
// match defines nothing with a name.
func foundOf(cq *compiledQuery, m *sitter.QueryMatch, src []byte, pkg *string) (f found, ok bool) {
	f.pattern = m.PatternIndex
	for _, c := range m.Captures {
		switch cq.role[c.Index] {
		case roleDefinition:
			f.node, f.kind = c.Node, cq.kind[c.Index]
		case roleScope:
			f.node, f.scope = c.Node, true
		case roleName, roleScopeName:
			f.nameNode = c.Node
			f.name = c.Node.Content(src)
		case roleDeclarator:
			if n, scope := declaratorName(c.Node, src); n != nil {
				f.nameNode, f.name = n, n.Content(src)
				f.receiver = scope
			}
		case roleReceiver:
			f.receiver = c.Node.Content(src)
		case rolePackage:
			if *pkg == "" {
				*pkg = strings.ReplaceAll(c.Node.Content(src), "\\", ".")
			}
		}
	}
	if f.node == nil || f.nameNode == nil || f.kind == 0 && !f.scope {
		return f, false
	}
	if f.receiver != "" && f.kind == Function {
		f.kind = Method // C++'s Foo::bar defined outside its class
	}
	if f.name = cleanName(f.name); f.name == "" {
		return f, false
	}
	f.start, f.end = f.node.StartByte(), f.node.EndByte()
	return f, true
}

// nest walks the definitions in source order with a stack of enclosing
// ones, giving each its container and settling kinds that depend on it.
func nest(items []found, pkg string, src []byte) []Symbol {
	var (
		out   = make([]Symbol, 0, len(items))
		stack []*found
	)
	for i := range items {
		f := &items[i]
		for len(stack) > 0 && stack[len(stack)-1].end <= f.start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].end < f.end {
			// Overlapping without nesting only happens in broken trees;
			// treat the item as top level rather than guess.
			stack = stack[:0]
		}
		if f.kind == Function && len(stack) > 0 && enclosesMembers(stack[len(stack)-1]) {
			f.kind = Method
		}
		if f.kind == Method && (f.name == "constructor" || f.name == "__construct") {
			f.kind = Constructor // JavaScript's and PHP's spelling
		}
		if !f.scope {
			name, container := f.name, containerOf(pkg, stack, f.receiver)
			// A qualified definition (Ruby's class Admin::Panel, C++'s
			// class ns::Foo) is named by its last part; the rest joins the
			// container. Namespaces keep their dotted name whole.
			if i := strings.LastIndexByte(name, '.'); i > 0 && f.kind != Namespace && f.kind != Module {
				container = joinContainer(container, name[:i])
				name = name[i+1:]
			}
			out = append(out, Symbol{
				Name:      name,
				Kind:      f.kind,
				Container: container,
				Range:     rangeOf(f.node, src),
				Select:    rangeOf(f.nameNode, src),
			})
		}
		stack = append(stack, f)
	}
	return out
}

// enclosesMembers reports whether functions defined directly inside f are
// its methods.
func enclosesMembers(f *found) bool {
	if f.scope {
		return true
	}
	switch f.kind {
	case Class, Struct, Interface, Enum:
		return true
	}
	return false
}

func containerOf(pkg string, stack []*found, receiver string) string {
	var parts []string
	if pkg != "" {
		parts = append(parts, pkg)
	}
	for _, s := range stack {
		parts = append(parts, s.name)
	}
	if receiver != "" {
		parts = append(parts, cleanName(receiver))
	}
	return strings.Join(parts, ".")
}

func joinContainer(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// cleanName turns a name as written into the name searched: qualified
// separators become dots, generic arguments are dropped, and anything
// spanning lines (a grammar's recovery gone wrong) is refused.
func cleanName(s string) string {
	if i := strings.IndexByte(s, '<'); i > 0 && !strings.HasPrefix(s, "operator") {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "\n\r") || len(s) > 256 {
		return ""
	}
	s = strings.ReplaceAll(s, "::", ".")
	s = strings.ReplaceAll(s, "\\", ".")
	return s
}

// declaratorName finds the identifier a C/C++ declarator declares, looking
// through pointer, reference, array and parenthesised declarators, and the
// scope it is qualified with (Foo in Foo::bar).
func declaratorName(n *sitter.Node, src []byte) (*sitter.Node, string) {
	scope := ""
	for depth := 0; n != nil && depth < 16; depth++ {
		switch n.Type() {
		case "identifier", "field_identifier", "type_identifier", "destructor_name", "operator_name":
			return n, scope
		case "qualified_identifier":
			if s := n.ChildByFieldName("scope"); s != nil {
				if scope != "" {
					scope += "::"
				}
				scope += s.Content(src)
			}
			n = n.ChildByFieldName("name")
		case "template_function":
			n = n.ChildByFieldName("name")
		default:
			next := n.ChildByFieldName("declarator")
			if next == nil && n.NamedChildCount() > 0 {
				// reference_declarator has no field name for its child
				next = n.NamedChild(int(n.NamedChildCount()) - 1)
			}
			n = next
		}
	}
	return nil, ""
}

func rangeOf(n *sitter.Node, src []byte) Range {
	return Range{
		Start: position(src, n.StartByte(), n.StartPoint()),
		End:   position(src, n.EndByte(), n.EndPoint()),
	}
}

// position converts tree-sitter's byte column into UTF-16 code units.
func position(src []byte, off uint32, p sitter.Point) Position {
	if p.Column == 0 || int(off) > len(src) || p.Column > off {
		return Position{Line: p.Row, Col: p.Column}
	}
	line := src[off-p.Column : off]
	col := uint32(0)
	for i := 0; i < len(line); {
		if line[i] < utf8.RuneSelf {
			col++
			i++
			continue
		}
		r, size := utf8.DecodeRune(line[i:])
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
		i += size
	}
	return Position{Line: p.Row, Col: col}
}
